"""Generates the small int8 models that check the Helium (MVE) kernels on mps3-an547 (committed next to this script).

The shared models use ordinary quantization parameters and channel counts that are multiples of 4 or 16; these
layers are drawn to reach the other paths of crt/src/kernels/*_mve.c under QEMU:
- mve_layers_int8.tflite: CONV_2D 3x3 SAME on 3 channels to 13 (K = 27: one 16-tap pass plus a predicated tail;
  13 output channels: 3 blocks of 4 plus a single channel) with per-channel filter scales from a multiplier flushed
  to 0 through right shifts of 31 to left shifts of 9; DEPTHWISE_CONV_2D 3x3 stride 2, dilation 2, 13 channels (a
  predicated last channel group, taps outside the image); FULLY_CONNECTED 7 units over the 4-D tensor read as 3
  rows of depth 130 (a pair of rows, then one), extreme per-channel scales again; beside it CONV_2D 3x3 on 16
  channels with dilated rows (filter rows of 48 bytes read in place inside the image, im2col at the borders); two
  DEPTHWISE_CONV_2D 3x3 on those 16 channels with the extreme scales, stride 1 and stride 2 (odd width: a last
  single pixel);
- mve_plane_int8.tflite: DEPTHWISE_CONV_2D layers on images narrow enough for aot_depthwise_conv2d_s8_mve_plane
  (every window within 16 bytes of a channel plane): 3x3 SAME on 13 channels (a group of 8 and one of 5: a
  predicated 4 + 1) with the extreme scales (left shifts: the general requantization, in the assembly loop for
  whole groups of 4), 3x3 SAME on 16 channels
  with right shifts only and ReLU6 (the assembly loop, a narrow clamp) and without activation at a small output
  scale (the same loop clamping to all of int8, saturating both ways), 3x3 SAME stride 2 on an odd 7x4 image
  (bottom and right padding), and 2x2 VALID with dilation 2 on 6 channels; AVERAGE_POOL_2D 3x3 SAME stride 2 on
  the 13 channels (border windows of 4 and 6 taps, a predicated channel tail: aot_avg_pool_s8_mve), 3x3 SAME
  on 16 channels and 16x16 VALID on 20 (int16 sums of whole channel groups, 256 taps at most); 3x3 SAME on the
  16 channels at the extreme scales with ReLU6 (the plane loop's requantization for any shifts, a narrow clamp);
  and one layer that is not a plane layer: 3x3 SAME stride 2 on 6x6x24 at the extreme scales (the 3x3 form's
  padded-image path of aot_depthwise_conv2d_s8_mve, 8 channels at a time, an odd width, left shifts);
  CONV_2D 3x3 with dilation (2, 1) and stride (1, 2) on 2 channels to 5 (K = 18: windows inside the image gathered
  straight from it, the others through im2col; a single last channel);
- mve_residual_int8.tflite: a convolution with a fused residual ADD written in place, 7 output channels (the
  predicated channel block of the fused ADD), an odd pixel count;
- mve_tail_int8.tflite: convolutions whose K is not a multiple of 16 on a multiple of 4 output channels with right
  shifts only (the block loop's unpredicated K % 16 tail over rows zero-padded in scratch): 3x3 SAME stride 2 on 5
  channels (K = 45: two passes and a tail; windows gathered, those leaving the image with their outside taps
  predicated off), 3x3 VALID dilation 2 on 7 channels (K = 63 > 48: im2col rows), 5x5 SAME on one channel with
  ReLU6 (K = 25: both rows held in registers; two taps of padding), and the K = 45 layer again with the extreme
  scales (left shifts: the predicated tail of the one-block loop over the same weight layout); 1x1 layers on 2
  batches of 32 channels to 40 (a block call of 8, then one of 2), stride 1 and stride 2; K < 16 (the short
  block loop): 3x3 stride 2 on one channel to 36, 1x1 8 -> 10 on 15 pixels, 1x5 on 3 channels to 4; 3x3 SAME on
  16 and 32 channels (the straight-line 3-run passes, im2col at the borders): 32 -> 8 on an odd pixel count, 16 ->
  12 stride 2 with bottom and right padding (right shifts, then the extreme scales), 16 -> 6 (a part block), 64 ->
  8 (three runs of 12 passes); 5x5 SAME on one channel to 8 on an even 8x9 image (a first layer's pairs of
  gathered rows, aot_conv2d_s8_mve_first).
- mve_runs_int8.tflite: a 3x3 SAME convolution on 16 channels with a fused residual ADD, right shifts, an even pixel
  count on a 6x7 image: every pair through the runs of pairs (aot_conv2d_s8_mve_runs_add, the compiler's choice),
  pairs across rows and at the borders through im2col;
- mve_gemv_int8.tflite: the single-row paths (gemv_model);
- mve_dw3_int8.tflite: DEPTHWISE_CONV_2D 3x3 layers of the depthwise kernel's 3x3 and strip forms (8 to 256
  channels, stride 1 and 2, SAME and VALID, odd widths and heights, near-dead channels and left shifts; dw3_model).
- mve_fill8_int8.tflite: DEPTHWISE_CONV_2D 3x3 layers of the strip form's 8-channel fill (fill8_model).
Built with tests/compiler/tflite_builder.py (no TensorFlow): `python tests/models/make_mve_models.py`.
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import residual_model  # noqa: E402

# Input scale 0.05, output scale 0.2: real multiplier = scale / 4 (see tests/compiler/test_mve_kernels.py).
EXTREME_SCALES = [
    1e-10,
    1.5e-9,
    3e-8,
    1e-6,
    0.004,
    0.3,
    40.0,
    2000.0,
    0.006,
    0.003,
    0.008,
    0.005,
    0.002,
    0.004,
    0.007,
    0.009,
]

CONV, DW, FC = "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"


def _layer(b, rng, name, kind, x, out_shape, k, scales, out_q, in_scale=0.05, **opts):
    """A CONV_2D or DEPTHWISE_CONV_2D (depth multiplier 1) with a k = (kh, kw) filter, or a FULLY_CONNECTED (k None),
    from x to a new tensor of out_shape: seeded int8 weights, per-channel `scales` (a count: ordinary ones drawn from
    rng), int32 biases at in_scale * scale, output quantization out_q; opts: _options' keywords."""
    if isinstance(scales, int):
        scales = rng.uniform(0.002, 0.01, size=scales)
    oc = out_shape[-1]
    if kind == FC:
        fshape = (oc, int(np.prod(x.shape)) // int(np.prod(out_shape[:-1])))
    else:
        fshape = (1, *k, oc) if kind == DW else (oc, *k, x.shape[3])
    w = rng.integers(-127, 128, size=fshape).astype(np.int8)
    axis = 3 if kind == DW else 0
    wt = b.const(name + "_w", w, "int8", np.asarray(scales), 0, quantized_dimension=axis)
    bias = b.const(
        name + "_b",
        rng.integers(-3000, 3000, size=len(scales)).astype(np.int32),
        "int32",
        np.float32(in_scale) * np.asarray(scales, np.float32),
        0,
        quantized_dimension=0,
    )
    y = b.tensor(name, out_shape, "int8", *out_q)
    b.op(kind, [x, wt, bias], y, _options(kind, **opts))
    return y


def _options(kind, stride=(1, 1), act=0, valid=False, dilation=(1, 1)):
    """The layer's options table (act: the fused activation's code, valid: VALID padding rather than SAME)."""
    if kind == FC:
        return {"fusedActivationFunction": act}
    o = {"padding": int(valid), "strideH": stride[0], "strideW": stride[1], "fusedActivationFunction": act}
    o.update(dilationHFactor=dilation[0], dilationWFactor=dilation[1])
    if kind == DW:
        o["depthMultiplier"] = 1
    return o


def layers_model():
    rng = np.random.default_rng(18)
    b = ModelBuilder()
    x = b.input("x", [1, 9, 11, 3], "int8", 0.05, -7)
    c = _layer(b, rng, "conv", CONV, x, [1, 9, 11, 13], (3, 3), EXTREME_SCALES[:13], (0.2, 4))
    d = _layer(b, rng, "dw", DW, c, [1, 5, 6, 13], (3, 3), 13, (0.1, -3), 0.2, stride=(2, 2), act=1, dilation=(2, 2))
    f = _layer(b, rng, "fc", FC, d, [3, 7], None, EXTREME_SCALES[:7], (0.2, -5), 0.1)
    # 16 channels, 3x3 dilated rows, SAME: filter rows of 48 bytes read in place where the window is inside.
    e = _layer(b, rng, "widen", CONV, x, [1, 9, 11, 16], (3, 3), 16, (0.1, -2), act=1)
    g = _layer(b, rng, "rows", CONV, e, [1, 9, 11, 8], (3, 3), EXTREME_SCALES[8:16], (0.2, 6), 0.1, dilation=(2, 1))
    # Depthwise on 16 channels with the extreme scales (left shifts: the general requantization), stride 1 (the
    # pixel pairs share their input vectors) and stride 2 (they do not).
    for name, stride, ow in (("dw_slide", 1, 11), ("dw_step", 2, 6)):
        b.output(_layer(b, rng, name, DW, e, [1, 9, ow, 16], (3, 3), EXTREME_SCALES, (0.2, 3), 0.1, stride=(1, stride)))
    b.output(g)
    b.output(f)
    return b


def plane_model():
    rng = np.random.default_rng(55)
    b = ModelBuilder()
    x = b.input("x", [1, 6, 5, 13], "int8", 0.05, -7)
    d = _layer(b, rng, "dw_extreme", DW, x, [1, 6, 5, 13], (3, 3), EXTREME_SCALES[:13], (0.2, 4))
    b.output(d)
    pool = b.tensor("pool", [1, 3, 3, 13], "int8", 0.2, 4)
    b.op(
        "AVERAGE_POOL_2D",
        [d],
        pool,
        {"padding": 0, "strideH": 2, "strideW": 2, "filterHeight": 3, "filterWidth": 3, "fusedActivationFunction": 1},
    )
    b.output(pool)
    e = _layer(b, rng, "widen", CONV, x, [1, 6, 5, 16], (1, 1), 16, (0.1, -2))
    b.output(_layer(b, rng, "dw_relu6", DW, e, [1, 6, 5, 16], (3, 3), 16, (0.03, -128), 0.1, act=3))
    # The same loop with the clamp to all of int8 (a saturating shift), at a small output scale so that many sums
    # saturate both ways.
    b.output(_layer(b, rng, "dw_full", DW, e, [1, 6, 5, 16], (3, 3), 16, (0.004, 5), 0.1))
    y = b.input("y", [1, 7, 4, 8], "int8", 0.05, 3)
    b.output(_layer(b, rng, "dw_step", DW, y, [1, 4, 2, 8], (3, 3), 8, (0.1, -3), stride=(2, 2), act=1))
    z = b.input("z", [1, 7, 6, 6], "int8", 0.05, 0)
    b.output(_layer(b, rng, "dw_dilated", DW, z, [1, 5, 4, 6], (2, 2), 6, (0.1, 1), valid=True, dilation=(2, 2)))
    u = b.input("u", [1, 8, 7, 2], "int8", 0.05, -100)
    extreme = EXTREME_SCALES[3:8]
    g = _layer(b, rng, "gathered", CONV, u, [1, 8, 4, 5], (3, 3), extreme, (0.2, -1), stride=(1, 2), dilation=(2, 1))
    b.output(g)
    # AVERAGE_POOL_2D on whole groups of 16 channels (sums in int16 lanes): 3x3 SAME stride 1 on the 16 channels
    # (border windows of 4 and 6 taps), and a 16x16 VALID window on 20 channels (256 taps, the most the int16 sums
    # take; a group of 16, then 4 predicated).
    pool16 = b.tensor("pool16", [1, 6, 5, 16], "int8", 0.1, -2)
    b.op(
        "AVERAGE_POOL_2D",
        [e],
        pool16,
        {"padding": 0, "strideH": 1, "strideW": 1, "filterHeight": 3, "filterWidth": 3, "fusedActivationFunction": 0},
    )
    b.output(pool16)
    v = b.input("v", [1, 16, 16, 20], "int8", 0.05, -20)
    pool256 = b.tensor("pool256", [1, 1, 1, 20], "int8", 0.05, -20)
    b.op(
        "AVERAGE_POOL_2D",
        [v],
        pool256,
        {"padding": 1, "strideH": 1, "strideW": 1, "filterHeight": 16, "filterWidth": 16, "fusedActivationFunction": 0},
    )
    b.output(pool256)
    # The plane loop's requantization for any shifts (left shifts, the -1 fix-up masked to the right-shifted lanes)
    # with a narrow clamp: 3x3 SAME on the 16 channels at the extreme scales, ReLU6.
    scales = EXTREME_SCALES[:8] * 2
    b.output(_layer(b, rng, "dw_any_relu6", DW, e, [1, 6, 5, 16], (3, 3), scales, (0.03, -128), 0.1, act=3))
    # Not a plane layer: the 3x3 form's padded-image path of aot_depthwise_conv2d_s8_mve (a window spans 17 bytes
    # of a plane; a small padded image, 8 channels at a time), stride 2 to an odd width, left and right shifts.
    w = b.input("w", [1, 6, 6, 24], "int8", 0.05, 9)
    scales = (EXTREME_SCALES * 3)[:24]
    b.output(_layer(b, rng, "dw3_image", DW, w, [1, 3, 3, 24], (3, 3), scales, (0.2, 1), stride=(2, 2)))
    return b


def tail_model():
    rng = np.random.default_rng(45)
    b = ModelBuilder()
    x = b.input("x", [1, 9, 10, 5], "int8", 0.05, -9)
    b.output(_layer(b, rng, "k45", CONV, x, [1, 5, 5, 8], (3, 3), 8, (0.1, 3), stride=(2, 2)))
    b.output(_layer(b, rng, "k45_extreme", CONV, x, [1, 5, 5, 8], (3, 3), EXTREME_SCALES[:8], (0.2, -4), stride=(2, 2)))
    y = b.input("y", [1, 9, 8, 7], "int8", 0.05, 11)
    b.output(_layer(b, rng, "k63", CONV, y, [1, 5, 4, 12], (3, 3), 12, (0.1, -6), act=1, valid=True, dilation=(2, 2)))
    z = b.input("z", [1, 7, 9, 1], "int8", 0.05, 100)
    b.output(_layer(b, rng, "k25", CONV, z, [1, 7, 9, 4], (5, 5), 4, (0.03, -128), act=3))
    # 1x1 layers on 2 batches to 40 channels (the block loop of one run per pixel: a call of 8 blocks, then one of
    # 2): stride 1 (rows at input + p * in_c, a pixel pair across the batches) and stride 2 (rows found per pixel).
    w = b.input("w", [2, 3, 5, 32], "int8", 0.05, -5)
    b.output(_layer(b, rng, "pw40", CONV, w, [2, 3, 5, 40], (1, 1), 40, (0.1, 2)))
    b.output(_layer(b, rng, "pw40_s2", CONV, w, [2, 2, 3, 40], (1, 1), 40, (0.1, -1), stride=(2, 2), act=1))
    # K < 16 (aot_mve_dot_blocks_short: one predicated vector per pixel and channel): a first layer 3x3 SAME stride 2
    # on one channel to 36 (K = 9; 9 blocks: a call of 8, then one), a pointwise 8 -> 10 on an odd pixel count
    # (K = 8; 2 blocks, then 2 channels and the last pixel by the per-block path), 1x5 on 3 channels to 4 (K = 15).
    f = b.input("f", [1, 11, 12, 1], "int8", 0.05, 100)
    b.output(_layer(b, rng, "k9_c36", CONV, f, [1, 6, 6, 36], (3, 3), 36, (0.1, -10), stride=(2, 2), act=1))
    h = b.input("h", [1, 3, 5, 8], "int8", 0.05, -30)
    b.output(_layer(b, rng, "pw8_c10", CONV, h, [1, 3, 5, 10], (1, 1), 10, (0.1, 6), act=3))
    r = b.input("r", [1, 6, 7, 3], "int8", 0.05, 7)
    b.output(_layer(b, rng, "k15", CONV, r, [1, 6, 3, 4], (1, 5), 4, (0.1, 0), valid=True))
    # 3x3 SAME on 16 and 32 channels (the straight-line 3-run passes: filter rows read in place inside the image,
    # im2col rows at its border, filled one filter row at a time): 32 channels to 8 on an odd 5x7 image (a last
    # single pixel); 16 channels stride 2 on an odd 9x8 image (bottom and right padding) to 12, right shifts and the
    # extreme scales (left shifts: the general requantization after the same passes); 16 channels to 6 (a part
    # block: every window through im2col and the per-block path).
    q = b.input("q", [1, 5, 7, 32], "int8", 0.05, -12)
    b.output(_layer(b, rng, "c32", CONV, q, [1, 5, 7, 8], (3, 3), 8, (0.1, 4), act=1))
    s = b.input("s", [1, 9, 8, 16], "int8", 0.05, 21)
    b.output(_layer(b, rng, "c16_s2", CONV, s, [1, 5, 4, 12], (3, 3), 12, (0.1, -3), stride=(2, 2)))
    b.output(
        _layer(b, rng, "c16_s2_extreme", CONV, s, [1, 5, 4, 12], (3, 3), EXTREME_SCALES[4:16], (0.2, 2), stride=(2, 2))
    )
    b.output(_layer(b, rng, "c16_oc6", CONV, s, [1, 9, 8, 6], (3, 3), 6, (0.1, -1), act=3))
    # 64 channels (three runs of 12 passes, in groups of 3) on an odd 4x5 image.
    t = b.input("t", [1, 4, 5, 64], "int8", 0.05, 3)
    b.output(_layer(b, rng, "c64", CONV, t, [1, 4, 5, 8], (3, 3), 8, (0.1, -7)))
    # A first layer on an even pixel count (aot_conv2d_s8_mve_first: pairs of gathered rows, K = 25 taps of 32
    # bytes through aot_mve_dot_blocks_tail1; runs of pairs inside the image, the others gathered at the border).
    e = b.input("e", [1, 8, 9, 1], "int8", 0.05, -40)
    b.output(_layer(b, rng, "k25_even", CONV, e, [1, 8, 9, 8], (5, 5), 8, (0.1, 5)))
    return b


def dw3_model():
    """3x3 depthwise layers of the 3x3 and strip forms of aot_depthwise_conv2d_s8_mve (dilation 1, stride 1 or 2):
    8 to 256 channels, SAME (edge columns through a band, top and bottom rows through the full band)
    and VALID, odd widths (a last single pixel), ordinary scales with ReLU6 or none, near-dead channels (scales
    near zero: right shifts of 20 to 31) and the extreme scales (left shifts: the general requantization)."""
    rng = np.random.default_rng(33)
    b = ModelBuilder()

    def near_dead(n):
        s = rng.uniform(0.002, 0.01, size=n)
        s[::5] = np.resize([1e-10, 3e-8, 1e-6, 2e-5], len(s[::5]))
        return s

    def extreme(n):
        return (EXTREME_SCALES * (n // len(EXTREME_SCALES) + 1))[:n]

    for name, shape, oshape, stride, valid, scales, out_q, act in (
        ("c8_s1_same", [1, 9, 11, 8], [1, 9, 11, 8], 1, False, 8, (0.03, -128), 3),
        ("c24_s2_same", [1, 10, 13, 24], [1, 5, 7, 24], 2, False, near_dead(24), (0.1, -3), 1),
        ("c40_s1_valid", [1, 7, 9, 40], [1, 5, 7, 40], 1, True, near_dead(40), (0.2, 5), 0),
        ("c64_s2_valid", [1, 13, 13, 64], [1, 6, 6, 64], 2, True, 64, (0.1, 2), 3),
        ("c256_s1_same", [1, 6, 7, 256], [1, 6, 7, 256], 1, False, extreme(256), (0.2, 4), 0),
        ("c16_s2_same", [1, 8, 9, 16], [1, 4, 5, 16], 2, False, extreme(16), (0.2, -6), 1),
        # The strip form (wide outputs): stride 2 with an odd height and width (the last row pair and the last
        # strip overlap), stride 1 on 6 channels with a width of 11 (the last strip overlaps); left and right shifts.
        ("c4_s2_strip", [1, 5, 33, 4], [1, 3, 17, 4], 2, False, EXTREME_SCALES[-3:] + EXTREME_SCALES[:1], (0.2, 3), 0),
        ("c6_s1_strip", [1, 3, 11, 6], [1, 3, 11, 6], 1, False, EXTREME_SCALES[-4:] + EXTREME_SCALES[:2], (0.1, -2), 3),
    ):
        x = b.input(name + "_in", shape, "int8", 0.05, int(rng.integers(-20, 20)))
        b.output(
            _layer(b, rng, name, DW, x, oshape, (3, 3), scales, out_q, stride=(stride, stride), act=act, valid=valid)
        )
    # The padded-image form with right shifts only (its assembly row loop, 8 channels at a time; drawn after the
    # layers above, which keep their data), on small images: stride 1 (pairs only); stride 2 without top or left
    # padding, from an odd width to an odd one (a last single pixel per row; rows of an odd width copied one pixel
    # at a time) and on 256 channels (too far apart for the gather copy); ReLU6, near-dead channels.
    for name, shape, oshape, stride, scales, out_q, act in (
        ("c24_s1_image", [1, 3, 6, 24], [1, 3, 6, 24], 1, 24, (0.03, -128), 3),
        ("c16_s2_image", [1, 4, 8, 16], [1, 2, 4, 16], 2, None, (0.1, 7), 0),
        ("c24_s2_image_odd", [1, 5, 9, 24], [1, 3, 5, 24], 2, 24, (0.05, -20), 1),
        ("c256_s2_image", [1, 2, 6, 256], [1, 1, 3, 256], 2, None, (0.1, 0), 3),
    ):
        scales = near_dead(shape[3]) if scales is None else scales
        x = b.input(name + "_in", shape, "int8", 0.05, int(rng.integers(-20, 20)))
        b.output(_layer(b, rng, name, DW, x, oshape, (3, 3), scales, out_q, stride=(stride, stride), act=act))
    return b


def fill8_model():
    """The strip form's 8-channel fill (aot_dws_fill8 in depthwise_conv2d_s8_mve_strip.h), apart from mve_dw3 (its
    program is at the M55's ITCM limit): groups of 16 channels and a last one of 9 or 10 (its two blocks of 8
    overlap), a padding row above and below, image rows not a multiple of three (one and two left over), the edge
    strips through the per-channel fill; near-dead channels and left shifts."""
    rng = np.random.default_rng(41)
    b = ModelBuilder()
    near = rng.uniform(0.002, 0.01, size=25)
    near[::5] = np.resize([1e-10, 3e-8, 1e-6, 2e-5], len(near[::5]))
    extreme = (EXTREME_SCALES * (26 // len(EXTREME_SCALES) + 1))[:26]
    for name, shape, oshape, stride, scales, out_q, act in (
        ("c25_s2_fill8", [1, 5, 19, 25], [1, 3, 10, 25], 2, near, (0.1, -5), 1),
        ("c26_s1_fill8", [1, 4, 7, 26], [1, 4, 7, 26], 1, extreme, (0.2, 3), 0),
    ):
        x = b.input(name + "_in", shape, "int8", 0.05, int(rng.integers(-20, 20)))
        b.output(_layer(b, rng, name, DW, x, oshape, (3, 3), scales, out_q, stride=(stride, stride), act=act))
    return b


def _fc_per_tensor(b, rng, name, x, units, w_scale, out_q, in_scale=0.05, act=0):
    """A FULLY_CONNECTED of `units` over x's last axis with one filter scale for all units (TFLite's usual FC:
    one multiplier and shift for the layer)."""
    w = rng.integers(-127, 128, size=(units, x.shape[-1])).astype(np.int8)
    wt = b.const(name + "_w", w, "int8", w_scale, 0)
    bias = b.const(name + "_b", rng.integers(-3000, 3000, size=units).astype(np.int32), "int32", in_scale * w_scale, 0)
    y = b.tensor(name, [x.shape[0], units], "int8", *out_q)
    b.op(FC, [x, wt, bias], y, _options(FC, act=act))
    return y


def gemv_model():
    """One-row paths: the block loops of a single row (aot_mve_gemv) and the fused ADD's requantization loop.  A
    residual convolution on 16 channels (K = 144, right shifts, written in place; 25 pixels: 12 pairs and a last
    single pixel, then a 1x1 tail whose last pixel is a single row); beside it FULLY_CONNECTED layers on one row:
    K = 48 to 72 units with one scale (18 blocks: a full chunk of 16, then 2), K = 48 to 7 units per channel (a
    block, then 3 single channels), K = 8 to 20 units with one scale (K < 16: one predicated vector) and K = 32
    with a scale that makes a left shift (the general requantization)."""
    b = residual_model(shape=(1, 5, 5, 16), oc=16, mid=16, per_channel=True, add_act=1, seed=5)
    rng = np.random.default_rng(77)
    v = b.input("v", [1, 48], "int8", 0.05, -3)
    b.output(_fc_per_tensor(b, rng, "fc72", v, 72, 0.004, (0.2, 5), act=1))
    b.output(_layer(b, rng, "fc7", FC, v, [1, 7], None, 7, (0.1, -2)))
    z = b.input("z", [1, 8], "int8", 0.05, 7)
    b.output(_fc_per_tensor(b, rng, "fc20", z, 20, 0.006, (0.02, -4)))
    u = b.input("u", [1, 32], "int8", 0.05, 0)
    b.output(_fc_per_tensor(b, rng, "fc_left", u, 12, 40.0, (0.2, 1)))
    return b


def main():
    dw3_model().save(os.path.join(HERE, "mve_dw3_int8.tflite"))
    fill8_model().save(os.path.join(HERE, "mve_fill8_int8.tflite"))
    layers_model().save(os.path.join(HERE, "mve_layers_int8.tflite"))
    plane_model().save(os.path.join(HERE, "mve_plane_int8.tflite"))
    tail_model().save(os.path.join(HERE, "mve_tail_int8.tflite"))
    gemv_model().save(os.path.join(HERE, "mve_gemv_int8.tflite"))
    residual_model(shape=(1, 5, 5, 8), oc=7, mid=8, per_channel=True, add_act=1, seed=3).save(
        os.path.join(HERE, "mve_residual_int8.tflite")
    )
    residual_model(shape=(1, 6, 7, 16), oc=16, mid=16, per_channel=True, add_act=1, seed=11).save(
        os.path.join(HERE, "mve_runs_int8.tflite")
    )


if __name__ == "__main__":
    main()
