"""Shared int8 convolution parameter computation (conv, depthwise, fully connected), and the parts of CONV_2D and
DEPTHWISE_CONV_2D that are the same for both: their checks, geometry and kernel argument lists."""

from typing import Optional

import numpy as np

from ...errors import UnsupportedError
from ...passes.fold_zero_point import fold_input_offset
from .checks import (
    activation_range_int8,
    conv_padding,
    fused_activation,
    nhwc,
    require_const,
    require_inputs,
    require_quant,
    require_same_dtype,
)
from .add_s8_fast import short_add_struct
from .dsp_layout import as_words, fits_int32, interleave_rows, raw_word_rows
from .short_requant import exact_requant, short_requant
from .int16 import acc16_args, check_int16_layer
from .kernel import Layer
from .multipliers import channel_multipliers  # noqa: F401 - the int8 layers take it from here


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


def folded_requant(p: dict, rows: np.ndarray, bias_arr, input_zero_point: int):
    """((bias, mult, radd), exact) of the DSP kernels (common/short_requant.py) for weights `rows` [oc, K] with the
    input zero point folded into the bias: the short requantization, or where it cannot take the layer (exact)
    TFLite's full one.  OverflowError when the fold overflows int32."""

    bias = fold_input_offset(rows, bias_arr, -int(input_zero_point))
    short = short_requant(bias, rows, p["mult"], p["shift"], p["out_off"], p["act"])
    if short is not None:
        return short, False
    return exact_requant(bias, rows, p["mult"], p["shift"], p["out_off"], p["act"]), True


# Output pixels per tile of aot_conv2d_s8_dsp (AOT_CONV_PX in conv2d_s8_dsp.c): its scratch holds 8 bytes per quad of K
# and pixel (the expanded input pair).
DSP_GEMM_TILE = 3
# Output pixels per tile of aot_conv2d_s8_dsp_t2 (conv2d_s8_dsp_t2.c): its scratch is the tile's pairs and at most one
# filter row (dsp_t2_row_bytes).
DSP_GEMM_TILE_SMALL = 2


def prepare_dsp_gemm(op, p: dict, rows: np.ndarray, bias_arr, input_zero_point: int, in_c: int):
    """Set up aot_conv2d_s8_dsp (im2col + GEMM) for a convolution whose weights, one row per output channel in
    (ky, kx, c) order, are `rows` [oc, K] (K >= 4 and oc * K a multiple of 4: ops/kernel_table.py checks the
    shape).  Returns None, or why the layer's numbers keep it off the kernel.  Its im2col pads with the input zero
    point, so the zero point is always folded into the bias, padding or not."""
    oc, k = rows.shape
    try:
        # A layer the short requantization cannot take keeps the GEMM with TFLite's full requantization.
        (bias, mult, radd), exact = folded_requant(p, rows, bias_arr, input_zero_point)
    except OverflowError:
        return "folding the input zero point into the bias overflows int32"
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
        dsp_scratch=DSP_GEMM_TILE * (8 * quads + (8 if tail else 0)) + dsp_gather_bytes(p, in_c, k),
        dsp_scratch_t2=DSP_GEMM_TILE_SMALL * (8 * quads + (8 if tail else 0)) + dsp_t2_row_bytes(p, in_c),
    )
    return None


def dsp_gather_bytes(p: dict, in_c: int, k: int) -> int:
    """The im2col's byte copy after the tile (aot_conv_im2col): none when in_c is a multiple of 4, one filter row when
    the rows are whole quads without column dilation (only rows crossing the image's edge are copied, one at a time),
    else all K taps rounded up to a word."""
    if in_c % 4 == 0:
        return 0
    row = p["kw"] * in_c
    return row if p["dw"] == 1 and row % 4 == 0 else (k + 3) // 4 * 4


def dsp_t2_row_bytes(p: dict, in_c: int) -> int:
    """aot_conv2d_s8_dsp_t2's copy of a filter row crossing the image's left or right edge, after its tile: one row when
    the rows are whole quads without column dilation (other rows it packs a byte at a time, without a copy)."""
    row = p["kw"] * in_c
    return row if p["dw"] == 1 and row % 4 == 0 else 0


# aot_conv2d_s8_dsp_k<K> exists for these K, for an even out_c and the full int8 activation range.
SMALL_K = (8, 9, 16, 24, 27)


