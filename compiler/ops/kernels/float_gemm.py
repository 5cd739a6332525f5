"""The float32 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED kernels of the cores with an FPU.

Convolutions, depthwise layers of one input channel and fully connected layers run as a GEMM of two pixels (or
batch rows) times a block of output channels (crt/src/kernels/gemm_f32_tile.h): 8 channels per block on Helium
(MVE-F: VFMA.F32 by a scalar tap), 4 on the Cortex-M4F/M7/M33 (VLDM, VFMA.F32), the weights stored tap-major per
block ([K][block], the last block zero-padded); Helium's fully connected layers take blocks of up to 16 units
(wide_blocked), each row walked once per block.  Other depthwise layers of depth multiplier 1 take
aot_depthwise_conv2d_f32_vec (pairs of pixels times 4 channels, the model's own filter layout).  Every output is
the portable kernel's sum in the portable kernel's order, each step a fused multiply-add (one rounding per tap
instead of two); the portable kernels remain for grouped convolutions, other depth multipliers and the host.  The
module is named for the GEMM, which most of the work of a float network runs through."""

from dataclasses import replace

import numpy as np

from ..common.kernel import Kernel
from ..common.conv import conv_args

FLT_MAX = 3.4028234663852886e38  # float32's largest, the bound of TFLite's ranges without one

# Output channels per block: the width of the core's loop.
BLOCK = {"mve": 8, "fpu": 4}


