"""Bit-exactness of the shape-specialized layers generated for Cortex-M0/M3 (compiler/ops/common/specialize.py).

With --target cortex-m3 the int8 convolution, depthwise and fully connected layers call the kernels' inline
bodies with literal shapes from `static` functions of the generated model; that code is portable C, so the host
build compiles and runs exactly what the ARM build gets, and every case is compared with TFLite Micro here.
The QEMU tests of //tests/models run the same code on mps2-an385 (Cortex-M3).
"""

import os
import sys

import numpy as np
import pytest

from compiler.errors import CompileError
from compiler.ops.common import specialize as _specialize
from compiler.ops.kernel_table import KernelOptions, parse_specialize

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from compiler.driver import compile_model, load_model  # noqa: E402
from conftest import SHARED_MODELS, HostBatch, attempt, model_or_generated, selected_params  # noqa: E402
import test_dsp_kernels as dsp  # noqa: E402
from test_dsp_kernels import CONV_CASES, DW_CASES, _conv_model, _extremes, _fc_model  # noqa: E402
from test_dsp_kernels import needs_tflm  # noqa: E402

TARGET = "cortex-m3"
# The bodies with int8 weights (--specialize without "packed", or a layer the packed sums do not fit) and with
# packed weights (the default; ops/common/packed.py).
BODY = {
    "CONV_2D": "aot_conv2d_s8_body",
    "DEPTHWISE_CONV_2D": "aot_depthwise_conv2d_s8_body",
    "FULLY_CONNECTED": "aot_fully_connected_s8_body",
}
BODY["DEPTHWISE_CONV_2D_C4"] = BODY["DEPTHWISE_CONV_2D"]  # the channel-vectorized shape is DSP-only; M3 specializes it
PACKED_BODY = {"CONV_2D": "aot_conv2d_s8_packed_body", "FULLY_CONNECTED": "aot_fully_connected_s8_packed_body"}
# Two output pixels per input word (ops/common/packed.py's xpair_*): by default the 1x1 convolutions and short-row
# stems, with --specialize ...,xpair every convolution.
XPAIR_BODY = "aot_conv2d_s8_xpair_body"
UNPACKED = KernelOptions(specialize=parse_specialize("conv,depthwise,fc"))
XPAIR = KernelOptions(specialize=parse_specialize("conv,depthwise,fc,xpair"))


def _default_pairs_inputs(kh, kw, in_c, oc):
    """Whether a convolution takes packed inputs rather than packed weights by default (specialized._setup)."""
    return kh * kw == 1 or (in_c * kw < 16 and (kh * kw <= 9 or oc >= 16))


def _exact(runs, request, kind):
    """Bit-exact with the three weight forms (checks 0, 1 and 2 of the test: the default, UNPACKED, XPAIR); packed
    weights or packed inputs wherever they apply (a depthwise layer with one input channel runs as a
    convolution)."""
    for k in range(3):
        runs.finish((request.node.nodeid, k))
    graph = runs.check((request.node.nodeid, 0)).graph
    assert _kernel(runs, request, 1) == BODY[kind]
    one_channel = kind.startswith("DEPTHWISE") and graph.inputs[0].shape[-1] == 1
    conv_like = kind == "CONV_2D" or one_channel
    want = PACKED_BODY["CONV_2D"] if one_channel else PACKED_BODY.get(kind, BODY[kind])
    if conv_like:
        filt = graph.ops[0].input(1).data
        kh, kw = filt.shape[1:3]
        in_c, oc = (filt.shape[3], filt.shape[0]) if kind == "CONV_2D" else (1, filt.shape[3])
        if _default_pairs_inputs(kh, kw, in_c, oc):
            want = XPAIR_BODY
    assert _kernel(runs, request, 0) == want
    assert _kernel(runs, request, 2) == (XPAIR_BODY if conv_like else BODY[kind])


def _kernel(runs, request, k):
    """The first layer's kernel in the compile of check k (the default options, or UNPACKED)."""
    return runs.check((request.node.nodeid, k)).compiled.manifest["ops"][0]["kernel"]


def _shared_path(d, name):
    return model_or_generated(name)


def _fc_path(d, depth, units, batches, act, per_channel):
    return _fc_model(depth, units, batches, per_channel=per_channel, act=act, seed=depth + units).save(d / "fc.tflite")


