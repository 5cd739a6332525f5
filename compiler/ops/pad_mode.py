"""PAD_MODE lowering (not a TFLite builtin; produced by the ONNX frontend for Pad with mode reflect, edge or wrap):
the output repeats input values (no new values, so any element type and any quantization works), up to 4-D."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import const_int_array, require_inputs, require_same_dtype, shape_4d

MODES = {"reflect": 0, "edge": 1, "wrap": 2}


@register
class PadMode(OpLowering):
    builtins = ("PAD_MODE",)
    dtypes = ("int8", "float32", "uint8", "int32", "bool")
    header = "aot/kernels/pad_mode.h"

    def _pads(self, op):
        inp, out = op.input(0), op.output
        pads = const_int_array(op, op.input(1), "the paddings operand").reshape(-1)
        rank = len(inp.shape)
        if pads.size != 2 * rank:
            raise CompileError(f"Operator {op.index} ({op.kind}): {pads.size} paddings for rank {rank}.")
        pads = pads.reshape(rank, 2)
        expected = [int(d) + int(b) + int(a) for d, (b, a) in zip(inp.shape, pads)]
        if (pads < 0).any() or expected != [int(d) for d in out.shape]:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): paddings {pads.tolist()} do not take "
                f"{list(inp.shape)} to {list(out.shape)}."
            )
        return pads

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        inp = op.input(0)
        require_same_dtype(op, inp, op.output)
        shape_4d(op, inp.shape, f"input '{inp.name}'")
        if op.options.get("Mode") not in MODES:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): mode {op.options.get('Mode')!r}; supported are {', '.join(MODES)}."
            )
        pads = self._pads(op)
        if any(int(d) == 0 and (b or a) for d, (b, a) in zip(inp.shape, pads)):
            raise UnsupportedError(f"Operator {op.index} ({op.kind}): padding an empty dimension by repetition.")

    def prepare(self, op):
        inp, out = op.input(0), op.output
        pads = self._pads(op)
        before = [0] * (4 - len(inp.shape)) + [int(b) for b in pads[:, 0]]
        op.params = dict(
            in_dims=np.array(shape_4d(op, inp.shape, "input"), np.int32),
            out_dims=np.array(shape_4d(op, out.shape, "output"), np.int32),
            before=np.array(before, np.int32),
            mode=MODES[op.options["Mode"]],
            size=DTYPES[out.dtype].size,
        )
        op.kernel = "aot_pad_mode"

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    p["size"],
                    ctx.param(f"op{op.index}_in_dims", p["in_dims"], "int32_t"),
                    ctx.param(f"op{op.index}_out_dims", p["out_dims"], "int32_t"),
                    ctx.param(f"op{op.index}_pad_before", p["before"], "int32_t"),
                    p["mode"],
                ],
            )
        ]
