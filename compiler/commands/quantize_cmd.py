"""`quantize MODEL --calibration CALIB.npz --prefix P --out_dir D`: a float ONNX model statically quantized by
onnxruntime's quantizer (QDQ, int8 weights per channel by default) into D/P.onnx, or a float .tflite by Google's
ai-edge-quantizer (int8 weights and activations, an optional dependency: requirements_tflite_quantize.txt) into
D/P.tflite, and the float-vs-quantized agreement on the calibration set into D/P_quantize.json; fails with one
paragraph when a threshold (--min_top1, --min_snr_db, --max_abs_error) is not met (docs/quantize.md)."""

import json
import math
import os

from ..errors import CompileError
from ..limits import check_model_bytes
from ..quantize.agreement import check_thresholds, measure, run_all, summary_lines
from ..quantize.calibration import load_calibration


def _json_number(x):
    return x if not (isinstance(x, float) and math.isinf(x)) else ("inf" if x > 0 else "-inf")


def run_quantize(model: str, flags) -> int:
    label = os.path.basename(model)
    if not model.lower().endswith((".onnx", ".tflite")):
        raise CompileError(f"{label}: `aotc quantize` takes a float32 .onnx or .tflite model.")
    if not flags.calibration:
        raise CompileError("`quantize` needs --calibration CALIB.npz (one array per model input, samples first).")
    if not os.path.isfile(model):
        raise CompileError(f"{model}: no such model file.")
    check_model_bytes(label, os.path.getsize(model))
    if model.lower().endswith(".tflite"):
        return _quantize_tflite(model, label, flags)
    # Imported here: every aotc command loads this module, and TFLite compiles never import onnx.
    import onnx

    from ..quantize.ort_static import quantize_qdq

    try:
        float_model = onnx.load(model)
    except Exception as e:  # noqa: BLE001 - a malformed file is the user's input, one paragraph
        raise CompileError(f"Cannot read {label} as an ONNX model: {type(e).__name__}: {e}") from None
    samples = load_calibration(flags.calibration, float_model)
    os.makedirs(flags.out_dir, exist_ok=True)
    out_model = os.path.join(flags.out_dir, flags.prefix + ".onnx")
    quantize_qdq(model, samples, out_model, flags.per_channel, flags.activations)
    names, float_outs = run_all(float_model.SerializeToString(), samples)
    _, quant_outs = run_all(open(out_model, "rb").read(), samples)
    figures = measure(names, float_outs, quant_outs)
    return _report(label, flags, out_model, figures, len(samples), "onnxruntime.quantization.quantize_static", "QDQ")


def _quantize_tflite(model: str, label: str, flags) -> int:
    from ..quantize import tflite_static

    with open(model, "rb") as f:
        float_bytes = f.read()
    key, shapes = tflite_static.signature(float_bytes, label)
    samples = load_calibration(flags.calibration, None, shapes)
    quant_bytes = tflite_static.quantize(float_bytes, key, samples, flags.per_channel, flags.activations, label)
    os.makedirs(flags.out_dir, exist_ok=True)
    out_model = os.path.join(flags.out_dir, flags.prefix + ".tflite")
    with open(out_model, "wb") as f:
        f.write(quant_bytes)
    names, float_outs, quant_outs = tflite_static.run_pair(model, out_model, samples)
    figures = measure(names, float_outs, quant_outs)
    fmt = "int8 TFLite (static_wi8_ai8; int8 inputs and outputs)"
    return _report(label, flags, out_model, figures, len(samples), tflite_static.quantizer_version(), fmt)


def _report(label, flags, out_model, figures, n_samples, quantizer, fmt) -> int:
    report = {
        "model": label,
        "quantizer": quantizer,
        "format": fmt,
        "activations": flags.activations,
        "weights": "int8 per channel" if flags.per_channel else "int8 per tensor",
        "calibration": {"file": os.path.basename(flags.calibration), "samples": n_samples},
        "thresholds": {
            "min_top1": flags.min_top1,
            "min_snr_db": flags.min_snr_db,
            "max_abs_error": flags.max_abs_error,
        },
        "outputs": [{k: _json_number(v) for k, v in e.items()} for e in figures],
    }
    with open(os.path.join(flags.out_dir, flags.prefix + "_quantize.json"), "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
        f.write("\n")
    try:
        check_thresholds(label, figures, flags.min_top1, flags.min_snr_db, flags.max_abs_error)
    except CompileError:
        # No quantized model is left behind for a build to pick up when it is not good enough.
        os.remove(out_model)
        raise
    if not flags.quiet:
        print(out_model)
        for line in summary_lines(label, figures):
            print(line)
    return 0
