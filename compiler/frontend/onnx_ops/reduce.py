"""Reductions over axes: ReduceMean (MEAN), ReduceMax / ReduceMin / ReduceSum / ReduceProd (REDUCE_MAX / REDUCE_MIN /
SUM / REDUCE_PROD, on float data; ReduceMin on bool is REDUCE_ALL and ReduceMax on bool "any", i.e. not all of
the negation), ArgMax / ArgMin (ARG_MAX / ARG_MIN: int32 indices, see below) and Softmax
(SOFTMAX over the last axis; other axes are moved last by a TRANSPOSE, or, before opset 13, flattened to 2-D as
that opset defines)."""

import numpy as np

from .common import data_tensor, out_value
from .context import NotQuantizable
from .layout import nhwc_axis


def _reduce(kind, axes_input_opset):
    """ONNX Reduce<kind>: the axes are an attribute before `axes_input_opset`, the optional input 1 from it."""

    def convert(ctx):
        if kind != "MEAN" and ctx.quantized:
            raise NotQuantizable()
        _reduce_to(ctx, kind, ctx.attr("axes") if ctx.opset < axes_input_opset else ctx.const_input(1, "the axes"))

    return convert


def _reduce_to(ctx, kind, axes):
    b = ctx.b
    x = ctx.input(0)
    keep = bool(int(ctx.attr("keepdims", 1)))
    if axes is None or np.asarray(axes).size == 0:
        if int(ctx.attr("noop_with_empty_axes", 0)):
            if ctx.quantized:
                raise NotQuantizable()
            ctx.set_output(0, x)
            return
        axes = list(range(x.rank))
    axes = sorted(ctx.axes(ctx.ints(axes, "the axes"), x.rank, "the axes"))
    if x.rank > 4:
        raise ctx.unsupported(f"input rank {x.rank} is above 4")
    if 0 in [int(d) for d in x.shape] and all(int(x.shape[a]) for a in range(x.rank) if a not in axes):
        _empty_set(ctx, kind, x, axes, keep)  # else the output has no elements either: the kernel does no work
        return
    if x.dtype == "bool":
        _reduce_bool(ctx, kind, x, axes, keep)
        return
    layout = "nhwc" if keep and x.rank == 4 and b.preferred_layout(x) == "nhwc" else "onnx"
    t = data_tensor(ctx, x, layout)
    ir_axes = axes if layout == "onnx" else sorted(nhwc_axis(a) for a in axes)
    shape = [1 if i in ir_axes else d for i, d in enumerate(t.shape)]
    if not keep:
        shape = [d for i, d in enumerate(t.shape) if i not in ir_axes]
    out = out_value(ctx, 0, shape, layout)
    b.add_op(kind, [t, b.int32_const(f"{ctx.name}:axes", ir_axes)], [out.tensors[layout]], {"KeepDims": keep})
    ctx.set_output(0, out)


def _empty_set(ctx, kind, x, axes, keep):
    """A reduction over the empty set (zero-size data, an output with elements) holds the identity, as onnxruntime
    gives: sum 0, product 1, max -inf (false for bool), min +inf (true).  The result is a run-time tensor (a copy
    of the constant), so what follows computes at run time too: a Log after it gives -inf, which no C float
    constant spells; the infinities themselves are LOG of 0 (-inf) and its NEG (+inf)."""
    b = ctx.b
    shape = (
        [1 if i in axes else d for i, d in enumerate(x.shape)]
        if keep
        else [d for i, d in enumerate(x.shape) if i not in axes]
    )
    dtype = "bool" if x.dtype == "bool" else "float32"
    if kind not in ("SUM", "REDUCE_PROD", "REDUCE_MAX", "REDUCE_MIN") or x.dtype not in ("float32", "bool"):
        raise ctx.unsupported(
            f"input '{x.name}' of type {x.dtype} has no elements; reductions over the empty set are supported on "
            "float32 (ReduceSum, ReduceProd, ReduceMax, ReduceMin) and bool (ReduceMax, ReduceMin) data"
        )
    s1 = list(shape) or [1]  # a scalar result is computed as one element, then reshaped
    if kind in ("SUM", "REDUCE_PROD") or dtype == "bool":
        value = {"SUM": 0, "REDUCE_PROD": 1, "REDUCE_MAX": 0, "REDUCE_MIN": 1}[kind]
        res = b.const_tensor(
            f"{ctx.name}:identity", np.full(s1, value, np.bool_ if dtype == "bool" else np.float32), dtype
        )
    else:
        res = b.new_tensor(f"{ctx.name}:neg_inf", s1, "float32")
        b.add_op("LOG", [b.const_tensor(f"{ctx.name}:zero", np.zeros(s1, np.float32), "float32")], [res])
        if kind == "REDUCE_MIN":
            pos = b.new_tensor(f"{ctx.name}:pos_inf", s1, "float32")
            b.add_op("NEG", [res], [pos])
            res = pos
    out = b.runtime_value(ctx.out_name(), tuple(shape), dtype)
    b.add_op("RESHAPE", [res], [out.tensors["onnx"]])
    ctx.set_output(0, out)


