"""Operators whose every output is a strided view of their one data input, copied by the shared strided copy
(aot/kernels/strided_copy.h): SLICE, REVERSE_V2, BROADCAST_TO, TILE, FILL, SPACE_TO_DEPTH, DEPTH_TO_SPACE,
BATCH_TO_SPACE_ND (4-D, without crops: batch_to_space_nd.py takes the others) and SPACE_TO_BATCH_ND (4-D, without
paddings: space_to_batch_nd.py takes the others), SPLIT, SPLIT_V and UNPACK. Each output is
described by its dims, the input step per output dimension (0 to repeat, negative to reverse) and the input element of
output element 0, all computed here from the constant operands; data only
moves, so quantized outputs must carry the input's quantization (as TFLite Micro copies stored values).
"""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import const_int_array, require_same_quant
from .transpose import MAX_RANK, pad_view, row_major_strides

# (number of inputs, position of the data input)
_DATA = {
    "SLICE": (3, 0),
    "REVERSE_V2": (2, 0),
    "BROADCAST_TO": (2, 0),
    "TILE": (2, 0),
    "SPACE_TO_DEPTH": (1, 0),
    "DEPTH_TO_SPACE": (1, 0),
    "SPLIT": (2, 1),
    "SPLIT_V": (3, 0),
    "UNPACK": (1, 0),
    "FILL": (2, 1),
    "BATCH_TO_SPACE_ND": (3, 0),
    "SPACE_TO_BATCH_ND": (3, 0),
}

# The views TFLite Micro also runs on uint8 (its other view kernels reject uint8).
_UINT8 = ("BROADCAST_TO", "REVERSE_V2")


def _fail(op, what):
    return CompileError(f"Operator {op.index} ({op.kind}): {what}.")


def _axis(op, value, rank):
    if not -rank <= int(value) < rank:
        raise _fail(op, f"axis {int(value)} is out of range for rank {rank}")
    return int(value) % rank


def _merge_dims(dims, steps):
    """(dims, steps, 0) with size-1 dimensions dropped and neighbours that walk memory as one dimension merged
    (fewer view dimensions)."""
    kept = [(d, s) for d, s in zip(dims, steps) if d != 1] or [(1, 0)]
    dims, steps = [d for d, _ in kept], [s for _, s in kept]
    md, ms = [dims[0]], [steps[0]]
    for d, s in zip(dims[1:], steps[1:]):
        if ms[-1] == d * s:
            md[-1] *= d
            ms[-1] = s
        else:
            md.append(d)
            ms.append(s)
    return md, ms, 0


