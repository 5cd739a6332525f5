"""STRIDED_SLICE lowering with constant begin/end/strides, up to 6-D, any element type (data only moves).

Start and stop per axis follow TFLite's StridedSlice (negative indices count from the end, begin/end masks
take the whole axis in the stride's direction, shrink_axis drops an axis of size 1); the result is one
strided copy.  Ellipsis and new-axis masks are not supported.
"""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from .common.checks import const_int_array, require_inputs, require_same_dtype
from .transpose import MAX_RANK, emit_strided_copy, pad_view, row_major_strides


def _clamp(v, lo, hi):
    return max(lo, min(hi, v))


def slice_view(op):
    """(sizes, input steps, start element, kept-axis flags) of the slice."""
    inp = op.input(0)
    rank = len(inp.shape)
    begin = const_int_array(op, op.input(1), "begin").reshape(-1).tolist()
    end = const_int_array(op, op.input(2), "end").reshape(-1).tolist()
    strides = const_int_array(op, op.input(3), "strides").reshape(-1).tolist()
    if not len(begin) == len(end) == len(strides) == rank:
        raise CompileError(
            f"Operator {op.index} ({op.kind}): begin/end/strides need {rank} values each for input "
            f"'{inp.name}' of shape {list(inp.shape)}."
        )
    o = op.options
    bmask, emask, smask = int(o.get("BeginMask", 0)), int(o.get("EndMask", 0)), int(o.get("ShrinkAxisMask", 0))
    in_strides = row_major_strides(inp.shape)
    sizes, steps, keep, start_elem = [], [], [], 0
    for d in range(rank):
        n, s = int(inp.shape[d]), int(strides[d])
        if s == 0:
            raise CompileError(f"Operator {op.index} ({op.kind}): stride 0 on axis {d}.")
        lo, hi = (0, n) if s > 0 else (-1, n - 1)
        if bmask >> d & 1:
            start = lo if s > 0 else hi
        else:
            start = int(begin[d])
            start = start + n if start < 0 else start
            start = _clamp(start, lo, hi)
        if smask >> d & 1:
            stop = start + 1
        elif emask >> d & 1:
            stop = hi if s > 0 else lo
        else:
            stop = int(end[d])
            stop = stop + n if stop < 0 else stop
            stop = _clamp(stop, lo, hi)
        size = max(0, (stop - start + (s - 1 if s > 0 else s + 1)) // s)
        sizes.append(size)
        steps.append(s * in_strides[d])
        keep.append(not smask >> d & 1)
        if size:
            start_elem += start * in_strides[d]
    return sizes, steps, start_elem, keep


@register
class StridedSlice(OpLowering):
    builtins = ("STRIDED_SLICE",)
    dtypes = ("int8", "int16", "float32", "int32", "bool")
    header = "aot/kernels/strided_copy.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 4)
        inp, out = op.input(0), op.output
        require_same_dtype(op, inp, out)
        o = op.options
        for name in ("EllipsisMask", "NewAxisMask", "Offset"):
            if o.get(name):
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}) uses {name}; only begin, end and shrink masks are supported."
                )
        if len(inp.shape) > MAX_RANK:
            raise UnsupportedError(f"Operator {op.index} ({op.kind}): input rank {len(inp.shape)} is above {MAX_RANK}.")
        sizes, _, _, keep = slice_view(op)
        want = [s for s, k in zip(sizes, keep) if k]
        if want != [int(d) for d in out.shape]:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): output '{out.name}' has shape "
                f"{list(out.shape)} but the slice of {list(inp.shape)} has {want}."
            )

    def prepare(self, op):
        sizes, steps, start, _ = slice_view(op)
        dims, st = pad_view(sizes, steps)
        op.params = dict(dims=dims, steps=st, start=int(start))
        op.kernel = "aot_strided_copy"

    def emit(self, op, ctx):
        if op.output.num_elements == 0:
            return []
        return emit_strided_copy(op, ctx, op.params["start"])


__all__ = ["StridedSlice", "slice_view", "np"]