def _reduce_bool(ctx, kind, x, axes, keep):
    """ReduceMin over bool is "all" (REDUCE_ALL); ReduceMax is "any": not all of the negated values."""
    b = ctx.b
    if kind not in ("REDUCE_MAX", "REDUCE_MIN"):
        raise ctx.unsupported(f"input '{x.name}' is bool; of the reductions only ReduceMax and ReduceMin take bool")
    t = b.get(x, "onnx")
    shape = (
        [1 if i in axes else d for i, d in enumerate(x.shape)]
        if keep
        else [d for i, d in enumerate(x.shape) if i not in axes]
    )
    axes_t = b.int32_const(f"{ctx.name}:axes", axes)
    out = b.runtime_value(ctx.out_name(), tuple(shape), "bool")
    if kind == "REDUCE_MIN":
        b.add_op("REDUCE_ALL", [t, axes_t], [out.tensors["onnx"]], {"KeepDims": keep})
    else:
        neg = b.new_tensor(f"{ctx.name}:not", x.shape, "bool")
        b.add_op("LOGICAL_NOT", [t], [neg])
        none = b.new_tensor(f"{ctx.name}:all_not", shape, "bool")
        b.add_op("REDUCE_ALL", [neg, axes_t], [none], {"KeepDims": keep})
        b.add_op("LOGICAL_NOT", [none], [out.tensors["onnx"]])
    ctx.set_output(0, out)


def _arg(kind):
    """ArgMax / ArgMin (float32 or int8 data) as ARG_MAX / ARG_MIN over one axis. ONNX gives int64 indices; the
    C API has no 64-bit integers, so the output is int32 (indices < 2^31 always fit). select_last_index = 1 is
    refused (TFLite Micro's kernels return the first index of a tie)."""

    def convert(ctx):
        b = ctx.b
        x = ctx.input(0)
        if int(ctx.attr("select_last_index", 0)):
            raise ctx.unsupported("select_last_index = 1 is not supported (the first index of a tie is returned)")
        axis = ctx.axis(ctx.attr("axis", 0), x.rank)
        keep = bool(int(ctx.attr("keepdims", 1)))
        if x.rank > 4:
            raise ctx.unsupported(f"input rank {x.rank} is above 4")
        t = data_tensor(ctx, x, "onnx")
        shape = [d for i, d in enumerate(x.shape) if i != axis]
        res = b.new_tensor(f"{ctx.name}:indices", shape or [1], "int32")
        b.add_op(kind, [t, b.int32_const(f"{ctx.name}:axis", [axis])], [res], {"OutputType": 2})
        final = [1 if i == axis else d for i, d in enumerate(x.shape)] if keep else shape
        out = b.runtime_value(ctx.out_name(), tuple(final), "int32", "onnx")
        b.add_op("RESHAPE", [res], [out.tensors["onnx"]])
        ctx.set_output(0, out)

    return convert


def softmax(ctx):
    if ctx.quantized:
        raise NotQuantizable()
    b = ctx.b
    x = ctx.input(0)
    rank = x.rank
    axis = ctx.axis(ctx.attr("axis", 1 if ctx.opset < 13 else -1), rank, inclusive=ctx.opset < 13)
    if ctx.opset < 13:
        # Coerced to 2-D [prod(shape[:axis]), prod(shape[axis:])]: one SOFTMAX over the flattened rows.
        t = data_tensor(ctx, x, "onnx")
        rows = (int(np.prod(x.shape[:axis])), int(np.prod(x.shape[axis:])))
        flat = b.new_tensor(f"{ctx.name}:2d", rows, t.dtype)
        b.add_op("RESHAPE", [t], [flat])
        res = b.new_tensor(f"{ctx.name}:2d_out", rows, t.dtype)
        b.add_op("SOFTMAX", [flat], [res], {"Beta": 1.0})
        out = out_value(ctx, 0, x.shape)
        b.add_op("RESHAPE", [res], [out.tensors["onnx"]])
        ctx.set_output(0, out)
        return
    if rank == 4 and axis == 1 and b.preferred_layout(x) == "nhwc":
        t = data_tensor(ctx, x, "nhwc")
        out = out_value(ctx, 0, t.shape, "nhwc")
        b.add_op("SOFTMAX", [t], [out.tensors["nhwc"]], {"Beta": 1.0})
        ctx.set_output(0, out)
        return
    t = data_tensor(ctx, x, "onnx")
    if axis == rank - 1:
        out = out_value(ctx, 0, x.shape)
        b.add_op("SOFTMAX", [t], [out.tensors["onnx"]], {"Beta": 1.0})
        ctx.set_output(0, out)
        return
    perm = [d for d in range(rank) if d != axis] + [axis]
    inv = [perm.index(d) for d in range(rank)]
    moved = b.new_tensor(f"{ctx.name}:moved", [x.shape[p] for p in perm], t.dtype)
    b.add_op("TRANSPOSE", [t, b.int32_const(f"{ctx.name}:perm", perm)], [moved])
    res = b.new_tensor(f"{ctx.name}:moved_out", moved.shape, t.dtype)
    b.add_op("SOFTMAX", [moved], [res], {"Beta": 1.0})
    out = out_value(ctx, 0, x.shape)
    b.add_op("TRANSPOSE", [res, b.int32_const(f"{ctx.name}:inv", inv)], [out.tensors["onnx"]])
    ctx.set_output(0, out)


CONVERTERS = {
    "ReduceMean": (_reduce("MEAN", 18), "compute"),
    "ReduceMax": (_reduce("REDUCE_MAX", 18), "compute"),
    "ReduceMin": (_reduce("REDUCE_MIN", 18), "compute"),
    "ReduceSum": (_reduce("SUM", 13), "compute"),
    "ReduceProd": (_reduce("REDUCE_PROD", 18), "compute"),
    "ArgMax": (_arg("ARG_MAX"), "compute"),
    "ArgMin": (_arg("ARG_MIN"), "compute"),
    "Softmax": (softmax, "compute"),
}
