"""Raw (not quantized) integer data: int8, uint8 and int32 tensors that ONNX arithmetic treats as plain numbers
(wrap-around, truncating division), and uint8 data that int8 kernels handle shifted by -128.

Arithmetic widens every operand to int32 (CAST), computes with BINARY_INT32 and narrows the result back with
wrap-around, which is exactly numpy's / the ONNX reference's integer result.
"""

import numpy as np

from .values import QInfo, Value

INT_TYPES = ("int8", "uint8", "int32")


def is_raw_int(v: Value) -> bool:
    return (
        v is not None
        and not v.is_dq_view
        and v.qinfo is None
        and v.dtype in INT_TYPES
        and (not v.is_const or np.asarray(v.const).dtype.kind in "iu")
    )


def to_int32(ctx, v: Value, layout: str = "onnx"):
    """v's values as an int32 tensor (constants folded, run-time data widened by a CAST)."""
    b = ctx.b
    if v.is_const:
        arr = np.asarray(v.const).astype(np.int64)
        if arr.size and (arr.min() < -(1 << 31) or arr.max() >= 1 << 31):
            raise ctx.unsupported(f"constant '{v.name}' does not fit int32")
        return b.const_tensor(f"{ctx.name}:{v.name}:i32", arr.astype(np.int32), "int32")
    t = b.get(v, layout)
    if t.dtype == "int32":
        return t
    wide = b.new_tensor(f"{v.name}:i32", t.shape, "int32")
    b.add_op("CAST", [t], [wide], {"Offset": 0})
    return wide


def narrow(ctx, t32, dtype: str, shape, layout: str = "onnx") -> Value:
    """Output 0 of the node as a `dtype` value holding the int32 tensor t32's values (wrapped)."""
    b = ctx.b
    out = b.runtime_value(ctx.out_name(), shape, dtype, layout)
    b.add_op("CAST", [t32], [out.tensors[layout]], {"Offset": 0})
    return out


def as_int8(ctx, v: Value, layout: str = "onnx"):
    """(int8 tensor, zero point) for raw int8 / uint8 data: uint8 is shifted by -128 (zero point -128), so
    order-preserving int8 kernels (max pool, clamp) give the uint8 result after the shift back."""
    b = ctx.b
    t = b.get(v, layout)
    if t.dtype == "int8":
        return t, 0
    q = b.quant_params(QInfo(np.ones(1, np.float32), np.full(1, -128, np.int64)))
    s8 = b.new_tensor(f"{v.name}:s8", t.shape, "int8", q)
    b.add_op("CAST", [t], [s8], {"Offset": -128})
    return s8, -128


def int8_source(ctx, v: Value) -> Value:
    """The int8 value holding v's data: v itself, or for raw uint8 data a CAST shifted by -128 (read it with the
    zero point shifted alike, as quant.to_qinfo does for uint8 parameters)."""
    if v.dtype != "uint8":
        return v
    b = ctx.b
    layout = b.preferred_layout(v)
    t = b.get(v, layout)
    out = b.runtime_value(v.name + ":s8", t.shape, "int8", layout)
    b.add_op("CAST", [t], [out.tensors[layout]], {"Offset": -128})
    return out
