"""IF as plain C: `if (cond) { ... } else { ... }` around its two branch subgraphs, placed inline by the frontend
between the markers IF, IF_ELSE and IF_END (frontend/tflite_subgraphs.py). As in TFLite Micro the operands are
copied into the taken branch's inputs and that branch's outputs into the IF's outputs."""

from ._base import OpLowering, register


def copies(ctx, pairs) -> list:
    """aot_copy of each (source, destination) pair, skipping a tensor copied onto its own storage."""
    lines = []
    for src, dst in pairs:
        s, d = ctx.ptr(src), ctx.ptr(dst)
        if s != d:
            lines.append(ctx.call("aot_copy", [d, s, dst.nbytes]))
    return lines


class ControlMarker(OpLowering):
    """A marker of inline control flow: its inputs/outputs are what it copies, its code opens or closes a block."""

    dtypes = ()
    header = "aot/kernels/copy.h"
    num_outputs = (0, 64)

    def check(self, op):
        pass

    def prepare(self, op):
        op.kernel = op.kind.lower()


@register
class IfBegin(ControlMarker):
    builtins = ("IF",)

    def emit(self, op, ctx):
        return [f"if ({ctx.ptr(op.inputs[0])}[0]) {{ /* IF: then branch */"] + copies(
            ctx, zip(op.inputs[1:], op.outputs)
        )


@register
class IfElse(ControlMarker):
    builtins = ("IF_ELSE",)

    def emit(self, op, ctx):
        return ["} else { /* IF: else branch */"] + copies(ctx, zip(op.inputs[1:], op.outputs))


@register
class IfEnd(ControlMarker):
    builtins = ("IF_END",)

    def emit(self, op, ctx):
        n = len(op.outputs)
        then_out, else_out = op.inputs[1 : 1 + n], op.inputs[1 + n :]
        return (
            ["} /* end of IF */", f"if ({ctx.ptr(op.inputs[0])}[0]) {{"]
            + copies(ctx, zip(then_out, op.outputs))
            + ["} else {"]
            + copies(ctx, zip(else_out, op.outputs))
            + ["}"]
        )