def _conv_path(d, case, per_channel):
    in_shape, kh, kw, oc, stride, padding, dilation = CONV_CASES[case]
    b = _conv_model(
        "CONV_2D", in_shape, kh, kw, oc, stride, padding, dilation, act=case % 3, seed=case, per_channel=per_channel
    )
    return b.save(d / "conv.tflite")


def _dw_path(d, case, per_channel):
    cases = [c[:7] for c in DW_CASES] + EXTRA_DW
    in_shape, kh, kw, oc, stride, padding, dilation = cases[case]
    b = _conv_model(
        "DEPTHWISE_CONV_2D",
        in_shape,
        kh,
        kw,
        oc,
        stride,
        padding,
        dilation,
        act=case % 3,
        seed=10 + case,
        per_channel=per_channel,
    )
    return b.save(d / "dw.tflite")


def _requant_path(d, case):
    return dsp._requant_model(d, REQUANT_CASES[case], 40 + case)


def _fallback_path(d):
    return _conv_model("CONV_2D", (1, 5, 5, 64), 3, 3, 8, act=0, seed=3).save(d / "conv.tflite")


def _chunks_path(d, depth, units, wmax):
    return _fc_model(depth, units, per_channel=True, seed=depth, wmax=wmax).save(d / "fc.tflite")


def _edges_path(d):
    return os.path.join(os.path.dirname(__file__), "..", "models", "xpair_edges_int8.tflite")


def _residual_path(d, name, kw, inplace):
    from test_ops_tflite import residual_model

    return residual_model(seed=len(name), **kw).save(d / "res.tflite")


# The tests whose host runs are batched (spec_runs): per test, its model from its parameters and the kernel options
# of its checks, in order (check k of a test is (its node id, k)).
BOTH = (None, UNPACKED)
ALL = (None, UNPACKED, XPAIR)
BATCHED = {
    "test_shared_model_bit_exact_specialized": (_shared_path, (None, XPAIR)),
    "test_fully_connected": (_fc_path, ALL),
    "test_conv2d": (_conv_path, ALL),
    "test_depthwise_conv2d": (_dw_path, ALL),
    "test_requant_corners": (_requant_path, ALL),
    "test_packed_conv_falls_back_when_the_lanes_could_overflow": (_fallback_path, (None, XPAIR)),
    "test_packed_fully_connected_chunks": (_chunks_path, (None,)),
    "test_residual_add_fused_into_packed_conv_cases": (_residual_path, (None, XPAIR)),
    "test_xpair_edges_model": (_edges_path, (XPAIR,)),
}


def _prepare(path, options, prefix):
    graph = load_model(str(path))
    return dsp.prepare_check(
        path, extra_cases=_extremes(graph), target=TARGET, kernel_options=options, prefix=prefix, graph=graph
    )


@pytest.fixture(scope="module")
def spec_runs(request, tmp_path_factory):
    """Every selected test of BATCHED: its model made and compiled for each of its checks up front (the tests read
    the kernel choices from these compiles too), all their host runs one program (conftest.HostBatch)."""
    checks, paths = {}, {}
    for test, (make, options) in BATCHED.items():
        for nodeid, params in selected_params(request, test):
            path = attempt(make, tmp_path_factory.mktemp("spec"), **params)
            paths[nodeid] = path
            for k, opts in enumerate(options):
                checks[(nodeid, k)] = (
                    path if isinstance(path, BaseException) else attempt(_prepare, path, opts, f"s{len(checks)}")
                )
    runs = HostBatch(checks)
    runs.paths = paths
    return runs


def _path(runs, request):
    path = runs.paths[request.node.nodeid]
    if isinstance(path, BaseException):
        raise path
    return path


@needs_tflm
@pytest.mark.parametrize("name", [m for m in SHARED_MODELS if m != "hello_world_float"])
def test_shared_model_bit_exact_specialized(spec_runs, request, name):
    _path(spec_runs, request)
    spec_runs.finish((request.node.nodeid, 0))
    spec_runs.finish((request.node.nodeid, 1))


@needs_tflm
@pytest.mark.parametrize(
    "depth,units,batches,act,per_channel",
    [
        (8, 4, 1, 0, False),
        (12, 7, 2, 1, True),
        (64, 13, 1, 3, False),
        (4, 1, 3, 0, True),
        (6, 5, 1, 0, False),
        (1365, 5, 1, 0, False),
        (1366, 5, 1, 0, False),
    ],
)
def test_fully_connected(spec_runs, request, depth, units, batches, act, per_channel):
    _path(spec_runs, request)
    if depth <= _specialize.FC_MAX_DEPTH:
        _exact(spec_runs, request, "FULLY_CONNECTED")
    else:  # too deep for int8 weights (the CRT kernel); packed, its sums split every 255 inputs
        spec_runs.finish((request.node.nodeid, 0))
        spec_runs.finish((request.node.nodeid, 1))
        assert _kernel(spec_runs, request, 1) == "aot_fully_connected_s8"
        assert _kernel(spec_runs, request, 0) == PACKED_BODY["FULLY_CONNECTED"]


