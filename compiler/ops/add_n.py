"""ADD_N in float32: the inputs (one shape) summed in order, as TFLite Micro does, by one pass of the shared
binary kernel per extra input (the first pass adds inputs 0 and 1 into the output, later passes add into it).
The int8 form is refused by name."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from .binary_int import CODES, FLT_MAX


@register
class AddN(OpLowering):
    builtins = ("ADD_N",)
    dtypes = ("float32", "int8")
    header = "aot/kernels/binary.h"

    def check(self, op):
        super().check(op)
        out = op.output
        if out.dtype != "float32":
            raise UnsupportedError(f"Operator {op.index} (ADD_N) on {out.dtype} tensor '{out.name}': the quantized "
                                   "ADD_N is not supported yet; ADD_N is supported for float32.")
        if len(op.inputs) < 2:
            raise CompileError(f"Operator {op.index} (ADD_N) has {len(op.inputs)} input; ADD_N takes at least two "
                               "(as in TFLite Micro).")
        if any(t is None or t.dtype != "float32" or tuple(t.shape) != tuple(out.shape)
                                for t in op.inputs):
            raise CompileError(f"Operator {op.index} (ADD_N): every input must be float32 of the output's shape "
                               f"{list(out.shape)}.")

    def prepare(self, op):
        op.kernel = "aot_binary_f32"
        op.params = dict(dims=np.array([1, 1, 1, op.output.num_elements], np.int32),
                         st=np.array([0, 0, 0, 1], np.int32))

    def emit(self, op, ctx):
        p = op.params
        dims = ctx.param(f"op{op.index}_dims", p["dims"], "int32_t")
        st = ctx.param(f"op{op.index}_strides", p["st"], "int32_t")
        out = ctx.ptr(op.output)
        lines = [ctx.call("aot_binary_f32", [CODES["ADD"], ctx.ptr(op.input(0)), ctx.ptr(op.input(1)), out, dims,
                                             st, st, ctx.f32(-FLT_MAX), ctx.f32(FLT_MAX)])]
        for t in op.inputs[2:]:
            lines.append(ctx.call("aot_binary_f32", [CODES["ADD"], out, ctx.ptr(t), out, dims, st, st,
                                                     ctx.f32(-FLT_MAX), ctx.f32(FLT_MAX)]))
        return lines
