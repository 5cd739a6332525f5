"""The float32 GEMM kernels of the cores with an FPU (compiler/ops/kernels/float_gemm.py,
crt/src/kernels/gemm_f32_tile.h), checked on the host.

Compiling for the Cortex-M4 (blocks of 4 output channels) or the Cortex-M55 (blocks of 8) writes the weights in
the kernels' layout; the host build runs the kernels' C loop (fmaf: correctly rounded, as VFMA.F32 is), so the
layouts, window gathers, part blocks and odd rows are compared here with TFLite Micro, within the tolerance of
`aotc testgen` (1e-5 relative + 1e-6), and with the portable kernels, whose sums are the same sums in the same
order with one rounding more per tap.  The instructions themselves run under QEMU:
//tests/models:generated_exact_test_* (model float_gemm: mps2-an386, mps2-an505, mps3-an547) and the float
models of //tests/models.
"""

import os
import sys
import types

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from compiler.commands.run_cmd import run_model  # noqa: E402
from compiler.driver import compile_model, load_model  # noqa: E402
from compiler.errors import CompileError  # noqa: E402
from compiler.ops.kernel_table import (  # noqa: E402
    DEFAULT_OPTIONS,
    FEW_FLOAT_MACS,
    KernelOptions,
    options_from_flags,
    parse_optimize,
)
from compiler.oracle import random_inputs, tflm_available, tflm_outputs  # noqa: E402
from compiler.ops.kernels.float_gemm import blocked, dw_lanes, dw_slides3  # noqa: E402
from tflite_builder import ModelBuilder, conv_options  # noqa: E402

needs_tflm = pytest.mark.skipif(not tflm_available(), reason="tflite_micro is not installed")

RTOL, ATOL = 1e-5, 1e-6
HERE = os.path.dirname(os.path.abspath(__file__))
FLOAT_GEMM = os.path.join(HERE, "..", "models", "float_gemm.tflite")
KWS_FLOAT = os.path.join(HERE, "..", "models", "kws_float_gen.tflite")


