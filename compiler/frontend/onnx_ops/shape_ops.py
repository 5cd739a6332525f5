"""Data-movement ONNX operators: Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat, Slice, Split,
Gather (constant indices), Pad (constant; reflect / edge / wrap as PAD_MODE), Expand (BROADCAST_TO) and Tile
(TILE), shapes and counts constant.  They work on float or int8 data alike (on a dequantized view they move the
int8 data: see dispatch.py), so they never create quantization of their own."""

import numpy as np

from ... import limits
from .common import data_tensor
from .layout import TO_NCHW, TO_NHWC, nhwc_axis, only_unit_dims_move, permute


def _reshape_to(ctx, x, shape):
    b = ctx.b
    t = data_tensor(ctx, x, "onnx")
    out = b.like(x, ctx.out_name(), shape)
    b.add_op("RESHAPE", [t], [out.tensors["onnx"]])
    ctx.set_output(0, out)


def _inferred_or(ctx, compute):
    try:
        return ctx.out_shape(0)
    except Exception:
        return tuple(int(d) for d in compute())


def reshape(ctx):
    x = ctx.input(0)

    def compute():
        target = ctx.attr("shape") if ctx.opset < 5 else ctx.const_input(1, "the shape operand")
        if target is None:
            raise ctx.error("the target shape is missing")
        target = ctx.ints(target, "the target shape")
        allow_zero = int(ctx.attr("allowzero", 0) or 0)
        if not allow_zero and any(d == 0 and i >= x.rank for i, d in enumerate(target)):
            raise ctx.error(
                f"the target shape {target} copies a dimension (0) that the input of shape "
                f"{list(x.shape)} does not have"
            )
        shape = [x.shape[i] if d == 0 and not allow_zero else d for i, d in enumerate(target)]
        if shape.count(-1) > 1 or any(d < -1 for d in shape):
            raise ctx.error(f"the target shape {target} has a negative dimension other than one -1")
        count = int(np.prod(x.shape, dtype=object))
        if -1 in shape:
            known = int(np.prod([d for d in shape if d != -1], dtype=object))
            if known == 0 or count % known:
                raise ctx.error(f"the target shape {target} cannot hold the {count} elements of the input")
            shape[shape.index(-1)] = count // known
        if int(np.prod(shape, dtype=object)) != count:
            raise ctx.error(f"the target shape {target} does not hold the {count} elements of the input")
        return shape

    _reshape_to(ctx, x, _inferred_or(ctx, compute))


def flatten(ctx):
    x = ctx.input(0)
    axis = ctx.axis(ctx.attr("axis", 1), x.rank, inclusive=True)
    _reshape_to(ctx, x, (int(np.prod(x.shape[:axis])), int(np.prod(x.shape[axis:]))))


def squeeze_like(ctx):
    _reshape_to(ctx, ctx.input(0), ctx.out_shape(0))


def transpose(ctx):
    b = ctx.b
    x = ctx.input(0)
    perm = ctx.attr("perm")
    perm = list(range(x.rank))[::-1] if perm is None else [int(p) for p in perm]
    if sorted(perm) != list(range(x.rank)):
        raise ctx.error(f"attribute 'perm' is {perm}, which is not a permutation of the input's {x.rank} axes")
    shape = tuple(int(x.shape[p]) for p in perm)
    if x.rank == 4 and b.preferred_layout(x) == "nhwc":
        src = data_tensor(ctx, x, "nhwc")  # read the NHWC twin: compose the permutations
        perm = [TO_NHWC.index(p) for p in perm]
    else:
        src = data_tensor(ctx, x, "onnx")
    out = b.like(x, ctx.out_name(), shape)
    if only_unit_dims_move(src.shape, perm):
        b.add_op("RESHAPE", [src], [out.tensors["onnx"]])
    else:
        b.add_op("TRANSPOSE", [src, b.int32_const(f"{ctx.name}:perm", perm)], [out.tensors["onnx"]])
    ctx.set_output(0, out)