# The DSP suites' shapes (padding or not, strides, dilation, one input channel, depth multiplier 2) plus
# depth multipliers on padded borders and per-tensor filter scales; multipliers 8 and 4 take four channels per
# input load (micro_speech's shape: one input channel, 8 filters, padded), with column dilation too.
EXTRA_DW = [
    ((1, 7, 6, 3), 3, 3, 6, (2, 1), 0, (1, 1)),
    ((1, 9, 8, 2), 5, 3, 6, (1, 2), 0, (2, 1)),
    ((1, 13, 11, 1), 5, 4, 8, (2, 2), 0, (1, 1)),
    ((1, 7, 6, 2), 3, 3, 8, (1, 1), 0, (1, 2)),
    # The M3's inside pixels on packed inputs (depth multiplier 1): runs of 4k + 1, 2 and 3 pixels (quads, a pair,
    # a last single pixel), stride 2, dilation 2 across, a 5x5 VALID window.
    ((1, 6, 15, 5), 3, 3, 5, (1, 1), 0, (1, 1)),
    ((1, 9, 20, 3), 3, 3, 3, (2, 2), 0, (1, 1)),
    ((1, 7, 12, 4), 3, 3, 4, (1, 1), 1, (1, 2)),
    ((1, 8, 12, 6), 5, 5, 6, (1, 1), 1, (1, 1)),
]


@needs_tflm
@pytest.mark.parametrize("case", range(len(CONV_CASES)))
@pytest.mark.parametrize("per_channel", [True, False])
def test_conv2d(spec_runs, request, case, per_channel):
    _path(spec_runs, request)
    _exact(spec_runs, request, "CONV_2D")


@needs_tflm
@pytest.mark.parametrize("case", range(len(DW_CASES) + len(EXTRA_DW)))
@pytest.mark.parametrize("per_channel", [True, False])
def test_depthwise_conv2d(spec_runs, request, case, per_channel):
    _path(spec_runs, request)
    _exact(spec_runs, request, "DEPTHWISE_CONV_2D")
    # Packed-input pairs (bit 1 of the body's last argument) exactly where the depth multiplier is 1 and the input
    # zero point is folded, with packing on (the default and XPAIR checks; not UNPACKED).
    for k in range(3):
        op = spec_runs.check((request.node.nodeid, k)).compiled.graph.ops[0]
        spec = op.params["spec"]
        if spec["body"] == BODY["DEPTHWISE_CONV_2D"]:
            want = k != 1 and op.params["mult_depth"] == 1 and spec["tables"]["in_off"] == 0
            assert (spec["args"][-1] & 2 != 0) == want


# test_dsp_kernels' requantization corners (output zero points at both ends of int8, ReLU6) plus right shifts
# past the short form's limit (the exact form).
REQUANT_CASES = dsp.REQUANT_CASES + [("CONV_2D", True, 0, 3000.0, 0), ("DEPTHWISE_CONV_2D", True, 0, 3000.0, 0)]


@needs_tflm
@pytest.mark.parametrize("case", range(len(REQUANT_CASES)))
def test_requant_corners(spec_runs, request, case):
    _path(spec_runs, request)
    _exact(spec_runs, request, REQUANT_CASES[case][0])
    # Every case takes the short form, the out scale 3000 ones (multiplier 0: constant channels) included.
    compiled = spec_runs.check((request.node.nodeid, 0)).compiled
    assert "AOT_REQUANT_SHORT" in compiled.files[f"{compiled.prefix}.c"]


