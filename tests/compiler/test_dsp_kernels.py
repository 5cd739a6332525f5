"""Bit-exactness of the DSP-extension kernels (*_dsp) and their weight layouts, checked on the host.

Compiling with --target cortex-m4 selects the *_dsp kernels and writes the weights in their layouts; the host
build runs the same kernels with the portable emulations of SMLAD/SXTB16 (crt/src/kernels/dsp_s8.h), so every
layout and fast path is compared with TFLite Micro here, in seconds.  The QEMU tests of //tests/models then run
the real instructions on mps2-an386/an500/an505.
"""

import os
import re
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from compiler.commands.run_cmd import execute_on_host  # noqa: E402
from compiler.driver import compile_model, load_model  # noqa: E402
from compiler.oracle import random_inputs, tflm_available, tflm_outputs  # noqa: E402
from conftest import SHARED_MODELS, model_or_generated  # noqa: E402
from tflite_builder import ModelBuilder, conv_options  # noqa: E402

needs_tflm = pytest.mark.skipif(not tflm_available(), reason="tflite_micro is not installed")

TARGET = "cortex-m4"


class DspCheck:
    """_check in two steps, so the host runs of many can be one program (conftest.HostBatch): prepare_check compiles
    the model and draws its cases, finish(per_case) compares the host outputs with TFLite Micro's."""

    def __init__(self, model_path, graph, compiled, cases):
        self.model_path, self.graph, self.compiled, self.cases = model_path, graph, compiled, cases

    def finish(self, per_case):
        graph = self.graph
        want = tflm_outputs(str(self.model_path), self.cases, len(graph.outputs))
        for k, t in enumerate(graph.outputs):
            for n, case_want in enumerate(want):
                g = per_case[n][k]
                w = np.asarray(case_want[k]).reshape(t.shape)
                diff = np.flatnonzero(g.astype(np.int32) != w.astype(np.int32))
                assert diff.size == 0, (
                    f"case {n}, output '{t.name}': {diff.size} of {g.size} values differ; first "
                    f"at {diff[0]}: got {g.reshape(-1)[diff[0]]}, TFLM {w.reshape(-1)[diff[0]]}"
                )


def prepare_check(
    model_path, count=4, seed=0, extra_cases=(), target=TARGET, kernel_options=None, prefix="aotmodel", graph=None
):
    """graph: the model's, when the caller has loaded it already."""
    graph = graph or load_model(str(model_path))
    cases = random_inputs(graph, count, seed) + [list(c) for c in extra_cases]
    compiled = compile_model(str(model_path), prefix, target, kernel_options=kernel_options)
    return DspCheck(model_path, graph, compiled, cases)


def _check(tmp_path, model_path, count=4, seed=0, extra_cases=(), target=TARGET, kernel_options=None):
    check = prepare_check(model_path, count, seed, extra_cases, target, kernel_options)
    check.finish(execute_on_host(check.compiled, check.cases))


def _kernels(model_path, target=TARGET):
    return [op["kernel"] or "" for op in compile_model(model_path, "m", target).manifest["ops"]]


def _extremes(graph):
    """All -128 and all 127 inputs: the corners of the raw-word input expansion."""
    return [[np.full(t.shape, v, np.int8) for t in graph.inputs] for v in (-128, 127)]


@needs_tflm
@pytest.mark.parametrize("name", [m for m in SHARED_MODELS if m != "hello_world_float"])
def test_shared_model_bit_exact_with_dsp_kernels(tmp_path, name):
    path = model_or_generated(name)
    _check(tmp_path, path, count=4, extra_cases=_extremes(load_model(path)))


def test_dsp_kernels_selected_only_for_dsp_targets():
    path = model_or_generated("kws_ref_model")
    host = [op["kernel"] or "" for op in compile_model(path, "m", "host").manifest["ops"]]
    m3 = [op["kernel"] or "" for op in compile_model(path, "m", "cortex-m3").manifest["ops"]]
    m4 = _kernels(path)
    assert not any(k.endswith("_dsp") for k in host + m3)
    assert any(k.endswith("_dsp") for k in m4)


# --- synthetic layers: shapes and corner cases the shared models do not cover ---------------------------------


def _rng(seed):
    return np.random.default_rng(seed)