def concat(ctx):
    b = ctx.b
    vals = [ctx.input(i) for i in range(ctx.num_inputs()) if ctx.input(i) is not None]
    shape = ctx.out_shape(0)
    axis = ctx.axis(ctx.attr("axis"), len(shape))
    for v in vals:
        if v.rank != len(shape):
            raise ctx.error(f"input '{v.name}' has shape {list(v.shape)}, but the output has rank {len(shape)}")
    runtime = [v for v in vals if not v.is_const]
    if not runtime:
        raise ctx.unsupported("all inputs are constants")
    like = runtime[0]
    layout = "nhwc" if len(shape) == 4 and all(b.preferred_layout(v) == "nhwc" for v in runtime) else "onnx"
    tensors = []
    for v in vals:
        if 0 in v.shape:
            continue
        if v.is_const and v.dtype != like.dtype:
            raise ctx.unsupported(f"constant input '{v.name}' is {v.dtype} but the run-time inputs are {like.dtype}")
        tensors.append(data_tensor(ctx, v, layout))
    out_shape = shape if layout == "onnx" else permute(shape, TO_NHWC)
    out = b.like(like, ctx.out_name(), out_shape, layout)
    b.add_op(
        "CONCATENATION",
        tensors,
        [out.tensors[layout]],
        {"Axis": axis if layout == "onnx" else nhwc_axis(axis), "FusedActivationFunction": 0},
    )
    ctx.set_output(0, out)


def _slice_op(ctx, x, name, begin, end, steps, masks, shape, out_index=0):
    b = ctx.b
    src = data_tensor(ctx, x, "onnx")
    out = b.like(x, name, shape)
    b.add_op(
        "STRIDED_SLICE",
        [
            src,
            b.int32_const(f"{name}:begin", begin),
            b.int32_const(f"{name}:end", end),
            b.int32_const(f"{name}:strides", steps),
        ],
        [out.tensors["onnx"]],
        {"BeginMask": 0, "EndMask": masks, "ShrinkAxisMask": 0, "EllipsisMask": 0, "NewAxisMask": 0},
    )
    ctx.set_output(out_index, out)


def slice_(ctx):
    x = ctx.input(0)
    rank = x.rank
    if ctx.opset < 10:
        starts, ends = ctx.attr("starts"), ctx.attr("ends")
        axes, steps = ctx.attr("axes"), None
    else:
        starts = ctx.const_input(1, "starts")
        ends = ctx.const_input(2, "ends")
        axes = ctx.const_input(3, "axes")
        steps = ctx.const_input(4, "steps")
    if starts is None or ends is None:
        raise ctx.error("starts or ends is missing")
    starts = ctx.ints(starts, "starts")
    ends = ctx.ints(ends, "ends", len(starts))
    axes = list(range(len(starts))) if axes is None else ctx.ints(axes, "axes", len(starts))
    axes = ctx.axes(axes, rank, "axes")
    steps = [1] * len(starts) if steps is None else ctx.ints(steps, "steps", len(starts))
    begin, end, stride, mask = [0] * rank, list(x.shape), [1] * rank, 0
    for s, e, a, st in zip(starts, ends, axes, steps):
        n = int(x.shape[a])
        if st == 0:
            raise ctx.error("a slice step is 0")
        st = max(min(st, max(n, 1)), -max(n, 1))  # a step past the whole axis selects one element either way
        s = s + n if s < 0 else s
        e = e + n if e < 0 else e
        if st > 0:
            s, e = min(max(s, 0), n), min(max(e, 0), n)
        else:
            s, e = min(max(s, 0), n - 1), min(max(e, -1), n - 1)
        begin[a], end[a], stride[a] = s, e, st
        if st < 0 and e == -1:
            mask |= 1 << a  # "to the start": an end index of -1 would mean the last element in TFLite
    _slice_op(ctx, x, ctx.out_name(), begin, end, stride, mask, ctx.out_shape(0))


