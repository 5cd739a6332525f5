"""READ_VARIABLE: a copy of a resource variable (a variable tensor of the state buffer, frontend/tflite_subgraphs.py)
into the output, which must have the variable's type and size."""

from ..errors import UnsupportedError
from ._base import OpLowering, register


def require_like_variable(op, var, t, what):
    if t.dtype != var.dtype or t.nbytes != var.nbytes:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): {what} '{t.name}' is {t.dtype} {list(t.shape)} but resource variable "
            f"'{var.name}' is {var.dtype} {list(var.shape)} (the value of its first ASSIGN_VARIABLE); every read and "
            "assignment of a variable must have its type and size (TFLite Micro copies the variable's bytes)."
        )


@register
class ReadVariable(OpLowering):
    builtins = ("READ_VARIABLE",)
    dtypes = ("float32", "int8", "int16", "int32")
    header = "aot/kernels/copy.h"
    state_inputs = (0,)
    shares_state = True  # every READ / ASSIGN of the variable uses the same state tensor

    def check(self, op):
        super().check(op)
        if len(op.inputs) != 1:
            raise UnsupportedError(
                f"Operator {op.index} (READ_VARIABLE) has {len(op.inputs)} inputs; it takes the variable only."
            )
        require_like_variable(op, op.input(0), op.output, "output")

    def prepare(self, op):
        op.kernel = "aot_copy"

    def emit(self, op, ctx):
        return [ctx.call("aot_copy", [ctx.ptr(op.output), ctx.ptr(op.input(0)), op.output.nbytes])]
