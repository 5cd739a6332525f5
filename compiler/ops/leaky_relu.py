"""LEAKY_RELU lowering: float32 x >= 0 ? x : alpha * x; int8 and int16 (zero point 0) as TFLite Micro computes
them, with two multipliers: s_in / s_out for x >= 0 and s_in * alpha / s_out for x < 0 (negative alphas give a
negative multiplier).  The factors are computed in double: newer TFLite Micro sources compute them in float, but the
tflite-micro interpreter we are bit-exact with matches double (float is one step off on SEANet layers)."""

import numpy as np

from ..quant_math import quantize_multiplier
from .common import lut_s8 as _lut_s8
from ._base import OpLowering, register
from .kernel_table import offer_table
from .common.checks import unary_check

_KERNELS = {"float32": "aot_leaky_relu_f32", "int8": "aot_leaky_relu_s8", "int16": "aot_leaky_relu_s16"}


@register
class LeakyRelu(OpLowering):
    builtins = ("LEAKY_RELU",)
    elementwise = True
    dtypes = tuple(_KERNELS)
    header = "aot/kernels/leaky_relu.h"

    def check(self, op):
        super().check(op)
        unary_check(op, self.dtypes)

    def prepare(self, op):
        inp, out = op.input(0), op.output
        alpha = float(op.options.get("Alpha", 0.0))
        op.params = dict(size=out.num_elements, alpha=alpha)
        op.kernel = _KERNELS[out.dtype]
        if out.dtype != "float32":
            si, zi = inp.quant.scalar()
            so, zo = out.quant.scalar()
            a32 = float(np.float32(alpha))
            m_id, sh_id = quantize_multiplier(si / so)
            # Signed: TFLite's QuantizeMultiplier of a negative factor is the negated multiplier of its magnitude.
            m_alpha, sh_alpha = quantize_multiplier(si * a32 / so)
            op.params["q"] = np.array([zi, m_id, sh_id, m_alpha, sh_alpha, zo], np.int32)
            offer_table(op)

    def headers(self, op):
        return _lut_s8.headers(op, self.header)

    def emit(self, op, ctx):
        if _lut_s8.is_table(op):
            return _lut_s8.emit_table(op, ctx)
        p = op.params
        last = (
            ctx.f32(p["alpha"])
            if op.output.dtype == "float32"
            else ctx.param(f"op{op.index}_params", p["q"], "int32_t")
        )
        return [ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"], last])]
