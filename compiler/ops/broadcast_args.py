"""BROADCAST_ARGS: the broadcast of two int32 shape vectors (run-time or constant) into an int32 vector of the
longer rank (aot/kernels/broadcast_args.h); an int64 form is refused (no 64-bit type in the generated API)."""

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from .common.checks import require_inputs


@register
class BroadcastArgs(OpLowering):
    builtins = ("BROADCAST_ARGS",)
    dtypes = ("int32",)
    header = "aot/kernels/broadcast_args.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        a, b, out = op.input(0), op.input(1), op.output
        if a.dtype != "int32" or b.dtype != "int32":
            raise UnsupportedError(
                f"Operator {op.index} (BROADCAST_ARGS): shapes of type {a.dtype} / {b.dtype}; int32 is supported."
            )
        if len(a.shape) != 1 or len(b.shape) != 1 or list(out.shape) != [max(int(a.shape[0]), int(b.shape[0]))]:
            raise CompileError(
                f"Operator {op.index} (BROADCAST_ARGS): expects two shape vectors and an output of "
                "the longer one's length."
            )

    def prepare(self, op):
        op.kernel = "aot_broadcast_args"
        op.params = dict(na=int(op.input(0).shape[0]), nb=int(op.input(1).shape[0]), n=int(op.output.shape[0]))

    def emit(self, op, ctx):
        p = op.params
        return ctx.checked_call(
            op.kernel, [ctx.ptr(op.input(0)), p["na"], ctx.ptr(op.input(1)), p["nb"], ctx.ptr(op.output), p["n"]]
        )
