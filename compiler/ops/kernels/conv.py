"""The int8 CONV_2D and DEPTHWISE_CONV_2D kernels: the Helium and DSP GEMMs (im2col, shared by convolutions and
depthwise layers with one input channel), the Helium and DSP depthwise kernels, the specialized bodies of the
Cortex-M0/M3 (kernels/specialized.py) and the portable kernels."""

from dataclasses import replace

import numpy as np

from ..common import mve_layout as mve
from ..common.conv import (
    dsp_gemm_entry,
    dsp_gemm_small_tile,
    dsp_gemm_split,
    emit_dsp_gemm,
    folded_requant,
    prepare_dsp_gemm,
    residual_headers,
)
from ..common.dsp_layout import fits_int32
from ..common.kernel import Kernel, use
from ..common.short_requant import ACC_LIMIT, acc_range
from . import specialized


def _fold_reason():
    return "folding the input zero point into the bias overflows int32"


def _grouped(op, p, a):
    return "grouped convolution" if p["kd"] != p["ic"] else None


def _ic1(op, p, a):
    return p["ic"] == 1


def _ic_many(op, p, a):
    return p["ic"] != 1


def _gemm_in_c(op) -> int:
    """The input channels the GEMM sees: the layer's own, or one for a depthwise layer (one channel in)."""
    return 1 if op.kind == "DEPTHWISE_CONV_2D" else op.params["ic"]


def _gemm_headers(op) -> list:
    return ["aot/kernels/conv2d.h"] + residual_headers(op)


def _always(op) -> bool:
    return True


# --- Helium (Cortex-M55) -------------------------------------------------------------------------------------


def _mve_gemm_setup(op, p, a):
    return None if mve.prepare_mve_conv(op, p, a.rows, a.bias, a.in_zp) else _fold_reason()


def _mve_scratch(op) -> int:
    return op.params["mve_scratch"]


GEMM_MVE = Kernel(
    "aot_conv2d_s8_mve",
    "mve",
    _mve_gemm_setup,
    emit=lambda op, ctx: mve.emit_mve_conv(op, ctx, _gemm_in_c(op), op.output.shape[3]),
    headers=_gemm_headers,
    scratch=_mve_scratch,
    residual=_always,
    entry=lambda op: mve.mve_gemm_entry(op, _gemm_in_c(op), op.output.shape[3]),
)

DW_MVE_PLANE = Kernel(
    "aot_depthwise_conv2d_s8_mve_plane",
    "mve",
    lambda op, p, a: None if mve.prepare_mve_depthwise_plane(op, p, a.rows, a.bias, a.in_zp) else _fold_reason(),
    when=lambda op, p, a: mve.plane_when(op, p),
    serves=_ic_many,
    emit=mve.emit_mve_depthwise_plane,
    scratch=_mve_scratch,
    entry=lambda op: mve.dwp_entry(op.params),
)

DW_MVE = Kernel(
    "aot_depthwise_conv2d_s8_mve",
    "mve",
    lambda op, p, a: None if mve.prepare_mve_depthwise(op, p, a.rows, a.bias, a.in_zp) else _fold_reason(),
    when=lambda op, p, a: f"depth multiplier {p['mult_depth']}" if p["mult_depth"] != 1 else None,
    serves=_ic_many,
    emit=mve.emit_mve_depthwise,
    scratch=_mve_scratch,
    entry=lambda op: mve.dw_mve_entry(op.params),
)


# --- the DSP extension (Cortex-M4/M7/M33) ----------------------------------------------------------------------


def _dsp_gemm_shape(op, p, a):
    oc, k = a.rows.shape
    if k < 4:
        # The kernel reads a channel's K % 4 leftover weights as the word ending after them: a whole quad first.
        return f"K = {k} < 4 taps per output"
    if (oc * k) % 4:
        return f"out_c * K = {oc * k} is not a multiple of 4 (the weights are read as words)"
    return None


def _dsp_scratch(op) -> int:
    return op.params.get("dsp_scratch", 0)


def _gemm_scratch(op) -> int:
    """None of its own when the planner put it inside the layer's output and input (dsp_gemm_split); the two-pixel
    tile's where the planner picked that form (dsp_gemm_small_tile)."""
    if "scratch_split" in op.params:
        return 0
    if "dsp_tile" in op.params:
        return op.params["dsp_scratch_t2"]
    return _dsp_scratch(op)


GEMM_DSP = Kernel(
    "aot_conv2d_s8_dsp",
    "dsp",
    lambda op, p, a: prepare_dsp_gemm(op, p, a.rows, a.bias, a.in_zp, a.in_c),
    emit=lambda op, ctx: emit_dsp_gemm(op, ctx, _gemm_in_c(op), op.output.shape[3]),
    headers=_gemm_headers,
    scratch=_gemm_scratch,
    entry=lambda op: dsp_gemm_entry(op.params, _gemm_in_c(op), op.output.shape[3]),
    residual=_always,
    split=dsp_gemm_split,
    small_tile=dsp_gemm_small_tile,
)

# Accumulators the 3x3 DSP kernel keeps before a requantization pass (AOT_DW_ACC_CELLS in its source).
DSP_ACC_CELLS = 160


