"""PAD / PADV2 lowering with constant paddings, up to 4-D (int8, int16, int32, float32).

The pad value is the output zero point for quantized PAD (0 for symmetric int16), 0 for int32 and float PAD, or
the scalar constant of PADV2 (for int8 / int16 it must share the output's
quantization, as TFLite Micro requires).  Quantized input and output must share
their quantization: padding copies values and never rescales.
"""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from .common.checks import (
    const_int_array,
    require_const,
    require_inputs,
    require_quant,
    require_same_dtype,
    require_same_quant,
    shape_4d,
)


def _paddings(op) -> np.ndarray:
    inp, out = op.input(0), op.output
    pads = const_int_array(op, op.input(1), "the paddings operand")
    rank = len(inp.shape)
    if pads.size != 2 * rank:
        raise CompileError(
            f"Operator {op.index} ({op.kind}): paddings have {pads.size} values; input "
            f"'{inp.name}' of rank {rank} needs {2 * rank} (one [before, after] pair per "
            "dimension)."
        )
    pads = pads.reshape(rank, 2)
    if (pads < 0).any():
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): negative paddings {pads.tolist()} are not "
            "supported; paddings must be >= 0."
        )
    expected = [int(d) + int(b) + int(a) for d, (b, a) in zip(inp.shape, pads)]
    if len(out.shape) != rank or expected != [int(d) for d in out.shape]:
        raise CompileError(
            f"Operator {op.index} ({op.kind}): output '{out.name}' has shape "
            f"{list(out.shape)} but input shape {list(inp.shape)} with paddings "
            f"{pads.tolist()} gives {expected}."
        )
    return pads


_KERNELS = {"int8": "aot_pad_s8", "int16": "aot_pad_s16", "int32": "aot_pad_s32", "float32": "aot_pad_f32"}
_QUANTIZED = ("int8", "int16")  # int32 PAD moves values and pads with 0 whatever its quantization (TFLite Micro)


@register
class Pad(OpLowering):
    builtins = ("PAD", "PADV2")
    dtypes = tuple(_KERNELS)
    header = "aot/kernels/pad.h"

    def check(self, op):
        super().check(op)
        if op.kind == "PADV2":
            require_inputs(op, 2, 3)
        else:
            require_inputs(op, 2)
        inp, out = op.input(0), op.output
        dtype = require_same_dtype(op, inp, out)
        shape_4d(op, inp.shape, f"input '{inp.name}'")
        _paddings(op)
        if dtype in _QUANTIZED:
            require_same_quant(
                op,
                inp,
                out,
                "input",
                "output",
                f"{dtype} padding copies values unchanged, so input and output must "
                "share scale and zero point (TFLite quantization spec).",
            )
        cv = op.input(2)
        if cv is not None:
            require_const(op, cv, "the PADV2 constant value")
            if cv.dtype != dtype or cv.num_elements != 1:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): constant value '{cv.name}' must be a "
                    f"single {dtype} element (got {cv.num_elements} of {cv.dtype})."
                )
            if dtype in _QUANTIZED:
                require_quant(op, cv, "constant value")
                require_same_quant(
                    op,
                    cv,
                    out,
                    "constant value",
                    "output",
                    "TFLite Micro requires the PADV2 constant to share the output's quantization.",
                )

    def prepare(self, op):
        inp, out = op.input(0), op.output
        pads = _paddings(op)
        before = [0] * (4 - len(inp.shape)) + [int(b) for b in pads[:, 0]]
        cv = op.input(2)
        if cv is not None:
            value = cv.data.reshape(-1)[0]
            value = float(value) if out.dtype == "float32" else int(value)
        else:
            value = out.quant.scalar()[1] if out.dtype in _QUANTIZED else 0
            value = float(value) if out.dtype == "float32" else value
        op.params = dict(
            in_dims=np.array(shape_4d(op, inp.shape, "input"), np.int32),
            out_dims=np.array(shape_4d(op, out.shape, "output"), np.int32),
            before=np.array(before, np.int32),
            value=value,
        )
        op.kernel = _KERNELS[out.dtype]

    def emit(self, op, ctx):
        p = op.params
        value = ctx.f32(p["value"]) if op.output.dtype == "float32" else p["value"]
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    ctx.param(f"op{op.index}_in_dims", p["in_dims"], "int32_t"),
                    ctx.param(f"op{op.index}_out_dims", p["out_dims"], "int32_t"),
                    ctx.param(f"op{op.index}_pad_before", p["before"], "int32_t"),
                    value,
                ],
            )
        ]
