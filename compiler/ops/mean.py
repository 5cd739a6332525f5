"""MEAN lowering over any constant set of axes, up to 4-D (int8, int16, float32).

int8 and int16 match TFLite Micro's integer QuantizedMeanOrSum: the sum of
(q - zp_in) is requantized once with a multiplier for s_in / s_out that has
1/count folded in at compile time.  keep_dims only changes the declared
output shape, never the row-major layout, so it needs no code.
"""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..quant_math import fold_count_into_multiplier, quantize_multiplier
from ._base import OpLowering, register
from ._common import (const_int_array, require_inputs, require_quant, require_same_dtype,
                      shape_4d)


def _reduced_axes(op) -> list:
    inp = op.input(0)
    rank = len(inp.shape)
    axes = const_int_array(op, op.input(1), "the axis operand").reshape(-1)
    if axes.size == 0:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}) has an empty axis list; MEAN is supported over "
            "one or more axes."
        )
    resolved = []
    for a in axes.tolist():
        if not -rank <= a < rank:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): axis {a} is out of range for input "
                f"'{inp.name}' of rank {rank}."
            )
        a = a + rank if a < 0 else a
        if a not in resolved:
            resolved.append(a)
    return sorted(resolved)


@register
class Mean(OpLowering):
    builtins = ("MEAN",)
    dtypes = ("int8", "int16", "float32")
    header = "aot/kernels/mean.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        inp, out = op.input(0), op.output
        dtype = require_same_dtype(op, inp, out)
        shape_4d(op, inp.shape, f"input '{inp.name}'")
        axes = _reduced_axes(op)
        keep = bool(op.options.get("KeepDims", False))
        expected = [1 if d in axes else int(n) for d, n in enumerate(inp.shape)]
        if not keep:
            expected = [n for d, n in enumerate(expected) if d not in axes]
        if [int(d) for d in out.shape] != expected:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): output '{out.name}' has shape "
                f"{list(out.shape)}; reducing {list(inp.shape)} over axes {axes} with "
                f"keep_dims={keep} gives {expected}."
            )
        if dtype != "float32":
            require_quant(op, inp, "input")
            require_quant(op, out, "output")
            count = inp.num_elements // max(out.num_elements, 1)
            if dtype == "int16" and count > 1 << 16:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): int16 mean over {count} values; at most 65536 (the int32 "
                    "sum of TFLite's kernel must not overflow).")

    def prepare(self, op):
        inp, out = op.input(0), op.output
        axes = _reduced_axes(op)
        pad = 4 - len(inp.shape)
        reduced = [0] * 4
        count = 1
        for a in axes:
            reduced[a + pad] = 1
            count *= int(inp.shape[a])
        p = dict(in_dims=np.array(shape_4d(op, inp.shape, "input"), np.int32),
                 reduced=np.array(reduced, np.int32))
        if inp.dtype != "float32":
            si, zi = inp.quant.scalar()
            so, zo = out.quant.scalar()
            m, sh = fold_count_into_multiplier(*quantize_multiplier(si / so), count)
            p.update(in_off=-zi, mult=m, shift=sh, out_off=zo)
            op.kernel = "aot_mean_s8" if inp.dtype == "int8" else "aot_mean_s16"
        else:
            op.kernel = "aot_mean_f32"
        op.params = p

    def emit(self, op, ctx):
        p = op.params
        args = [ctx.ptr(op.input(0)), ctx.ptr(op.output),
                ctx.param(f"op{op.index}_in_dims", p["in_dims"], "int32_t"),
                ctx.param(f"op{op.index}_reduced", p["reduced"], "int32_t")]
        if op.kernel != "aot_mean_f32":
            args += [p["in_off"], p["mult"], p["shift"], p["out_off"]]
        return [ctx.call(op.kernel, args)]
