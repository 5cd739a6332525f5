"""FULLY_CONNECTED lowering (int8 per-tensor/per-channel and float32).

The input is flattened to [batches, accum_depth] as TFLite does; the input
zero point is always folded into the bias because there is no padding.
"""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from .common.checks import (
    activation_range_f32,
    activation_range_int8,
    fused_activation,
    require_const,
    require_inputs,
    require_same_dtype,
)
from .common.int16 import acc16_filter, acc16_params, check_int16_layer
from .common.conv import channel_multipliers, check_int8_weights, int8_bias, maybe_fold
from .common.kernel import own_emit
from .kernel_table import Layer, select


@register
class FullyConnected(OpLowering):
    builtins = ("FULLY_CONNECTED",)
    dtypes = ("int8", "int16", "float32")
    header = "aot/kernels/fully_connected.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2, 3)
        inp, filt, bias, out = op.input(0), op.input(1), op.input(2), op.output
        dtype = require_same_dtype(op, inp, out)
        require_const(op, filt, "weights")
        if bias is not None:
            require_const(op, bias, "bias")
        if op.options.get("WeightsFormat", 0) != 0:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) uses shuffled weights; only the DEFAULT weights format is supported."
            )
        if len(filt.shape) != 2:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): weights '{filt.name}' must be 2-D, got {list(filt.shape)}."
            )
        units, depth = filt.shape
        if inp.num_elements % depth or out.num_elements != inp.num_elements // depth * units:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): input {list(inp.shape)}, weights "
                f"{list(filt.shape)} and output {list(out.shape)} are inconsistent."
            )
        fused_activation(op)
        if dtype == "int16":
            check_int16_layer(op, inp, filt, bias, out, channel_axis=0)
        elif dtype == "int8":
            check_int8_weights(op, inp, filt, bias, out, channel_axis=0)
        else:
            require_same_dtype(op, inp, filt, bias)

    def prepare(self, op):
        inp, filt, bias, out = op.input(0), op.input(1), op.input(2), op.output
        units, depth = filt.shape
        act = fused_activation(op)
        p = dict(batches=inp.num_elements // depth, depth=depth, units=units)
        if inp.dtype == "int16":
            p.update(acc16_params(op, inp, filt, bias, out, filt.data.reshape(units, depth), units, act))
            select(op, p, Layer(in_c=depth))
        elif inp.dtype == "int8":
            mult, shift = channel_multipliers(op, inp, filt, out, units)
            per_channel = filt.quant.per_channel
            if not per_channel:
                mult, shift = mult[:1], shift[:1]
            b, in_off, folded = maybe_fold(
                filt.data.reshape(units, depth), int8_bias(bias, units), int(inp.quant.zero_point[0]), can_fold=True
            )
            p.update(
                mult=mult,
                shift=shift,
                stride=1 if per_channel else 0,
                bias=b,
                in_off=in_off,
                folded=folded,
                out_off=int(out.quant.zero_point[0]),
                act=activation_range_int8(act, *out.quant.scalar()),
            )
            select(
                op,
                p,
                Layer(
                    rows=filt.data.reshape(units, depth),
                    bias=int8_bias(bias, units),
                    in_zp=int(inp.quant.zero_point[0]),
                ),
            )
        else:
            p.update(act=activation_range_f32(act), bias=None if bias is None else bias.data.astype(np.float32))
            select(op, p, Layer())
        op.params = p

    def emit(self, op, ctx):
        emit = own_emit(op)
        if emit is not None:
            return emit(op, ctx)
        p = op.params
        inp, filt, out = op.input(0), op.input(1), op.output
        if inp.dtype == "int16":
            # Per-channel tables even for a per-tensor layer (multiplier stride 1): acc16_params gives one entry
            # per output row.
            args = [
                ctx.ptr(inp),
                p["batches"],
                p["depth"],
                ctx.weight(f"op{op.index}_weights", acc16_filter(op), "int8_t"),
                ctx.weight_or_null(f"op{op.index}_bias", p["bias"], "int32_t"),
                ctx.ptr(out),
                p["units"],
                p["mode"],
                ctx.param(f"op{op.index}_mult", p["mult"], "int32_t"),
                ctx.param(f"op{op.index}_shift", p["shift"], "int32_t"),
                1,
                p["act"][0],
                p["act"][1],
            ]
        elif inp.dtype == "int8":
            args = [
                ctx.ptr(inp),
                p["batches"],
                p["depth"],
                ctx.weight(f"op{op.index}_weights", filt.data, "int8_t"),
                ctx.weight(f"op{op.index}_bias", p["bias"], "int32_t"),
                ctx.ptr(out),
                p["units"],
                p["in_off"],
                p["out_off"],
                ctx.param(f"op{op.index}_mult", p["mult"], "int32_t"),
                ctx.param(f"op{op.index}_shift", p["shift"], "int32_t"),
                p["stride"],
                p["act"][0],
                p["act"][1],
            ]
        else:
            args = [
                ctx.ptr(inp),
                p["batches"],
                p["depth"],
                ctx.weight(f"op{op.index}_weights", filt.data, "float"),
                ctx.weight_or_null(f"op{op.index}_bias", p["bias"], "float"),
                ctx.ptr(out),
                p["units"],
                ctx.f32(p["act"][0]),
                ctx.f32(p["act"][1]),
            ]
        return [ctx.call(op.kernel, args)]
