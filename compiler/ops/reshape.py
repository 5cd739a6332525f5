"""RESHAPE / SQUEEZE / EXPAND_DIMS: pure metadata changes.

The output aliases the input buffer (no code) unless one side is a user
buffer that cannot be shared, in which case a byte copy is emitted.
"""

from ..errors import CompileError
from ._base import OpLowering, register
from .common.checks import require_same_dtype


@register
class Reshape(OpLowering):
    builtins = ("RESHAPE", "SQUEEZE", "EXPAND_DIMS")
    dtypes = ("int8", "int16", "float32", "uint8", "int32", "bool")
    header = "aot/kernels/copy.h"

    def check(self, op):
        super().check(op)
        if not op.inputs or op.input(0) is None:
            raise CompileError(f"Operator {op.index} ({op.kind}) has no data input.")
        inp, out = op.input(0), op.output
        require_same_dtype(op, inp, out)
        if inp.num_elements != out.num_elements:
            raise CompileError(
                f"Operator {op.index} ({op.kind}) changes the element count: {list(inp.shape)} -> {list(out.shape)}."
            )

    def prepare(self, op):
        op.params = dict(nbytes=op.output.nbytes)
        op.kernel = "aot_copy"

    def aliases_input(self, op):
        return True

    def emit(self, op, ctx):
        if op.is_noop:
            return []
        return [ctx.call("aot_copy", [ctx.ptr(op.output), ctx.ptr(op.input(0)), op.params["nbytes"]])]

    def headers(self, op):
        return [] if op.is_noop else [self.header]