def _fc_model(depth, units, batches=1, per_channel=False, act=0, in_zp=3, seed=0, wmax=127):
    rng = _rng(seed)
    b = ModelBuilder()
    x = b.input("x", [batches, depth], "int8", 0.05, in_zp)
    w = rng.integers(-wmax, wmax + 1, size=(units, depth)).astype(np.int8)
    ws = rng.uniform(0.002, 0.01, size=units) if per_channel else 0.004
    wt = b.const("w", w, "int8", ws, 0)
    bias = b.const(
        "b",
        rng.integers(-3000, 3000, size=units).astype(np.int32),
        "int32",
        np.float32(0.05) * np.asarray(ws, np.float32),
        0,
    )
    y = b.tensor("y", [batches, units], "int8", 0.3, -5)
    b.op("FULLY_CONNECTED", [x, wt, bias], y, {"fusedActivationFunction": act})
    b.output(y)
    return b


# Blocks of 8 rows and the rows after them; quad counts that enter the 8-quad loop at each of its quads (1..9, 160);
# per-tensor (the assembly requantizes, saturating or clamping to the activation range) and per-channel (it hands the
# accumulators to C); batches.
@needs_tflm
@pytest.mark.parametrize(
    "depth,units,batches,act,per_channel",
    [
        (8, 4, 1, 0, False),
        (12, 7, 2, 1, False),
        (64, 13, 1, 3, False),
        (4, 1, 3, 0, False),
        (640, 9, 1, 0, False),
        (6, 5, 1, 0, False),
        (4, 8, 2, 3, False),
        (20, 16, 1, 1, True),
        (36, 19, 2, 1, False),
        (28, 24, 1, 0, True),
        (24, 11, 3, 3, False),
    ],
)
def test_fully_connected(tmp_path, depth, units, batches, act, per_channel):
    path = _fc_model(depth, units, batches, per_channel=per_channel, act=act, seed=depth + units).save(
        tmp_path / "fc.tflite"
    )
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)))
    want = "aot_fully_connected_s8_dsp" if depth % 4 == 0 else "aot_fully_connected_s8"
    assert _kernels(path)[0] == want


def _fc_chain_model(layers, batches=2, seed=5):
    """FULLY_CONNECTED layers in a row: layers = [(units, act, per_channel)], from an input of 16 values."""
    rng = _rng(seed)
    b = ModelBuilder()
    depth = 16
    x = b.input("x", [batches, depth], "int8", 0.05, 3)
    for i, (units, act, per_channel) in enumerate(layers):
        w = rng.integers(-127, 128, size=(units, depth)).astype(np.int8)
        ws = rng.uniform(0.002, 0.01, size=units) if per_channel else 0.004
        wt = b.const(f"w{i}", w, "int8", ws, 0)
        in_scale = 0.05 if i == 0 else 0.3
        bias = b.const(
            f"b{i}",
            rng.integers(-3000, 3000, size=units).astype(np.int32),
            "int32",
            np.float32(in_scale) * np.asarray(ws, np.float32),
            0,
        )
        y = b.tensor(f"y{i}", [batches, units], "int8", 0.3, -5)
        b.op("FULLY_CONNECTED", [x, wt, bias], y, {"fusedActivationFunction": act})
        x, depth = y, units
    b.output(x)
    return b


# Runs of per-tensor DSP layers of whole 8-row blocks become one call over a table (codegen/fc_chain.py): two runs
# of three around a layer that cannot join (12 rows), activations none, ReLU and ReLU6, two batches.
@needs_tflm
def test_fully_connected_chain(tmp_path):
    layers = [(16, 1, False), (8, 0, False), (24, 3, False), (12, 0, False), (16, 1, False), (16, 0, False)]
    layers.append((8, 3, False))
    path = _fc_chain_model(layers).save(tmp_path / "chain.tflite")
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)))
    c = compile_model(str(path), "m", TARGET).files["m.c"]
    assert c.count("aot_fully_connected_s8_dsp_chain(m_fc_chain0, 3, ws, inputs->") == 1
    assert c.count("aot_fully_connected_s8_dsp_chain(m_fc_chain4, 3, ws, NULL, outputs->") == 1
    assert c.count("aot_fully_connected_s8_dsp(") == 1
    # A per-channel layer breaks a run; two layers are not one.
    path = _fc_chain_model([(16, 0, False), (16, 0, True), (16, 0, False), (8, 0, False)]).save(tmp_path / "b.tflite")
    _check(tmp_path, path)
    assert "aot_fully_connected_s8_dsp_chain" not in compile_model(str(path), "m", TARGET).files["m.c"]