def split(ctx):
    x = ctx.input(0)
    axis = ctx.axis(ctx.attr("axis", 0), x.rank)
    sizes = ctx.attr("split") if ctx.opset < 13 else ctx.const_input(1, "the split sizes")
    n = ctx.num_outputs()
    total = int(x.shape[axis])
    if sizes is None:
        chunk = -(-total // n)
        sizes = [max(0, min(chunk, total - i * chunk)) for i in range(n)]
    sizes = ctx.ints(sizes, "the split sizes", n)
    if any(s < 0 for s in sizes) or sum(sizes) != total:
        raise ctx.error(f"the split sizes {sizes} do not divide axis {axis} of length {total}")
    start = 0
    for i, size in enumerate(sizes):
        if not ctx.out_name(i):
            start += size
            continue
        begin, end = [0] * x.rank, list(x.shape)
        begin[axis], end[axis] = start, start + size
        shape = list(x.shape)
        shape[axis] = size
        _slice_op(ctx, x, ctx.out_name(i), begin, end, [1] * x.rank, 0, shape, i)
        start += size


def gather(ctx):
    b = ctx.b
    x = ctx.input(0)
    idx = np.asarray(ctx.const_input(1, "the indices"))
    axis = ctx.axis(ctx.attr("axis", 0), x.rank)
    n = int(x.shape[axis])
    if idx.dtype.kind not in "iu" or idx.size and (idx.min() < -n or idx.max() >= n):
        raise ctx.error(
            f"the indices ({idx.dtype}, {idx.reshape(-1)[:8].tolist()}) must be integers in [{-n}, "
            f"{n - 1}] for axis {axis} of length {n}"
        )
    src = data_tensor(ctx, x, "onnx")
    out = b.like(x, ctx.out_name(), ctx.out_shape(0))
    dst = out.tensors["onnx"]
    if idx.ndim == 0:  # a scalar index removes the axis: gather one row, then reshape the axis away
        dst = b.new_tensor(f"{ctx.name}:row", x.shape[:axis] + (1,) + x.shape[axis + 1 :], dst.dtype, dst.quant)
    indices = np.asarray(idx, np.int64).reshape(idx.shape or (1,))
    b.add_op(
        "GATHER", [src, b.const_tensor(f"{ctx.name}:indices", indices, "int64")], [dst], {"Axis": axis, "BatchDims": 0}
    )
    if idx.ndim == 0:
        b.add_op("RESHAPE", [dst], [out.tensors["onnx"]])
    ctx.set_output(0, out)


def pad(ctx):
    b = ctx.b
    x = ctx.input(0)
    mode = ctx.attr_str("mode", "constant")
    if mode not in ("constant", "reflect", "edge", "wrap"):
        raise ctx.unsupported(f"mode '{mode}' is not supported (constant, reflect, edge and wrap are)")
    if ctx.opset < 11:
        pads, value = ctx.attr("pads", ctx.attr("paddings")), float(ctx.attr("value", 0.0))
        axes = None
    else:
        pads = ctx.const_input(1, "the pads")
        value = ctx.const_input(2, "the constant value")
        value = 0.0 if value is None or np.asarray(value).size == 0 else float(ctx.scalar(value, "the constant value"))
        axes = ctx.const_input(3, "the axes")
    if pads is None:
        raise ctx.error("the pads are missing")
    rank = x.rank
    axes = list(range(rank)) if axes is None else ctx.axes(ctx.ints(axes, "the axes"), rank, "the axes")
    pads = ctx.ints(pads, "the pads", 2 * len(axes))
    pairs = [[0, 0] for _ in range(rank)]
    for i, a in enumerate(axes):
        pairs[a] = [pads[i], pads[i + len(axes)]]
    if any(p < 0 for pr in pairs for p in pr):
        raise ctx.unsupported(f"negative pads {pads} (cropping) are not supported")
    if any(p > limits.INT32_MAX for pr in pairs for p in pr):
        raise ctx.unsupported(f"pads {pads} are not supported (at most {limits.INT32_MAX})")
    if rank > 4:
        raise ctx.unsupported(f"input rank {rank} is above 4")
    if mode == "constant" and x.dtype == "int8" and value != 0.0:
        raise ctx.unsupported("int8 padding with a non-zero constant value is not supported")
    if mode == "constant" and x.dtype not in ("float32", "int8"):
        raise ctx.unsupported(f"constant padding of {x.dtype} data is not supported (float32, int8)")
    layout = "nhwc" if rank == 4 and b.preferred_layout(x) == "nhwc" else "onnx"
    if layout == "nhwc":
        pairs = [pairs[a] for a in TO_NHWC]
    src = data_tensor(ctx, x, layout)
    shape = [int(d) + p[0] + p[1] for d, p in zip(src.shape, pairs)]
    out = b.like(x, ctx.out_name(), shape, layout)
    inputs = [src, b.const_tensor(f"{ctx.name}:pads", np.asarray(pairs, np.int32), "int32")]
    if mode != "constant":
        b.add_op("PAD_MODE", inputs, [out.tensors[layout]], {"Mode": mode})
        ctx.set_output(0, out)
        return
    kind = "PAD"
    if value != 0.0:
        kind = "PADV2"
        inputs.append(b.const_tensor(f"{ctx.name}:value", np.asarray([value], np.float32), "float32"))
    b.add_op(kind, inputs, [out.tensors[layout]])
    ctx.set_output(0, out)


def expand(ctx):
    """Expand: numpy broadcasting of the input and the constant shape (a 1 in either keeps the other's size)."""
    b = ctx.b
    x = ctx.input(0)
    shape = ctx.ints(ctx.const_input(1, "the shape"), "the shape")
    try:
        target = tuple(int(d) for d in np.broadcast_shapes(tuple(x.shape), tuple(shape)))
    except ValueError:
        raise ctx.error(f"the input of shape {list(x.shape)} does not broadcast with the shape {list(shape)}") from None
    if any(d <= 0 for d in target):
        raise ctx.unsupported(f"an empty result (shape {list(target)}) is not supported")
    out = b.like(x, ctx.out_name(), target)
    b.add_op(
        "BROADCAST_TO", [data_tensor(ctx, x, "onnx"), b.int32_const(f"{ctx.name}:shape", target)], [out.tensors["onnx"]]
    )
    ctx.set_output(0, out)


def tile(ctx):
    b = ctx.b
    x = ctx.input(0)
    reps = ctx.ints(ctx.const_input(1, "the repeats"), "the repeats", x.rank)
    if any(r < 1 for r in reps):
        raise ctx.unsupported(f"repeats {list(reps)}: only positive counts are supported (0 gives an empty tensor)")
    out = b.like(x, ctx.out_name(), tuple(int(d) * int(r) for d, r in zip(x.shape, reps)))
    b.add_op("TILE", [data_tensor(ctx, x, "onnx"), b.int32_const(f"{ctx.name}:repeats", reps)], [out.tensors["onnx"]])
    ctx.set_output(0, out)


CONVERTERS = {
    "Expand": (expand, "move"),
    "Tile": (tile, "move"),
    "Reshape": (reshape, "move"),
    "Flatten": (flatten, "move"),
    "Squeeze": (squeeze_like, "move"),
    "Unsqueeze": (squeeze_like, "move"),
    "Transpose": (transpose, "move"),
    "Concat": (concat, "move"),
    "Slice": (slice_, "move"),
    "Split": (split, "move"),
    "Gather": (gather, "move"),
    "Pad": (pad, "move"),
}

__all__ = ["CONVERTERS", "TO_NCHW"]
