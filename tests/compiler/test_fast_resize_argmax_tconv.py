"""Bit-exactness of the fast int8 RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR, last-axis ARG_MAX / ARG_MIN and
TRANSPOSE_CONV kernels against TFLite Micro, with shapes and quantization parameters drawn at random (seeded) and
pushed to the extremes: odd and single channels, up- and down-scaling, every align_corners / half_pixel_centers
combination, inputs at the int8 limits and with many ties, zero points at -128 / 127, per-channel scales from a
multiplier flushed to zero to left shifts, biases near the int32 limits.

Each model is compiled for the host (portable kernels), the Cortex-M4 (DSP kernels) and the Cortex-M55 (Helium
kernels) and run on this machine: the DSP and Helium kernels run their portable code with the compiler's tables
(byte offsets, folded tap biases), so the compiler side is checked here; the SSUB8 / VMAXV / SMLAD / VMLADAVA
instructions themselves run under QEMU in //tests/models:generated_exact_test_* (models rsz and tcd).
The kernel table's choices are checked too (the fast kernel on its core for every quantization).
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

from tflite_builder import ModelBuilder, fb  # noqa: E402
from test_ops_tflite import check_against_tflm  # noqa: E402
from test_dsp_kernels import needs_tflm  # noqa: E402
from compiler.driver import compile_model  # noqa: E402

TARGETS = ("host", "cortex-m4", "cortex-m55")
FAST = {
    "RESIZE_BILINEAR": {"cortex-m55": "aot_resize_bilinear_s8_mve"},
    "RESIZE_NEAREST_NEIGHBOR": {},
    "ARG_MAX": {"cortex-m4": "aot_arg_minmax_s8_last_dsp", "cortex-m55": "aot_arg_minmax_s8_last_mve"},
    "TRANSPOSE_CONV": {"cortex-m4": "aot_transpose_conv_s8_dsp", "cortex-m55": "aot_transpose_conv_s8_mve"},
}


def _kernels(path, target):
    return [op["kernel"] for op in compile_model(str(path), "m", target).manifest["ops"]]


def _resize_model(rng, kind, ac, hp):
    h, w = (int(v) for v in rng.integers(1, 9, 2))
    c = int(rng.choice([1, 2, 3, 4, 5, 16, 17]))
    oh, ow = (int(v) for v in rng.integers(1, 19, 2))
    q = (float(rng.choice([1e-7, 0.02, 9000.0])), int(rng.choice([-128, -1, 0, 5, 127])))
    b = ModelBuilder("resize")
    x = b.input("x", [int(rng.integers(1, 3)), h, w, c], "int8", *q)
    y = b.tensor("y", [x.shape[0], oh, ow, c], "int8", *q)
    opts = fb.ResizeBilinearOptionsT() if kind == "RESIZE_BILINEAR" else fb.ResizeNearestNeighborOptionsT()
    opts.alignCorners, opts.halfPixelCenters = ac, hp
    b.op(kind, [x, b.const("size", np.array([oh, ow], np.int32), "int32")], y, opts)
    b.output(y)
    return b


@needs_tflm
@pytest.mark.parametrize("kind", ["RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"])
@pytest.mark.parametrize("ac,hp", [(False, False), (True, False), (False, True)])
@pytest.mark.parametrize("seed", range(4))
def test_resize(tmp_path, kind, ac, hp, seed):
    rng = np.random.default_rng(1000 * seed + 10 * ac + hp + (kind == "RESIZE_BILINEAR"))
    b = _resize_model(rng, kind, ac, hp)
    path = b.save(tmp_path / "m.tflite")
    for target in TARGETS:
        want = FAST[kind].get(target)
        if want:
            assert _kernels(path, target) == [want]
        shape = compile_model(str(path), "m", "host").manifest["inputs"][0]["shape"]
        ends = [[np.full(shape, v, np.int8)] for v in (-128, 127)]
        check_against_tflm(tmp_path, b, seed=seed, target=target, extra_cases=ends)


def _arg_model(rng, kind, shape, axis):
    b = ModelBuilder("arg")
    x = b.input("x", shape, "int8", 0.25, int(rng.integers(-128, 128)))
    out_shape = [d for i, d in enumerate(shape) if i != axis % len(shape)]
    y = b.tensor("y", out_shape, "int32")
    opts = fb.ArgMaxOptionsT() if kind == "ARG_MAX" else fb.ArgMinOptionsT()
    opts.outputType = fb.TensorType.INT32
    b.op(kind, [x, b.const("axis", np.array([axis], np.int32), "int32")], y, opts)
    b.output(y)
    return b


@needs_tflm
@pytest.mark.parametrize("kind", ["ARG_MAX", "ARG_MIN"])
@pytest.mark.parametrize("seed", range(6))
def test_arg_minmax_last_axis(tmp_path, kind, seed):
    rng = np.random.default_rng(77 + seed)
    n = int(rng.choice([1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 64, 1000]))
    shape = [int(rng.integers(1, 4)), int(rng.integers(1, 5)), n]
    b = _arg_model(rng, kind, shape, -1)
    path = b.save(tmp_path / "m.tflite")
    # Ties everywhere (values from a set of 2 or 3), the extreme at the last position, at the int8 ends.
    cases = [[rng.integers(-1, 1, shape).astype(np.int8)], [rng.integers(-128, -125, shape).astype(np.int8)]]
    last = np.zeros(shape, np.int8)
    last[..., -1] = 127 if kind == "ARG_MAX" else -128
    cases += [[last], [np.full(shape, -128, np.int8)], [np.full(shape, 127, np.int8)]]
    cases += [[rng.integers(-128, 128, shape).astype(np.int8)] for _ in range(3)]
    for target in TARGETS:
        got = _kernels(path, target)[0]
        want = FAST["ARG_MAX"].get(target)
        if want and not (target == "cortex-m4" and n < 4):
            assert got == want.replace("ARG_MAX", kind)
        check_against_tflm(tmp_path, b, seed=seed, target=target, cases=cases)


@needs_tflm
def test_arg_minmax_other_axis_stays_portable(tmp_path):
    b = _arg_model(np.random.default_rng(5), "ARG_MAX", [3, 17, 4], 1)
    path = b.save(tmp_path / "m.tflite")
    for target in TARGETS:
        assert _kernels(path, target) == ["aot_arg_minmax_s8"]
        check_against_tflm(tmp_path, b, target=target)


# Per-channel filter scales (input scale 0.05, output scale 0.2): a multiplier flushed to zero, right shifts up to
# 31, left shifts up to 9.
EXTREME_SCALES = [1e-10, 1.5e-9, 3e-8, 1e-6, 0.004, 0.3, 40.0, 2000.0]


def _tconv_model(rng, ic, oc, k, stride, padding, in_hw, act):
    b = ModelBuilder("tconv")
    in_zp = int(rng.choice([-128, -7, 0, 127]))
    x = b.input("x", [1, in_hw[0], in_hw[1], ic], "int8", 0.05, in_zp)
    scales = rng.choice(EXTREME_SCALES, oc)
    w = b.const("w", rng.integers(-128, 128, (oc, k[0], k[1], ic)).astype(np.int8), "int8", scales, 0, 0)
    big = (1 << 31) - 1
    bias = rng.integers(-3000, 3000, oc).astype(np.int64)
    bias[rng.random(oc) < 0.3] = big
    bias[rng.random(oc) < 0.2] = -big - 1
    bias_t = b.const("b", bias.astype(np.int32), "int32", np.float32(0.05) * scales.astype(np.float32), 0)
    if padding == 0:
        out_hw = [in_hw[0] * stride[0], in_hw[1] * stride[1]]
    else:
        out_hw = [(in_hw[i] - 1) * stride[i] + k[i] for i in range(2)]
    y = b.tensor("y", [1, *out_hw, oc], "int8", 0.2, int(rng.choice([-128, 3, 127])))
    shape = b.const("shape", np.array([1, *out_hw, oc], np.int32), "int32")
    opts = {"padding": padding, "strideH": stride[0], "strideW": stride[1], "fusedActivationFunction": act}
    b.op("TRANSPOSE_CONV", [shape, w, x, bias_t], y, opts)
    b.output(y)
    return b


@needs_tflm
@pytest.mark.parametrize("seed", range(8))
def test_transpose_conv(tmp_path, seed):
    rng = np.random.default_rng(4242 + seed)
    ic = int(rng.choice([1, 3, 4, 5, 16, 17, 32]))
    oc = int(rng.choice([1, 3, 4, 5, 8]))
    k = (int(rng.integers(1, 5)), int(rng.integers(1, 5)))
    stride = (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
    in_hw = (int(rng.integers(1, 6)), int(rng.integers(1, 6)))
    b = _tconv_model(rng, ic, oc, k, stride, int(rng.integers(0, 2)), in_hw, int(rng.choice([0, 1, 3])))
    path = b.save(tmp_path / "m.tflite")
    shape = compile_model(str(path), "m", "host").manifest["inputs"][0]["shape"]
    ends = [[np.full(shape, v, np.int8)] for v in (-128, 127)]
    for target in TARGETS:
        want = FAST["TRANSPOSE_CONV"].get(target)
        if want:
            assert _kernels(path, target) == [want]
        check_against_tflm(tmp_path, b, seed=seed, target=target, extra_cases=ends)