def _conv_model(
    kind,
    in_shape,
    kh,
    kw,
    oc,
    stride=(1, 1),
    padding=0,
    dilation=(1, 1),
    act=0,
    in_zp=-7,
    per_channel=True,
    seed=0,
    out_scale=0.2,
    out_zp=4,
    filter_scales=None,
):
    """CONV_2D (filter [oc, kh, kw, ic]) or DEPTHWISE_CONV_2D (filter [1, kh, kw, oc], oc a multiple of ic)."""
    rng = _rng(seed)
    b = ModelBuilder()
    n, h, w, ic = in_shape
    x = b.input("x", in_shape, "int8", 0.05, in_zp)
    fshape = (oc, kh, kw, ic) if kind == "CONV_2D" else (1, kh, kw, oc)
    wts = rng.integers(-127, 128, size=fshape).astype(np.int8)
    ws = rng.uniform(0.002, 0.01, size=oc) if per_channel else np.float32(0.004)
    if filter_scales is not None:
        ws = np.asarray(filter_scales, np.float64)
    axis = 0 if kind == "CONV_2D" else 3
    wt = b.const("w", wts, "int8", ws, 0, quantized_dimension=axis)
    bias = b.const(
        "b",
        rng.integers(-3000, 3000, size=oc).astype(np.int32),
        "int32",
        np.float32(0.05) * np.asarray(ws, np.float32),
        0,
        quantized_dimension=0,
    )
    eff_h, eff_w = (kh - 1) * dilation[0] + 1, (kw - 1) * dilation[1] + 1
    if padding == 0:
        oh, ow = -(-h // stride[0]), -(-w // stride[1])
    else:
        oh, ow = (h - eff_h) // stride[0] + 1, (w - eff_w) // stride[1] + 1
    y = b.tensor("y", [n, oh, ow, oc], "int8", out_scale, out_zp)
    b.op(kind, [x, wt, bias], y, conv_options(kind, padding, stride, act, dilation, ic, oc))
    b.output(y)
    return b


CONV_CASES = [
    # in_shape, kh, kw, oc, stride, padding, dilation
    ((1, 6, 5, 8), 1, 1, 6, (1, 1), 1, (1, 1)),  # 1x1 as GEMM, even channels
    ((1, 5, 5, 16), 3, 3, 7, (1, 1), 0, (1, 1)),  # SAME, odd output channels, odd pixel count
    ((2, 7, 6, 3), 3, 3, 4, (2, 2), 0, (1, 1)),  # K % 4 == 3 (gather + tail), batches, stride 2
    ((1, 12, 9, 1), 4, 2, 4, (2, 1), 0, (1, 1)),  # one input channel, whole-quad filter rows
    ((1, 9, 9, 4), 3, 3, 3, (1, 1), 0, (2, 2)),  # dilation
    ((1, 8, 8, 2), 3, 2, 2, (1, 2), 1, (1, 1)),  # VALID, K % 4 == 0 with in_c % 4 != 0
    ((1, 5, 7, 12), 1, 1, 5, (1, 1), 1, (1, 1)),  # 1x1, 3 quads (not a multiple of the unroll), odd channels
    ((1, 4, 4, 20), 1, 1, 9, (2, 2), 0, (1, 1)),  # 1x1 stride 2, 5 quads
    ((1, 9, 9, 8), 3, 3, 6, (2, 2), 0, (1, 1)),  # whole-quad taps, SAME with stride 2: partial rows
    ((1, 7, 8, 4), 3, 3, 4, (1, 1), 0, (2, 1)),  # whole-quad taps, dilated rows (row runs stay contiguous)
    ((1, 7, 8, 4), 3, 3, 3, (1, 1), 0, (1, 2)),  # whole-quad taps, dilated columns (tap by tap)
    ((1, 11, 10, 1), 3, 3, 8, (2, 2), 0, (1, 1)),  # rows of 3 bytes (a grayscale first layer), SAME borders
    ((1, 7, 6, 2), 3, 1, 6, (1, 1), 0, (2, 1)),  # rows of 2 bytes, dilated rows
    ((1, 8, 7, 1), 5, 1, 4, (1, 2), 1, (1, 1)),  # rows of 1 byte, VALID
]


@needs_tflm
@pytest.mark.parametrize("case", range(len(CONV_CASES)))
def test_conv2d(tmp_path, case):
    in_shape, kh, kw, oc, stride, padding, dilation = CONV_CASES[case]
    b = _conv_model("CONV_2D", in_shape, kh, kw, oc, stride, padding, dilation, act=case % 3, seed=case)
    path = b.save(tmp_path / "conv.tflite")
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)))
    assert _kernels(path)[0] == "aot_conv2d_s8_dsp"


