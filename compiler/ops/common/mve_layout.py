"""Weight layout and set-up of the Helium (MVE) int8 kernels (Cortex-M55, see targets.has_mve).

aot_conv2d_s8_mve and aot_fully_connected_s8_mve (crt/src/kernels/mve_s8.h) multiply one or two rows of K int8
inputs by four output channels at a time, 16 taps per VMLADAVA.  They read the weights in blocks of 4 output
channels: first the K % 16 last taps of each channel of the block, then per 16 taps the 16 weights of each channel;
the last out_c % 4 channels follow row by row.  (Tails first: a 16-byte load of the last channel's tail then stays
inside its block whenever K >= 16, which lets the convolution's block loop read tails unpredicated against rows
zero-padded in scratch.)  Only the order of the bytes changes: the weights stay exactly as large
as in the model file.  The input zero point is always folded into the bias (im2col pads with it); requantization
takes TFLite's per-channel multiplier and shift as they are, so every layer qualifies unless that fold overflows.
aot_depthwise_conv2d_s8_mve (depth multiplier 1) reads the model's filter as it is, with the same folded bias.
aot_depthwise_conv2d_s8_mve_plane (small images, see plane_geometry) reads it channel by channel ([C][kh * kw]).
"""

import numpy as np

from ...passes.fold_zero_point import fold_input_offset
from ...targets import has_mve
from .conv import conv_args, requant_args, residual_call