def dsp_gemm_entry(p: dict, in_c: int, out_c: int) -> str:
    """Which aot_conv2d_s8_dsp entry point (conv2d.h) a layer calls without a fused ADD: the GEMM unrolled for its
    K, the saturating one when its activation range is all of int8, the clamping one otherwise."""
    if p.get("dsp_tile") == DSP_GEMM_TILE_SMALL:
        return "aot_conv2d_s8_dsp_t2"
    if p.get("dsp_exact"):
        return "aot_conv2d_s8_dsp_exact"
    if p["act"][0] > -128 or p["act"][1] < 127:
        return "aot_conv2d_s8_dsp"
    k = p["kh"] * p["kw"] * in_c
    return f"aot_conv2d_s8_dsp_k{k}" if k in SMALL_K and out_c % 2 == 0 else "aot_conv2d_s8_dsp_sat"


def dsp_gemm_split(op) -> Optional[int]:
    """The first output row of the second band when the layer can run as two bands of output rows with no scratch
    of its own (emit_dsp_gemm): the first band with its scratch in the last bytes of the output, which the second band
    writes later; the second with its scratch in the first bytes of the input, rows above any it reads.  The planner
    asks only where the scratch sets the model's peak, and only when the input dies with the layer (planner/plan.py).
    None if the layer cannot (a fused ADD, more than one batch, an output or input too small).  Of the rows that fit,
    the one with the fewest tiles in all (a band's last tile may be partial), then the most even split."""
    p = op.params
    need = p.get("dsp_scratch", 0)
    if "residual" in p or p["n"] != 1 or need == 0:
        return None
    oh, ow = p["oh"], p["ow"]
    row = ow * op.output.shape[3]
    in_row = op.input(0).shape[2] * op.input(0).shape[3]
    tail = (oh * row - need) // 8 * 8
    fits = [r for r in range(1, oh) if r * row <= tail and need <= (r * p["sh"] - p["pad_t"]) * in_row]
    if not fits:
        return None

    def tiles(px: int) -> int:
        return -(-px // DSP_GEMM_TILE)

    return min(fits, key=lambda r: (tiles(r * ow) + tiles((oh - r) * ow), abs(2 * r - oh)))


def dsp_gemm_small_tile(op) -> bool:
    """Whether the layer can take aot_conv2d_s8_dsp_t2 (two pixels per tile, no gather copy) and its scratch is then
    smaller: the short requantization, no fused ADD.  The planner asks only where the scratch sets the model's peak
    and the layer is not split in bands (planner/plan.py), and keeps it only if the workspace shrinks: the form is
    slower (a C GEMM, the weights loaded once per two pixels instead of three)."""
    p = op.params
    if "residual" in p or p.get("dsp_exact") or "scratch_split" in p:
        return False
    return 0 < p.get("dsp_scratch_t2", 0) < p.get("dsp_scratch", 0)


def _band_args(op, ctx, in_c: int, out_c: int, rows: tuple) -> list:
    """conv_args for output rows [r0, r1): the input from the first row they read (the padding above them what is left
    of the layer's) and cut after the last one they read (so a 1x1 stride-1 band stays the kernel's pointwise case),
    the output from row r0."""
    p = op.params
    r0, r1 = rows
    first = r0 * p["sh"] - p["pad_t"]
    shift, pad_t = max(first, 0), max(-first, 0)
    in_h = min(p["ih"], (r1 - 1) * p["sh"] - p["pad_t"] + (p["kh"] - 1) * p["dh"] + 1) - shift
    args = conv_args(op, ctx, in_c, (p["dsp_weights"], "int32_t"), (p["dsp_bias"], "int32_t"), out_c=out_c)
    args[0] = f"&{args[0]}[{shift * p['iw'] * in_c}]" if shift else args[0]
    args[2] = in_h
    args[9] = f"&{args[9]}[{r0 * p['ow'] * out_c}]" if r0 else args[9]
    args[10] = r1 - r0
    args[-2] = pad_t
    return args


def emit_dsp_gemm(op, ctx, in_c: int, out_c: int) -> list:
    """The aot_conv2d_s8_dsp call prepared by prepare_dsp_gemm (conv, or depthwise with one input channel); two calls,
    one per band of output rows, where the planner put the scratch inside the layer's output and input
    (dsp_gemm_split)."""
    p = op.params
    tail = [
        p["in_zp"],
        ctx.param(f"op{op.index}_mult", p["mult"], "int32_t"),
        ctx.param(f"op{op.index}_radd", p["radd"], "int32_t"),
        p["act"][0],
        p["act"][1],
    ]
    split = p.get("scratch_split")
    if split is not None:
        # Rows [0, split) with their scratch in the output's last bytes (8-aligned), rows the second band writes; then
        # rows [split, oh) with theirs in the input's first bytes, which only the first band read.
        fn = dsp_gemm_entry(p, in_c, out_c)
        end = (p["oh"] * p["ow"] * out_c - p["dsp_scratch"]) // 8 * 8
        return [
            ctx.call(fn, _band_args(op, ctx, in_c, out_c, (0, split)) + tail + [ctx.scratch_in(op.output, end)]),
            ctx.call(fn, _band_args(op, ctx, in_c, out_c, (split, p["oh"])) + tail + [ctx.scratch_in(op.input(0), 0)]),
        ]
    args = conv_args(op, ctx, in_c, (p["dsp_weights"], "int32_t"), (p["dsp_bias"], "int32_t"), out_c=out_c)
    args += tail + [ctx.scratch(op, "int32_t")]
    if "residual" in p:
        return [residual_call(op, ctx, args)]
    return [ctx.call(dsp_gemm_entry(p, in_c, out_c), args)]


# --- residual ADD fused into the convolution (passes/fuse_residual_add.py) -----------------------------------


def residual_call(op, ctx, args: list, fn: str = "") -> str:
    """The call of `fn` (op.kernel by default); with a fused residual ADD, its *_add form with the residual input
    and the ADD's parameters as two more arguments."""
    fn = fn or op.kernel
    res = op.params.get("residual")
    if res is None:
        return ctx.call(fn, args)
    return ctx.call(
        fn + "_add",
        args + [ctx.ptr(op.input(res["index"])), short_add_struct(ctx, f"op{op.index}_residual_add", res["fields"])],
    )


def residual_inplace_input(op):
    """The residual's input index when the output may overwrite it: the kernels read residual element i just
    before storing output element i, and nothing else of it."""
    res = op.params.get("residual")
    return res["index"] if res is not None and res["inplace_ok"] else None


def residual_headers(op) -> list:
    return ["aot/kernels/add.h"] if "residual" in op.params else []


# --- CONV_2D and DEPTHWISE_CONV_2D: checks, geometry, int8 set-up and kernel arguments ----------------------


def check_conv_tensors(op):
    """The input, filter, bias and output of a CONV_2D or DEPTHWISE_CONV_2D, checked for what both need (constant
    filter and bias, NHWC shapes); with the layer's dtype."""
    require_inputs(op, 2, 3)
    inp, filt, bias, out = op.input(0), op.input(1), op.input(2), op.output
    dtype = require_same_dtype(op, inp, out)
    require_const(op, filt, "filter")
    if bias is not None:
        require_const(op, bias, "bias")
    nhwc(inp.shape, op, "input")
    nhwc(out.shape, op, "output")
    nhwc(filt.shape, op, "filter")
    return inp, filt, bias, out, dtype


def check_conv_dtype(op, dtype: str, channel_axis: int) -> None:
    """The activation and the quantization of a CONV_2D or DEPTHWISE_CONV_2D (filter channels along channel_axis)."""
    inp, filt, bias, out = op.input(0), op.input(1), op.input(2), op.output
    fused_activation(op)
    if dtype == "int16":
        check_int16_layer(op, inp, filt, bias, out, channel_axis=channel_axis)
    elif dtype == "int8":
        check_int8_weights(op, inp, filt, bias, out, channel_axis=channel_axis)
    else:
        require_same_dtype(op, inp, filt, bias)


def conv_geometry(op):
    """(p, unpadded): the parameters every convolution kernel takes (shapes, strides, dilations, top and left
    padding), and whether no output ever reads padding (then the input zero point can be folded into the bias)."""
    inp, filt, out = op.input(0), op.input(1), op.output
    n, ih, iw, ic = inp.shape
    _, oh, ow, _ = out.shape
    _, kh, kw, _ = filt.shape
    o = op.options
    sh, sw = o.get("StrideH", 1), o.get("StrideW", 1)
    dh, dw = o.get("DilationHFactor", 1), o.get("DilationWFactor", 1)
    pad_t, tot_h = conv_padding(op, sh, dh, ih, kh, oh, 0)
    pad_l, tot_w = conv_padding(op, sw, dw, iw, kw, ow, 1)
    p = dict(n=n, ih=ih, iw=iw, ic=ic, oh=oh, ow=ow, kh=kh, kw=kw, sh=sh, sw=sw, dh=dh, dw=dw, pad_t=pad_t, pad_l=pad_l)
    return p, tot_h == 0 and tot_w == 0


def prepare_int8_conv(op, p: dict, rows: np.ndarray, act, unpadded: bool, in_c: int) -> Layer:
    """The int8 constants of a convolution whose filter is `rows` [oc, K] (one row per output channel), and what the
    kernel table's candidates read to choose its kernel (in_c: the input channels its GEMM kernels see)."""
    inp, bias, out = op.input(0), op.input(2), op.output
    oc = rows.shape[0]
    in_zp = int(inp.quant.zero_point[0])
    mult, shift = channel_multipliers(op, inp, op.input(1), out, oc)
    b, in_off, folded = maybe_fold(rows, int8_bias(bias, oc), in_zp, can_fold=unpadded)
    p.update(
        mult=mult,
        shift=shift,
        bias=b,
        in_off=in_off,
        folded=folded,
        out_off=int(out.quant.zero_point[0]),
        act=activation_range_int8(act, *out.quant.scalar()),
    )
    return Layer(rows=rows, bias=int8_bias(bias, oc), in_zp=in_zp, in_c=in_c)


def conv_args(op, ctx, in_c: int, filt: tuple, bias: tuple, kd=None, out_c=None) -> list:
    """The arguments every convolution kernel starts with (the portable aot_conv2d_* / aot_depthwise_conv2d_*, the
    DSP GEMM, the MVE ones): input and its shape, filter and its size (kd: the portable kernels' filter depth or
    depth multiplier), bias, output and its shape (out_c: the convolutions' output channels), strides, dilations,
    top and left padding.  filt, bias: (values, C type) of the constant arrays; bias values None: a null pointer."""
    p = op.params
    args = [ctx.ptr(op.input(0)), p["n"], p["ih"], p["iw"], in_c, ctx.weight(f"op{op.index}_filter", *filt)]
    args += [p["kh"], p["kw"]] + ([] if kd is None else [kd])
    args += [ctx.weight_or_null(f"op{op.index}_bias", *bias), ctx.ptr(op.output), p["oh"], p["ow"]]
    args += [] if out_c is None else [out_c]
    return args + [p["sh"], p["sw"], p["dh"], p["dw"], p["pad_t"], p["pad_l"]]


def requant_args(op, ctx, in_off, mult, shift) -> list:
    """The int8 kernels' trailing arguments: input offset (or zero point), output offset, per-channel multipliers
    and shifts, activation range."""
    p = op.params
    return [
        in_off,
        p["out_off"],
        ctx.param(f"op{op.index}_mult", mult, "int32_t"),
        ctx.param(f"op{op.index}_shift", shift, "int32_t"),
        p["act"][0],
        p["act"][1],
    ]


def emit_portable_conv(op, ctx, filter_values, kd, out_c=None) -> list:
    """The call of the portable convolution kernel of the layer's dtype (aot_conv2d_{s8,s16,f32},
    aot_depthwise_conv2d_*): conv_args, then the int16 accumulation mode and requantization, the int8
    requantization (with a fused residual ADD: the kernel's *_add form) or the float activation range."""
    p = op.params
    dtype = op.input(0).dtype
    ctype, bias_ctype = ("float", "float") if dtype == "float32" else ("int8_t", "int32_t")
    args = conv_args(op, ctx, p["ic"], (filter_values, ctype), (p["bias"], bias_ctype), kd=kd, out_c=out_c)
    if dtype == "int16":
        return [ctx.call(op.kernel, args + acc16_args(op, ctx))]
    if dtype == "int8":
        return [residual_call(op, ctx, args + requant_args(op, ctx, p["in_off"], p["mult"], p["shift"]))]
    return [ctx.call(op.kernel, args + [ctx.f32(p["act"][0]), ctx.f32(p["act"][1])])]