# Shapes of the GEMM's special paths, without an activation (so the range is all of int8): the unrolled small-K
# instances (K = 8, 9, 16, 24, 27, even channel counts), the 1x1 stride-1 direct expansion, and leftover taps
# after whole quads read as one word (K = 27, a first RGB layer).
SMALL_K_CASES = [
    # in_shape, kh, kw, oc, stride, padding
    ((1, 7, 5, 8), 1, 1, 12, (1, 1), 1),  # K = 8, odd pixel count
    ((2, 4, 6, 16), 1, 1, 6, (1, 1), 0),  # K = 16, batches
    ((1, 3, 3, 24), 1, 1, 10, (1, 1), 1),  # K = 24
    ((1, 5, 5, 8), 1, 1, 7, (1, 1), 1),  # K = 8 with odd channels: the general GEMM
    ((1, 9, 9, 3), 3, 3, 4, (2, 2), 0),  # K = 27: 6 quads + 3 leftovers, stride 2
    ((1, 6, 7, 2), 3, 3, 4, (1, 1), 0),  # K = 18: 4 quads + 2 leftovers
    ((1, 6, 6, 1), 1, 5, 4, (1, 1), 0),  # K = 5: 1 quad + 1 leftover
    ((1, 8, 9, 1), 3, 3, 4, (2, 2), 0),  # K = 9: a grayscale first layer
    ((1, 7, 7, 3), 3, 3, 8, (1, 1), 0),  # K = 27, SAME padding, stride 1
]


@needs_tflm
@pytest.mark.parametrize("case", range(len(SMALL_K_CASES)))
def test_conv2d_gemm_paths(tmp_path, case):
    in_shape, kh, kw, oc, stride, padding = SMALL_K_CASES[case]
    b = _conv_model("CONV_2D", in_shape, kh, kw, oc, stride, padding, (1, 1), act=0, seed=100 + case)
    path = b.save(tmp_path / "conv.tflite")
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)))
    assert _kernels(path)[0] == "aot_conv2d_s8_dsp"


DSP_DW = "aot_depthwise_conv2d_s8_dsp"
DSP_DW_C4 = "aot_depthwise_conv2d_s8_dsp_c4"

