"""The int8 unary ops as 256-entry tables (compiler/ops/common/lut_s8.py): every table against the tflite-micro
interpreter on all 256 inputs, for drawn quantizations with extreme scales and zero points (each op's structural
limits honoured); the kernel each core gets from the kernel table; and the table kernels' C (byte, word and the
Helium kernel's portable form) bit-exact on the host, in place and on odd sizes."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))

from tflite_builder import ModelBuilder, fb  # noqa: E402
from test_ops_tflite import check_against_tflm, needs_tflm  # noqa: E402

from compiler.driver import analyze  # noqa: E402
from compiler.oracle import tflm_outputs  # noqa: E402
from compiler.ops.common.lut_s8 import LUT_KERNELS, LUT_KINDS  # noqa: E402

pytestmark = needs_tflm

ALL = np.arange(-128, 128, dtype=np.int8)
DRAWS = 24
FIXED = {"TANH": (1.0 / 128, 0), "LOGISTIC": (1.0 / 256, -128)}


def _log_uniform(rng, lo, hi):
    return float(np.exp(rng.uniform(np.log(lo), np.log(hi))))


def _zp(rng):
    # The int8 ends and their neighbours half of the time.
    return int(rng.choice([-128, -127, 0, 126, 127])) if rng.random() < 0.5 else int(rng.integers(-128, 128))


def _draw(kind, rng):
    """(input quantization, output quantization, alpha) for one op of `kind`, extremes included, inside the limits
    the compiler (and TFLite Micro) accept for it."""
    qi = (_log_uniform(rng, 1e-6, 3000.0), _zp(rng))
    qo = (_log_uniform(rng, 1e-6, 3000.0), _zp(rng))
    alpha = float(rng.choice([0.0, 0.1, -0.7, 2.5, rng.uniform(-3, 3)]))
    if kind in FIXED:
        qi, qo = (_log_uniform(rng, 1e-8, 15.0), qi[1]), FIXED[kind]
    elif kind == "RELU6":
        qo = qi
    elif kind == "RSQRT":
        # 1 / (sqrt(s_in) * s_out) above 2^-12 (the compiler's limit, from TFLite Micro's shift range).
        qo = (min(qo[0], 2.0**11.9 / np.sqrt(qi[0])), qo[1])
    elif kind == "HARD_SWISH":
        # s_in / (128 s_out) in [2^-16, 1) and s_in >= 1.8e-7.
        si = _log_uniform(rng, 2e-7, 3000.0)
        qi, qo = (si, qi[1]), (si / 128 / _log_uniform(rng, 2.0**-15.9, 0.999), qo[1])
    elif kind == "ELU":
        # Beyond 2^31 output steps TFLite Micro's float -> int32 conversion is undefined.
        qo = (max(qo[0], qi[0] * 1e-6), qo[1])
    return qi, qo, alpha


def _model(kind, draws, shape=(256,)):
    b = ModelBuilder(f"lut_{kind.lower()}")
    outs = []
    for i, (qi, qo, alpha) in enumerate(draws):
        x = b.input(f"x{i}", list(shape), "int8", *qi)
        y = b.tensor(f"y{i}", list(shape), "int8", *qo)
        opts = None
        if kind == "LEAKY_RELU":
            opts = fb.LeakyReluOptionsT()
            opts.alpha = alpha
        b.op(kind, [x], y, opts)
        outs.append(y)
    b.output(*outs)
    return b


@pytest.mark.parametrize("kind", LUT_KINDS)
def test_table_matches_tflite_micro_on_every_input(tmp_path, kind):
    rng = np.random.default_rng(sum(map(ord, kind)))
    draws = [_draw(kind, rng) for _ in range(DRAWS)]
    path = str(_model(kind, draws).save(tmp_path / "m.tflite"))
    # RSQRT: TFLite Micro refuses inputs below the zero point; those entries are compared as the zero point's.
    inputs = [np.maximum(ALL, d[0][1]).astype(np.int8) if kind == "RSQRT" else ALL for d in draws]
    want = tflm_outputs(path, [inputs], len(draws))[0]
    graph, _, _ = analyze(path, target="cortex-m4")
    for i, op in enumerate(graph.ops):
        assert op.kernel == "aot_lut_s8_word", (op.kind, op.kernel, op.kernel_reason)
        got = op.params["table"][inputs[i].view(np.uint8)]
        w = np.asarray(want[i]).reshape(-1)
        bad = np.flatnonzero(got != w)
        assert bad.size == 0, (
            f"{kind} draw {i} (input {draws[i][0]}, output {draws[i][1]}, alpha {draws[i][2]}): "
            f"{bad.size} of 256 entries differ; input {int(inputs[i][bad[0]])}: table {int(got[bad[0]])}, "
            f"TFLM {int(w[bad[0]])}"
        )


@pytest.mark.parametrize(
    "target,size,kernel",
    [
        ("cortex-m55", 100, "aot_lut_s8_mve"),
        ("cortex-m4", 100, "aot_lut_s8_word"),
        ("cortex-m7", 100, "aot_lut_s8_word"),
        ("cortex-m3", 100, "aot_lut_s8"),
        ("cortex-m0", 100, "aot_lut_s8"),
        ("cortex-m4", 32, "aot_lut_s8_word"),
        ("cortex-m55", 31, "aot_logistic_s8"),
        ("cortex-m0", 5, "aot_logistic_s8"),
    ],
)
def test_kernel_per_core(tmp_path, target, size, kernel):
    rng = np.random.default_rng(3)
    path = str(_model("LOGISTIC", [_draw("LOGISTIC", rng)], shape=(size,)).save(tmp_path / "m.tflite"))
    graph, _, _ = analyze(path, target=target)
    op = graph.ops[0]
    assert op.kernel == kernel
    assert op.params.get("table_bytes") == (256 if kernel in LUT_KERNELS else None)
    # Too small for a table on a core with a fast table kernel: a fallback the report names, not a refusal.
    if kernel not in LUT_KERNELS and target == "cortex-m55":
        assert "fewer than 32" in op.kernel_reason


@pytest.mark.parametrize("target", ["host", "cortex-m4", "cortex-m55"])
def test_table_kernels_bit_exact_on_host(tmp_path, target):
    """Odd sizes (word and 16-lane tails), a chain whose ops run in place, every table-served op: the generated C
    of the byte, word and Helium (portable form) kernels against TFLite Micro."""
    import make_unary_lut_models as m

    check_against_tflm(tmp_path, m.variants(), target=target)
    check_against_tflm(tmp_path, m.bench_chain(), target=target)