def _conv(b, rng, name, kind, in_shape, kh, kw, oc, stride=(1, 1), padding=0, dilation=(1, 1), act=0, bias=True):
    """A CONV_2D (filter [oc, kh, kw, ic]) or DEPTHWISE_CONV_2D (filter [1, kh, kw, oc]) of an input of its own."""
    n, h, w, ic = in_shape
    x = b.input(name + "_x", in_shape, "float32")
    fshape = (oc, kh, kw, ic) if kind == "CONV_2D" else (1, kh, kw, oc)
    wt = b.const(name + "_w", rng.uniform(-1, 1, fshape).astype(np.float32), "float32")
    bt = b.const(name + "_b", rng.uniform(-1, 1, oc).astype(np.float32), "float32") if bias else None
    eff_h, eff_w = (kh - 1) * dilation[0] + 1, (kw - 1) * dilation[1] + 1
    if padding == 0:
        oh, ow = -(-h // stride[0]), -(-w // stride[1])
    else:
        oh, ow = (h - eff_h) // stride[0] + 1, (w - eff_w) // stride[1] + 1
    y = b.tensor(name + "_y", [n, oh, ow, oc], "float32")
    b.op(kind, [x, wt, bt], y, conv_options(kind, padding, stride, act, dilation, ic, oc))
    b.output(y)


def _fc(b, rng, name, depth, units, batches, act=0, bias=True):
    x = b.input(name + "_x", [batches, depth], "float32")
    w = b.const(name + "_w", rng.uniform(-1, 1, (units, depth)).astype(np.float32), "float32")
    bt = b.const(name + "_b", rng.uniform(-1, 1, units).astype(np.float32), "float32") if bias else None
    y = b.tensor(name + "_y", [batches, units], "float32")
    b.op("FULLY_CONNECTED", [x, w, bt], y, {"fusedActivationFunction": act})
    b.output(y)


CONV_CASES = [
    # in_shape, kh, kw, oc, stride, padding (0 SAME, 1 VALID), dilation, act
    ((1, 6, 5, 8), 1, 1, 16, (1, 1), 1, (1, 1), 0),  # 1x1 in place, whole blocks, even pixels
    ((1, 5, 5, 3), 3, 3, 7, (1, 1), 0, (1, 1), 1),  # SAME: gathers, K = 27 (a tail), a part block, odd pixels
    ((2, 7, 6, 5), 3, 3, 12, (2, 2), 0, (1, 1), 3),  # batches, stride 2, RELU6
    ((1, 12, 9, 1), 10, 4, 9, (2, 1), 0, (1, 1), 0),  # KWS's first layer's form: one input channel, no bias
    ((1, 9, 9, 4), 3, 3, 5, (1, 1), 0, (2, 2), 2),  # dilation, RELU_N1_TO_1
    ((1, 4, 7, 6), 1, 3, 4, (1, 1), 1, (1, 1), 0),  # a 1 x 3 filter read in place
    ((1, 3, 3, 33), 1, 1, 3, (2, 2), 0, (1, 1), 0),  # strided 1x1, K = 33, fewer channels than a block
    ((1, 6, 5, 8), 3, 3, 6, (1, 1), 0, (1, 1), 1),  # 3x3 in place (rows of 24 taps): interior pairs, a part block
    ((1, 5, 6, 16), 2, 2, 12, (1, 1), 1, (1, 1), 0),  # VALID 2x2: every pair inside, whole and part blocks
]
# Depthwise layers of one input channel (the GEMM form): in_shape, kh, kw, oc, stride, padding.
DW_CASES = [((1, 13, 11, 1), 5, 4, 6, (2, 2), 0), ((1, 8, 7, 1), 3, 3, 9, (1, 1), 1)]
# Depthwise layers of depth multiplier 1 (aot_depthwise_conv2d_f32_vec): in_shape, kh, kw, stride, padding,
# dilation, act.  Odd widths (a last single pixel), channel counts not a multiple of 4 (a part quad).
DW_VEC_CASES = [
    ((1, 7, 5, 8), 3, 3, (1, 1), 0, (1, 1), 1),
    ((2, 9, 8, 6), 3, 3, (2, 2), 0, (1, 1), 3),
    ((1, 6, 7, 3), 5, 2, (1, 2), 1, (1, 1), 0),
    ((1, 9, 9, 5), 3, 3, (1, 1), 0, (2, 2), 0),
    # 3x3 at stride 1 down the columns, the column slide: SAME (a first and a last output with a row outside),
    # channels not a multiple of 4 (and odd: a pair and a single channel on the FPU), the rows 3 at a time and a
    # remainder; VALID; stride and dilation 2 along x; RELU6; columns of 1 and 2 tap columns; heights 2 and 3 (no
    # whole row, one); a 1-column output (the pairs of pixels).
    ((1, 12, 5, 7), 3, 3, (1, 1), 0, (1, 1), 1),
    ((1, 10, 6, 12), 3, 3, (1, 1), 1, (1, 1), 0),
    ((1, 9, 7, 6), 3, 3, (1, 2), 0, (1, 1), 3),
    ((1, 8, 9, 5), 3, 3, (1, 1), 0, (1, 2), 1),
    ((2, 2, 4, 8), 3, 3, (1, 1), 0, (1, 1), 0),
    ((1, 3, 2, 9), 3, 3, (1, 1), 0, (1, 1), 1),
    ((1, 7, 1, 8), 3, 3, (1, 1), 0, (1, 1), 0),
]

# depth, units, batches, act (the last without bias)
FC_CASES = [(64, 12, 1, 0), (27, 10, 3, 1), (5, 17, 2, 3), (1, 3, 4, 0)]


def _layers_model(path) -> str:
    """Every case above as a layer of its own input and output, in one model (one build per target)."""
    rng = np.random.default_rng(28)
    b = ModelBuilder()
    for i, (in_shape, kh, kw, oc, stride, padding, dilation, act) in enumerate(CONV_CASES):
        _conv(b, rng, f"conv{i}", "CONV_2D", in_shape, kh, kw, oc, stride, padding, dilation, act, bias=i != 3)
    for i, (in_shape, kh, kw, oc, stride, padding) in enumerate(DW_CASES):
        _conv(b, rng, f"dw{i}", "DEPTHWISE_CONV_2D", in_shape, kh, kw, oc, stride, padding)
    for i, (in_shape, kh, kw, stride, padding, dilation, act) in enumerate(DW_VEC_CASES):
        _conv(
            b,
            rng,
            f"dwv{i}",
            "DEPTHWISE_CONV_2D",
            in_shape,
            kh,
            kw,
            in_shape[3],
            stride,
            padding,
            dilation,
            act,
        )
    for i, (depth, units, batches, act) in enumerate(FC_CASES):
        _fc(b, rng, f"fc{i}", depth, units, batches, act, bias=i != len(FC_CASES) - 1)
    return b.save(path)


def _run(tmp_path, path, target, cases):
    graph = load_model(path)
    in_npz = tmp_path / f"inputs_{target}.npz"
    np.savez(in_npz, **{t.name: np.stack([c[i] for c in cases]) for i, t in enumerate(graph.inputs)})
    return run_model(path, str(in_npz), None, target=target)


def _check(tmp_path, path, count=3, seed=0):
    """The GEMM kernels for the M4 and the M55 against TFLite Micro and against the portable kernels; returns the
    largest difference from TFLite Micro relative to the tolerance."""
    graph = load_model(path)
    cases = random_inputs(graph, count, seed)
    want = tflm_outputs(path, cases, len(graph.outputs))
    portable = _run(tmp_path, path, "host", cases)
    worst = 0.0
    for target in ("cortex-m4", "cortex-m55"):
        got = _run(tmp_path, path, target, cases)
        for i, t in enumerate(graph.outputs):
            for c in range(count):
                g, w, p = got[t.name][c], want[c][i], portable[t.name][c]
                np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"{target} {t.name} case {c}")
                np.testing.assert_allclose(g, p, rtol=RTOL, atol=ATOL, err_msg=f"{target} {t.name} vs portable")
                worst = max(worst, float(np.max(np.abs(g - w) / (ATOL + RTOL * np.abs(w)))))
    return worst


