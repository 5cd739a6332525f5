"""RESIZE_BILINEAR in float32 with a constant output size, on the separable resampling kernel
(aot/kernels/resize_separable.h): the two source rows (columns) and their weights per output row (column) are
computed here in float32 as TFLite Micro's reference does (scale, half-pixel offset, floor / ceil clamped to the
input). int8 is TFLite Micro's integer form: 10-bit fixed-point source positions and weights computed here and
stored as byte offsets of the two source rows (columns) and the second's weight (fast_taps); the kernels sum the
four products exactly in 32 bits (aot/kernels/resize_bilinear.h; TFLite sums in 64) and the kernel table picks
them (Helium on the Cortex-M55, portable elsewhere); input and output share one quantization. int16 is refused
(TFLite Micro has none)."""

import math

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from .common.checks import const_int_array, require_inputs, require_same_dtype, require_same_quant
from .kernel_table import Layer, select


def _tdiv(a: int, b: int) -> int:
    """C integer division (truncating toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def bilinear_taps_10(in_size: int, out_size: int, align_corners: bool, half_pixel: bool):
    """(rows [out, 2], weights [out, 2] in 1/1024) as TFLite's integer resize computes them."""
    scale = ((1 << 10) * in_size + out_size // 2) // out_size
    if align_corners and out_size > 1:
        scale = ((1 << 10) * (in_size - 1) + (out_size - 1) // 2) // (out_size - 1)
    at = np.zeros((out_size, 2), np.int32)
    w = np.zeros((out_size, 2), np.int32)
    for v in range(out_size):
        s = v * scale + scale // 2 - (1 << 9) if half_pixel else v * scale
        lo = max(_tdiv(s, 1 << 10), 0)
        hi = min(_tdiv(s + (1 << 10) - 1, 1 << 10), in_size - 1)
        frac = s - (1 << 10) * lo
        at[v] = (lo, hi)
        w[v] = ((1 << 10) - frac, frac)
    return at, w


def fast_taps(at: np.ndarray, w: np.ndarray, in_size: int, stride: int):
    """The int8 kernels' form of bilinear_taps_10: (byte offsets [out, 2] = index * stride, int16 weight of the
    second source [out]).  TFLite's weights of one output always sum to 1024; when both sources are the same
    (clamped at an edge, where the weights can leave [0, 1024]) the pair becomes (1024, 0): the same sum, and
    every weight then lies in [0, 1023], so a product of two fits 20 bits and the kernels' 32-bit sums are exact."""
    off = np.zeros((len(at), 2), np.int32)
    second = np.zeros(len(at), np.int16)
    for v, ((lo, hi), (w0, w1)) in enumerate(zip(at.tolist(), w.tolist())):
        if not (0 <= lo < in_size and 0 <= hi < in_size and w0 + w1 == 1024):
            raise CompileError(
                f"RESIZE_BILINEAR: source index {lo}/{hi} of output {v} leaves the input of {in_size} (internal)."
            )
        if lo != hi and not 0 <= w1 < 1024:
            raise CompileError(f"RESIZE_BILINEAR: weight {w1} of output {v} outside [0, 1024) (internal).")
        off[v] = (lo * stride, hi * stride)
        second[v] = 0 if lo == hi else w1
    return off, second


def bilinear_taps(in_size: int, out_size: int, align_corners: bool, half_pixel: bool):
    f32 = np.float32
    scale = f32(in_size) / f32(out_size)
    if align_corners and out_size > 1:
        scale = f32(in_size - 1) / f32(out_size - 1)
    at = np.zeros((out_size, 2), np.int32)
    w = np.zeros((out_size, 2), np.float32)
    for v in range(out_size):
        s = (f32(v) + f32(0.5)) * scale - f32(0.5) if half_pixel else f32(v) * scale
        lo = max(int(math.floor(float(s))), 0)
        hi = min(int(math.ceil(float(s))), in_size - 1)
        frac = f32(s - f32(lo))
        at[v] = (lo, hi)
        w[v] = (f32(1) - frac, frac)
    return at, w


@register
class ResizeBilinear(OpLowering):
    builtins = ("RESIZE_BILINEAR",)
    dtypes = ("float32", "int8", "int16")
    header = "aot/kernels/resize_separable.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        x, out = op.input(0), op.output
        dtype = require_same_dtype(op, x, out)
        if dtype == "int16":
            raise UnsupportedError(
                f"Operator {op.index} (RESIZE_BILINEAR) on int16 tensor '{x.name}'; it is "
                "supported for float32 and int8 (as in TFLite Micro)."
            )
        if dtype == "int8":
            require_same_quant(
                op,
                x,
                out,
                "input",
                "output",
                "RESIZE_BILINEAR interpolates stored values: input and output need one quantization.",
            )
        if len(x.shape) != 4:
            raise UnsupportedError(
                f"Operator {op.index} (RESIZE_BILINEAR): input '{x.name}' has rank "
                f"{len(x.shape)}; 4-D NHWC data is supported."
            )
        size = [int(v) for v in const_int_array(op, op.input(1), "the size operand").reshape(-1)]
        want = [int(x.shape[0]), *size, int(x.shape[3])]
        if len(size) != 2 or [int(d) for d in out.shape] != want:
            raise CompileError(
                f"Operator {op.index} (RESIZE_BILINEAR): output '{out.name}' has shape "
                f"{list(out.shape)}; size {size} gives {want}."
            )

    def prepare(self, op):
        n, h, w, c = (int(d) for d in op.input(0).shape)
        oh, ow = int(op.output.shape[1]), int(op.output.shape[2])
        ac, hp = bool(op.options.get("AlignCorners", False)), bool(op.options.get("HalfPixelCenters", False))
        if op.input(0).dtype == "int8":
            rows, row_w = fast_taps(*bilinear_taps_10(h, oh, ac, hp), h, w * c)
            cols, col_w = fast_taps(*bilinear_taps_10(w, ow, ac, hp), w, c)
            taps = (rows, row_w, cols, col_w)
            p = dict(dims=(n, h * w * c, c, oh, ow), taps=taps, table_bytes=sum(t.nbytes for t in taps))
            select(op, p, Layer())
            return
        row_at, row_w = bilinear_taps(h, oh, ac, hp)
        col_at, col_w = bilinear_taps(w, ow, ac, hp)
        op.kernel = "aot_resize_separable_f32"
        op.params = dict(dims=np.array([n, h, w, c, oh, ow, 2, 2], np.int32), taps=(row_at, row_w, col_at, col_w))

    def headers(self, op):
        return ["aot/kernels/resize_bilinear.h" if op.input(0).dtype == "int8" else self.header]

    def emit(self, op, ctx):
        row_at, row_w, col_at, col_w = op.params["taps"]
        if op.input(0).dtype == "int8":
            return [
                ctx.call(
                    op.kernel,
                    [
                        ctx.ptr(op.input(0)),
                        ctx.ptr(op.output),
                        *op.params["dims"],
                        ctx.param(f"op{op.index}_rows", row_at.reshape(-1), "int32_t"),
                        ctx.param(f"op{op.index}_row_w", row_w, "int16_t"),
                        ctx.param(f"op{op.index}_cols", col_at.reshape(-1), "int32_t"),
                        ctx.param(f"op{op.index}_col_w", col_w, "int16_t"),
                    ],
                )
            ]
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    ctx.param(f"op{op.index}_dims", op.params["dims"], "int32_t"),
                    ctx.param(f"op{op.index}_row_at", row_at.reshape(-1), "int32_t"),
                    ctx.param(f"op{op.index}_row_w", row_w.reshape(-1), "float"),
                    ctx.param(f"op{op.index}_col_at", col_at.reshape(-1), "int32_t"),
                    ctx.param(f"op{op.index}_col_w", col_w.reshape(-1), "float"),
                ],
            )
        ]