def mve_rows(rows: np.ndarray) -> np.ndarray:
    """[R, K] int8 weights (one output channel per row) -> the kernels' int8 byte stream (R * K bytes)."""
    rows = np.asarray(rows, np.int8)
    r, k = rows.shape
    blocks = r // 4
    full = k // 16 * 16
    parts = []
    if blocks:
        head = rows[: 4 * blocks].reshape(blocks, 4, k)
        chunks = head[:, :, :full].reshape(blocks, 4, k // 16, 16).transpose(0, 2, 1, 3).reshape(blocks, -1)
        tails = head[:, :, full:].reshape(blocks, -1)
        parts.append(np.concatenate([tails, chunks], axis=1).reshape(-1))
    parts.append(rows[4 * blocks :].reshape(-1))
    out = np.concatenate(parts)
    assert out.size == rows.size
    return out


def mve_row_bytes(k: int, out_c: int) -> int:
    """Bytes of one im2col row of aot_conv2d_s8_mve (its `kp`): K, or K rounded up to 16 with zeros when the
    block loop takes the K % 16 tail taps unpredicated (K > 16 not a multiple of 16, out_c a multiple of 4)."""
    if k > 16 and k % 16 and out_c % 4 == 0:
        return (k + 15) // 16 * 16
    return k


def mve_gemm_params(op, rows: np.ndarray, bias_arr, input_zero_point: int, mult, shift):
    """The MVE parameters of a GEMM layer with weights `rows` [channels, K], or None when the target has no MVE or
    the zero point cannot be folded into int32 biases (the layer then keeps another kernel)."""
    if not has_mve(getattr(op, "target", "host")):
        return None
    try:
        bias = fold_input_offset(rows, bias_arr, -int(input_zero_point))
    except OverflowError:
        return None
    # mult / shift: one per channel, or one for all (fully connected layers with per-tensor weights).
    return dict(
        mve_weights=mve_rows(rows),
        mve_bias=np.asarray(bias, np.int32),
        mve_mult=np.asarray(mult, np.int32),
        mve_shift=np.asarray(shift, np.int32),
        in_zp=int(input_zero_point),
    )


def prepare_mve_conv(op, p: dict, rows: np.ndarray, bias_arr, input_zero_point: int) -> bool:
    """aot_conv2d_s8_mve for a convolution (no groups) with weights `rows` [oc, kh * kw * ic]."""
    m = mve_gemm_params(op, rows, bias_arr, input_zero_point, p["mult"], p["shift"])
    if m is None:
        return False
    direct = p["kh"] == 1 and p["kw"] == 1 and p["pad_t"] == 0 and p["pad_l"] == 0
    # im2col rows of two pixels; a 1x1 filter without padding reads its rows from the input.
    m["mve_scratch"] = 0 if direct else 2 * mve_row_bytes(rows.shape[1], rows.shape[0])
    p.update(m)
    return True


# Channels per group of the strip form (AOT_DWS_GROUP_MAX in depthwise_conv2d_s8_mve_strip.h) and its entry and
# strip widths (struct aot_dws_ch, AOT_DWS_W1 / AOT_DWS_W2).
DWS_GROUP_MAX = 16
DWS_ENTRY = 48
DWS_WIDTH = {1: 6, 2: 5}


def strip_scratch(stride: int, channels: int, oh: int, ow: int) -> int:
    """The scratch aot_dws_scratch_bytes asks beyond the padded band for a 3x3 layer (stride 1 or 2) whose windows
    leave the image: the table entries and strips of up to 16 channels when the strip form takes the layer's
    width (0 otherwise)."""
    if not (ow >= 7 if stride == 1 else ow >= 10 and oh >= 2):
        return 0
    strip = ((oh - 1) * stride + 3) * DWS_WIDTH[stride]
    return min(channels, DWS_GROUP_MAX) * (DWS_ENTRY + strip) + 16


def prepare_mve_depthwise(op, p: dict, rows: np.ndarray, bias_arr, input_zero_point: int) -> bool:
    """aot_depthwise_conv2d_s8_mve for a depthwise convolution with depth multiplier 1 and more than one channel
    (one channel runs as a convolution); rows: [channels, kh * kw].  The filter keeps the model's layout."""
    if p["mult_depth"] != 1 or p["ic"] == 1:
        return False
    m = mve_gemm_params(op, rows, bias_arr, input_zero_point, p["mult"], p["shift"])
    if m is None:
        return False
    del m["mve_weights"]
    # Output rows whose windows leave the image read a band of kh input rows padded with the zero point.
    span_h, span_w = (p["kh"] - 1) * p["dh"], (p["kw"] - 1) * p["dw"]
    band_w = (p["ow"] - 1) * p["sw"] + span_w + 1
    inside = p["pad_t"] == 0 and p["pad_l"] == 0 and (p["oh"] - 1) * p["sh"] + span_h < p["ih"] and band_w <= p["iw"]
    m["mve_scratch"] = 0 if inside else p["kh"] * band_w * p["ic"]
    if not inside and p["kh"] == p["kw"] == 3 and p["dh"] == p["dw"] == 1 and p["sh"] == p["sw"] in (1, 2):
        m["mve_scratch"] = max(m["mve_scratch"], strip_scratch(p["sw"], p["ic"], p["oh"], p["ow"]))
    p.update(m)
    return True


# Channels per transposition into planes (AOT_DWP_GROUP in depthwise_conv2d_s8_mve_plane.c).
PLANE_GROUP = 8


def plane_geometry(p: dict):
    """(plane_w, plane_bytes, span) of aot_depthwise_conv2d_s8_mve_plane for the layer p, computed as the kernel
    does: plane rows of plane_w bytes (a row's right padding is the next row's left padding), 16 bytes of zero point
    after the last row, and span: how many consecutive plane bytes hold a window's taps."""
    last = (p["ow"] - 1) * p["sw"] + (p["kw"] - 1) * p["dw"]
    plane_w = max(p["iw"] + p["pad_l"], last - p["pad_l"] + 1)
    rows = (p["oh"] - 1) * p["sh"] + (p["kh"] - 1) * p["dh"] + 1
    span = (p["kh"] - 1) * p["dh"] * plane_w + (p["kw"] - 1) * p["dw"] + 1
    return plane_w, rows * plane_w + 16, span


def plane_when(op, p: dict):
    """None when aot_depthwise_conv2d_s8_mve_plane runs the layer (every window's taps within one 16-byte load of
    its channel's plane), else why not."""
    if p["mult_depth"] != 1:
        return f"depth multiplier {p['mult_depth']}"
    plane_w, _, span = plane_geometry(p)
    if span > 16:
        return (
            f"a window spans {span} bytes of a {plane_w}-byte-wide channel plane (at most 16: one vector "
            "load per window)"
        )
    return None


def prepare_mve_depthwise_plane(op, p: dict, rows: np.ndarray, bias_arr, input_zero_point: int) -> bool:
    """aot_depthwise_conv2d_s8_mve_plane (plane_when holds); rows: [channels, kh * kw], which is its filter
    layout (the model's bytes, channel by channel)."""
    m = mve_gemm_params(op, rows, bias_arr, input_zero_point, p["mult"], p["shift"])
    if m is None:
        return False
    m["mve_weights"] = np.ascontiguousarray(np.asarray(rows, np.int8)).reshape(-1)
    m["mve_scratch"] = min(p["ic"], PLANE_GROUP) * plane_geometry(p)[1]
    p.update(m)
    return True


def mve_args(op, ctx, in_c: int, weights, out_c=None) -> list:
    """The arguments of the MVE convolution kernels (conv_args, then the requantization and the scratch)."""
    p = op.params
    args = conv_args(op, ctx, in_c, (weights, "int8_t"), (p["mve_bias"], "int32_t"), out_c=out_c)
    args += requant_args(op, ctx, p["in_zp"], p["mve_mult"], p["mve_shift"])
    return args + [ctx.scratch(op, "int8_t") if p["mve_scratch"] else "0"]


def dws_fits(p: dict) -> bool:
    """Whether the strip form (depthwise_conv2d_s8_mve_strip.h) runs a 3x3 layer (dilation 1, stride_h == stride_w of
    1 or 2) whose windows leave the image, given its scratch: wide enough outputs (strip_scratch), one channel's
    table entry, strip and last load within the scratch, the gather offsets of two image rows within 16 bits."""
    s = p["sw"]
    rows = (p["oh"] - 1) * s + 3
    if not strip_scratch(s, p["ic"], p["oh"], p["ow"]):
        return False
    return DWS_ENTRY + rows * DWS_WIDTH[s] + 16 <= p["mve_scratch"] and (2 * p["iw"] - 1) * p["ic"] <= 65535


def dw_mve_entry(p: dict) -> str:
    """Which aot_depthwise_conv2d_s8_mve entry point (aot/kernels/depthwise_conv2d.h) a layer calls, each in a unit of
    its own so that an image links only the forms its layers take: the strip form, the 3x3 forms (the padded-image
    or the row form when all shifts are right shifts, else both with the general requantization), or the generic
    form."""
    if not (p["kh"] == p["kw"] == 3 and p["dh"] == p["dw"] == 1 and p["sw"] in (1, 2)):
        return "aot_depthwise_conv2d_s8_mve"
    if p["sh"] == p["sw"] and p["mve_scratch"] and dws_fits(p):
        return "aot_depthwise_conv2d_s8_mve_strip"
    if p["ic"] % 8 == 0 and p["ow"] >= 2:
        if not mve_all_right(p["mve_shift"], p["mve_mult"]):
            return "aot_depthwise_conv2d_s8_mve_3x3_left"
        return "aot_depthwise_conv2d_s8_mve_3x3_image" if dw3_image_form(p) else "aot_depthwise_conv2d_s8_mve_3x3"
    return "aot_depthwise_conv2d_s8_mve"


def dw3_image_form(p: dict) -> bool:
    """Whether a layer of the 3x3 forms takes the padded-image form (aot_dw3_image_form in
    depthwise_conv2d_s8_mve_3x3.h): padded sideways, stride_h == stride_w, the padded image of 8 channels within the
    3 rows of all channels the scratch holds."""
    band_w = (p["ow"] - 1) * p["sw"] + 3
    in_place = p["pad_l"] == 0 and band_w <= p["iw"]
    return not in_place and p["sh"] == p["sw"] and ((p["oh"] - 1) * p["sw"] + 3) * 8 <= 3 * p["ic"]


def emit_mve_depthwise(op, ctx) -> list:
    """The aot_depthwise_conv2d_s8_mve call (the entry point of the layer's form): the model's filter as it is."""
    return [ctx.call(dw_mve_entry(op.params), mve_args(op, ctx, op.params["ic"], op.input(1).data))]


def dwp_entry(p: dict) -> str:
    """aot_depthwise_conv2d_s8_mve_plane_s1 for a plane layer of stride_w 1 whose shifts are all right shifts (a unit
    of its own: such images do not link the general loop and requantization), else aot_depthwise_conv2d_s8_mve_plane."""
    if p["sw"] == 1 and mve_all_right(p["mve_shift"], p["mve_mult"]):
        return "aot_depthwise_conv2d_s8_mve_plane_s1"
    return "aot_depthwise_conv2d_s8_mve_plane"


def emit_mve_depthwise_plane(op, ctx) -> list:
    """The aot_depthwise_conv2d_s8_mve_plane call (or _s1): its filter channel by channel."""
    return [ctx.call(dwp_entry(op.params), mve_args(op, ctx, op.params["ic"], op.params["mve_weights"]))]


def mve_all_right(shift, mult) -> bool:
    """Every channel shifts right or has multiplier 0 (aot_mve_all_right's test, made here on the constants)."""
    return not bool(np.any((np.asarray(shift) >= 0) & (np.asarray(mult) != 0)))


def emit_mve_conv(op, ctx, in_c: int, out_c: int) -> list:
    """The aot_conv2d_s8_mve call (with a fused residual ADD: aot_conv2d_s8_mve_add) prepared above; a layer with
    a left shift calls the general pass, aot_conv2d_s8_mve_left (_left_add), in units of their own so that images
    without such a layer do not link it, as do layers with padded rows (mve_conv_entry)."""
    p = op.params
    if not mve_all_right(p["mve_shift"], p["mve_mult"]):
        fn = op.kernel + "_left"
    elif "residual" in p:
        fn = op.kernel + "_runs" if mve_runs_only(p, in_c, out_c) else op.kernel
    else:
        fn = mve_conv_entry(p, in_c, out_c)
    return [residual_call(op, ctx, mve_args(op, ctx, in_c, p["mve_weights"], out_c=out_c), fn)]


# Output channels one call of aot_mve_runs_pairs takes (4 * AOT_MVE_BLOCKS in mve_s8.h).
MVE_RUNS_MAX_OC = 64


def mve_runs_only(p: dict, in_c: int, out_c: int) -> bool:
    """Whether aot_mve_runs_pairs takes every pixel pair of a right-shift layer without padded rows
    (aot_conv2d_s8_mve_runs_pass in conv2d_s8_mve_pass.h): out_c a multiple of 4 up to MVE_RUNS_MAX_OC, filter rows of
    whole 16-byte passes, dilation 1 along x, an even pixel count, and a 1x1 filter without padding (read in place)
    only when it is not the image's own size at stride 1 and every window is inside the image."""
    if out_c % 4 or out_c > MVE_RUNS_MAX_OC or p["dw"] != 1 or (p["kw"] * in_c) % 16:
        return False
    if (p["n"] * p["oh"] * p["ow"]) % 2:
        return False
    if p["kh"] == 1 and p["kw"] == 1 and p["pad_t"] == 0 and p["pad_l"] == 0:
        flat = p["sh"] == 1 and p["sw"] == 1 and p["oh"] == p["ih"] and p["ow"] == p["iw"]
        inside = (p["oh"] - 1) * p["sh"] < p["ih"] and (p["ow"] - 1) * p["sw"] < p["iw"]
        return not flat and inside
    return True


def mve_gemm_entry(op, in_c: int, out_c: int) -> str:
    """The function emit_mve_conv calls (for reports; a fused ADD's *_add form is the kernel's)."""
    p = op.params
    if not mve_all_right(p["mve_shift"], p["mve_mult"]):
        return op.kernel + "_left"
    return op.kernel if "residual" in p else mve_conv_entry(p, in_c, out_c)


# Output channels of the first-layer form (4 * AOT_MVE_FIRST_BLOCKS in conv2d_s8_mve.c).
MVE_FIRST_MAX_OC = 32


def mve_gathers_border(p: dict, in_c: int) -> bool:
    """aot_mve_gather_offsets returns 2 (conv2d_s8_mve_pass.h): K <= 48 taps within 256 bytes of the first, and
    windows leaving the image gathered too (window rows and columns within a byte, the padding not negative)."""
    k = p["kh"] * p["kw"] * in_c
    last = ((p["kh"] - 1) * p["dh"] * p["iw"] + (p["kw"] - 1) * p["dw"]) * in_c + in_c - 1
    y_end = (p["oh"] - 1) * p["sh"] - p["pad_t"] + (p["kh"] - 1) * p["dh"]
    x_end = (p["ow"] - 1) * p["sw"] - p["pad_l"] + (p["kw"] - 1) * p["dw"]
    return (
        k <= 48
        and last <= 255
        and y_end <= 255
        and x_end <= 255
        and p["pad_t"] >= 0
        and p["pad_l"] >= 0
        and p["ih"] < 256 - p["pad_t"]
        and p["iw"] < 256 - p["pad_l"]
    )


def mve_conv_entry(p: dict, in_c: int, out_c: int) -> str:
    """The entry point of a convolution whose shifts are all right shifts, without a fused ADD, each in a unit of its
    own so that an image links only the passes its layers take: aot_conv2d_s8_mve_tail for a layer whose im2col rows
    are zero-padded for the block loop (mve_row_bytes(K, out_c) != K, not a 1x1 read in place) unless the first-layer
    form of aot_conv2d_s8_mve takes it (16 < K < 32, out_c a multiple of 4 up to 32, dilation_w 1, an even pixel
    count, windows gathered at the border: aot_conv2d_s8_mve_first in conv2d_s8_mve.c), else aot_conv2d_s8_mve."""
    k = p["kh"] * p["kw"] * in_c
    if (
        16 < k < 32
        and out_c % 4 == 0
        and out_c <= MVE_FIRST_MAX_OC
        and p["dw"] == 1
        and (p["n"] * p["oh"] * p["ow"]) % 2 == 0
        and mve_gathers_border(p, in_c)
    ):
        return "aot_conv2d_s8_mve"
    direct = p["kh"] == 1 and p["kw"] == 1 and p["pad_t"] == 0 and p["pad_l"] == 0
    if not direct and mve_row_bytes(k, out_c) != k:
        return "aot_conv2d_s8_mve_tail"
    return "aot_conv2d_s8_mve"
