"""CONV_2D lowering (int8 per-channel and float32)."""

import numpy as np

from . import _specialize
from ._base import OpLowering, register
from ._mve_layout import emit_mve_conv
from .kernel_table import Layer, select
from ._common import (
    activation_range_f32,
    activation_range_int8,
    conv_padding,
    fused_activation,
    nhwc,
    require_const,
    require_inputs,
    require_same_dtype,
)
from ._int16 import acc16_args, acc16_filter, acc16_params, check_int16_layer
from ._conv_common import (
    channel_multipliers,
    check_int8_weights,
    emit_dsp_gemm,
    int8_bias,
    maybe_fold,
    residual_call,
    residual_headers,
    residual_inplace_input,
)


@register
class Conv2D(OpLowering):
    builtins = ("CONV_2D",)
    dtypes = ("int8", "int16", "float32")
    header = "aot/kernels/conv2d.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2, 3)
        inp, filt, bias, out = op.input(0), op.input(1), op.input(2), op.output
        dtype = require_same_dtype(op, inp, out)
        require_const(op, filt, "filter")
        if bias is not None:
            require_const(op, bias, "bias")
        nhwc(inp.shape, op, "input")
        nhwc(out.shape, op, "output")
        nhwc(filt.shape, op, "filter")
        fused_activation(op)
        if dtype == "int16":
            check_int16_layer(op, inp, filt, bias, out, channel_axis=0)
        elif dtype == "int8":
            check_int8_weights(op, inp, filt, bias, out, channel_axis=0)
        else:
            require_same_dtype(op, inp, filt, bias)

    def prepare(self, op):
        inp, filt, bias, out = op.input(0), op.input(1), op.input(2), op.output
        n, ih, iw, ic = inp.shape
        _, oh, ow, oc = out.shape
        _, kh, kw, kd = filt.shape
        o = op.options
        sh, sw = o.get("StrideH", 1), o.get("StrideW", 1)
        dh, dw = o.get("DilationHFactor", 1), o.get("DilationWFactor", 1)
        pad_t, tot_h = conv_padding(op, sh, dh, ih, kh, oh, 0)
        pad_l, tot_w = conv_padding(op, sw, dw, iw, kw, ow, 1)
        act = fused_activation(op)
        p = dict(
            n=n,
            ih=ih,
            iw=iw,
            ic=ic,
            oh=oh,
            ow=ow,
            oc=oc,
            kh=kh,
            kw=kw,
            kd=kd,
            sh=sh,
            sw=sw,
            dh=dh,
            dw=dw,
            pad_t=pad_t,
            pad_l=pad_l,
        )
        if inp.dtype == "int16":
            p.update(acc16_params(op, inp, filt, bias, out, filt.data.reshape(oc, -1), oc, act))
            select(op, p, Layer(in_c=kd))
        elif inp.dtype == "int8":
            in_zp = int(inp.quant.zero_point[0])
            mult, shift = channel_multipliers(op, inp, filt, out, oc)
            b, in_off, folded = maybe_fold(
                filt.data.reshape(oc, -1), int8_bias(bias, oc), in_zp, can_fold=(tot_h == 0 and tot_w == 0)
            )
            p.update(
                mult=mult,
                shift=shift,
                bias=b,
                in_off=in_off,
                folded=folded,
                out_off=int(out.quant.zero_point[0]),
                act=activation_range_int8(act, *out.quant.scalar()),
            )
            select(op, p, Layer(rows=filt.data.reshape(oc, -1), bias=int8_bias(bias, oc), in_zp=in_zp, in_c=ic))
        else:
            p.update(act=activation_range_f32(act), bias=None if bias is None else bias.data.astype(np.float32))
            op.kernel = "aot_conv2d_f32"
        op.params = p

    def scratch_bytes(self, op):
        if op.kernel == "aot_conv2d_s8_mve":
            return op.params["mve_scratch"]
        return op.params.get("dsp_scratch", 0) if op.kernel == "aot_conv2d_s8_dsp" else 0

    def inplace_input(self, op):
        return residual_inplace_input(op)

    def headers(self, op):
        if op.kernel in _specialize.BODIES:
            return [_specialize.header(op)]
        return [self.header] + residual_headers(op)

    def emit(self, op, ctx):
        p = op.params
        if op.kernel in _specialize.BODIES:
            return _specialize.emit(op, ctx)
        if op.kernel == "aot_conv2d_s8_mve":
            return emit_mve_conv(op, ctx, p["ic"], p["oc"])
        if op.kernel == "aot_conv2d_s8_dsp":
            return emit_dsp_gemm(op, ctx, p["ic"], p["oc"])
        inp, out = op.input(0), op.output
        ctype = "float" if inp.dtype == "float32" else "int8_t"
        args = [
            ctx.ptr(inp),
            p["n"],
            p["ih"],
            p["iw"],
            p["ic"],
            ctx.weight(f"op{op.index}_filter", acc16_filter(op), ctype),
            p["kh"],
            p["kw"],
            p["kd"],
        ]
        if inp.dtype == "int16":
            args += [
                ctx.weight_or_null(f"op{op.index}_bias", p["bias"], "int32_t"),
                ctx.ptr(out),
                p["oh"],
                p["ow"],
                p["oc"],
                p["sh"],
                p["sw"],
                p["dh"],
                p["dw"],
                p["pad_t"],
                p["pad_l"],
            ]
            return [ctx.call(op.kernel, args + acc16_args(op, ctx))]
        if inp.dtype == "int8":
            args += [
                ctx.weight(f"op{op.index}_bias", p["bias"], "int32_t"),
                ctx.ptr(out),
                p["oh"],
                p["ow"],
                p["oc"],
                p["sh"],
                p["sw"],
                p["dh"],
                p["dw"],
                p["pad_t"],
                p["pad_l"],
                p["in_off"],
                p["out_off"],
                ctx.param(f"op{op.index}_mult", p["mult"], "int32_t"),
                ctx.param(f"op{op.index}_shift", p["shift"], "int32_t"),
                p["act"][0],
                p["act"][1],
            ]
            return [residual_call(op, ctx, args)]
        args += [
            ctx.weight_or_null(f"op{op.index}_bias", p["bias"], "float"),
            ctx.ptr(out),
            p["oh"],
            p["ow"],
            p["oc"],
            p["sh"],
            p["sw"],
            p["dh"],
            p["dw"],
            p["pad_t"],
            p["pad_l"],
            ctx.f32(p["act"][0]),
            ctx.f32(p["act"][1]),
        ]
        return [ctx.call(op.kernel, args)]