def dsp_3x3_scratch(out_rows: int, out_cols: int, stride_r: int, stride_c: int, fused: bool = False) -> int:
    """Scratch bytes of aot_depthwise_conv2d_s8_dsp (its header comment has the same formula): R rows of n
    accumulators (none when the layer takes the fused loop: see dsp_3x3_fused), then two int16 planes of Hp x Wp,
    rounded up to 16 bytes."""
    n = (out_cols + 1) // 2 * 2 if stride_c <= 2 else out_cols
    hp, wp = (out_rows - 1) * stride_r + 3, ((n - 1) * stride_c + 3 + 1) // 2 * 2
    rows = 0 if fused else min(out_rows, max(1, DSP_ACC_CELLS // n))
    return (4 * rows * n + 2 * hp * wp * 2 + 15) // 16 * 16


def dsp_3x3_fused(out_cols: int, stride_c: int, act: tuple, exact: bool) -> bool:
    """Whether aot_depthwise_conv2d_s8_dsp requantizes each output pair as it accumulates it (stride 1 along the plane
    rows, at least two outputs per row, the full int8 range, the short requantization): then it keeps no
    accumulators in scratch (the `fused` condition of depthwise_conv2d_s8_dsp_planar.h)."""
    return stride_c == 1 and out_cols >= 2 and act[0] <= -128 and act[1] >= 127 and not exact


def dsp_3x3_weights(filt: np.ndarray) -> np.ndarray:
    """The planar kernel's weight layout from a [1, 3, 3, C] filter in plane orientation: per channel its nine
    weights row by row, (w[r][0], w[r][1], w[r][2]) at byte 3 r ([C, 3, 3] int8, 9 bytes per channel, as many as
    the model's).  The kernel reads each row with one unaligned word load (the last row's at byte 5, so that
    nothing past the array is read) and builds the lane pairs (w0, w1) and (w1, w2) in registers."""
    w = np.asarray(filt, np.int8).reshape(3, 3, -1).transpose(2, 0, 1)
    return np.ascontiguousarray(w)


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


def _dw_dsp_when(op, p, a):
    if (p["kh"], p["kw"]) != (3, 3):
        return f"{p['kh']}x{p['kw']} filter (the DSP depthwise kernels take 3x3)"
    if (p["dh"], p["dw"]) != (1, 1):
        return f"dilation {p['dh']}x{p['dw']}"
    if p["mult_depth"] != 1:
        return f"depth multiplier {p['mult_depth']}"
    return None


def _dw_dsp_setup(op, p, a):
    """aot_depthwise_conv2d_s8_dsp or its _c4 form (zero point always folded: its plane pads with it); None, or
    why the layer's numbers keep it off them."""
    rows, in_zp = a.rows, a.in_zp
    try:
        short, exact = folded_requant(p, rows, a.bias, in_zp)
    except OverflowError:
        return _fold_reason()
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
        use(op, DW_DSP_C4)
        return None
    p.update(
        dsp_bias=2 * np.asarray(bias, np.int64),
        radd=radd,
        in_zp=in_zp,
        dsp_exact=exact,
        dsp_transpose=transpose,
        dsp_scratch=dsp_3x3_scratch(o_r, o_c, s_r, s_c, dsp_3x3_fused(o_c, s_c, p["act"], exact)),
    )
    return None


def _emit_dw_dsp(op, ctx) -> list:
    """The planar 3x3 kernel: rows and columns swapped when the image is taller than wide."""
    p = op.params
    inp, filt, out = op.input(0), op.input(1), op.output
    c = p["ic"]
    rows = dict(in_n=p["ih"], in_step=p["iw"] * c, out_n=p["oh"], out_step=p["ow"] * c, s=p["sh"], pad=p["pad_t"])
    cols = dict(in_n=p["iw"], in_step=c, out_n=p["ow"], out_step=c, s=p["sw"], pad=p["pad_l"])
    weights = filt.data
    if p["dsp_transpose"]:
        rows, cols = cols, rows
        weights = weights.transpose(0, 2, 1, 3)
    weights = dsp_3x3_weights(weights)
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
    return [ctx.call(_dw_dsp_entry(op), args)]


def _dw_dsp_entry(op) -> str:
    return op.kernel + ("_exact" if op.params.get("dsp_exact") else "")


def _emit_dw_dsp_c4(op, ctx) -> list:
    p = op.params
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


DW_DSP = Kernel(
    "aot_depthwise_conv2d_s8_dsp",
    "dsp",
    _dw_dsp_setup,
    when=_dw_dsp_when,
    serves=_ic_many,
    emit=_emit_dw_dsp,
    scratch=_dsp_scratch,
    entry=_dw_dsp_entry,
)
# The channel-vectorized form, chosen by DW_DSP's set-up for small or strided images (use_c4); never a candidate.
DW_DSP_C4 = Kernel("aot_depthwise_conv2d_s8_dsp_c4", "dsp", emit=_emit_dw_dsp_c4, scratch=_dsp_scratch)


# --- every core --------------------------------------------------------------------------------------------------

# Called by the lowerings with the layer's own arguments (ops/common/conv.py emit_portable_conv).
CONV_PORTABLE = Kernel("aot_conv2d_s8", "portable", residual=_always)
DW_PORTABLE = Kernel("aot_depthwise_conv2d_s8", "portable")


TABLE = {
    ("CONV_2D", "int8"): (
        replace(GEMM_MVE, when=_grouped),
        replace(GEMM_DSP, when=lambda op, p, a: _grouped(op, p, a) or _dsp_gemm_shape(op, p, a)),
        specialized.CONV,
        CONV_PORTABLE,
    ),
    ("DEPTHWISE_CONV_2D", "int8"): (
        # One input channel: every output channel is an ordinary convolution of it (filter as [oc, kh * kw]).
        replace(GEMM_MVE, serves=_ic1),
        DW_MVE_PLANE,
        DW_MVE,
        replace(GEMM_DSP, serves=_ic1, when=_dsp_gemm_shape),
        DW_DSP,
        specialized.DEPTHWISE,
        DW_PORTABLE,
    ),
}
