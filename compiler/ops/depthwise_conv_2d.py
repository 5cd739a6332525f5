"""DEPTHWISE_CONV_2D lowering (int8 per-channel and float32, any depth multiplier)."""

import numpy as np

from ..errors import CompileError
from ._base import OpLowering, register
from .common.kernel import own_emit
from .kernel_table import Layer, select
from .common.checks import activation_range_f32, fused_activation
from .common.int16 import acc16_params
from .common.conv import (
    check_conv_dtype,
    check_conv_tensors,
    conv_geometry,
    emit_portable_conv,
    prepare_int8_conv,
    residual_inplace_input,
)


@register
class DepthwiseConv2D(OpLowering):
    builtins = ("DEPTHWISE_CONV_2D",)
    dtypes = ("int8", "int16", "float32")
    header = "aot/kernels/depthwise_conv2d.h"

    def check(self, op):
        super().check(op)
        inp, filt, _, out, dtype = check_conv_tensors(op)
        if filt.shape[0] != 1 or out.shape[3] != filt.shape[3] or out.shape[3] % inp.shape[3]:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): filter shape {list(filt.shape)} is not a "
                f"depthwise filter for input {list(inp.shape)} -> output {list(out.shape)}."
            )
        check_conv_dtype(op, dtype, channel_axis=3)

    def prepare(self, op):
        inp, filt, bias, out = op.input(0), op.input(1), op.input(2), op.output
        _, kh, kw, _ = filt.shape
        oc = out.shape[3]
        p, unpadded = conv_geometry(op)
        act = fused_activation(op)
        p.update(mult_depth=oc // p["ic"])
        if inp.dtype == "int16":
            p.update(acc16_params(op, inp, filt, bias, out, filt.data.reshape(kh * kw, oc).T, oc, act))
            select(op, p, Layer())
        elif inp.dtype == "int8":
            # [1, kh, kw, oc] -> per output channel rows for the zero-point fold.
            select(op, p, prepare_int8_conv(op, p, filt.data.reshape(kh * kw, oc).T, act, unpadded, in_c=1))
        else:
            p.update(act=activation_range_f32(act), bias=None if bias is None else bias.data.astype(np.float32))
            select(op, p, Layer())
        op.params = p

    def inplace_input(self, op):
        # Only the GEMM kernel (one input channel) takes a fused residual ADD.
        return residual_inplace_input(op)

    def emit(self, op, ctx):
        emit = own_emit(op)
        if emit is not None:
            return emit(op, ctx)
        return emit_portable_conv(op, ctx, op.input(1).data, op.params["mult_depth"])