@needs_tflm
def test_layers(tmp_path):
    """Convolutions, depthwise layers (of one input channel: the GEMM; of multiplier 1: the vectorized kernel) and
    fully connected layers of every form the kernels
    distinguish, within tolerance of TFLite Micro and of the portable kernels; each on the GEMM kernel."""
    path = _layers_model(tmp_path / "layers.tflite")
    for target in ("cortex-m4", "cortex-m55"):
        kernels = [op["kernel"] for op in compile_model(path, "m", target).manifest["ops"]]
        n_conv = len(CONV_CASES) + len(DW_CASES)
        assert kernels == (
            ["aot_conv2d_f32_gemm"] * n_conv
            + ["aot_depthwise_conv2d_f32_vec"] * len(DW_VEC_CASES)
            + ["aot_fully_connected_f32_gemm"] * len(FC_CASES)
        )
    assert _check(tmp_path, path) <= 1.0


def test_depthwise_without_bias(tmp_path):
    """A depthwise layer of the column slide without bias (its sums start from +0.0f), against the portable kernel
    (TFLite Micro's Python interpreter does not take a float DEPTHWISE_CONV_2D without bias)."""
    rng = np.random.default_rng(5)
    b = ModelBuilder()
    _conv(b, rng, "dwnb", "DEPTHWISE_CONV_2D", (1, 10, 6, 12), 3, 3, 12, (1, 1), 1, (1, 1), 0, bias=False)
    path = b.save(tmp_path / "dw_no_bias.tflite")
    graph = load_model(path)
    cases = random_inputs(graph, 2, 0)
    portable = _run(tmp_path, path, "host", cases)
    for target in ("cortex-m4", "cortex-m55"):
        got = _run(tmp_path, path, target, cases)
        for t in graph.outputs:
            np.testing.assert_allclose(got[t.name], portable[t.name], rtol=RTOL, atol=ATOL, err_msg=target)


