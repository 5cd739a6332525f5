"""DEPTHWISE_CONV_2D lowering (int8 per-channel and float32, any depth multiplier)."""

import numpy as np

from ..errors import CompileError
from ._base import OpLowering, register
from ._dsp_layout import fits_int32
from ._short_requant import ACC_LIMIT, acc_range
from ._mve_layout import emit_mve_conv, emit_mve_depthwise
from .kernel_table import Layer, select
from . import _specialize
from ._common import activation_range_f32, fused_activation
from ._int16 import acc16_params
from ._conv_common import (
    check_conv_dtype,
    check_conv_tensors,
    conv_geometry,
    emit_dsp_gemm,
    emit_portable_conv,
    folded_requant,
    prepare_int8_conv,
    residual_headers,
    residual_inplace_input,
)


# Accumulators the 3x3 DSP kernel keeps before a requantization pass (AOT_DW_ACC_CELLS in its source).
DSP_ACC_CELLS = 64


def dsp_3x3_scratch(out_rows: int, out_cols: int, stride_r: int, stride_c: int) -> int:
    """Scratch bytes of aot_depthwise_conv2d_s8_dsp (its header comment has the same formula): R rows of n
    accumulators, then two int16 planes of Hp x Wp, rounded up to 16 bytes."""
    n = (out_cols + 1) // 2 * 2 if stride_c <= 2 else out_cols
    hp, wp = (out_rows - 1) * stride_r + 3, ((n - 1) * stride_c + 3 + 1) // 2 * 2
    rows = min(out_rows, max(1, DSP_ACC_CELLS // n))
    return (4 * rows * n + 2 * hp * wp * 2 + 15) // 16 * 16


# Bytes per channel of the records aot_depthwise_conv2d_s8_dsp_c4 builds in scratch (AOT_DW_C4_RECORD int32
# words per four channels).
DSP_C4_RECORD = 34


def dsp_c4_scratch(out_cols: int, stride_c: int, channels: int) -> int:
    """Scratch bytes of aot_depthwise_conv2d_s8_dsp_c4 (its header comment has the same formula): the records,
    then four band rows of Wp pixels, rounded up to 16 bytes."""
    return (DSP_C4_RECORD * channels + 4 * ((out_cols - 1) * stride_c + 3) * channels + 15) // 16 * 16


def dsp_c4_params(bias2: np.ndarray, mult: np.ndarray, radd: np.ndarray) -> np.ndarray:
    """Per group of four channels the 12 int32 constants aot_depthwise_conv2d_s8_dsp_c4 reads in order, in two
    halves (channels c, c+1 for c = 0, then 2): the two channels' doubled bias, then per channel its multiplier
    and add constant (the right shift is recovered from the add constant, dsp_s8.h)."""
    c = np.asarray(bias2).shape[0]
    bias2, mult, radd = (np.broadcast_to(np.asarray(v, np.int64), (c,)).reshape(c // 4, 4) for v in (bias2, mult, radd))
    parts = []
    for h in (0, 2):
        parts += [
            bias2[:, h : h + 2],
            mult[:, h : h + 1],
            radd[:, h : h + 1],
            mult[:, h + 1 : h + 2],
            radd[:, h + 1 : h + 2],
        ]
    rec = np.concatenate(parts, axis=1)
    assert rec.shape[1] == 12 and fits_int32(rec)
    return rec.astype(np.int32).reshape(-1)


# The planar kernel's cost per output grows as images shrink (per channel set-up over fewer outputs), the
# channel-vectorized one's does not (measured on mps2-an386, instructions per output: planar 22.5 at 48x48,
# 24.7 at 12x12, 30.5 at 6x6, 51 at 3x3; _c4 about 30 everywhere).  Strided layers copy 4 input values per
# output into the planes (planar about 35 per output at stride 2, _c4 29).
C4_MAX_PIXELS = 36


def use_c4(channels: int, out_h: int, out_w: int, stride: tuple) -> bool:
    """Kernel choice on DSP cores: aot_depthwise_conv2d_s8_dsp_c4 for channel counts in whole groups of four
    when the image is small (at most C4_MAX_PIXELS output pixels) or the layer is strided, else the planar
    aot_depthwise_conv2d_s8_dsp."""
    return channels % 4 == 0 and (stride != (1, 1) or out_h * out_w <= C4_MAX_PIXELS)


def prepare_dsp_3x3(op, p, rows, bias_arr, in_zp):
    """aot_depthwise_conv2d_s8_dsp or its _c4 form (zero point always folded: its plane pads with it); None, or
    why the layer's numbers keep it off them."""
    try:
        short, exact = folded_requant(p, rows, bias_arr, in_zp)
    except OverflowError:
        return "folding the input zero point into the bias overflows int32"
    if exact:
        # aot_depthwise_conv2d_s8_dsp_exact: TFLite's full requantization of its doubled accumulators.
        lo, hi = acc_range(short[0], rows)
        if lo.min(initial=0) < -ACC_LIMIT or hi.max(initial=0) >= ACC_LIMIT:
            return "the doubled accumulators of the exact requantization may reach 2^31"
    bias, p["mult"], radd = short
    # The kernel pairs outputs along plane rows: let them run along the longer side of the image.
    transpose = p["oh"] > p["ow"]
    o_r, o_c, s_r, s_c = (p["ow"], p["oh"], p["sw"], p["sh"])
    if not transpose:
        o_r, o_c, s_r, s_c = p["oh"], p["ow"], p["sh"], p["sw"]
    if not exact and use_c4(p["ic"], p["oh"], p["ow"], (p["sh"], p["sw"])):
        p.update(
            dsp_c4_p=dsp_c4_params(2 * np.asarray(bias, np.int64), p["mult"], radd),
            in_zp=in_zp,
            dsp_scratch=dsp_c4_scratch(p["ow"], p["sw"], p["ic"]),
        )
        op.kernel = "aot_depthwise_conv2d_s8_dsp_c4"
        return None
    p.update(
        dsp_bias=2 * np.asarray(bias, np.int64),
        radd=radd,
        in_zp=in_zp,
        dsp_exact=exact,
        dsp_transpose=transpose,
        dsp_scratch=dsp_3x3_scratch(o_r, o_c, s_r, s_c),
    )
    op.kernel = "aot_depthwise_conv2d_s8_dsp"
    return None


@register
class DepthwiseConv2D(OpLowering):
    builtins = ("DEPTHWISE_CONV_2D",)
    dtypes = ("int8", "int16", "float32")
    header = "aot/kernels/depthwise_conv2d.h"

    def check(self, op):
        super().check(op)
        inp, filt, _, out, dtype = check_conv_tensors(op)
        if filt.shape[0] != 1 or out.shape[3] != filt.shape[3] or out.shape[3] % inp.shape[3]:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): filter shape {list(filt.shape)} is not a "
                f"depthwise filter for input {list(inp.shape)} -> output {list(out.shape)}."
            )
        check_conv_dtype(op, dtype, channel_axis=3)

    def prepare(self, op):
        inp, filt, bias, out = op.input(0), op.input(1), op.input(2), op.output
        _, kh, kw, _ = filt.shape
        oc = out.shape[3]
        p, unpadded = conv_geometry(op)
        act = fused_activation(op)
        p.update(mult_depth=oc // p["ic"])
        if inp.dtype == "int16":
            p.update(acc16_params(op, inp, filt, bias, out, filt.data.reshape(kh * kw, oc).T, oc, act))
            select(op, p, Layer())
        elif inp.dtype == "int8":
            # [1, kh, kw, oc] -> per output channel rows for the zero-point fold.
            prepare_int8_conv(op, p, filt.data.reshape(kh * kw, oc).T, act, unpadded, in_c=1)
        else:
            p.update(act=activation_range_f32(act), bias=None if bias is None else bias.data.astype(np.float32))
            op.kernel = "aot_depthwise_conv2d_f32"
        op.params = p

    def headers(self, op):
        if op.kernel in _specialize.BODIES:
            return [_specialize.header(op)]
        if op.kernel in ("aot_conv2d_s8_dsp", "aot_conv2d_s8_mve"):
            return ["aot/kernels/conv2d.h"] + residual_headers(op)
        return [self.header]

    def inplace_input(self, op):
        # Only the GEMM kernel (one input channel) takes a fused residual ADD.
        return residual_inplace_input(op)

    def scratch_bytes(self, op):
        if op.kernel in ("aot_conv2d_s8_mve", "aot_depthwise_conv2d_s8_mve", "aot_depthwise_conv2d_s8_mve_plane"):
            return op.params["mve_scratch"]
        return op.params.get("dsp_scratch", 0) if op.kernel.endswith(("_dsp", "_dsp_c4")) else 0

    def emit(self, op, ctx):
        p = op.params
        if op.kernel in _specialize.BODIES:
            return _specialize.emit(op, ctx)
        if op.kernel == "aot_conv2d_s8_mve":
            return emit_mve_conv(op, ctx, 1, op.output.shape[3])
        if op.kernel in ("aot_depthwise_conv2d_s8_mve", "aot_depthwise_conv2d_s8_mve_plane"):
            return emit_mve_depthwise(op, ctx)
        if op.kernel == "aot_conv2d_s8_dsp":
            return emit_dsp_gemm(op, ctx, 1, op.output.shape[3])
        if op.kernel == "aot_depthwise_conv2d_s8_dsp_c4":
            args = [
                ctx.ptr(op.input(0)),
                p["n"],
                p["ic"],
                p["ih"],
                p["iw"],
                ctx.weight(f"op{op.index}_filter", op.input(1).data, "int8_t"),
                ctx.param(f"op{op.index}_c4", p["dsp_c4_p"], "int32_t"),
                ctx.ptr(op.output),
                p["oh"],
                p["ow"],
                p["sh"],
                p["sw"],
                p["pad_t"],
                p["pad_l"],
                p["in_zp"],
                p["act"][0],
                p["act"][1],
                ctx.scratch(op, "int32_t"),
            ]
            return [ctx.call(op.kernel, args)]
        if op.kernel == "aot_depthwise_conv2d_s8_dsp":
            inp, filt, out = op.input(0), op.input(1), op.output
            c = p["ic"]
            rows = dict(
                in_n=p["ih"], in_step=p["iw"] * c, out_n=p["oh"], out_step=p["ow"] * c, s=p["sh"], pad=p["pad_t"]
            )
            cols = dict(in_n=p["iw"], in_step=c, out_n=p["ow"], out_step=c, s=p["sw"], pad=p["pad_l"])
            weights = filt.data
            if p["dsp_transpose"]:
                rows, cols = cols, rows
                weights = np.ascontiguousarray(weights.transpose(0, 2, 1, 3))
            args = [
                ctx.ptr(inp),
                p["n"],
                c,
                rows["in_n"],
                cols["in_n"],
                rows["in_step"],
                cols["in_step"],
                ctx.weight(f"op{op.index}_filter", weights, "int8_t"),
                ctx.weight(f"op{op.index}_bias", p["dsp_bias"], "int32_t"),
                ctx.ptr(out),
                rows["out_n"],
                cols["out_n"],
                rows["out_step"],
                cols["out_step"],
                rows["s"],
                cols["s"],
                rows["pad"],
                cols["pad"],
                p["in_zp"],
                ctx.param(f"op{op.index}_mult", p["mult"], "int32_t"),
                ctx.param(f"op{op.index}_radd", p["radd"], "int32_t"),
                p["act"][0],
                p["act"][1],
                ctx.scratch(op, "int32_t"),
            ]
            return [ctx.call(op.kernel + ("_exact" if p["dsp_exact"] else ""), args)]
        return emit_portable_conv(op, ctx, op.input(1).data, p["mult_depth"])