def test_generated_code_specialized_only_for_m0_m3():
    path = model_or_generated("kws_ref_model")
    for target in ("cortex-m0", "cortex-m3"):
        src = compile_model(path, "kws", target).files["kws.c"]
        # kws: one function for the first convolution, one shared by its four depthwise layers, one by its
        # four pointwise convolutions, one for the classifier.
        assert src.count("static void kws_") == 4, src
        # Packed inputs (its 1x1 layers and its stem here) need SMLAL (ARMv7-M): not on the Cortex-M0.
        assert ("aot_conv2d_s8_xpair_body(" in src) == (target == "cortex-m3")
        assert "aot_conv2d_s8(" not in src and "aot_depthwise_conv2d_s8(" not in src
        assert "aot_fully_connected_s8(" not in src
    # ResNet-8: nine convolutions, three of them with the block's residual ADD fused in (their own functions:
    # the ADD's pointers are literal 0 in the others), and the classifier.
    src = compile_model(model_or_generated("pretrainedResnet_quant"), "resnet", "cortex-m3").files["resnet.c"]
    assert src.count("static void resnet_") == 10
    for target in ("host", "cortex-m4", "cortex-m7"):
        src = compile_model(path, "kws", target).files["kws.c"]
        assert "static void" not in src and "_inline.h" not in src


def test_specialize_option():
    """--specialize is a compile option (KernelOptions.specialize) passed down, not module state."""
    path = model_or_generated("kws_ref_model")
    opts = KernelOptions(specialize=parse_specialize("fc,depthwise"))
    src = compile_model(path, "kws", "cortex-m3", kernel_options=opts).files["kws.c"]
    assert "static void kws_fc" in src and "static void kws_dw" in src and "aot_conv2d_s8(" in src
    ops = compile_model(path, "kws", "cortex-m3", kernel_options=opts).manifest["ops"]
    assert any("--specialize leaves out conv" in (op["kernel_reason"] or "") for op in ops)
    src = compile_model(
        path, "kws", "cortex-m3", kernel_options=KernelOptions(specialize=parse_specialize("none"))
    ).files["kws.c"]
    assert "static void" not in src
    # The default is back for the next compile: nothing was left behind in module state.
    assert "static void kws_xconv" in compile_model(path, "kws", "cortex-m3").files["kws.c"]
    with pytest.raises(CompileError, match="unknown layer kind 'pool'"):
        parse_specialize("conv,pool")


# --- packed weights (ops/common/packed.py): two output channels per word, one SMLAL per two MACs ---------------------


