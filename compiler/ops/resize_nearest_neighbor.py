"""RESIZE_NEAREST_NEIGHBOR (float32, int8, int16) with a constant output size: the source row and column of every
output pixel are computed here in float32 exactly as TFLite Micro does (scale (in - 1) / (out - 1) with
align_corners, in / out otherwise; +0.5 with half_pixel_centers; rounded half away from zero with align_corners,
floored otherwise; clamped) and stored as byte offsets (rows inside an image, pixels inside a row), so the kernel
only copies pixels: words for pixels of a multiple of 4 bytes, a whole row when it repeats the previous one.  One
kernel for every core (word moves need no extension); the kernel table lists it."""

import math

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import const_int_array, require_inputs, require_same_dtype, require_same_quant
from .kernel_table import Layer, select


def nearest_indices(in_size: int, out_size: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    f32 = np.float32
    scale = f32(in_size - 1) / f32(out_size - 1) if align_corners and out_size > 1 else f32(in_size) / f32(out_size)
    offset = f32(0.5) if half_pixel else f32(0.0)
    out = []
    for v in range(out_size):
        x = float((f32(v) + offset) * scale)
        i = int(math.copysign(math.floor(abs(x) + 0.5), x)) if align_corners else int(math.floor(x))
        i = min(i, in_size - 1)
        out.append(max(0, i) if half_pixel else i)
    return np.array(out, np.int32)


@register
class ResizeNearestNeighbor(OpLowering):
    builtins = ("RESIZE_NEAREST_NEIGHBOR",)
    dtypes = ("float32", "int8", "int16")
    header = "aot/kernels/resize_nearest.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        x, out = op.input(0), op.output
        require_same_dtype(op, x, out)
        if len(x.shape) != 4:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input '{x.name}' has rank {len(x.shape)}; "
                "RESIZE_NEAREST_NEIGHBOR takes 4-D NHWC data."
            )
        size = [int(v) for v in const_int_array(op, op.input(1), "the size operand").reshape(-1)]
        want = [int(x.shape[0]), *size, int(x.shape[3])]
        if len(size) != 2 or [int(d) for d in out.shape] != want:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): output '{out.name}' has shape {list(out.shape)}; "
                f"size {size} gives {want}."
            )
        if x.dtype in ("int8", "int16"):
            require_same_quant(
                op,
                x,
                out,
                "input",
                "output",
                "RESIZE_NEAREST_NEIGHBOR copies stored values: input and output need one quantization.",
            )

    def prepare(self, op):
        x, out = op.input(0), op.output
        n, h, w, c = (int(d) for d in x.shape)
        oh, ow = int(out.shape[1]), int(out.shape[2])
        ac, hp = bool(op.options.get("AlignCorners", False)), bool(op.options.get("HalfPixelCenters", False))
        pixel = DTYPES[x.dtype].size * c
        rows = nearest_indices(h, oh, ac, hp) * np.int32(w * pixel)
        cols = nearest_indices(w, ow, ac, hp) * np.int32(pixel)
        p = dict(dims=(n, h * w * pixel, pixel, oh, ow), rows=rows, cols=cols, table_bytes=rows.nbytes + cols.nbytes)
        select(op, p, Layer())

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    *p["dims"],
                    ctx.param(f"op{op.index}_rows", p["rows"], "int32_t"),
                    ctx.param(f"op{op.index}_cols", p["cols"], "int32_t"),
                ],
            )
        ]
