"""POW_INT32: ONNX Pow with an int32 operand (no TFLite builtin; the ONNX frontend emits it), with
onnxruntime's results (aot/kernels/pow_int.h): int32 ** int32 and int32 ** float32 give int32, float32 ** int32
gives float32; a one-element exponent of 2 or 3 multiplies (wrapping), as onnxruntime does.  Broadcasting as the
other element-wise ops, up to 4-D (the frontend merges axes above that)."""

import numpy as np

from ..errors import CompileError
from ._base import OpLowering, register
from .common.checks import broadcast_4d, require_inputs

# (base, exponent, result) element types -> kernel
KERNELS = {
    ("int32", "int32", "int32"): "aot_pow_s32",
    ("int32", "float32", "int32"): "aot_pow_s32_f32",
    ("float32", "int32", "float32"): "aot_pow_f32_s32",
}


@register
class PowInt32(OpLowering):
    builtins = ("POW_INT32",)
    dtypes = ("int32", "float32")
    header = "aot/kernels/pow_int.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        a, b, out = op.input(0), op.input(1), op.output
        if (a.dtype, b.dtype, out.dtype) not in KERNELS:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): base {a.dtype}, exponent {b.dtype}, result {out.dtype}; "
                "supported are int32 ** int32 -> int32, int32 ** float32 -> int32 and float32 ** int32 -> float32."
            )
        broadcast_4d(op, a.shape, b.shape, out.shape)

    def prepare(self, op):
        a, b, out = op.input(0), op.input(1), op.output
        dims, sa, sb = broadcast_4d(op, a.shape, b.shape, out.shape)
        op.params = dict(dims=np.array(dims, np.int32), sa=np.array(sa, np.int32), sb=np.array(sb, np.int32))
        op.kernel = KERNELS[(a.dtype, b.dtype, out.dtype)]

    def emit(self, op, ctx):
        p = op.params
        args = [
            ctx.ptr(op.input(0)),
            ctx.ptr(op.input(1)),
            ctx.ptr(op.output),
            ctx.param(f"op{op.index}_dims", p["dims"], "int32_t"),
            ctx.param(f"op{op.index}_strides1", p["sa"], "int32_t"),
            ctx.param(f"op{op.index}_strides2", p["sb"], "int32_t"),
            int(op.input(1).num_elements == 1),
        ]
        return [ctx.call(op.kernel, args)]
