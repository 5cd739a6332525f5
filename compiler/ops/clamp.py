"""CLAMP lowering (not a TFLite builtin, produced by the ONNX frontend for Clip): min(max(x, Min), Max).

int8 clamps the stored values, which is exact only when input and output share their quantization (what a
QDQ graph around Clip gives); the bounds are quantized with the tensor's scale and zero point.
"""

import math

import numpy as np

from ..quant_math import quantize_value_f32
from ._base import OpLowering, register
from .common.checks import require_same_quant, unary_check


@register
class Clamp(OpLowering):
    builtins = ("CLAMP",)
    elementwise = True
    header = "aot/kernels/clamp.h"

    def check(self, op):
        super().check(op)
        if unary_check(op) == "int8":
            require_same_quant(
                op,
                op.input(0),
                op.output,
                "input",
                "output",
                "int8 CLAMP compares stored values, so both must share scale and zero point.",
            )

    def prepare(self, op):
        lo, hi = float(op.options.get("Min", -math.inf)), float(op.options.get("Max", math.inf))
        p = dict(size=op.output.num_elements)
        if op.output.dtype == "int8":
            s, z = op.input(0).quant.scalar()
            qlo = -128 if math.isinf(lo) and lo < 0 else max(-128, min(127, quantize_value_f32(lo, s, z)))
            qhi = 127 if math.isinf(hi) and hi > 0 else max(-128, min(127, quantize_value_f32(hi, s, z)))
            p.update(lo=qlo, hi=qhi)
            op.kernel = "aot_clamp_s8"
        else:
            # Infinite bounds (an absent ONNX min/max) clamp to the float range: same result, finite C literal.
            flt_max = float(np.finfo(np.float32).max)
            p.update(lo=max(lo, -flt_max), hi=min(hi, flt_max))
            op.kernel = "aot_clamp_f32"
        op.params = p

    def emit(self, op, ctx):
        p = op.params
        bounds = [p["lo"], p["hi"]] if op.output.dtype == "int8" else [ctx.f32(p["lo"]), ctx.f32(p["hi"])]
        return [ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"]] + bounds)]
