"""QuantizeLinear / DequantizeLinear, and the exact requantization helpers of QLinearConv / QLinearMatMul.

uint8 data is held as int8 (stored value - 128, zero point - 128: the same real values), so every quantized
operator runs on the int8 kernels; raw uint8 model inputs get a CAST (-128) and uint8 outputs one back (+128).
DequantizeLinear makes a *view* (no code; per-axis run-time data is dequantized in float instead);
QuantizeLinear of a view with the same parameters is free, with other parameters a requantization, and of a
float value a QUANTIZE_ONNX (round half to even, per tensor or per axis).
"""

import numpy as np

from .context import NotQuantizable  # noqa: F401  (re-exported for converters)
from .integer import int8_source
from .values import QInfo, Value

_SHIFT = {"uint8": -128, "int8": 0, "int32": 0}


def to_qinfo(ctx, scale, zp, axis: int, rank: int, default_dtype: str = "uint8"):
    """(QInfo, stored dtype name) from constant scale / zero point operands; zero point shifted for uint8.
    Without a zero point the stored type is default_dtype (the data's type for DequantizeLinear, uint8 for
    QuantizeLinear unless output_dtype says otherwise)."""
    if np.asarray(scale).dtype not in (np.float32, np.float16, np.float64):
        raise ctx.unsupported(f"scales of type {np.asarray(scale).dtype} are not supported (float)")
    scale = np.asarray(scale, np.float32).reshape(-1)
    if zp is None:
        dtype = default_dtype if default_dtype in _SHIFT else "uint8"
        zp = np.zeros(scale.shape, np.int64)
    else:
        dtype = str(np.asarray(zp).dtype)
        if dtype not in _SHIFT:
            raise ctx.unsupported(f"quantized type {dtype} is not supported (int8, uint8, and int32 biases are)")
        zp = np.asarray(zp, np.int64).reshape(-1)
    if zp.size == 1 and scale.size > 1:
        zp = np.full(scale.shape, int(zp[0]), np.int64)
    if scale.size == 0 or zp.size != scale.size:
        raise ctx.error(
            f"the scale has {scale.size} values and the zero point {zp.size}; they must have the same "
            "number (at least one)"
        )
    if not np.all(np.isfinite(scale)) or np.any(scale <= 0):
        raise ctx.unsupported("quantization scales must be positive and finite")
    if scale.size > 1:
        axis = ctx.axis(axis, rank)
    return QInfo(scale, zp + _SHIFT[dtype], axis if scale.size > 1 else 0), dtype


def _check_axis_size(ctx, q: QInfo, shape) -> None:
    if not q.per_tensor and int(shape[q.axis]) != q.scale.size:
        raise ctx.error(f"{q.scale.size} scales for axis {q.axis} of length {shape[q.axis]}")


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


def _check_block(ctx):
    if int(ctx.attr("block_size", 0) or 0):
        raise ctx.unsupported(
            "blocked quantization (block_size) is not supported; per-tensor and per-axis quantization are"
        )


def _axis_shape(rank: int, axis: int, n: int) -> list:
    shape = [1] * rank
    shape[axis] = n
    return shape


def dequantize_linear(ctx):
    x = ctx.input(0)
    _check_block(ctx)
    scale = ctx.const_input(1, "the scale")
    zp = ctx.const_input(2, "the zero point")
    q, dtype = to_qinfo(ctx, scale, zp, int(ctx.attr("axis", 1)), x.rank, x.dtype)
    _check_axis_size(ctx, q, x.shape)
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
    if x.dtype not in ("int8", "uint8") or (x.dtype == "uint8" and dtype != "uint8"):
        raise ctx.unsupported(
            f"dequantizing run-time data of type {x.dtype} with a {dtype} zero point is not "
            "supported (int8 and uint8 are)"
        )
    x = int8_source(ctx, x)
    if not q.per_tensor:
        # Per axis: (q - zero_point[c]) * scale[c] in float, each step exact but the last (ONNX's arithmetic).
        b = ctx.b
        t = b.get(x, "onnx")
        ident = b.new_tensor(
            f"{ctx.name}:ident", t.shape, "int8", b.quant_params(QInfo(np.ones(1, np.float32), np.zeros(1, np.int64)))
        )
        b.add_op("RESHAPE", [t], [ident])
        ints = b.new_tensor(f"{ctx.name}:ints", t.shape, "float32")
        b.add_op("DEQUANTIZE", [ident], [ints])
        bshape = _axis_shape(x.rank, q.axis, q.scale.size)
        centered = b.new_tensor(f"{ctx.name}:centered", t.shape, "float32")
        b.add_op(
            "SUB",
            [ints, b.const_tensor(f"{ctx.name}:zp", q.zero_point.astype(np.float32).reshape(bshape), "float32")],
            [centered],
            {"FusedActivationFunction": 0},
        )
        out = b.runtime_value(ctx.out_name(), x.shape, "float32")
        b.add_op(
            "MUL",
            [centered, b.const_tensor(f"{ctx.name}:scale", q.scale.reshape(bshape), "float32")],
            [out.tensors["onnx"]],
            {"FusedActivationFunction": 0},
        )
        ctx.set_output(0, out)
        return
    src = reinterpret(ctx, x, q)
    ctx.set_output(0, Value(ctx.out_name(), x.shape, "float32", qsrc=src, qinfo=q))


