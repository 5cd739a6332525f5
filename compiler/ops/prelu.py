"""PRELU lowering (float32, int8): x >= 0 ? x : alpha * x with alpha broadcast to the input (up to 4-D); int8 with
TFLite Micro's two requantizations (aot/kernels/prelu.h)."""

import numpy as np

from ._base import OpLowering, register
from ..quant_math import quantize_multiplier
from .common.checks import (
    broadcast_4d,
    broadcast_args,
    broadcast_params,
    require_inputs,
    require_quant,
    require_same_dtype,
)

_FIELDS = ("input_offset", "alpha_offset", "output_offset", "multiplier1", "shift1", "multiplier2", "shift2")


@register
class Prelu(OpLowering):
    builtins = ("PRELU",)
    elementwise = True
    dtypes = ("float32", "int8")
    header = "aot/kernels/prelu.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        if require_same_dtype(op, op.input(0), op.input(1), op.output) == "int8":
            for t, what in ((op.input(0), "input"), (op.input(1), "alpha"), (op.output, "output")):
                require_quant(op, t, what)
        broadcast_4d(op, op.input(0).shape, op.input(1).shape, op.output.shape)

    def prepare(self, op):
        op.params = broadcast_params(op)
        op.kernel = "aot_prelu_f32"
        if op.output.dtype == "int8":
            (si, zi), (sa, za), (so, zo) = (t.quant.scalar() for t in (op.input(0), op.input(1), op.output))
            si, sa, so = (float(np.float32(v)) for v in (si, sa, so))
            m1, s1 = quantize_multiplier(si / so)
            m2, s2 = quantize_multiplier(si * sa / so)
            op.params["q"] = (-zi, -za, zo, m1, s1, m2, s2)
            op.kernel = "aot_prelu_s8"

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                broadcast_args(op, ctx, p)
                + (
                    [ctx.param_struct(f"op{op.index}_prelu", "aot_prelu_s8_params", _FIELDS, p["q"])]
                    if op.output.dtype == "int8"
                    else []
                ),
            )
        ]
