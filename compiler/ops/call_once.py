"""CALL_ONCE: its init subgraph's operators, placed after it by the frontend (frontend/tflite_subgraphs.py) and
closed by CALL_ONCE_END, run under a flag in the state buffer: on the first `<prefix>_run` after `<prefix>_reset`
(TFLite Micro: on the first invocation), never again until the next reset. The flag is set only once the init
operators have all succeeded, as TFLite Micro marks the call done only after the subgraph ran.

Unlike TFLite Micro's Reset() (which zeroes the resource variables but does not run CALL_ONCE again),
`<prefix>_reset` returns the model to its state before the first run, init subgraph included."""

from ..errors import CompileError
from ._base import OpLowering, register


class _Marker(OpLowering):
    num_outputs = (0, 0)

    def check(self, op):
        if op.inputs:
            raise CompileError(
                f"Operator {op.index} ({op.kind}) has inputs; CALL_ONCE has none. The model file is malformed."
            )


@register
class CallOnce(_Marker):
    builtins = ("CALL_ONCE",)
    dtypes = ()

    def state_bytes(self, op):
        return 4

    def prepare(self, op):
        op.kernel = "call_once"

    def emit(self, op, ctx):
        return [f"if ({ctx.op_state(op, 'int32_t')}[0] == 0) {{ /* the init subgraph, once */"]


@register
class CallOnceEnd(_Marker):
    """Closes the operators of a CALL_ONCE's init subgraph (an IR-only kind; op.begin is the CALL_ONCE)."""

    builtins = ("CALL_ONCE_END",)
    dtypes = ()

    def prepare(self, op):
        op.kernel = "call_once_end"

    def emit(self, op, ctx):
        return [f"{ctx.op_state(op.begin, 'int32_t')}[0] = 1;", "} /* end of the init subgraph */"]
