"""Shared int8 convolution parameter computation (conv, depthwise, fully connected)."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..passes.fold_zero_point import fold_input_offset
from ..quant_math import quantize_multiplier
from ._common import require_quant


def check_int8_weights(op, inp, filt, bias, out, channel_axis: int):
    require_quant(op, inp, "input")
    require_quant(op, out, "output")
    fq = require_quant(op, filt, "filter", per_channel_ok=True)
    if filt.dtype != "int8":
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): filter '{filt.name}' is {filt.dtype}; int8 "
            "operators need int8 filters (int4/int16 weights are not supported)."
        )
    if np.any(fq.zero_point != 0):
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): filter '{filt.name}' has non-zero zero points; "
            "only symmetric int8 weights (zero_point 0) are supported."
        )
    # TFLite Micro takes a filter's scales as one per output channel whenever their count is the output channel
    # count, whatever dimension they declare (the reader checked that the declared one has that length too).
    if fq.per_channel and fq.axis != channel_axis and len(fq.scale) != filt.shape[channel_axis]:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): filter '{filt.name}' is quantized along axis "
            f"{fq.axis}; per-channel quantization must be along the output channel axis "
            f"{channel_axis}."
        )
    if bias is not None and bias.dtype != "int32":
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): bias '{bias.name}' is {bias.dtype}; int8 operators need int32 biases."
        )


def channel_multipliers(op, inp, filt, out, channels: int):
    """Per-output-channel (multiplier, shift) arrays, TFLite double math."""
    in_s = float(inp.quant.scale[0])
    out_s = float(out.quant.scale[0])
    fs = filt.quant.scale
    if len(fs) not in (1, channels):
        raise CompileError(
            f"Operator {op.index} ({op.kind}): filter '{filt.name}' has {len(fs)} scales for "
            f"{channels} output channels."
        )
    mults, shifts = [], []
    for c in range(channels):
        f_s = float(fs[c if len(fs) > 1 else 0])
        m, s = quantize_multiplier(in_s * f_s / out_s)
        mults.append(m)
        shifts.append(s)
    return np.array(mults, np.int32), np.array(shifts, np.int32)


def int8_bias(bias, channels: int):
    if bias is None:
        return np.zeros(channels, np.int32)
    return bias.data.astype(np.int32).reshape(channels)


def maybe_fold(weights_by_channel, bias_arr, input_zero_point: int, can_fold: bool):
    """Fold -zp * sum(w) into the bias when every tap is always in bounds."""
    input_offset = -int(input_zero_point)
    if can_fold and input_offset != 0:
        try:
            return fold_input_offset(weights_by_channel, bias_arr, input_offset), 0, True
        except OverflowError:
            pass  # keep the exact unfolded form rather than wrap around
    return bias_arr, input_offset, False


def prepare_dsp_gemm(op, p: dict, rows: np.ndarray, bias_arr, input_zero_point: int, in_c: int):
    """Set up aot_conv2d_s8_dsp (im2col + GEMM) for a convolution whose weights, one row per output channel in
    (ky, kx, c) order, are `rows` [oc, K] (K >= 4 and oc * K a multiple of 4: ops/kernel_table.py checks the
    shape).  Returns None, or why the layer's numbers keep it off the kernel.  Its im2col pads with the input zero
    point, so the zero point is always folded into the bias, padding or not."""
    from ._dsp_layout import as_words, fits_int32, interleave_rows, raw_word_rows
    from ._short_requant import exact_requant, short_requant

    oc, k = rows.shape
    try:
        bias = fold_input_offset(rows, bias_arr, -int(input_zero_point))
    except OverflowError:
        return "folding the input zero point into the bias overflows int32"
    short = short_requant(bias, rows, p["mult"], p["shift"], p["out_off"], p["act"])
    # A layer the short requantization cannot take keeps the GEMM with TFLite's full requantization.
    exact = short is None
    if exact:
        short = exact_requant(bias, rows, p["mult"], p["shift"], p["out_off"], p["act"])
    bias, mult, radd = short
    stored, adj = raw_word_rows(rows)
    bias = bias.astype(np.int64) + adj
    if not fits_int32(bias):
        return "the bias with the raw-weight-word adjustment overflows int32"
    quads = k // 4
    layout = np.concatenate([interleave_rows(stored[:, : 4 * quads], 2), stored[:, 4 * quads :].reshape(-1)])
    tail = k % 4
    p.update(
        dsp_weights=as_words(layout),
        dsp_bias=bias.astype(np.int32),
        mult=mult,
        radd=radd,
        dsp_exact=exact,
        in_zp=int(input_zero_point),
        dsp_scratch=16 * quads + (16 if tail else 0) + (0 if in_c % 4 == 0 else (k + 3) // 4 * 4),
    )
    op.kernel = "aot_conv2d_s8_dsp"
    return None


# aot_conv2d_s8_dsp_k<K> exists for these K, for an even out_c and the full int8 activation range.
SMALL_K = (8, 9, 16, 24, 27)


def dsp_gemm_entry(p: dict, in_c: int, out_c: int) -> str:
    """Which aot_conv2d_s8_dsp entry point (conv2d.h) a layer calls without a fused ADD: the GEMM unrolled for its
    K, the saturating one when its activation range is all of int8, the clamping one otherwise."""
    if p.get("dsp_exact"):
        return "aot_conv2d_s8_dsp_exact"
    if p["act"][0] > -128 or p["act"][1] < 127:
        return "aot_conv2d_s8_dsp"
    k = p["kh"] * p["kw"] * in_c
    return f"aot_conv2d_s8_dsp_k{k}" if k in SMALL_K and out_c % 2 == 0 else "aot_conv2d_s8_dsp_sat"


def emit_dsp_gemm(op, ctx, in_c: int, out_c: int) -> list:
    """The aot_conv2d_s8_dsp call prepared by prepare_dsp_gemm (conv, or depthwise with one input channel)."""
    p = op.params
    args = [
        ctx.ptr(op.input(0)),
        p["n"],
        p["ih"],
        p["iw"],
        in_c,
        ctx.weight(f"op{op.index}_filter", p["dsp_weights"], "int32_t"),
        p["kh"],
        p["kw"],
        ctx.weight(f"op{op.index}_bias", p["dsp_bias"], "int32_t"),
        ctx.ptr(op.output),
        p["oh"],
        p["ow"],
        out_c,
        p["sh"],
        p["sw"],
        p["dh"],
        p["dw"],
        p["pad_t"],
        p["pad_l"],
        p["in_zp"],
        ctx.param(f"op{op.index}_mult", p["mult"], "int32_t"),
        ctx.param(f"op{op.index}_radd", p["radd"], "int32_t"),
        p["act"][0],
        p["act"][1],
        ctx.scratch(op, "int32_t"),
    ]
    if "residual" in p:
        return [residual_call(op, ctx, args)]
    return [ctx.call(dsp_gemm_entry(p, in_c, out_c), args)]


# --- residual ADD fused into the convolution (passes/fuse_residual_add.py) -----------------------------------


def residual_call(op, ctx, args: list) -> str:
    """The kernel call; with a fused residual ADD, the kernel's *_add form with the residual input and the ADD's
    parameters as two more arguments."""
    res = op.params.get("residual")
    if res is None:
        return ctx.call(op.kernel, args)
    from .add import short_add_struct

    return ctx.call(
        op.kernel + "_add",
        args + [ctx.ptr(op.input(res["index"])), short_add_struct(ctx, f"op{op.index}_residual_add", res["fields"])],
    )


def residual_inplace_input(op):
    """The residual's input index when the output may overwrite it: the kernels read residual element i just
    before storing output element i, and nothing else of it."""
    res = op.params.get("residual")
    return res["index"] if res is not None and res["inplace_ok"] else None


def residual_headers(op) -> list:
    return ["aot/kernels/add.h"] if "residual" in op.params else []
