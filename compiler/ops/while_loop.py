"""WHILE as a plain C loop around its condition and body subgraphs, placed inline by the frontend between the
markers WHILE, WHILE_BODY and WHILE_END (frontend/tflite_subgraphs.py). The loop values live in the WHILE's output
tensors: the inputs are copied there first, then each round copies them into the condition's inputs, leaves the
loop when its bool output is false, copies them into the body's inputs and the body's outputs back, in TFLite
Micro's order of copies."""

from ._base import register
from .if_then_else import ControlMarker, copies


@register
class WhileBegin(ControlMarker):
    builtins = ("WHILE",)

    def emit(self, op, ctx):
        n = len(op.inputs)
        state, cond_in = op.outputs[:n], op.outputs[n:]
        return copies(ctx, zip(op.inputs, state)) + ["for (;;) { /* WHILE */"] + copies(ctx, zip(state, cond_in))


@register
class WhileBody(ControlMarker):
    builtins = ("WHILE_BODY",)

    def emit(self, op, ctx):
        return [f"if (!{ctx.ptr(op.inputs[0])}[0]) {{", "    break;", "}"] + copies(ctx, zip(op.inputs[1:], op.outputs))


@register
class WhileEnd(ControlMarker):
    builtins = ("WHILE_END",)

    def emit(self, op, ctx):
        n = len(op.inputs) // 2
        return copies(ctx, zip(op.inputs[:n], op.inputs[n:])) + ["} /* end of WHILE */"]
