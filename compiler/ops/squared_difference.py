"""SQUARED_DIFFERENCE with 4-D broadcasting in float32, int32, int8 and int16, as TFLite Micro computes it (the
quantized forms rescale both inputs to twice the larger input scale, square the difference in 32 bits and
requantize to the output; parameters computed here as TFLite Micro's Prepare does).  For int8, when the short form of
those requantizations is proved exact (common/sqd_s8_fast.py) and the operands broadcast as one row loop
(common/checks.rows_form), the kernel table picks the row kernels (Helium, DSP cores); otherwise the 4-D walker."""

import numpy as np

from ..errors import UnsupportedError
from ..quant_math import quantize_multiplier
from .common import sqd_s8_fast as _sqd_s8_fast
from ._base import OpLowering, register
from .common.kernel import own_emit
from .kernel_table import Layer, select
from .common.checks import (
    broadcast_4d,
    broadcast_args,
    broadcast_params,
    rows_form,
    require_inputs,
    require_quant,
    require_same_dtype,
)

_FIELDS = (
    "offset1",
    "multiplier1",
    "shift1",
    "offset2",
    "multiplier2",
    "shift2",
    "left_shift",
    "out_multiplier",
    "out_shift",
    "out_offset",
)


@register
class SquaredDifference(OpLowering):
    builtins = ("SQUARED_DIFFERENCE",)
    dtypes = ("float32", "int32", "int8", "int16")
    header = "aot/kernels/squared_difference.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        a, b, out = op.input(0), op.input(1), op.output
        dtype = require_same_dtype(op, a, b, out)
        if dtype in ("int8", "int16"):
            for t, what in ((a, "first input"), (b, "second input"), (out, "output")):
                require_quant(op, t, what)
            self._params(op)
        broadcast_4d(op, a.shape, b.shape, out.shape)

    @staticmethod
    def _params(op):
        (s1, z1), (s2, z2), (so, zo) = (t.quant.scalar() for t in (op.input(0), op.input(1), op.output))
        s1, s2, so = float(np.float32(s1)), float(np.float32(s2)), float(np.float32(so))
        left = 7 if op.output.dtype == "int8" else 0
        twice = 2.0 * max(s1, s2)
        m1, sh1 = quantize_multiplier(s1 / twice)
        m2, sh2 = quantize_multiplier(s2 / twice)
        try:
            mo, sho = quantize_multiplier(twice * twice / ((1 << (left * 2)) * so))
        except Exception as e:  # the quant range error names the factor
            raise UnsupportedError(f"Operator {op.index} ({op.kind}): output '{op.output.name}': {e}.") from None
        return (-z1, m1, sh1, -z2, m2, sh2, left, mo, sho, zo)

    def prepare(self, op):
        out = op.output
        suffix = {"float32": "f32", "int32": "s32", "int8": "s8", "int16": "s16"}[out.dtype]
        op.kernel = f"aot_squared_difference_{suffix}"
        op.params = dict(
            broadcast_params(op),
            q=self._params(op) if out.dtype in ("int8", "int16") else None,
        )
        if out.dtype == "int8":
            op.params["short"] = _sqd_s8_fast.short_params(op.params["q"])
            op.params["rows"] = rows_form(op.params)
            select(op, op.params, Layer())

    def emit(self, op, ctx):
        emit = own_emit(op)
        if emit is not None:
            return emit(op, ctx)  # the int8 row kernels (ops/kernels/elementwise.py)
        p = op.params
        args = broadcast_args(op, ctx, p)
        if p["q"] is not None:
            args.append(ctx.param_struct(f"op{op.index}_sqd", "aot_squared_difference_params", _FIELDS, p["q"]))
        return [ctx.call(op.kernel, args)]