DW_CASES = [
    # in_shape, kh, kw, oc, stride, padding, dilation, kernel
    ((1, 7, 5, 8), 3, 3, 8, (1, 1), 0, (1, 1), DSP_DW_C4),  # 35 pixels: channel-vectorized
    ((2, 9, 8, 5), 3, 3, 5, (2, 2), 0, (1, 1), DSP_DW),  # 5 channels: planar
    ((1, 8, 7, 3), 3, 3, 3, (2, 1), 1, (1, 1), DSP_DW),
    ((1, 13, 11, 1), 5, 4, 6, (2, 2), 0, (1, 1), "aot_conv2d_s8_dsp"),  # one input channel -> GEMM
    ((1, 6, 6, 4), 3, 3, 8, (1, 1), 0, (1, 1), "aot_depthwise_conv2d_s8"),  # multiplier 2: portable
    ((1, 25, 5, 6), 3, 3, 6, (1, 1), 0, (1, 1), DSP_DW),  # taller than wide: transposed
    ((1, 5, 20, 7), 3, 3, 7, (1, 1), 1, (1, 1), DSP_DW),  # VALID, 18 columns
    ((1, 11, 9, 4), 3, 3, 4, (2, 2), 0, (1, 1), DSP_DW_C4),  # stride 2, odd sizes
    ((2, 6, 13, 3), 3, 3, 3, (1, 2), 0, (1, 1), DSP_DW),  # mixed strides, batches
    ((1, 10, 10, 5), 3, 3, 5, (3, 3), 0, (1, 1), DSP_DW),  # stride 3: one at a time
    ((1, 12, 4, 2), 3, 3, 2, (2, 1), 1, (1, 1), DSP_DW),  # transposed, strides swap
    # MobileNet-like: many channels on small images, both kernels and both strides.
    ((1, 3, 3, 32), 3, 3, 32, (1, 1), 0, (1, 1), DSP_DW_C4),  # 3x3 SAME: every tap row/column padded
    ((1, 6, 6, 24), 3, 3, 24, (1, 1), 0, (1, 1), DSP_DW_C4),
    ((1, 7, 7, 20), 3, 3, 20, (2, 2), 0, (1, 1), DSP_DW_C4),  # stride 2 SAME, odd: pad 1 each side
    ((1, 6, 6, 12), 3, 3, 12, (2, 2), 0, (1, 1), DSP_DW_C4),  # stride 2 SAME, even: pad bottom/right only
    ((1, 9, 9, 8), 3, 3, 8, (2, 2), 1, (1, 1), DSP_DW_C4),  # VALID stride 2: rows read in place
    ((1, 5, 5, 8), 3, 3, 8, (1, 1), 1, (1, 1), DSP_DW_C4),  # VALID 3x3 output
    ((2, 4, 4, 8), 3, 3, 8, (1, 1), 0, (1, 1), DSP_DW_C4),  # batches
    ((1, 8, 8, 6), 3, 3, 6, (1, 1), 0, (1, 1), DSP_DW),  # channels not a multiple of 4: planar
    ((1, 3, 3, 10), 3, 3, 10, (1, 1), 0, (1, 1), DSP_DW),  # 3x3, 10 channels: planar, odd output count
    ((1, 13, 13, 16), 3, 3, 16, (1, 1), 0, (1, 1), DSP_DW),  # 169 pixels: planar, odd rows of 13
    ((1, 12, 12, 8), 3, 3, 8, (1, 1), 1, (1, 1), DSP_DW),  # VALID 10x10: planar
]


@needs_tflm
@pytest.mark.parametrize("case", range(len(DW_CASES)))
def test_depthwise_conv2d(tmp_path, case):
    in_shape, kh, kw, oc, stride, padding, dilation, kernel = DW_CASES[case]
    # Fused activations: none, ReLU, ReLU_N1_TO_1 (ranges narrower than int8), and ReLU6 every fourth case.
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
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)))
    assert _kernels(path)[0] == kernel
    if kernel == DSP_DW:
        # The planar kernel's weights are the model's 9 bytes per channel (the last channel's last row is read
        # from byte 5, nothing past the array): no padding, no doubled taps.
        sizes = re.findall(r"_filter\[(\d+)\]", compile_model(path, "m", TARGET).files["m_weights.c"])
        assert sizes == [str(9 * oc)]


# Requantization corners: per-tensor filter scale, output zero points at both ends of int8 (the add constant
# of dsp_s8.h holds zp * 2^rs), ReLU6 (clamped, not just saturated), and right shifts past the short form's
# limit (the compiler must keep the portable kernel).
REQUANT_CASES = [
    # kind, per_channel, act, out_scale, out_zp
    ("CONV_2D", False, 3, 0.2, -128),
    ("CONV_2D", True, 0, 0.05, 127),
    ("DEPTHWISE_CONV_2D", False, 3, 0.2, 127),
    ("DEPTHWISE_CONV_2D", True, 1, 0.07, -128),
    # The same on a small image with whole groups of four channels: the channel-vectorized kernel.
    ("DEPTHWISE_CONV_2D_C4", False, 3, 0.2, 127),
    ("DEPTHWISE_CONV_2D_C4", True, 1, 0.07, -128),
]


