"""Bit-exactness of the Helium (MVE) kernels' weight layouts and parameters (--target cortex-m55), on the host.

Compiling for the Cortex-M55 selects aot_conv2d_s8_mve, aot_depthwise_conv2d_s8_mve and aot_fully_connected_s8_mve;
on the host they run their portable fallback over the same layouts and folded biases (crt/src/kernels/mve_s8.h),
so the compiler side is compared with TFLite Micro here in seconds, with the layer shapes of test_dsp_kernels and
quantization parameters drawn to be extreme (left shifts, right shifts up to 31, multipliers flushed to 0).  The
MVE instructions themselves run under QEMU: //crt:mve_requant_test (the requantization) and the mps3-an547 model
tests of //tests/models (the shared models and the extreme layers of tests/models/make_mve_models.py).
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

from test_dsp_kernels import (
    CONV_CASES,
    DW_CASES,
    RESIDUAL_CASES,
    _check,
    _conv_model,
    _extremes,
    _fc_model,  # noqa
    _kernels,
    needs_tflm,
)
from compiler.driver import load_model  # noqa: E402

TARGET = "cortex-m55"

# Per-channel filter scales (input scale 0.05, output scale 0.2: real multiplier = scale / 4) from a multiplier
# flushed to zero (below 2^-32) through right shifts of 31 and 20 to left shifts of 3 and 9.
EXTREME_SCALES = [1e-10, 1.5e-9, 3e-8, 1e-6, 0.004, 0.3, 40.0, 2000.0]


@needs_tflm
@pytest.mark.parametrize("case", range(len(CONV_CASES)))
def test_conv2d(tmp_path, case):
    in_shape, kh, kw, oc, stride, padding, dilation = CONV_CASES[case]
    b = _conv_model("CONV_2D", in_shape, kh, kw, oc, stride, padding, dilation, act=case % 3, seed=case)
    path = b.save(tmp_path / "conv.tflite")
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)), target=TARGET)
    assert _kernels(path, TARGET)[0] == "aot_conv2d_s8_mve"


@needs_tflm
@pytest.mark.parametrize("case", range(len(DW_CASES)))
def test_depthwise_conv2d(tmp_path, case):
    in_shape, kh, kw, oc, stride, padding, dilation, _ = DW_CASES[case]
    b = _conv_model(
        "DEPTHWISE_CONV_2D",
        in_shape,
        kh,
        kw,
        oc,
        stride,
        padding,
        dilation,
        act=3 if case % 4 == 3 else case % 3,
        seed=10 + case,
    )
    path = b.save(tmp_path / "dw.tflite")
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)), target=TARGET)
    want = "aot_conv2d_s8_mve" if in_shape[3] == 1 else ("aot_depthwise_conv2d_s8_mve" if oc == in_shape[3] else None)
    if want == "aot_depthwise_conv2d_s8_mve" and _plane_fits(in_shape, kh, kw, stride, padding, dilation):
        want = "aot_depthwise_conv2d_s8_mve_plane"
    if want:
        assert _kernels(path, TARGET)[0] == want


def _plane_fits(in_shape, kh, kw, stride, padding, dilation):
    """Does every window of this layer lie within 16 bytes of a channel plane (aot_depthwise_conv2d_s8_mve_plane)?
    Computed here from the layer's shape (TFLite's SAME / VALID arithmetic), not from the compiler's code."""
    _, ih, iw, _ = in_shape
    sh, sw = stride
    dh, dw = dilation
    eh, ew = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    if padding == 0:  # SAME
        _oh, ow = -(-ih // sh), -(-iw // sw)
        pad_l = max((ow - 1) * sw + ew - iw, 0) // 2
    else:
        _oh, ow = (ih - eh) // sh + 1, (iw - ew) // sw + 1
        pad_l = 0
    plane_w = max(iw + pad_l, (ow - 1) * sw + ew - pad_l)
    return (kh - 1) * dh * plane_w + ew <= 16


# Narrow images that aot_depthwise_conv2d_s8_mve_plane takes: channel groups of 8 with tails of 1..7, strides,
# dilation, 2x2 / 1x3 / 3x1 filters, SAME (left, right, top and bottom padding) and VALID, batches.
PLANE_CASES = [
    # in_shape, kh, kw, stride, padding, dilation
    ((1, 25, 5, 64), 3, 3, (1, 1), 0, (1, 1)),  # KWS's layers
    ((2, 6, 5, 13), 3, 3, (1, 1), 0, (1, 1)),  # 8 + 5 channels, batches
    ((1, 7, 4, 9), 3, 3, (2, 2), 0, (1, 1)),  # stride 2, odd height: bottom padding
    ((1, 8, 3, 6), 3, 3, (1, 2), 0, (1, 1)),  # mixed strides
    ((1, 7, 6, 3), 2, 2, (1, 1), 1, (2, 2)),  # dilated 2x2 VALID, 3 channels
    ((1, 4, 12, 17), 1, 3, (1, 1), 0, (1, 1)),  # one filter row, 12 columns
    ((1, 9, 1, 5), 3, 1, (3, 1), 0, (1, 1)),  # one column, stride 3
    ((1, 3, 3, 32), 3, 3, (1, 1), 0, (1, 1)),  # every tap row and column padded
    ((1, 5, 5, 8), 3, 3, (1, 1), 1, (1, 1)),  # VALID: no padding at all
]


@needs_tflm
@pytest.mark.parametrize("case", range(len(PLANE_CASES)))
def test_depthwise_plane(tmp_path, case):
    in_shape, kh, kw, stride, padding, dilation = PLANE_CASES[case]
    oc = in_shape[3]
    scales = EXTREME_SCALES * (oc // len(EXTREME_SCALES) + 1) if case % 3 == 2 else None
    b = _conv_model(
        "DEPTHWISE_CONV_2D",
        in_shape,
        kh,
        kw,
        oc,
        stride,
        padding,
        dilation,
        act=case % 4,
        seed=40 + case,
        filter_scales=None if scales is None else scales[:oc],
    )
    path = b.save(tmp_path / "dwp.tflite")
    assert _plane_fits(in_shape, kh, kw, stride, padding, dilation)
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)), target=TARGET)
    assert _kernels(path, TARGET)[0] == "aot_depthwise_conv2d_s8_mve_plane"


