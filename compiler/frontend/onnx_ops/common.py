"""Helpers shared by the ONNX converters: reading operands in a layout, making outputs, int8 constants."""

import numpy as np

from .context import NotQuantizable
from .layout import TO_NHWC
from .values import Value


def data_tensor(ctx, v: Value, layout: str = "onnx"):
    """The IR tensor a converter reads for input v: int8 data for a dequantized view in a fused int8 group,
    else the float (or data-movement) tensor."""
    if v.is_dq_view and ctx.quantized:
        if v.is_const:
            return int8_const(ctx, v, layout)
        return ctx.b.get(v.qsrc, layout)
    if (
        not ctx.quantized
        and not v.is_dq_view
        and not v.is_const
        and v.dtype != "float32"
        and ctx.op_type not in MOVE_OPS
    ):
        raise ctx.unsupported(
            f"input '{v.name}' is {v.dtype} outside a QuantizeLinear/DequantizeLinear group; "
            "arithmetic is supported on float32, or on int8 in QDQ form"
        )
    return ctx.b.get(v, layout)


def int8_const(ctx, v: Value, layout: str = "onnx"):
    """A dequantized constant as an int8 IR constant with its quantization (per tensor)."""
    q = v.qinfo
    if not q.per_tensor or str(v.qsrc.const.dtype) != "int8":
        raise NotQuantizable()
    data = v.qsrc.const
    if layout == "nhwc":
        data = np.transpose(data.reshape((1,) * (4 - data.ndim) + data.shape), TO_NHWC)
    return ctx.b.const_tensor(v.name + ":q8", data, "int8", ctx.b.quant_params(q))


def out_value(ctx, i: int, shape, layout: str = "onnx", like: Value = None) -> Value:
    """Output i of the node: int8 with the group's quantization when fused, else like `like` or float32."""
    b = ctx.b
    if ctx.quantized:
        return b.runtime_value(ctx.out_name(i), shape, "int8", layout, ctx.out_qinfo(i))
    if like is not None:
        return b.like(like, ctx.out_name(i), shape, layout)
    return b.runtime_value(ctx.out_name(i), shape, "float32", layout)


def float_const(ctx, v: Value, what: str) -> np.ndarray:
    if not v.is_const:
        raise ctx.unsupported(f"{what} ('{v.name}') must be a constant")
    return np.asarray(v.const, np.float32)


def prefer_nhwc(ctx, *values) -> bool:
    """True when a 4-D element-wise op should run in NHWC: some run-time input already lives there."""
    return any(v is not None and not v.is_const and ctx.b.preferred_layout(v) == "nhwc" for v in values)


MOVE_OPS = {
    "Reshape",
    "Flatten",
    "Squeeze",
    "Unsqueeze",
    "Transpose",
    "Concat",
    "Slice",
    "Split",
    "Gather",
    "Identity",
    "Dropout",
    "Pad",
    "MaxPool",
    "GlobalMaxPool",
    "Expand",
    "Tile",
}