def _requant_model(tmp_path, case, seed):
    """A 3x3 layer of REQUANT_CASES' form: (kind, per_channel, act, out_scale, out_zp)."""
    kind, per_channel, act, out_scale, out_zp = case
    in_shape, oc = {
        "CONV_2D": ((1, 6, 7, 8), 6),
        "DEPTHWISE_CONV_2D": ((1, 9, 6, 6), 6),
        "DEPTHWISE_CONV_2D_C4": ((1, 5, 6, 12), 12),
    }[kind]
    b = _conv_model(
        kind.replace("_C4", ""),
        in_shape,
        3,
        3,
        oc,
        act=act,
        per_channel=per_channel,
        seed=seed,
        out_scale=out_scale,
        out_zp=out_zp,
    )
    return b.save(tmp_path / "rq.tflite")


@needs_tflm
@pytest.mark.parametrize("case", range(len(REQUANT_CASES)))
def test_requant_corners(tmp_path, case):
    path = _requant_model(tmp_path, REQUANT_CASES[case], 40 + case)
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)))
    assert _kernels(path)[0].endswith("_dsp_c4" if REQUANT_CASES[case][0].endswith("_C4") else "_dsp")


@needs_tflm
@pytest.mark.parametrize("kind", ["CONV_2D", "DEPTHWISE_CONV_2D"])
def test_large_right_shift_takes_dsp_kernel(tmp_path, kind):
    # in 0.05 x filter ~0.006 / out 3000: a multiplier of ~2^-33 (flushed to 0): constant channels.
    b = _conv_model(kind, (1, 6, 6, 4), 3, 3, 4, seed=7, out_scale=3000.0, out_zp=0)
    path = b.save(tmp_path / "big_shift.tflite")
    _check(tmp_path, path)
    assert "_dsp" in _kernels(path)[0]


# Residual ADD fused into the GEMM kernel (passes/fuse_residual_add.py); the model comes from test_ops_tflite.
RESIDUAL_CASES = [
    # name, residual_model kwargs, in place
    ("3x3_odd_pixel_count_in_place", dict(shape=(1, 5, 5, 8), oc=8), True),  # last pixel in both slots
    ("1x1_odd_channels_per_tensor", dict(shape=(1, 4, 6, 8), oc=7, mid=8, k=1, per_channel=False, add_act=1), True),
    ("conv_second_input_relu6", dict(shape=(2, 3, 5, 12), oc=12, conv_first=False, add_act=3), True),
    ("conv_reads_the_residual", dict(shape=(1, 5, 7, 4), oc=4, residual="direct"), False),
    ("depthwise_one_channel_gemm", dict(shape=(1, 6, 5, 8), oc=4, kind="DEPTHWISE_CONV_2D", add_act=2), True),
]


@needs_tflm
@pytest.mark.parametrize("name,kw,inplace", RESIDUAL_CASES, ids=[c[0] for c in RESIDUAL_CASES])
def test_residual_add_fused_into_gemm(tmp_path, name, kw, inplace):
    from test_ops_tflite import fusion, residual_model

    path = residual_model(seed=len(name), **kw).save(tmp_path / "res.tflite")
    fused_into, add, off, ops = fusion(path, TARGET)
    assert fused_into is not None and ops[fused_into]["kernel"] == "aot_conv2d_s8_dsp"
    assert (off["s"] == off["r"]) == inplace
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)))


def test_mve_kernels_selected_for_cortex_m55():
    # The Cortex-M55 has the DSP extension too, but its GEMM, depthwise and int8 average pooling layers take the
    # Helium (MVE) kernels (tests/compiler/test_mve_kernels.py; the narrow depthwise layers its _mve_plane form).
    path = model_or_generated("kws_ref_model")
    m55 = [op["kernel"] or "" for op in compile_model(path, "m", "cortex-m55").manifest["ops"]]
    m4 = _kernels(path)
    assert [k.replace("_mve_plane", "").replace("_mve", "") for k in m55] == [k.replace("_dsp", "") for k in m4]
    assert any(k.endswith("_mve") for k in m55) and not any("_mve" in k for k in m4)


def _three_pixel_tile(monkeypatch):
    """Keeps a one-layer model's GEMM on the 3-pixel tile: its scratch sets such a model's peak, so the planner would
    give it the 2-pixel form (planner/plan.py _smaller_tile)."""
    monkeypatch.setattr("compiler.planner.plan._smaller_tile", lambda graph, plan: [])