# The 3x3 form of aot_depthwise_conv2d_s8_mve (dilation 1, stride 1 or 2, channels a multiple of 8: MobileNet's
# layers): channel counts 8 to 256, SAME (edge columns through their own band) and VALID, odd sizes, near-dead
# channels (filter scales near zero: right shifts of 20 to 31) and left shifts.  On the host the portable path
# checks the layouts and the band geometry; //tests/models:mve_dw3_exact_test runs the assembly under QEMU (with
# 16 and 64 channels, stride 2 VALID, as well).
DW3_CASES = [
    # in_shape, stride, padding, scales ("near_dead", "extreme" or None: ordinary)
    ((1, 9, 11, 8), 1, 0, None),
    ((1, 10, 13, 24), 2, 0, "near_dead"),
    ((1, 7, 9, 40), 1, 1, "near_dead"),
    ((1, 6, 7, 256), 1, 0, "extreme"),
]


@needs_tflm
@pytest.mark.parametrize("case", range(len(DW3_CASES)))
def test_depthwise_3x3(tmp_path, case):
    in_shape, stride, padding, kind = DW3_CASES[case]
    oc = in_shape[3]
    scales = None
    if kind == "extreme":
        scales = (EXTREME_SCALES * (oc // len(EXTREME_SCALES) + 1))[:oc]
    elif kind == "near_dead":
        scales = list(np.random.default_rng(case).uniform(0.002, 0.01, size=oc))
        scales[::5] = np.resize([1e-10, 3e-8, 1e-6, 2e-5], len(scales[::5]))
    b = _conv_model(
        "DEPTHWISE_CONV_2D",
        in_shape,
        3,
        3,
        oc,
        (stride, stride),
        padding,
        (1, 1),
        act=3 if case % 2 else 0,
        seed=70 + case,
        filter_scales=scales,
    )
    path = b.save(tmp_path / "dw3.tflite")
    assert not _plane_fits(in_shape, 3, 3, (stride, stride), padding, (1, 1))
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)), target=TARGET)
    assert _kernels(path, TARGET)[0] == "aot_depthwise_conv2d_s8_mve"


