"""CONV_2D lowering (int8 per-channel and float32)."""

import numpy as np

from ._base import OpLowering, register
from .common.kernel import own_emit
from .kernel_table import Layer, select
from .common.checks import activation_range_f32, fused_activation
from .common.int16 import acc16_filter, acc16_params
from .common.conv import (
    check_conv_dtype,
    check_conv_tensors,
    conv_geometry,
    emit_portable_conv,
    prepare_int8_conv,
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
        _, _, _, _, dtype = check_conv_tensors(op)
        check_conv_dtype(op, dtype, channel_axis=0)

    def prepare(self, op):
        inp, filt, bias, out = op.input(0), op.input(1), op.input(2), op.output
        oc, kd = out.shape[3], filt.shape[3]
        p, unpadded = conv_geometry(op)
        act = fused_activation(op)
        p.update(oc=oc, kd=kd)
        if inp.dtype == "int16":
            p.update(acc16_params(op, inp, filt, bias, out, filt.data.reshape(oc, -1), oc, act))
            select(op, p, Layer(in_c=kd))
        elif inp.dtype == "int8":
            select(op, p, prepare_int8_conv(op, p, filt.data.reshape(oc, -1), act, unpadded, in_c=p["ic"]))
        else:
            p.update(act=activation_range_f32(act), bias=None if bias is None else bias.data.astype(np.float32))
            select(op, p, Layer())
        op.params = p

    def inplace_input(self, op):
        return residual_inplace_input(op)

    def headers(self, op):
        k = op.kernel_impl
        return k.headers(op) if k is not None and k.headers is not None else [self.header] + residual_headers(op)

    def emit(self, op, ctx):
        emit = own_emit(op)
        if emit is not None:
            return emit(op, ctx)
        p = op.params
        return emit_portable_conv(op, ctx, acc16_filter(op), p["kd"], out_c=p["oc"])
