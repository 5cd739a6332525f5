"""Element-wise ONNX operators: activations (Relu, LeakyRelu, PRelu, Clip, Sigmoid, Tanh, HardSigmoid,
HardSwish), binary arithmetic with broadcasting (Add, Sub, Mul, Div) and the identities (Identity, Dropout).

Element-wise ops run in whatever layout their input already has (NHWC inside a CNN), so no transposes
are added around them; constants are broadcast to 4-D and permuted alongside.
"""

import math

import numpy as np

from .common import data_tensor, float_const, int8_const, out_value, prefer_nhwc
from .context import NotQuantizable
from .layout import TO_NHWC, permute


def _unary(kind, options=None, int8=None):
    """int8: None (float only) or a predicate on the output QInfo saying whether the int8 kernel applies."""

    def convert(ctx):
        if ctx.quantized and (int8 is None or not int8(ctx)):
            raise NotQuantizable()
        x = ctx.input(0)
        layout = ctx.b.preferred_layout(x)
        t = data_tensor(ctx, x, layout)
        out = out_value(ctx, 0, t.shape, layout)
        opts = options(ctx) if options else {}
        ctx.b.add_op(kind, [t], [out.tensors[layout]], opts)
        ctx.set_output(0, out)

    return convert


def _fixed_out(scale, zp):
    def ok(ctx):
        q = ctx.out_qinfo(0)
        return int(q.zero_point[0]) == zp and abs(float(q.scale[0]) - scale) <= scale * 1e-3
    return ok


def _same_quant(ctx):
    return ctx.out_qinfo(0).same(ctx.input(0).qinfo)


def _clip_options(ctx):
    if ctx.opset < 11:
        lo, hi = ctx.attr("min", -math.inf), ctx.attr("max", math.inf)
    else:
        lo = ctx.const_input(1, "the min operand")
        hi = ctx.const_input(2, "the max operand")
        lo = -math.inf if lo is None else float(np.asarray(lo).reshape(-1)[0])
        hi = math.inf if hi is None else float(np.asarray(hi).reshape(-1)[0])
    return {"Min": float(lo), "Max": float(hi)}


def _binary(kind, int8: bool):
    def convert(ctx):
        b = ctx.b
        a, c = ctx.input(0), ctx.input(1)
        shape = ctx.out_shape(0)
        if ctx.quantized and not int8:
            raise NotQuantizable()
        if len(shape) > 4:
            raise ctx.unsupported(f"output shape {list(shape)} has rank {len(shape)}; element-wise operators are "
                                  "supported up to 4-D")
        runtime = [v for v in (a, c) if not v.is_const]
        layout = "nhwc" if len(shape) == 4 and prefer_nhwc(ctx, a, c) and all(v.rank == 4 for v in runtime) \
            else "onnx"
        if ctx.quantized:
            for v in (a, c):
                if v.is_const and (not v.is_dq_view or not v.qinfo.per_tensor):
                    raise NotQuantizable()
        tensors = []
        for v in (a, c):
            if v.is_const and not ctx.quantized:
                data = float_const(ctx, v, "operand")
                if layout == "nhwc":
                    data = np.transpose(data.reshape((1,) * (4 - data.ndim) + data.shape), TO_NHWC)
                tensors.append(b.const_tensor(f"{ctx.name}:{v.name}", data, "float32"))
            elif v.is_const:
                tensors.append(int8_const(ctx, v, layout))
            else:
                tensors.append(data_tensor(ctx, v, layout))
        out = out_value(ctx, 0, shape if layout == "onnx" else permute(shape, TO_NHWC), layout)
        b.add_op(kind, tensors, [out.tensors[layout]], {"FusedActivationFunction": 0})
        ctx.set_output(0, out)

    return convert


def _identity(ctx):
    if ctx.op_type == "Dropout":
        training = ctx.const_input(2, "training_mode") if ctx.num_inputs() > 2 else None
        if training is not None and bool(np.asarray(training).reshape(-1)[0]):
            raise ctx.unsupported("training_mode = true is not supported (inference only)")
        if ctx.num_outputs() > 1 and ctx.out_name(1) and (ctx.reader.consumers(ctx.out_name(1))
                                                         or ctx.reader.is_graph_output(ctx.out_name(1))):
            raise ctx.unsupported("the mask output is used; only inference Dropout (data output only) is supported")
    ctx.set_output(0, ctx.input(0))


CONVERTERS = {
    "Relu": (_unary("RELU", int8=lambda ctx: True), "compute"),
    "LeakyRelu": (_unary("LEAKY_RELU", lambda ctx: {"Alpha": float(ctx.attr("alpha", 0.01))}), "compute"),
    "Clip": (_unary("CLAMP", _clip_options, int8=_same_quant), "compute"),
    "Sigmoid": (_unary("LOGISTIC", int8=_fixed_out(1.0 / 256, -128)), "compute"),
    "Tanh": (_unary("TANH", int8=_fixed_out(1.0 / 128, 0)), "compute"),
    "HardSigmoid": (_unary("HARD_SIGMOID", lambda ctx: {"Alpha": float(ctx.attr("alpha", 0.2)),
                                                        "Beta": float(ctx.attr("beta", 0.5))}), "compute"),
    "HardSwish": (_unary("HARD_SWISH", int8=lambda ctx: True), "compute"),
    "Add": (_binary("ADD", True), "compute"),
    "Sub": (_binary("SUB", True), "compute"),
    "Mul": (_binary("MUL", True), "compute"),
    "Div": (_binary("DIV", False), "compute"),
    "PRelu": (_binary("PRELU", False), "compute"),
    "Identity": (_identity, "move"),
    "Dropout": (_identity, "move"),
}