def test_plane_geometry():
    """KWS's 25x5 layers: planes 6 bytes wide (the right padding shared with the next row's left), 27 rows and 16
    bytes after them, windows of 15 bytes; a 6-wide image no longer fits one 16-byte load, and neither do dilated
    rows."""
    from compiler.ops.common.mve_layout import plane_geometry, plane_when

    kws = dict(iw=5, ow=5, sw=1, kw=3, dw=1, pad_l=1, oh=25, sh=1, kh=3, dh=1, mult_depth=1)
    assert plane_geometry(kws) == (6, 27 * 6 + 16, 15)
    assert plane_when(None, kws) is None
    assert "17 bytes" in plane_when(None, dict(kws, iw=6, ow=6))
    assert plane_when(None, dict(kws, dh=2, oh=23)) is not None
    assert plane_when(None, dict(kws, mult_depth=2)) == "depth multiplier 2"


# AVERAGE_POOL_2D int8 (aot_avg_pool_s8_mve): whole-image windows (KWS), border windows with fewer taps (SAME),
# channel counts around the 16-channel groups, strides, batches, fused activations.
POOL_CASES = [
    # in_shape, filter (h, w), stride, padding, act
    ((1, 25, 5, 64), (25, 5), (1, 1), 1, 0),
    ((2, 7, 6, 19), (3, 3), (2, 2), 0, 1),
    ((1, 5, 9, 3), (2, 4), (1, 3), 0, 3),
    ((1, 4, 4, 16), (4, 4), (2, 2), 0, 2),
    ((1, 6, 5, 33), (2, 2), (2, 2), 1, 0),
]


@needs_tflm
@pytest.mark.parametrize("case", range(len(POOL_CASES)))
def test_avg_pool(tmp_path, case):
    from tflite_builder import ModelBuilder

    in_shape, (fh, fw), (sh, sw), padding, act = POOL_CASES[case]
    if padding == 0:
        oh, ow = -(-in_shape[1] // sh), -(-in_shape[2] // sw)
    else:
        oh, ow = (in_shape[1] - fh) // sh + 1, (in_shape[2] - fw) // sw + 1
    b = ModelBuilder()
    x = b.input("x", in_shape, "int8", 0.05, -9 + case)
    y = b.tensor("y", [in_shape[0], oh, ow, in_shape[3]], "int8", 0.05, -9 + case)
    b.op(
        "AVERAGE_POOL_2D",
        [x],
        y,
        {
            "padding": padding,
            "strideH": sh,
            "strideW": sw,
            "filterHeight": fh,
            "filterWidth": fw,
            "fusedActivationFunction": act,
        },
    )
    b.output(y)
    path = b.save(tmp_path / "pool.tflite")
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)), target=TARGET)
    assert _kernels(path, TARGET)[0] == "aot_avg_pool_s8_mve"
    assert _kernels(path, "cortex-m4")[0] == "aot_avg_pool_s8"


@needs_tflm
@pytest.mark.parametrize(
    "depth,units,batches,act",
    [(8, 4, 1, 0), (12, 7, 2, 1), (64, 13, 1, 3), (4, 1, 3, 0), (640, 9, 1, 0), (6, 5, 1, 0), (33, 8, 3, 2)],
)
def test_fully_connected(tmp_path, depth, units, batches, act):
    path = _fc_model(depth, units, batches, act=act, seed=depth + units).save(tmp_path / "fc.tflite")
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)), target=TARGET)
    assert _kernels(path, TARGET)[0] == "aot_fully_connected_s8_mve"


@needs_tflm
@pytest.mark.parametrize(
    "kind,in_shape,k,oc",
    [("CONV_2D", (1, 5, 6, 7), 3, 8), ("CONV_2D", (1, 4, 4, 19), 1, 8), ("DEPTHWISE_CONV_2D", (1, 6, 5, 8), 3, 8)],
)
@pytest.mark.parametrize("out_zp", [-128, 127])
def test_extreme_requantization(tmp_path, kind, in_shape, k, oc, out_zp):
    b = _conv_model(kind, in_shape, k, k, oc, seed=oc + k, out_zp=out_zp, filter_scales=EXTREME_SCALES)
    path = b.save(tmp_path / "rq.tflite")
    _check(tmp_path, path, count=6, extra_cases=_extremes(load_model(path)), target=TARGET)
    assert _kernels(path, TARGET)[0].endswith(("_mve", "_mve_plane"))


