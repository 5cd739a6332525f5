"""ASSIGN_VARIABLE: the value copied into a resource variable (a variable tensor of the state buffer,
frontend/tflite_subgraphs.py), kept until the next assignment or `<prefix>_reset`."""

from ..errors import UnsupportedError
from ._base import OpLowering, register
from .read_variable import require_like_variable


@register
class AssignVariable(OpLowering):
    builtins = ("ASSIGN_VARIABLE",)
    dtypes = ("float32", "int8", "int16", "int32")
    header = "aot/kernels/copy.h"
    num_outputs = (0, 0)
    state_inputs = (0,)
    shares_state = True

    def check(self, op):
        if len(op.inputs) != 2 or op.inputs[1] is None:
            raise UnsupportedError(
                f"Operator {op.index} (ASSIGN_VARIABLE) has {len(op.inputs)} inputs; it takes the "
                "variable and the value."
            )
        require_like_variable(op, op.input(0), op.input(1), "value")

    def prepare(self, op):
        op.kernel = "aot_copy"

    def emit(self, op, ctx):
        return [ctx.call("aot_copy", [ctx.ptr(op.input(0)), ctx.ptr(op.input(1)), op.input(1).nbytes])]
