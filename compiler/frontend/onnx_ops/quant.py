"""QuantizeLinear / DequantizeLinear.

uint8 data is held as int8 (stored value - 128, zero point - 128: the same real values), so every quantized
operator runs on the int8 kernels.  DequantizeLinear makes a *view* (no code); QuantizeLinear of a view with
the same parameters is free, with other parameters a requantization, and of a float value a QUANTIZE.
"""

import numpy as np

from .context import NotQuantizable  # noqa: F401  (re-exported for converters)
from .values import QInfo, Value

_SHIFT = {"uint8": -128, "int8": 0, "int32": 0}


def to_qinfo(ctx, scale, zp, axis: int, rank: int):
    """(QInfo, stored dtype name) from constant scale / zero point operands; zero point shifted for uint8."""
    scale = np.asarray(scale, np.float32).reshape(-1)
    if zp is None:
        dtype = "uint8"
        zp = np.zeros(scale.shape, np.int64)
    else:
        dtype = str(np.asarray(zp).dtype)
        if dtype not in _SHIFT:
            raise ctx.unsupported(f"quantized type {dtype} is not supported (int8, uint8, and int32 biases are)")
        zp = np.asarray(zp, np.int64).reshape(-1)
    if zp.size == 1 and scale.size > 1:
        zp = np.full(scale.shape, int(zp[0]), np.int64)
    if not np.all(np.isfinite(scale)) or np.any(scale <= 0):
        raise ctx.unsupported("quantization scales must be positive and finite")
    axis = axis + rank if axis < 0 else axis
    return QInfo(scale, zp + _SHIFT[dtype], axis if scale.size > 1 else 0), dtype


def static_qinfo(reader, qnode):
    """QInfo of a QuantizeLinear whose scale / zero point are constant and per tensor, else None."""
    vals = [reader.values.get(n) if n else None for n in qnode.input]
    if vals[1] is None or not vals[1].is_const or (len(vals) > 2 and vals[2] is not None and not vals[2].is_const):
        return None
    zp = vals[2].const if len(vals) > 2 and vals[2] is not None else None
    if np.asarray(vals[1].const).size != 1 or (zp is not None and str(np.asarray(zp).dtype) not in ("uint8", "int8")):
        return None
    scale = np.asarray(vals[1].const, np.float32).reshape(-1)
    dtype = "uint8" if zp is None else str(np.asarray(zp).dtype)
    zpv = np.zeros(1, np.int64) if zp is None else np.asarray(zp, np.int64).reshape(-1)
    if not (np.isfinite(scale[0]) and scale[0] > 0):
        return None
    return QInfo(scale, zpv + _SHIFT[dtype]), dtype


def _shift_data(arr):
    arr = np.asarray(arr)
    if arr.dtype == np.uint8:
        return (arr.astype(np.int16) - 128).astype(np.int8)
    return arr


def reinterpret(ctx, v: Value, q: QInfo) -> Value:
    """v's int8 data read with quantization q: v itself when equal, else an aliasing RESHAPE to a tensor with q
    (the bytes are the same; only their meaning changes)."""
    if v.qinfo is None:
        v.qinfo = q
        for t in v.tensors.values():
            t.quant = ctx.b.quant_params(q)
        return v
    if v.qinfo.same(q):
        return v
    b = ctx.b
    layout = b.preferred_layout(v)
    src = b.get(v, layout)
    out = b.runtime_value(v.name + ":requant_view", src.shape, "int8", layout, q)
    b.add_op("RESHAPE", [src], [out.tensors[layout]])
    return out


def dequantize_linear(ctx):
    x = ctx.input(0)
    if int(ctx.attr("block_size", 0) or 0):
        raise ctx.unsupported("blocked quantization (block_size) is not supported")
    scale = ctx.const_input(1, "the scale")
    zp = ctx.const_input(2, "the zero point")
    q, dtype = to_qinfo(ctx, scale, zp, int(ctx.attr("axis", 1)), x.rank)
    if x.is_const:
        data = np.asarray(x.const)
        if str(data.dtype) not in _SHIFT:
            raise ctx.unsupported(f"dequantizing constant data of type {data.dtype} is not supported")
        stored = _shift_data(data)
        if q.per_tensor:
            zp_b, sc_b = float(q.zero_point[0]), float(q.scale[0])
        else:
            bshape = [1] * data.ndim
            bshape[q.axis] = q.scale.size
            zp_b, sc_b = q.zero_point.reshape(bshape), q.scale.astype(np.float64).reshape(bshape)
        real = ((stored.astype(np.float64) - zp_b) * sc_b).astype(np.float32)
        src = Value(x.name + ":q", tuple(data.shape), str(stored.dtype), const=stored, qinfo=q)
        ctx.set_output(0, Value(ctx.out_name(), tuple(data.shape), "float32", const=real, qsrc=src, qinfo=q))
        return
    if x.dtype != "int8":
        raise ctx.unsupported(f"dequantizing run-time data of type {x.dtype} is not supported (int8 only)")
    if not q.per_tensor:
        raise ctx.unsupported("per-axis dequantization of run-time data is not supported (activations must be "
                              "quantized per tensor)")
    src = reinterpret(ctx, x, q)
    ctx.set_output(0, Value(ctx.out_name(), x.shape, "float32", qsrc=src, qinfo=q))


def quantize_linear(ctx):
    x = ctx.input(0)
    scale = ctx.const_input(1, "the scale")
    zp = ctx.const_input(2, "the zero point")
    out_dtype = ctx.attr("output_dtype", 0)
    if zp is None and out_dtype:
        zp = np.zeros(1, {2: np.uint8, 3: np.int8}.get(out_dtype, np.float32))
    q, dtype = to_qinfo(ctx, scale, zp, int(ctx.attr("axis", 1)), x.rank)
    if not q.per_tensor:
        raise ctx.unsupported("per-axis quantization of run-time data is not supported (activations must be "
                              "quantized per tensor)")
    b = ctx.b
    if x.is_dq_view:
        src = x.qsrc
        if src.qinfo.same(q):
            out = Value(ctx.out_name(), x.shape, "int8", tensors=src.tensors, qinfo=q)
        else:
            layout = b.preferred_layout(src)
            t = b.get(src, layout)
            out = b.runtime_value(ctx.out_name(), t.shape, "int8", layout, q)
            b.add_op("QUANTIZE", [t], [out.tensors[layout]])
    else:
        if x.dtype != "float32":
            raise ctx.unsupported(f"quantizing data of type {x.dtype} is not supported (float32 only)")
        layout = b.preferred_layout(x)
        t = b.get(x, layout)
        out = b.runtime_value(ctx.out_name(), t.shape, "int8", layout, q)
        b.add_op("QUANTIZE", [t], [out.tensors[layout]])
    out.onnx_dtype = dtype
    ctx.set_output(0, out)


CONVERTERS = {
    "QuantizeLinear": (quantize_linear, "quant"),
    "DequantizeLinear": (dequantize_linear, "quant"),
}
