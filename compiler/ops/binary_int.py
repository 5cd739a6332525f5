"""BINARY_INT32 (ONNX integer arithmetic: Add, Sub, Mul, Div, Min, Max on int32 with wrap-around and truncating
division) and MAXIMUM / MINIMUM (float32, int32, and int8 / int16 comparing stored values as TFLite Micro does),
FLOOR_DIV, FLOOR_MOD and POW (float32; POW is TFLite's builtin, not one of TFLite Micro's, and ONNX Pow), all on the
shared broadcast loop of aot/kernels/binary.h; same-shape int8 MAXIMUM / MINIMUM take the kernel table's word (DSP)
or vector (Helium) kernels."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from .common.kernel import own_emit
from .kernel_table import Layer, select
from .common.checks import (
    broadcast_4d,
    broadcast_args,
    broadcast_params,
    require_inputs,
    require_quant,
    require_same_dtype,
)

CODES = {
    "ADD": 0,
    "SUB": 1,
    "MUL": 2,
    "DIV": 3,
    "PRELU": 4,
    "MIN": 5,
    "MAX": 6,
    "FLOOR_DIV": 7,
    "FLOOR_MOD": 8,
    "POW": 9,
}
FLT_MAX = float(np.finfo(np.float32).max)


@register
class BinaryInt(OpLowering):
    builtins = ("BINARY_INT32", "MAXIMUM", "MINIMUM", "FLOOR_DIV", "FLOOR_MOD", "POW")
    elementwise = True
    dtypes = ("int32", "float32", "int8", "int16")
    header = "aot/kernels/binary.h"

    def _code(self, op):
        if op.kind == "MAXIMUM":
            return CODES["MAX"]
        if op.kind == "MINIMUM":
            return CODES["MIN"]
        if op.kind in ("FLOOR_DIV", "FLOOR_MOD", "POW"):
            return CODES[op.kind]
        name = op.options.get("Operation", "")
        if name not in CODES:
            raise CompileError(f"Operator {op.index} ({op.kind}): unknown operation '{name}'.")
        return CODES[name]

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        a, b, out = op.input(0), op.input(1), op.output
        dtype = require_same_dtype(op, a, b, out)
        if op.kind == "BINARY_INT32" and dtype != "int32":
            raise CompileError(f"Operator {op.index} ({op.kind}) works on int32 tensors, not {dtype}.")
        if op.kind in ("FLOOR_DIV", "FLOOR_MOD", "POW") and dtype != "float32":
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) on {dtype} tensor '{a.name}'; {op.kind} is "
                "supported for float32" + (" (as in TFLite Micro)." if op.kind != "POW" else ".")
            )
        if dtype in ("int8", "int16"):
            require_quant(op, a, "first input")
            require_quant(op, b, "second input")
            require_quant(op, out, "output")
        self._code(op)
        broadcast_4d(op, a.shape, b.shape, out.shape)

    def prepare(self, op):
        out = op.output
        op.params = dict(broadcast_params(op), code=self._code(op))
        if out.dtype == "int8":
            select(op, op.params, Layer())  # same shapes: the word / vector kernels of the kernel table
            return
        op.kernel = {
            "int32": "aot_binary_s32",
            "float32": "aot_binary_f32",
            "int16": "aot_minmax_s16",
        }[out.dtype]

    def emit(self, op, ctx):
        emit = own_emit(op)
        if emit is not None:
            return emit(op, ctx)  # the same-shape int8 kernels (ops/kernels/elementwise.py)
        p = op.params
        args = [p["code"]] + broadcast_args(op, ctx, p)
        if op.output.dtype == "float32":
            args += [ctx.f32(-FLT_MAX), ctx.f32(FLT_MAX)]
        return [ctx.call(op.kernel, args)]