def blocked(rows: np.ndarray, block: int) -> np.ndarray:
    """[C, K] rows as ceil(C / block) blocks of [K][block] (channel c of a block at c % block), zero-padded."""
    c, k = rows.shape
    n = -(-c // block)
    padded = np.zeros((n * block, k), np.float32)
    padded[:c] = rows
    return np.ascontiguousarray(padded.reshape(n, block, k).transpose(0, 2, 1))


# Helium's fully connected layout: blocks of up to WIDE units, the last of the remaining units rounded up to 4.
WIDE = 16


def wide_blocked(rows: np.ndarray) -> np.ndarray:
    """[C, K] rows as blocks of WIDE units, each [K][width] (width WIDE, the last block's the remaining units rounded
    up to 4, zero-padded), concatenated: one input's weights of a block are width / 4 vectors in a row, which
    Helium's row loop loads with one VLDM (crt/src/kernels/fully_connected_f32_gemm.c)."""
    c, k = rows.shape
    parts = []
    for o in range(0, c, WIDE):
        width = min(WIDE, -(-(c - o) // 4) * 4)
        padded = np.zeros((width, k), np.float32)
        padded[: min(WIDE, c - o)] = rows[o : o + WIDE]
        parts.append(np.ascontiguousarray(padded.T).reshape(-1))
    return np.concatenate(parts)


def _grouped(op, p, a):
    return "grouped convolution" if p["ic"] != p["kd"] else None


def _ic1(op, p, a):
    return p["ic"] == 1


def _conv_rows(op) -> np.ndarray:
    """The filter as [C, K] rows in the (fy, fx, ic) order of the kernel's gathered windows."""
    filt = op.input(1).data
    if op.kind == "DEPTHWISE_CONV_2D":  # [1, kh, kw, oc], one input channel
        return filt.reshape(-1, filt.shape[3]).T
    return filt.reshape(filt.shape[0], -1)


# A filter row shorter than this (filter_w * in_c taps) is gathered whole into scratch with the rest of its
# window: one pass of the tile instead of filter_h (or, at the edges, filter_h * filter_w) short ones.
SHORT_RUN = 16


def _gathers(op) -> bool:
    p = op.params
    return p["kw"] * p["ic"] < SHORT_RUN and p["kh"] * p["kw"] > 1


def _conv_scratch(op) -> int:
    p = op.params
    return 2 * p["kh"] * p["kw"] * p["ic"] * 4 if _gathers(op) else 0


def _rows4(op) -> bool:
    """Helium's padded-image form (conv2d_f32_gemm.c, AOT_F32_ROWS4): filter rows of 4 floats whose windows step 2
    floats along x (KWS's 10x4 filter on one channel at stride 2)."""
    p = op.params
    return p["kw"] * p["ic"] == 4 and p["sw"] * p["ic"] == 2 and p["dw"] == 1


def _conv_scratch_mve(op) -> int:
    """Helium gathers three windows at a time for its three-pixel tile (conv2d_f32_gemm.c), or (the rows4 form) copies
    the input once, zero-padded to the windows' extent, with 2 floats of slack."""
    p = op.params
    if not _gathers(op):
        return 0
    floats = 3 * p["kh"] * p["kw"] * p["ic"]
    if _rows4(op):
        rows = (p["oh"] - 1) * p["sh"] + (p["kh"] - 1) * p["dh"] + 1
        floats = max(floats, rows * ((p["ow"] - 1) * p["sw"] + p["kw"]) * p["ic"] + 2)
    return floats * 4


def _emit_conv(op, ctx) -> list:
    p = op.params
    block = BLOCK[op.kernel_impl.family]
    filt = (blocked(_conv_rows(op), block), "float")
    args = conv_args(op, ctx, p["ic"], filt, (p["bias"], "float"), kd=block, out_c=op.output.shape[3])
    scratch = ctx.scratch(op, "float") if _gathers(op) else "NULL"
    return [ctx.call(op.kernel, args + [ctx.f32(p["act"][0]), ctx.f32(p["act"][1]), scratch])]


def _mult1(op, p, a):
    return p["mult_depth"] == 1


def _taps_inside(pos: int, size: int, dil: int, taps: int) -> tuple:
    """[lo, hi): the taps of a window at `pos` inside an axis of `size` (the kernel's aot_dw_f32_range)."""
    lo, hi = 0, taps
    while lo < taps and pos + dil * lo < 0:
        lo += 1
    while hi > lo and pos + dil * (hi - 1) >= size:
        hi -= 1
    return lo, hi


def dw_slides3(p: dict) -> bool:
    """Whether aot_depthwise_conv2d_f32_vec on an FPU core slides a single column of 3 tap columns for this layer
    (aot_dw_fpu_slide3, in a unit of its own): the kernel's walk over the output columns
    (depthwise_conv2d_f32_vec_body.h), pairs of columns taken first.  If this says no where the kernel would,
    the column takes the pairs of pixels instead (the same outputs, more instructions: the unit's reference is
    weak), so the walk only has to be right for speed."""
    fpv4_clamp = p.get("fpv4", False) and not (
        p["act"][1] >= FLT_MAX and (p["act"][0] == 0.0 or p["act"][0] <= -FLT_MAX)
    )
    if not (p["kh"] == 3 and p["sh"] == 1 and p["dh"] == 1) or fpv4_clamp or p["ic"] < 2:
        return False
    lo = max(p["pad_t"], 0)
    hi = min(p["ih"] - 2 + p["pad_t"], p["oh"])
    top = p["pad_t"] == 1 and hi >= 1
    bottom = hi < p["oh"] and hi >= lo
    if (hi + bottom) - (lo - top) < 2:
        return False
    pairs = p["sw"] == 1 and p["dw"] == 1 and p["kw"] == 3
    ox = 0
    while ox < p["ow"]:
        x0 = ox * p["sw"] - p["pad_l"]
        xl, xh = _taps_inside(x0, p["iw"], p["dw"], p["kw"])
        if pairs and ox + 1 < p["ow"] and xh == 3 and xh - xl >= 2 and _taps_inside(x0 + 1, p["iw"], 1, 3) == (0, 3):
            ox += 2
            continue
        if xh - xl == 3:
            return True
        ox += 1
    return False


def dw_lanes(p: dict) -> bool:
    """Whether Helium's lanes of one channel take the layer (the kernel's aot_dw_lanes_fit): SAME 3x3 at stride and
    dilation 1, outputs the input's size, at least 2 rows and 5 columns."""
    same = p["oh"] == p["ih"] and p["ow"] == p["iw"] and p["pad_t"] == 1 and p["pad_l"] == 1
    return (
        (p["kh"], p["kw"], p["sh"], p["sw"], p["dh"], p["dw"]) == (3, 3, 1, 1, 1, 1)
        and same
        and p["ih"] >= 2
        and (p["iw"] >= 5)
    )


def _dw_entry(op) -> str:
    """The depthwise kernel's entry point, each linking only its forms' unit: on Helium
    aot_depthwise_conv2d_f32_vec_lanes for a layer the lanes take (without the column forms); on the FPU cores
    aot_depthwise_conv2d_f32_vec3 (the single-column slide of 3 tap columns linked) for a layer that has such a
    column; else the kernel itself."""
    family = op.kernel_impl.family
    if family == "mve" and dw_lanes(op.params):
        return op.kernel + "_lanes"
    if family == "fpu" and dw_slides3(dict(op.params, fpv4=op.target == "cortex-m4")):
        return op.kernel + "3"
    return op.kernel


def _emit_dw(op, ctx) -> list:
    p = op.params
    args = conv_args(op, ctx, p["ic"], (op.input(1).data, "float"), (p["bias"], "float"))
    return [ctx.call(_dw_entry(op), args + [ctx.f32(p["act"][0]), ctx.f32(p["act"][1])])]


def _dw_headers(op) -> list:
    return ["aot/kernels/depthwise_conv2d.h"]


def _fc_entry(op) -> str:
    """The FPU cores' batch of one calls aot_fully_connected_f32_gemm_row, a unit of its own without the pair tile
    (440-550 B less code; the same sums); other batches, and Helium's wide layout, the kernel itself."""
    if op.kernel_impl.family == "fpu" and op.params["batches"] == 1:
        return op.kernel + "_row"
    return op.kernel


def _emit_fc(op, ctx) -> list:
    p = op.params
    rows = op.input(1).data.reshape(p["units"], p["depth"])
    bias = p["bias"]
    if op.kernel_impl.family == "mve":
        block, layout = WIDE, wide_blocked(rows)
        if bias is not None:  # whole vectors for the outputs' VLDM
            bias = np.concatenate([np.asarray(bias, np.float32), np.zeros(-len(bias) % 4, np.float32)])
    else:
        block = BLOCK[op.kernel_impl.family]
        layout = blocked(rows, block)
    args = [
        ctx.ptr(op.input(0)),
        p["batches"],
        p["depth"],
        ctx.weight(f"op{op.index}_weights", layout, "float"),
        block,
        ctx.weight_or_null(f"op{op.index}_bias", bias, "float"),
        ctx.ptr(op.output),
        p["units"],
        ctx.f32(p["act"][0]),
        ctx.f32(p["act"][1]),
    ]
    return [ctx.call(_fc_entry(op), args)]


def _conv_headers(op) -> list:
    return ["aot/kernels/conv2d.h"]


_CONV = Kernel("aot_conv2d_f32_gemm", "fpu", emit=_emit_conv, headers=_conv_headers, scratch=_conv_scratch)
CONV_MVE, CONV_FPU = replace(_CONV, family="mve", scratch=_conv_scratch_mve), _CONV
_DW = Kernel("aot_depthwise_conv2d_f32_vec", "fpu", serves=_mult1, emit=_emit_dw, headers=_dw_headers, entry=_dw_entry)
DW_MVE, DW_FPU = replace(_DW, family="mve"), _DW
_FC = Kernel("aot_fully_connected_f32_gemm", "fpu", emit=_emit_fc, entry=_fc_entry)
FC_MVE, FC_FPU = replace(_FC, family="mve"), _FC

# Called by the lowerings with the layer's own arguments.
CONV_PORTABLE = Kernel("aot_conv2d_f32", "portable")
DW_PORTABLE = Kernel("aot_depthwise_conv2d_f32", "portable")
FC_PORTABLE = Kernel("aot_fully_connected_f32", "portable")

TABLE = {
    ("CONV_2D", "float32"): (
        replace(CONV_MVE, when=_grouped),
        replace(CONV_FPU, when=_grouped),
        CONV_PORTABLE,
    ),
    ("DEPTHWISE_CONV_2D", "float32"): (
        # One input channel: every output channel is an ordinary convolution of it (filter as [oc, kh * kw]).
        replace(CONV_MVE, serves=_ic1),
        replace(CONV_FPU, serves=_ic1),
        DW_MVE,
        DW_FPU,
        DW_PORTABLE,
    ),
    ("FULLY_CONNECTED", "float32"): (FC_MVE, FC_FPU, FC_PORTABLE),
}
