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
# The float operations of aot_binary_math_f32: they link libm and double division, so they have their own entry.
_NEEDS_LIBM = ("FLOOR_DIV", "FLOOR_MOD", "POW")


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
        if op.kind in _NEEDS_LIBM:
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

    @staticmethod
    def _infinite_operands(op) -> dict:
        """{input position: index into the CRT's aot_f32_infinities (0: +inf, 1: -inf)} for the one-element
        constant operands of a float32 MINIMUM / MAXIMUM that are infinite: TensorFlow's clip_by_value with an
        open bound (openWakeWord's mel-spectrogram front end). A C float literal cannot hold an infinity, so the
        operand points at the CRT's constant instead; the kernel then computes exactly what TFLite Micro does."""
        if op.kind not in ("MINIMUM", "MAXIMUM") or op.output.dtype != "float32":
            return {}
        found = {}
        for i in (0, 1):
            c = op.input(i)
            if c.data is not None and np.asarray(c.data).size == 1 and np.isinf(np.asarray(c.data, np.float32)).all():
                found[i] = 0 if float(np.asarray(c.data).reshape(-1)[0]) > 0 else 1
        return found

    def prepare(self, op):
        out = op.output
        op.params = dict(broadcast_params(op), code=self._code(op))
        if out.dtype == "int8":
            select(op, op.params, Layer())  # same shapes: the word / vector kernels of the kernel table
            return
        op.kernel = {
            "int32": "aot_binary_s32",
            "float32": "aot_binary_math_f32" if op.kind in _NEEDS_LIBM else "aot_binary_f32",
            "int16": "aot_minmax_s16",
        }[out.dtype]

    def emit(self, op, ctx):
        emit = own_emit(op)
        if emit is not None:
            return emit(op, ctx)  # the same-shape int8 kernels (ops/kernels/elementwise.py)
        p = op.params
        infinite = self._infinite_operands(op)
        if infinite:
            # TFLite Micro's MAXIMUM / MINIMUM clamp nothing: an infinite result stays infinite, so the bounds are
            # the infinities themselves (a no-op clamp) rather than +-FLT_MAX.
            args = [p["code"]] + [
                f"&aot_f32_infinities[{infinite[i]}]" if i in infinite else ctx.ptr(op.input(i)) for i in (0, 1)
            ]
            args += [
                ctx.ptr(op.output),
                ctx.param(f"op{op.index}_dims", p["dims"], "int32_t"),
                ctx.param(f"op{op.index}_strides1", p["sa"], "int32_t"),
                ctx.param(f"op{op.index}_strides2", p["sb"], "int32_t"),
            ]
            return [ctx.call(op.kernel, args + ["aot_f32_infinities[1]", "aot_f32_infinities[0]"])]
        args = [p["code"]] + broadcast_args(op, ctx, p)
        if op.output.dtype == "float32":
            args += [ctx.f32(-FLT_MAX), ctx.f32(FLT_MAX)]
        return [ctx.call(op.kernel, args)]