def _entries(model_path, target=TARGET):
    return [op.get("entry") for op in compile_model(model_path, "m", target).manifest["ops"]]


# Both tiles of the GEMM on the shapes above (each shape's own activation; the small-K shapes without one): the
# 3-pixel forms (aot_conv2d_s8_dsp, _sat, _k<K>) and the 2-pixel form the planner picks where the layer's scratch
# sets the workspace peak (aot_conv2d_s8_dsp_t2: its own im2col, the taps outside the image packed a byte at a time).
@needs_tflm
@pytest.mark.parametrize("tile", [2, 3])
@pytest.mark.parametrize("case", range(len(CONV_CASES) + len(SMALL_K_CASES)))
def test_conv2d_gemm_tiles(tmp_path, monkeypatch, case, tile):
    if case < len(CONV_CASES):
        in_shape, kh, kw, oc, stride, padding, dilation = CONV_CASES[case]
        act, seed = case % 3, case
    else:
        in_shape, kh, kw, oc, stride, padding = SMALL_K_CASES[case - len(CONV_CASES)]
        dilation, act, seed = (1, 1), 0, 100 + case - len(CONV_CASES)
    if tile == 3:
        _three_pixel_tile(monkeypatch)
    b = _conv_model("CONV_2D", in_shape, kh, kw, oc, stride, padding, dilation, act=act, seed=seed)
    path = b.save(tmp_path / "conv.tflite")
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)))
    entry = _entries(path)[0]
    if tile == 2 and entry != "aot_conv2d_s8_dsp_t2":
        pytest.skip(f"the 2-pixel form does not lower this model's workspace ({entry} kept)")
    assert (entry == "aot_conv2d_s8_dsp_t2") == (tile == 2), entry


# The DSP GEMM in two bands of output rows, its scratch inside its own output and input (the planner's choice where
# the scratch sets the peak: ops/common/conv.py dsp_gemm_split), between two RELUs so that its input and output are
# workspace tensors and the convolution is the peak.
SPLIT_CASES = [
    # kind, in_shape, kh, kw, oc, stride, padding, dilation
    ("CONV_2D", (1, 16, 16, 32), 3, 3, 32, (1, 1), 0, (1, 1)),  # ResNet-8's layer: SAME, whole-quad taps
    ("CONV_2D", (1, 18, 9, 8), 1, 1, 16, (1, 1), 1, (1, 1)),  # 1x1: both bands stay pointwise
    ("CONV_2D", (1, 21, 10, 3), 3, 3, 8, (2, 2), 0, (1, 1)),  # stride 2, K % 4 == 3: gather and tail
    ("CONV_2D", (1, 20, 7, 4), 3, 3, 6, (1, 1), 0, (2, 1)),  # dilated rows
    ("CONV_2D", (1, 40, 8, 12), 3, 2, 5, (2, 1), 1, (1, 1)),  # VALID, odd channels, stride 2 in rows only
    ("DEPTHWISE_CONV_2D", (1, 30, 12, 1), 6, 4, 8, (2, 2), 0, (1, 1)),  # one channel in (micro_speech's form)
]


@needs_tflm
@pytest.mark.parametrize("case", range(len(SPLIT_CASES)))
def test_dsp_gemm_split_bands(tmp_path, case):
    kind, in_shape, kh, kw, oc, stride, padding, dilation = SPLIT_CASES[case]
    b = _conv_model(kind, in_shape, kh, kw, oc, stride, padding, dilation, act=0, seed=300 + case)
    x, y = b._inputs[0], b._outputs[0]
    x0 = b.tensor("x0", list(in_shape), "int8", 0.05, -7)
    y1 = b.tensor("y1", list(b._handles[y].shape), "int8", 0.2, 4)
    b.op("RELU", [x0], b._handles[x])
    b._ops.insert(0, b._ops.pop())
    b.op("RELU", [b._handles[y]], y1)
    b._inputs, b._outputs = [x0.index], [y1.index]
    path = b.save(tmp_path / "split.tflite")
    check = prepare_check(path, extra_cases=_extremes(load_model(path)))
    assert "scratch_split" in check.compiled.graph.ops[1].params
    check.finish(execute_on_host(check.compiled, check.cases))