def _views(op) -> list:
    """[(dims, steps, start)] per output, in input elements."""
    x = op.input(_DATA[op.kind][1])
    shape = [int(d) for d in x.shape]
    rank = len(shape)
    st = row_major_strides(shape)
    k = op.kind
    if k == "SLICE":
        begin = const_int_array(op, op.input(1), "the begin operand").reshape(-1).tolist()
        size = const_int_array(op, op.input(2), "the size operand").reshape(-1).tolist()
        if len(begin) != rank or len(size) != rank:
            raise _fail(op, f"begin {begin} and size {size} must have one entry per input dimension ({rank})")
        size = [shape[d] - begin[d] if size[d] == -1 else size[d] for d in range(rank)]
        if any(b < 0 or s < 0 or b + s > shape[d] for d, (b, s) in enumerate(zip(begin, size))):
            raise _fail(op, f"begin {begin} with size {size} is outside the input shape {shape}")
        return [(size, st, sum(b * s for b, s in zip(begin, st)))]
    if k == "REVERSE_V2":
        axes = {_axis(op, a, rank) for a in const_int_array(op, op.input(1), "the axis operand").reshape(-1)}
        return [(shape, [-s if d in axes else s for d, s in enumerate(st)], sum((shape[d] - 1) * st[d] for d in axes))]
    if k == "BROADCAST_TO":
        target = [int(v) for v in const_int_array(op, op.input(1), "the shape operand").reshape(-1)]
        pad = len(target) - rank
        if pad < 0:
            raise _fail(op, f"the target shape {target} has fewer dimensions than the input {shape}")
        xs, xst = [1] * pad + shape, [0] * pad + st
        if any(a != t and a != 1 for a, t in zip(xs, target)):
            raise _fail(op, f"input shape {shape} does not broadcast to {target}")
        return [(target, [0 if a == 1 and t != 1 else s for a, t, s in zip(xs, target, xst)], 0)]
    if k == "TILE":
        mult = [int(v) for v in const_int_array(op, op.input(1), "the multiples operand").reshape(-1)]
        if len(mult) != rank or any(m < 1 for m in mult):
            raise _fail(op, f"multiples {mult} must be one positive count per input dimension ({rank})")
        # Each repeated dimension d becomes [multiples[d], shape[d]], the outer one with step 0.
        dims, steps = [], []
        for d in range(rank):
            if mult[d] > 1:
                dims.append(mult[d])
                steps.append(0)
            dims.append(shape[d])
            steps.append(st[d])
        return [_merge_dims(dims, steps)]
    if k == "FILL":
        dims = [int(v) for v in const_int_array(op, op.input(0), "the dims operand").reshape(-1)]
        if x.num_elements != 1:
            raise _fail(op, f"the value '{x.name}' must be a scalar (it has {x.num_elements} elements)")
        return [(dims, [0] * len(dims), 0)]
    if k in ("BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND"):
        block = [int(v) for v in const_int_array(op, op.input(1), "the block shape operand").reshape(-1)]
        edges = const_int_array(op, op.input(2), "the crops/paddings operand").reshape(-1)
        what = "crops" if k == "BATCH_TO_SPACE_ND" else "paddings"
        if rank != 4 or len(block) != 2:
            raise UnsupportedError(
                f"Operator {op.index} ({k}): supported on 4-D NHWC input with a 2-D block "
                f"(input {shape}, block {block})."
            )
        if edges.size and np.any(edges != 0):  # batch_to_space_nd.py / space_to_batch_nd.py take these
            raise _fail(op, f"non-zero {what} {edges.tolist()} reached the strided view")
        (bh, bw), (n, h, w, c) = block, shape
        if k == "BATCH_TO_SPACE_ND":
            if n % (bh * bw):
                raise _fail(op, f"batch {n} is not a multiple of the block size {bh * bw}")
            no = n // (bh * bw)
            # output [n', h*bh + i, w*bw + j, ch] = input [(i*bw + j)*no + n', h, w, ch]
            return [([no, h, bh, w, bw, c], [h * w * c, w * c, bw * no * h * w * c, c, no * h * w * c, 1], 0)]
        if h % bh or w % bw:
            raise _fail(op, f"height {h} and width {w} must be multiples of the block {block}")
        # output [(i*bw + j)*n + n', h', w', ch] = input [n', h'*bh + i, w'*bw + j, ch]
        return [([bh, bw, n, h // bh, w // bw, c], [w * c, c, h * w * c, bh * w * c, bw * c, 1], 0)]
    if k in ("SPACE_TO_DEPTH", "DEPTH_TO_SPACE"):
        bs = int(op.options.get("BlockSize", 0))
        if rank != 4 or bs < 1:
            raise _fail(op, f"needs a 4-D NHWC input and a block size of at least 1 (input {shape}, block {bs})")
        n, h, w, c = shape
        if k == "SPACE_TO_DEPTH":
            if h % bs or w % bs:
                raise _fail(op, f"height {h} and width {w} must be multiples of the block size {bs}")
            # output [n, h/bs, w/bs, (i*bs + j)*c + ch] = input [n, h'*bs + i, w'*bs + j, ch]
            return [([n, h // bs, w // bs, bs, bs, c], [h * w * c, bs * w * c, bs * c, w * c, c, 1], 0)]
        if c % (bs * bs):
            raise _fail(op, f"depth {c} must be a multiple of the block size squared ({bs * bs})")
        co = c // (bs * bs)
        # output [n, h*bs + i, w*bs + j, ch] = input [n, h, w, (i*bs + j)*co + ch]
        return [([n, h, bs, w, bs, co], [h * w * c, w * c, bs * co, c, co, 1], 0)]
    # SPLIT / SPLIT_V / UNPACK: one slice along an axis per output.
    if k == "UNPACK":
        axis = _axis(op, op.options.get("Axis", 0), rank)
        dims = [d for i, d in enumerate(shape) if i != axis]
        steps = [s for i, s in enumerate(st) if i != axis]
        return [(dims, steps, j * st[axis]) for j in range(shape[axis])]
    if k == "SPLIT":
        axis = _axis(op, const_int_array(op, op.input(0), "the axis operand").reshape(-1)[0], rank)
        num = len(op.outputs)
        if shape[axis] % num:
            raise _fail(op, f"dimension {axis} of size {shape[axis]} does not split into {num} equal parts")
        sizes = [shape[axis] // num] * num
    else:
        axis = _axis(op, const_int_array(op, op.input(2), "the axis operand").reshape(-1)[0], rank)
        sizes = [int(v) for v in const_int_array(op, op.input(1), "the size_splits operand").reshape(-1)]
        if sizes.count(-1) == 1:
            sizes[sizes.index(-1)] = shape[axis] - (sum(sizes) + 1)
        if len(sizes) != len(op.outputs) or sum(sizes) != shape[axis] or min(sizes) < 0:
            raise _fail(
                op,
                f"size_splits {sizes} do not split dimension {axis} of size {shape[axis]} into {len(op.outputs)} parts",
            )
    views, at = [], 0
    for s in sizes:
        dims = list(shape)
        dims[axis] = s
        views.append((dims, st, at * st[axis]))
        at += s
    return views


# A view deeper than the kernel's MAX_RANK dimensions (a TILE of a 4-D tensor repeated along every axis) runs as
# one MAX_RANK-D copy per index of its outer dimensions, each writing its own contiguous block of the output; at
# most this many copies (the generated code has one call per copy).
MAX_SPLIT = 64


def _split_view(dims, steps, start) -> list:
    """[(dims6, steps6, input start, output element offset)]: the view as MAX_RANK-D copies."""
    outer = max(0, len(dims) - MAX_RANK)
    inner = int(np.prod(dims[outer:]))
    parts = []
    for k, idx in enumerate(np.ndindex(*[int(d) for d in dims[:outer]])):
        at = int(start) + sum(int(i) * int(s) for i, s in zip(idx, steps[:outer]))
        parts.append((*pad_view(dims[outer:], steps[outer:]), at, k * inner))
    return parts


@register
class StridedView(OpLowering):
    # batch_to_space_nd.py and space_to_batch_nd.py subclass this one for their views and take the other cases.
    builtins = tuple(k for k in _DATA if k not in ("BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND"))
    dtypes = ("float32", "int8", "int16", "int32", "bool")
    header = "aot/kernels/strided_copy.h"
    num_outputs = (1, 64)

    def check(self, op):
        n_in, data = _DATA[op.kind]
        if len(op.inputs) < n_in or any(t is None for t in op.inputs[:n_in]):
            raise _fail(op, f"expects {n_in} inputs")
        if op.kind not in ("SPLIT", "SPLIT_V", "UNPACK") and len(op.outputs) != 1:
            raise _fail(op, "expects one output")
        x = op.input(data)
        for out in op.outputs:
            if out.dtype != x.dtype:
                raise _fail(op, f"output '{out.name}' is {out.dtype} but the input '{x.name}' is {x.dtype}")
            dtypes = self.dtypes + (("uint8",) if op.kind in _UINT8 else ())
            if x.dtype not in dtypes:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}) on tensor '{x.name}' of type {x.dtype}; "
                    f"{op.kind} is supported for: {', '.join(dtypes)}."
                )
            if x.dtype in ("int8", "int16") or (x.dtype == "uint8" and None not in (x.quant, out.quant)):
                require_same_quant(
                    op,
                    x,
                    out,
                    "input",
                    f"output '{out.name}'",
                    f"{op.kind} moves values without rescaling: its outputs need the input's quantization.",
                )
        views = _views(op)
        if len(views) != len(op.outputs):
            raise _fail(op, f"has {len(op.outputs)} outputs where {len(views)} are expected")
        for out, (dims, _, _) in zip(op.outputs, views):
            if int(np.prod(dims[: max(0, len(dims) - MAX_RANK)])) > MAX_SPLIT:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}) needs a {len(dims)}-D view whose outer "
                    f"{len(dims) - MAX_RANK} dimensions {list(dims[: len(dims) - MAX_RANK])} make more than "
                    f"{MAX_SPLIT} {MAX_RANK}-D copies; up to {MAX_RANK}-D views are supported, or deeper ones whose "
                    f"outer dimensions make at most {MAX_SPLIT} copies."
                )
            if int(np.prod(dims)) != out.num_elements:
                raise _fail(
                    op,
                    f"output '{out.name}' has shape {list(out.shape)}, the operator gives "
                    f"{int(np.prod(dims))} elements",
                )

    def prepare(self, op):
        op.kernel = "aot_strided_copy"
        op.params = dict(views=[_split_view(d, s, start) for d, s, start in _views(op)])

    def emit(self, op, ctx):
        x = op.input(_DATA[op.kind][1])
        lines = []
        for i, (out, parts) in enumerate(zip(op.outputs, op.params["views"])):
            for dims, steps, start, out_at in parts:
                dst = ctx.ptr(out) if out_at == 0 else f"({ctx.ptr(out)} + {out_at})"
                lines.append(
                    ctx.call(
                        "aot_strided_copy",
                        [
                            ctx.ptr(x),
                            dst,
                            DTYPES[out.dtype].size,
                            ctx.param(f"op{op.index}_dims{i}", dims, "int32_t"),
                            ctx.param(f"op{op.index}_steps{i}", steps, "int32_t"),
                            start,
                        ],
                    )
                )
        return lines