@needs_tflm
def test_generated_model(tmp_path):
    """The model of the QEMU test, within tolerance on the host too."""
    assert _check(tmp_path, FLOAT_GEMM, count=4) <= 1.0


def test_kernel_choice():
    """The GEMM kernels on every core with an FPU, the portable ones on the host and the soft-float cores, and on
    a grouped convolution (the GEMM takes groups of one)."""
    path = FLOAT_GEMM
    for target, want in (
        ("host", False),
        ("cortex-m3", False),
        ("cortex-m4", True),
        ("cortex-m7", True),
        ("cortex-m33", True),
        ("cortex-m55", True),
    ):
        kernels = [op["kernel"] or "" for op in compile_model(path, "m", target).manifest["ops"]]
        assert any(k.endswith("_f32_gemm") for k in kernels) == want, (target, kernels)


def test_blocked_layout():
    rows = np.arange(3 * 5, dtype=np.float32).reshape(3, 5) + 1
    got = blocked(rows, 2)
    assert got.shape == (2, 5, 2)
    assert got[0, :, 0].tolist() == rows[0].tolist() and got[0, :, 1].tolist() == rows[1].tolist()
    assert got[1, :, 0].tolist() == rows[2].tolist() and not got[1, :, 1].any()


SIZE = KernelOptions(optimize="size")
DECODER_INT8 = os.path.join(HERE, "..", "models", "decoder_int8.tflite")


def test_optimize_size_choice():
    """--optimize=size: every float32 convolution, depthwise and fully connected layer on the portable kernel on
    every core with an FPU (the default keeps the GEMM kernels); an int8 model's choice is the same either way."""
    for target in ("cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55"):
        speed = [op["kernel"] or "" for op in compile_model(FLOAT_GEMM, "m", target).manifest["ops"]]
        size = [
            op["kernel"] or "" for op in compile_model(FLOAT_GEMM, "m", target, kernel_options=SIZE).manifest["ops"]
        ]
        assert any(k.endswith(("_f32_gemm", "_f32_vec")) for k in speed), (target, speed)
        assert not any(k.endswith(("_f32_gemm", "_f32_vec")) for k in size), (target, size)
        assert {"aot_conv2d_f32", "aot_depthwise_conv2d_f32", "aot_fully_connected_f32"} <= set(size), size
    for target in ("cortex-m4", "cortex-m55"):
        kernels = [
            [op["kernel"] for op in compile_model(DECODER_INT8, "m", target, kernel_options=o).manifest["ops"]]
            for o in (DEFAULT_OPTIONS, SIZE)
        ]
        assert kernels[0] == kernels[1], target


@needs_tflm
def test_optimize_size_output(tmp_path):
    """The size choice's code for the Cortex-M4 and M55 (the portable kernels) within tolerance of TFLite Micro."""
    graph = load_model(FLOAT_GEMM)
    cases = random_inputs(graph, 3, 1)
    want = tflm_outputs(FLOAT_GEMM, cases, len(graph.outputs))
    in_npz = tmp_path / "inputs.npz"
    np.savez(in_npz, **{t.name: np.stack([c[i] for c in cases]) for i, t in enumerate(graph.inputs)})
    for target in ("cortex-m4", "cortex-m55"):
        got = run_model(FLOAT_GEMM, str(in_npz), None, target=target, kernel_options=SIZE)
        for i, t in enumerate(graph.outputs):
            for c in range(len(cases)):
                np.testing.assert_allclose(
                    got[t.name][c], want[c][i], rtol=RTOL, atol=ATOL, err_msg=f"{target} {t.name}"
                )


def test_optimize_flag():
    """--optimize reaches the options (default speed) and refuses anything but speed and size in one sentence."""
    assert options_from_flags(types.SimpleNamespace()).optimize == "speed"
    assert options_from_flags(types.SimpleNamespace(optimize="size")).optimize == "size"
    with pytest.raises(CompileError, match=r"--optimize: unknown goal 'fast'; use speed .* or size\."):
        parse_optimize("fast")


