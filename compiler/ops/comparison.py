"""EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL: two broadcasting operands of one type, a bool output.

Types as TFLite Micro's kernels take them: float32, int32, int8 (quantized: each input is rescaled by its own scale
after a left shift of 8, so inputs with different quantization compare by real value), bool for EQUAL / NOT_EQUAL.
Equal quantization compares the stored values only where that is the same answer: scales of at least 1/128, so one
stored step is still at least one step after the rescaling (with smaller scales neighbouring values rescale to the
same integer and TFLite Micro calls them equal).

int16 is refused.  TFLite Micro's GREATER takes int16 but its Prepare computes the rescaling parameters for int8
only, so the int16 kernel reads whatever its persistent buffer held (all false in a fresh interpreter; the previous
int8 comparison's parameters after one ran): there is no defined result to match.
"""

import numpy as np

from ..errors import UnsupportedError
from ..quant_math import quantize_multiplier
from ._base import OpLowering, register
from .common.checks import (
    broadcast_4d,
    broadcast_args,
    broadcast_params,
    require_inputs,
    require_quant,
    require_same_dtype,
)

CODES = {"EQUAL": 0, "NOT_EQUAL": 1, "LESS": 2, "LESS_EQUAL": 3, "GREATER": 4, "GREATER_EQUAL": 5}
_FIELDS = ("rescale", "offset1", "multiplier1", "shift1", "offset2", "multiplier2", "shift2")


@register
class Comparison(OpLowering):
    builtins = tuple(CODES)
    dtypes = ("bool",)
    header = "aot/kernels/compare.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        a, b = op.input(0), op.input(1)
        dtype = require_same_dtype(op, a, b)
        allowed = ("float32", "int32", "int8") + (("bool",) if op.kind in ("EQUAL", "NOT_EQUAL") else ())
        if dtype == "int16" and op.kind == "GREATER":
            raise UnsupportedError(
                f"Operator {op.index} (GREATER) on int16 tensor '{a.name}': TFLite Micro runs it, but its int16 "
                "GREATER rescales with parameters its Prepare never computes (int8 only), so its result is "
                "undefined (all false in a fresh interpreter); aotc refuses it rather than pick a different "
                "answer. Compare in int8, int32 or float32."
            )
        if dtype not in allowed:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) on tensor '{a.name}' of type {dtype}; {op.kind} is supported "
                f"for: {', '.join(allowed)} (as in TFLite Micro)."
            )
        if dtype == "int8":
            for t, what in ((a, "first input"), (b, "second input")):
                s, _ = require_quant(op, t, what).scalar()
                if not 0.0 < float(s) < 1.0:
                    raise UnsupportedError(
                        f"Operator {op.index} ({op.kind}): int8 {what} '{t.name}' has scale {float(s):.9g}; "
                        "TFLite's int8 comparisons take input scales below 1."
                    )
        broadcast_4d(op, a.shape, b.shape, op.output.shape)

    def prepare(self, op):
        a, b = op.input(0), op.input(1)
        p = dict(broadcast_params(op), code=CODES[op.kind])
        suffix = {"float32": "f32", "int32": "s32", "int8": "s8", "bool": "bool"}[a.dtype]
        if a.dtype == "int8":
            (s1, z1), (s2, z2) = a.quant.scalar(), b.quant.scalar()
            m1, sh1 = quantize_multiplier(float(np.float32(s1)))
            m2, sh2 = quantize_multiplier(float(np.float32(s2)))
            same = np.float32(s1) == np.float32(s2) and z1 == z2 and np.float32(s1) >= 1.0 / 128
            p["s8"] = (0 if same else 1, -z1, m1, sh1, -z2, m2, sh2)
        op.kernel = f"aot_compare_{suffix}"
        op.params = p

    def emit(self, op, ctx):
        p = op.params
        args = [p["code"]] + broadcast_args(op, ctx, p)
        if "s8" in p:
            args.append(ctx.param_struct(f"op{op.index}_cmp", "aot_compare_s8_params", _FIELDS, p["s8"]))
        return [ctx.call(op.kernel, args)]