def quantize_onnx(ctx, t, name: str, out_q, layout: str, mode: str, scales, zero_points, axis: int = 0):
    """QUANTIZE_ONNX of float tensor t (ONNX rounding: half to even) into a new int8 value with quantization
    out_q (None when per axis); scales / zero points (int8 domain) are the kernel's, one or one per `axis`."""
    b = ctx.b
    out = b.runtime_value(name, t.shape, "int8", layout, out_q)
    if out_q is None:
        out.tensors[layout].quant = None
    b.add_op(
        "QUANTIZE_ONNX",
        [t],
        [out.tensors[layout]],
        {
            "Mode": mode,
            "Scales": np.asarray(scales, np.float32).reshape(-1).tolist(),
            "ZeroPoints": np.asarray(zero_points, np.int64).reshape(-1).tolist(),
            "Axis": int(axis),
        },
    )
    return out


def centered_float(ctx, v: Value, zero_point: int, layout: str):
    """float32 tensor of (q - zero_point) for the int8 value v: exact integers (QLinear operators compute on
    them in float, exactly while every partial sum stays below 2^24)."""
    b = ctx.b
    t = b.get(v, layout)
    view = b.new_tensor(
        f"{v.name}:centered_q",
        t.shape,
        "int8",
        b.quant_params(QInfo(np.ones(1, np.float32), np.full(1, int(zero_point), np.int64))),
    )
    b.add_op("RESHAPE", [t], [view])
    f = b.new_tensor(f"{v.name}:centered", t.shape, "float32")
    b.add_op("DEQUANTIZE", [view], [f])
    return f


def requant_multiplier(*scales) -> np.ndarray:
    """a_scale * b_scale / y_scale as the ONNX reference computes it (numpy, in the scales' own type)."""
    a, w, y = (np.asarray(s) for s in scales)
    return np.asarray(a * w / y).astype(np.float32).reshape(-1)


def check_exact(ctx, weights_abs_sum, bias_abs=0) -> None:
    """Float evaluation of an integer product is exact while |partial sums| < 2^24 (inputs |q - zp| <= 255)."""
    bound = 255 * np.asarray(weights_abs_sum, np.float64) + np.asarray(bias_abs, np.float64)
    if bound.size and float(bound.max()) >= float(1 << 24):
        raise ctx.unsupported(
            "the integer accumulators could exceed 2^24 (input range 255 x sum of |weights| + "
            f"|bias| reaches {int(bound.max())}); such products are not evaluated exactly"
        )


def quantize_linear(ctx):
    x = ctx.input(0)
    _check_block(ctx)
    scale = ctx.const_input(1, "the scale")
    zp = ctx.const_input(2, "the zero point")
    out_dtype = ctx.attr("output_dtype", 0)
    if zp is None and out_dtype:
        zp = np.zeros(1, {2: np.uint8, 3: np.int8}.get(out_dtype, np.float32))
    q, dtype = to_qinfo(ctx, scale, zp, int(ctx.attr("axis", 1)), x.rank)
    _check_axis_size(ctx, q, x.shape)
    if dtype not in ("int8", "uint8"):
        raise ctx.unsupported(f"quantizing to {dtype} is not supported (int8 and uint8 are)")
    b = ctx.b
    if x.is_dq_view:
        if not q.per_tensor:
            raise ctx.unsupported("per-axis requantization of int8 data is not supported")
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
        layout = b.preferred_layout(x) if q.per_tensor else "onnx"
        t = b.get(x, layout)
        axis = q.axis if layout == "onnx" else 0
        out = quantize_onnx(
            ctx, t, ctx.out_name(), q if q.per_tensor else None, layout, "divide", q.scale, q.zero_point, axis
        )
        if not q.per_tensor:
            out.per_axis_q = q
    out.onnx_dtype = dtype
    ctx.set_output(0, out)


CONVERTERS = {
    "QuantizeLinear": (quantize_linear, "quant"),
    "DequantizeLinear": (dequantize_linear, "quant"),
}