def test_few_macs_rule(tmp_path):
    """kernel_table.FEW_FLOAT_MACS: a model whose fully connected layers have fewer MACs in all takes the portable
    kernel for them (no fast unit linked for so little work); from the threshold on the GEMM kernel, whose batch of
    one calls its own unit on the FPU cores (aot_fully_connected_f32_gemm_row) and the kernel itself on Helium."""
    rng = np.random.default_rng(3)
    for depth, units, want in ((16, 16, "aot_fully_connected_f32"), (64, 8, "aot_fully_connected_f32_gemm")):
        assert (depth * units < FEW_FLOAT_MACS) == (want == "aot_fully_connected_f32")
        b = ModelBuilder()
        _fc(b, rng, "fc", depth, units, 1)
        path = b.save(tmp_path / f"fc_{depth}x{units}.tflite")
        for target, entry in (("cortex-m4", "_row"), ("cortex-m55", "")):
            (op,) = compile_model(path, "m", target).manifest["ops"]
            assert op["kernel"] == want, (target, op)
            assert op["entry"] == (want + entry if want.endswith("_gemm") else want), (target, op)


def test_dw_slide3_entry():
    """The FPU cores' depthwise entry point: aot_depthwise_conv2d_f32_vec3 (linking the single column's slide of 3
    tap columns) for a layer whose walk over the columns reaches that slide, the kernel itself otherwise (KWS's SAME
    layers of 5 columns: pairs, then the right edge's column of 2 taps)."""
    base = dict(ih=25, iw=5, ic=64, oh=25, ow=5, kh=3, kw=3, sh=1, sw=1, dh=1, dw=1, pad_t=1, pad_l=1)
    relu = (0.0, 3.4028234663852886e38)
    assert not dw_slides3(dict(base, act=relu))  # KWS
    assert dw_slides3(dict(base, iw=7, ow=5, pad_l=0, act=relu))  # VALID, 5 columns: 2 pairs, a column of 3
    assert not dw_slides3(dict(base, iw=6, ow=4, pad_l=0, act=relu))  # VALID, 4 columns: 2 pairs
    assert dw_slides3(dict(base, sw=2, ow=3, act=relu))  # stride 2 along x: no pairs, interior columns of 3
    assert not dw_slides3(dict(base, sw=2, ow=3, act=(0.0, 6.0), fpv4=True))  # the M4F's ReLU6: no slides
    assert dw_slides3(dict(base, sw=2, ow=3, act=(0.0, 6.0)))  # FPv5's ReLU6 slides
    assert not dw_slides3(dict(base, sh=2, oh=13, act=relu))  # stride 2 down the columns: no slides


def test_dw_lanes_entry():
    """Helium's depthwise entry point: aot_depthwise_conv2d_f32_vec_lanes (the lanes alone, no column forms linked)
    for the layers the lanes take (KWS's), the kernel itself for others; the FPU cores never take it."""
    base = dict(ih=25, iw=5, ic=64, oh=25, ow=5, kh=3, kw=3, sh=1, sw=1, dh=1, dw=1, pad_t=1, pad_l=1)
    assert dw_lanes(base)
    assert not dw_lanes(dict(base, iw=4, ow=4))  # 4 columns: the column pairs
    assert not dw_lanes(dict(base, iw=7, ow=5, pad_l=0))  # VALID
    assert not dw_lanes(dict(base, sw=2, ow=3))  # strided
    for target, entry in (("cortex-m55", "aot_depthwise_conv2d_f32_vec_lanes"), ("cortex-m4", None)):
        entries = {
            op["entry"]
            for op in compile_model(KWS_FLOAT, "m", target).manifest["ops"]
            if op["kind"] == "DEPTHWISE_CONV_2D"
        }
        assert entries == {entry or "aot_depthwise_conv2d_f32_vec"}, (target, entries)
