"""CONV_2D lowering (int8 per-channel and float32)."""

import numpy as np

from . import _specialize
from ._base import OpLowering, register
from ._mve_layout import emit_mve_conv
from .kernel_table import Layer, select
from ._common import activation_range_f32, fused_activation
from ._int16 import acc16_filter, acc16_params
from ._conv_common import (
    check_conv_dtype,
    check_conv_tensors,
    conv_geometry,
    emit_dsp_gemm,
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
            prepare_int8_conv(op, p, filt.data.reshape(oc, -1), act, unpadded, in_c=p["ic"])
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
        return emit_portable_conv(op, ctx, acc16_filter(op), p["kd"], out_c=p["oc"])