@needs_tflm
@pytest.mark.parametrize("name,kw,inplace", RESIDUAL_CASES, ids=[c[0] for c in RESIDUAL_CASES])
def test_residual_add_fused(tmp_path, name, kw, inplace):
    from test_ops_tflite import fusion, residual_model

    path = residual_model(seed=len(name), **kw).save(tmp_path / "res.tflite")
    fused_into, add, off, ops = fusion(path, TARGET)
    assert fused_into is not None and ops[fused_into]["kernel"] == "aot_conv2d_s8_mve"
    assert (off["s"] == off["r"]) == inplace
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)), target=TARGET)


def test_weights_keep_their_size():
    from compiler.ops.common.mve_layout import mve_rows

    rng = np.random.default_rng(0)
    for r, k in [(1, 1), (4, 16), (7, 33), (9, 15), (64, 64), (3, 100)]:
        rows = rng.integers(-128, 128, size=(r, k)).astype(np.int8)
        out = mve_rows(rows)
        assert out.size == rows.size and sorted(out.tolist()) == sorted(rows.reshape(-1).tolist())


def test_block_tails_lead_and_rows_pad():
    """Each block of 4 channels starts with their K % 16 last taps (a 16-byte load at any of them stays inside the
    block when K >= 16), and im2col rows are padded to 16 exactly when the block loop reads that tail unpredicated."""
    from compiler.ops.common.mve_layout import mve_row_bytes, mve_rows

    rng = np.random.default_rng(1)
    for r, k in [(8, 27), (4, 45), (12, 63), (5, 25), (4, 17)]:
        rows = rng.integers(-128, 128, size=(r, k)).astype(np.int8)
        out = mve_rows(rows)
        t, full = k % 16, k // 16 * 16
        for blk in range(r // 4):
            block = out[blk * 4 * k : (blk + 1) * 4 * k]
            for c in range(4):
                assert (block[c * t : (c + 1) * t] == rows[4 * blk + c, full:]).all()
                assert (block[4 * t + c * 16 : 4 * t + c * 16 + 16] == rows[4 * blk + c, :16]).all()
            assert 3 * t + 16 <= block.size
        assert (out[4 * (r // 4) * k :] == rows[4 * (r // 4) :].reshape(-1)).all()
    assert mve_row_bytes(27, 16) == 32 and mve_row_bytes(45, 8) == 48 and mve_row_bytes(63, 12) == 64
    assert mve_row_bytes(27, 13) == 27 and mve_row_bytes(32, 16) == 32 and mve_row_bytes(9, 16) == 9


def _runs_geom(kh, ih, oh, s, pad, ic=16, n=1):
    return {
        "kh": kh,
        "kw": kh,
        "dh": 1,
        "dw": 1,
        "sh": s,
        "sw": s,
        "pad_t": pad,
        "pad_l": pad,
        "ih": ih,
        "iw": ih,
        "oh": oh,
        "ow": oh,
        "n": n,
        "ic": ic,
    }


def test_mve_runs_only_takes_the_layers_whose_pairs_all_run():
    """mve_runs_only (aot_conv2d_s8_mve_runs_add's choice) holds for ResNet-8's fused layers -- 3x3 SAME on 16
    channels, the strided 1x1 shortcuts -- and not where the pass would leave a pair to its general GEMM: an odd
    pixel count, channels past one block call or not a multiple of 4, filter rows not whole 16-byte passes, a 1x1
    layer of the image's own size at stride 1."""
    from compiler.ops.common.mve_layout import mve_runs_only

    assert mve_runs_only(_runs_geom(3, 32, 32, 1, 1), 16, 16)
    assert mve_runs_only(_runs_geom(1, 32, 16, 2, 0), 16, 32)
    assert mve_runs_only(_runs_geom(1, 16, 8, 2, 0, ic=32), 32, 64)
    assert not mve_runs_only(_runs_geom(3, 5, 5, 1, 1), 16, 16)
    assert not mve_runs_only(_runs_geom(3, 32, 32, 1, 1), 16, 68)
    assert not mve_runs_only(_runs_geom(3, 32, 32, 1, 1), 16, 6)
    assert not mve_runs_only(_runs_geom(3, 32, 32, 1, 1, ic=8), 8, 16)
    assert not mve_runs_only(_runs_geom(1, 16, 16, 1, 0), 16, 16)
