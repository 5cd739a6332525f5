"""ZEROS_LIKE: an output of the input's shape and type holding 0 (stored 0 also for quantized types, as in TFLite
Micro), by one zero fill (aot/kernels/copy.h)."""

from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import require_inputs, require_same_dtype, require_same_shape


@register
class ZerosLike(OpLowering):
    builtins = ("ZEROS_LIKE",)
    dtypes = ("float32", "int8", "int16", "int32")
    header = "aot/kernels/copy.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 1)
        require_same_dtype(op, op.input(0), op.output)
        require_same_shape(op, op.input(0), op.output)

    def prepare(self, op):
        op.kernel = "aot_zero"
        op.params = dict(bytes=op.output.num_elements * DTYPES[op.output.dtype].size)

    def emit(self, op, ctx):
        return [ctx.call(op.kernel, [ctx.ptr(op.output), op.params["bytes"]])]
