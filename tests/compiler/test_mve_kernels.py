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

from test_dsp_kernels import (CONV_CASES, DW_CASES, RESIDUAL_CASES, _check, _conv_model, _extremes, _fc_model,  # noqa
                              _kernels, needs_tflm)
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
    b = _conv_model("DEPTHWISE_CONV_2D", in_shape, kh, kw, oc, stride, padding, dilation,
                    act=3 if case % 4 == 3 else case % 3, seed=10 + case)
    path = b.save(tmp_path / "dw.tflite")
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)), target=TARGET)
    want = "aot_conv2d_s8_mve" if in_shape[3] == 1 else (
        "aot_depthwise_conv2d_s8_mve" if oc == in_shape[3] else None)
    if want:
        assert _kernels(path, TARGET)[0] == want


@needs_tflm
@pytest.mark.parametrize("depth,units,batches,act", [(8, 4, 1, 0), (12, 7, 2, 1), (64, 13, 1, 3), (4, 1, 3, 0),
                                                     (640, 9, 1, 0), (6, 5, 1, 0), (33, 8, 3, 2)])
def test_fully_connected(tmp_path, depth, units, batches, act):
    path = _fc_model(depth, units, batches, act=act, seed=depth + units).save(tmp_path / "fc.tflite")
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)), target=TARGET)
    assert _kernels(path, TARGET)[0] == "aot_fully_connected_s8_mve"


@needs_tflm
@pytest.mark.parametrize("kind,in_shape,k,oc", [("CONV_2D", (1, 5, 6, 7), 3, 8), ("CONV_2D", (1, 4, 4, 19), 1, 8),
                                                ("DEPTHWISE_CONV_2D", (1, 6, 5, 8), 3, 8)])
@pytest.mark.parametrize("out_zp", [-128, 127])
def test_extreme_requantization(tmp_path, kind, in_shape, k, oc, out_zp):
    b = _conv_model(kind, in_shape, k, k, oc, seed=oc + k, out_zp=out_zp, filter_scales=EXTREME_SCALES)
    path = b.save(tmp_path / "rq.tflite")
    _check(tmp_path, path, count=6, extra_cases=_extremes(load_model(path)), target=TARGET)
    assert _kernels(path, TARGET)[0].endswith("_mve")


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
    from compiler.ops._mve_layout import mve_rows
    rng = np.random.default_rng(0)
    for r, k in [(1, 1), (4, 16), (7, 33), (9, 15), (64, 64), (3, 100)]:
        rows = rng.integers(-128, 128, size=(r, k)).astype(np.int8)
        out = mve_rows(rows)
        assert out.size == rows.size and sorted(out.tolist()) == sorted(rows.reshape(-1).tolist())
