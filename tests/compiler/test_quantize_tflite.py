"""`aotc quantize` on a float .tflite (what aot_quantize runs in the build for one): Google's ai-edge-quantizer
(static_wi8_ai8) on the committed seeded CNN (tests/quantize/make_tflite_cnn.py) gives the same bytes on every run,
a report of the float-vs-int8 agreement (both run by TFLite Micro), an int8 model the compiler runs bit-exact with
TFLite Micro, one paragraph when a threshold is not met; and, with or without the optional dependency, one paragraph
for a model without a SignatureDef, a quantized model, uint8 activations and a missing ai-edge-quantizer.

ai-edge-quantizer is optional (requirements_tflite_quantize.txt): the tests that run it are skipped, saying so,
without it; //tests/quantize:tflite_cnn_test (manual) checks the same model under QEMU."""

import json
import os
import sys

import numpy as np
import pytest

from compiler import cli
from compiler.commands.run_cmd import run_model
from compiler.oracle import tflm_outputs

HERE = os.path.dirname(os.path.abspath(__file__))
QDIR = os.path.join(HERE, "..", "quantize")
MODEL = os.path.join(QDIR, "tflite_cnn_float.tflite")
CALIB = os.path.join(QDIR, "tflite_cnn_calib.npz")

try:
    import ai_edge_quantizer  # noqa: F401

    HAVE = True
except Exception:  # noqa: BLE001 - an optional dependency
    HAVE = False

needs_quantizer = pytest.mark.skipif(
    not HAVE,
    reason="ai-edge-quantizer is not installed (optional: AOT_TFLITE_QUANTIZE=1 tools/setup.sh, "
    "requirements_tflite_quantize.txt)",
)


def _quantize(tmp_path, capsys, *extra, model=MODEL, calib=CALIB, out="q"):
    rc = cli.main(
        ["aotc", "quantize", model, "--calibration", calib, "--prefix", "net", "--out_dir", str(tmp_path / out)]
        + list(extra)
    )
    return rc, capsys.readouterr()


def test_the_committed_model_is_what_the_script_writes(tmp_path):
    sys.path.insert(0, QDIR)
    try:
        import make_tflite_cnn
    finally:
        sys.path.remove(QDIR)
    make_tflite_cnn.main(str(tmp_path))
    for name in ("tflite_cnn_float.tflite", "tflite_cnn_calib.npz"):
        with open(tmp_path / name, "rb") as a, open(os.path.join(QDIR, name), "rb") as b:
            assert a.read() == b.read(), f"{name} differs from what make_tflite_cnn.py writes: rerun it"


@needs_quantizer
def test_quantize_reports_agreement_reproducibly_and_runs_bit_exact(tmp_path, capsys):
    rc, out = _quantize(tmp_path, capsys, "--min_top1", "0.98", "--min_snr_db", "30", "--max_abs_error", "0.05")
    assert rc == 0, out.err
    assert out.err == "", "the quantizer's progress and warnings must not reach the build log"
    assert "tflite_cnn_float.tflite: output 'logits' over 48 samples: top-1 agreement 100.00%" in out.out
    report = json.load(open(tmp_path / "q" / "net_quantize.json"))
    assert report["quantizer"].startswith("ai-edge-quantizer 0.10")
    (logits,) = report["outputs"]
    assert logits["top1_agreement"] == 1.0 and logits["snr_db"] >= 30 and logits["max_abs_error"] <= 0.05
    rc, _ = _quantize(tmp_path, capsys, out="again")
    assert rc == 0
    first, second = (open(tmp_path / d / "net.tflite", "rb").read() for d in ("q", "again"))
    assert first == second, "ai-edge-quantizer's output differs between two runs (the action must be reproducible)"

    # The int8 model on the compiler's kernels against TFLite Micro: the calibration images, quantized with the
    # input's scale, and seeded random int8 inputs; every output equal.
    qmodel = str(tmp_path / "q" / "net.tflite")
    from compiler.driver import load_model

    (inp,) = load_model(qmodel).inputs
    images = np.load(CALIB)["image"].astype(np.float64)
    scale, zp = float(inp.quant.scale[0]), int(inp.quant.zero_point[0])
    cases = np.clip(np.round(images / scale) + zp, -128, 127).astype(np.int8)
    rng = np.random.default_rng(3)
    cases = np.concatenate([cases, rng.integers(-128, 128, (16,) + cases.shape[1:]).astype(np.int8)])
    np.savez(tmp_path / "in.npz", **{inp.name: cases})
    got = run_model(qmodel, str(tmp_path / "in.npz"), None, target="host")["logits"].reshape(len(cases), -1)
    want = np.stack([np.asarray(w[0]).reshape(-1) for w in tflm_outputs(qmodel, [[c] for c in cases], 1)])
    assert got.dtype == np.int8 and np.array_equal(got, want), f"{np.sum(got != want)} logits differ from TFLite Micro"


@needs_quantizer
def test_threshold_above_the_agreement_fails_with_one_paragraph(tmp_path, capsys):
    rc, out = _quantize(tmp_path, capsys, "--min_snr_db", "60")
    err = " ".join(out.err.split())
    assert rc == 2 and "under the threshold of 60 dB (min_snr_db)" in err and "output 'logits'" in err
    assert not os.path.exists(tmp_path / "q" / "net.tflite"), "a model under the threshold must not be left behind"


def test_a_tflite_without_signature_is_refused(tmp_path, capsys):
    path = os.path.join(HERE, "..", "models", "decoder_float.tflite")
    np.savez(tmp_path / "c.npz", x=np.zeros((2, 1), np.float32))
    rc, out = _quantize(tmp_path, capsys, model=path, calib=str(tmp_path / "c.npz"))
    err = " ".join(out.err.split())
    assert rc == 2 and "decoder_float.tflite has 0 SignatureDefs" in err and "ai-edge-quantizer" in err


def test_a_quantized_tflite_is_refused(tmp_path, capsys):
    path = os.path.join(HERE, "..", "models", "kws_ds_cnn_int8.tflite")
    rc, out = _quantize(tmp_path, capsys, model=path)
    err = " ".join(out.err.split())
    assert rc == 2 and "kws_ds_cnn_int8.tflite is quantized already" in err


def test_uint8_activations_and_a_missing_quantizer_are_one_paragraph(tmp_path, capsys, monkeypatch):
    rc, out = _quantize(tmp_path, capsys, "--activations", "uint8")
    assert rc == 2 and "is quantized with int8 activations" in " ".join(out.err.split())
    monkeypatch.setitem(sys.modules, "ai_edge_quantizer", None)  # as if it were not installed
    rc, out = _quantize(tmp_path, capsys)
    err = " ".join(out.err.split())
    assert rc == 2 and "needs Google's ai-edge-quantizer, which is not installed" in err
    assert "requirements_tflite_quantize.txt" in err and "Traceback" not in err