def _packed_sums(words: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The kernel's arithmetic in Python integers: per group and word, the 64-bit sum from AOT_PACK_BIAS of x * word,
    split into its two lanes as aot_pack_split does.  Returns [channels] sums."""
    out = []
    for g in range(words.shape[0]):
        for j in range(2):
            a = (1 << 22) + sum(int(xv) * int(wv) for xv, wv in zip(x, words[g, :, j]))
            out += [(a & ((1 << 23) - 1)) - (1 << 22), a >> 23]
    return np.array(out, np.int64)


def test_packed_lanes_exact_at_the_bound():
    from compiler.ops.common import packed as _packed

    rng = np.random.default_rng(5)
    for c, k in ((4, 9), (6, 40), (1, 3), (7, 258)):
        rows = rng.integers(-128, 128, size=(c, k)).astype(np.int8)
        words = _packed.pack(rows)
        assert words.dtype == np.int32 and words.shape == (-(-c // 4), k, 2)
        for x in (rng.integers(-128, 128, size=k), np.full(k, -128), np.full(k, 127)):
            want = rows.astype(np.int64) @ x.astype(np.int64)
            if _packed.lane_bound(rows):
                assert np.array_equal(_packed_sums(words, x)[:c], want)
    # Low-lane weights summing to 2^15: inputs of -128 reach exactly -2^22, the lowest value the lane holds.
    rows = np.zeros((2, 259), np.int8)
    rows[0, :258] = 127
    rows[0, 258] = 2
    rows[1] = -128  # the high lane has no bound of its own
    assert int(rows[0].astype(np.int64).sum()) == 1 << 15 and _packed.lane_bound(rows)
    x = np.full(259, -128)
    assert np.array_equal(_packed_sums(_packed.pack(rows), x)[:2], rows.astype(np.int64) @ x)
    rows[0, 258] = 3  # one more: -2^22 - 128 no longer fits
    assert not _packed.lane_bound(rows)
    assert _packed.PACK_SAFE_RUN * 128 * 128 < 1 << 22


# --- packed inputs (ops/common/packed.py's xpair_*): two output pixels per input word -------------------------------


def _xpair_sums(weights: np.ndarray, x0: np.ndarray, x1: np.ndarray, chunk: int) -> tuple:
    """The input-pair body's arithmetic in Python integers: X = x0 + x1 * 2^23 per tap, per channel runs of `chunk`
    taps each summed from AOT_PACK_BIAS and split as aot_pack_split does.  Returns (pixel 0's, pixel 1's) sums per
    padded channel."""
    groups, k, _ = weights.shape
    xs = [int(a) + int(b) * (1 << 23) for a, b in zip(x0, x1)]
    s0, s1 = [], []
    for g in range(groups):
        for j in range(4):
            lo = hi = 0
            for r in range(0, k, chunk):
                a = (1 << 22) + sum(xs[t] * int(weights[g, t, j]) for t in range(r, min(k, r + chunk)))
                lo += (a & ((1 << 23) - 1)) - (1 << 22)
                hi += a >> 23
            s0.append(lo)
            s1.append(hi)
    return np.array(s0, np.int64), np.array(s1, np.int64)


def test_xpair_weights_layout():
    from compiler.ops.common import packed as _packed

    rows = np.arange(-60, 60, dtype=np.int8).reshape(6, 20)
    w = _packed.xpair_weights(rows)
    assert w.dtype == np.int8 and w.shape == (2, 20, 4)
    # Group g, tap t, lane j: channel 4g + j's weight t; the last group's two missing channels are zero.
    assert np.array_equal(w[0, :, 2], rows[2]) and np.array_equal(w[1, :, 1], rows[5])
    assert not w[1, :, 2:].any()


def test_xpair_lanes_exact_at_the_bound_and_split_past_it():
    from compiler.ops.common import packed as _packed

    rng = np.random.default_rng(7)
    for c, k in ((4, 9), (7, 40), (1, 3), (5, 258)):
        rows = rng.integers(-128, 128, size=(c, k)).astype(np.int8)
        w, chunk = _packed.xpair_weights(rows), _packed.xpair_chunk(rows)
        assert chunk == (k if _packed.xpair_lane_bound(rows) else _packed.PACK_SAFE_RUN)
        for x0, x1 in (
            (rng.integers(-128, 128, size=k), rng.integers(-128, 128, size=k)),
            (np.full(k, -128), np.full(k, 127)),
            (np.full(k, 127), np.full(k, -128)),
        ):
            s0, s1 = _xpair_sums(w, x0, x1, chunk)
            assert np.array_equal(s0[:c], rows.astype(np.int64) @ x0) and np.array_equal(
                s1[:c], rows.astype(np.int64) @ x1
            )
    # Every channel is a low lane now (pixel 0's sums): weights summing to 2^15 reach exactly -2^22 with inputs of
    # -128 and fit; one more does not, and the whole depth in one run would then come back wrong.
    rows = np.zeros((2, 259), np.int8)
    rows[:, :258] = 127
    rows[:, 258] = 2
    assert _packed.xpair_lane_bound(rows) and _packed.xpair_chunk(rows) == 259
    x0, x1 = np.full(259, -128), np.full(259, 5)
    s0, s1 = _xpair_sums(_packed.xpair_weights(rows), x0, x1, 259)
    assert np.array_equal(s0[:2], rows.astype(np.int64) @ x0) and np.array_equal(s1[:2], rows.astype(np.int64) @ x1)
    rows[1, 258] = 3  # the second channel: a high lane in the packed-weight form, bounded here
    assert _packed.lane_bound(rows) and not _packed.xpair_lane_bound(rows)
    assert _packed.xpair_chunk(rows) == _packed.PACK_SAFE_RUN
    w = _packed.xpair_weights(rows)
    s0, _ = _xpair_sums(w, x0, x1, 259)
    assert s0[1] != int(rows[1].astype(np.int64) @ x0)  # one run overflows the low lane
    s0, s1 = _xpair_sums(w, x0, x1, _packed.PACK_SAFE_RUN)
    assert np.array_equal(s0[:2], rows.astype(np.int64) @ x0) and np.array_equal(s1[:2], rows.astype(np.int64) @ x1)


@needs_tflm
def test_xpair_edges_model(spec_runs, request):
    """tests/models/xpair_edges_int8.tflite with packed inputs everywhere: its third layer's sums do leave the low
    lane's bound over its 576 taps, so only its runs of 255 keep it exact (the QEMU test runs the asm form)."""
    _path(spec_runs, request)
    spec_runs.finish((request.node.nodeid, 0))
    ops = spec_runs.check((request.node.nodeid, 0)).compiled.graph.ops
    assert [op.kernel for op in ops] == [XPAIR_BODY] * 4 and ops[2].params["spec"]["args"][20] == 255


@needs_tflm
def test_packed_conv_falls_back_when_the_lanes_could_overflow(spec_runs, request):
    """3x3x64 taps of weights near +-127: a low lane's sum can leave [-2^22, 2^22), so the layer keeps int8
    weights (and stays exact)."""
    path = _path(spec_runs, request)
    rows = load_model(path).ops[0].input(1).data.reshape(8, -1)
    from compiler.ops.common import packed as _packed

    assert not _packed.lane_bound(rows)
    spec_runs.finish((request.node.nodeid, 0))
    assert _kernel(spec_runs, request, 0) == BODY["CONV_2D"]
    # Packed inputs instead split the 576 taps into runs of 255 (and stay exact).
    assert not _packed.xpair_lane_bound(rows) and _packed.xpair_chunk(rows) == _packed.PACK_SAFE_RUN
    spec_runs.finish((request.node.nodeid, 1))
    op = spec_runs.check((request.node.nodeid, 1)).compiled.graph.ops[0]
    assert op.kernel == XPAIR_BODY and op.params["spec"]["args"][20] == _packed.PACK_SAFE_RUN


@needs_tflm
@pytest.mark.parametrize("depth,units,wmax", [(700, 6, 127), (300, 4, 10), (4000, 4, 127)])
def test_packed_fully_connected_chunks(spec_runs, request, depth, units, wmax):
    """A deep layer whose packed sums could overflow over its whole depth splits them every 255 inputs."""
    from compiler.ops.common import packed as _packed

    _path(spec_runs, request)
    spec_runs.finish((request.node.nodeid, 0))
    op = spec_runs.check((request.node.nodeid, 0)).compiled.graph.ops[0]
    assert op.kernel == PACKED_BODY["FULLY_CONNECTED"]
    rows = op.input(1).data.reshape(units, depth)
    chunk = op.params["spec"]["args"][7]
    assert chunk == (depth if _packed.lane_bound(rows) else _packed.PACK_SAFE_RUN)
    assert (chunk == depth) == (wmax == 10)


def test_residual_add_fused_into_packed_conv():
    """ResNet-8's three residual ADDs run inside the packed convolutions on the M3 (passes/fuse_residual_add.py:
    the first block's 3x3 with packed weights, the two 1x1 shortcuts with packed inputs), as on the DSP and Helium
    kernels: no ADD call, and the workspace that the unfused sums needed is gone (the shared-model tests above
    check the outputs)."""
    path = model_or_generated("pretrainedResnet_quant")
    fused = compile_model(path, "resnet", TARGET)
    adds = [op for op in fused.manifest["ops"] if op["kind"] == "ADD"]
    assert adds and all(op["fused_into"] is not None for op in adds)
    src = fused.files["resnet.c"]
    # Each ADD's constants: defined once, passed once (the input-pair body's scratch pointer follows them).
    assert "aot_add_s8_elementwise(" not in src and src.count("_residual_add") == 2 * len(adds)
    unfused = compile_model(path, "resnet", TARGET, kernel_options=UNPACKED)
    assert all(op["fused_into"] is None for op in unfused.manifest["ops"] if op["kind"] == "ADD")
    assert fused.manifest["workspace"]["size"] < unfused.manifest["workspace"]["size"]


@needs_tflm
@pytest.mark.parametrize("name,kw,inplace", dsp.RESIDUAL_CASES, ids=[c[0] for c in dsp.RESIDUAL_CASES])
def test_residual_add_fused_into_packed_conv_cases(spec_runs, request, name, kw, inplace):
    """test_dsp_kernels' fused residual cases (output over the residual in place, odd channel counts, the ADD's
    activation, the convolution as its second input, a one-channel depthwise layer) on the M3's packed body."""
    from test_ops_tflite import fusion

    path = _path(spec_runs, request)
    fused_into, add, off, ops = fusion(path, TARGET)
    assert fused_into is not None and ops[fused_into]["kernel"] in (PACKED_BODY["CONV_2D"], XPAIR_BODY)
    assert (off["s"] == off["r"]) == inplace
    spec_runs.finish((request.node.nodeid, 0))
    # The input-pair body's fused ADD (two pixels' outputs over their residuals).
    spec_runs.finish((request.node.nodeid, 1))
    op = spec_runs.check((request.node.nodeid, 1)).compiled.graph.ops[fused_into]
    assert op.kernel == XPAIR_BODY and op.params.get("residual") is not None
