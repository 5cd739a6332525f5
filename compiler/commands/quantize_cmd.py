"""`quantize MODEL --calibration CALIB.npz --prefix P --out_dir D`: a float ONNX model statically quantized by
onnxruntime's quantizer (QDQ, int8 weights per channel by default) into D/P.onnx, and the float-vs-quantized
agreement on the calibration set into D/P_quantize.json; fails with one paragraph when a threshold
(--min_top1, --min_snr_db, --max_abs_error) is not met. A float .tflite is refused: its maintained quantizer
(ai-edge-quantizer) is not among the pinned requirements (docs/quantize.md)."""

import json
import math
import os

from ..errors import CompileError
from ..limits import check_model_bytes
from ..quantize.agreement import check_thresholds, measure, run_all, summary_lines
from ..quantize.calibration import load_calibration

TFLITE_REFUSAL = (
    "{label} is a .tflite model: `aotc quantize` (aot_quantize) quantizes float ONNX models only, with onnxruntime's "
    "quantizer from the pinned requirements. The maintained quantizer of .tflite files, Google's ai-edge-quantizer "
    "(with ai-edge-litert), installs from the package registry and runs offline, but it is not among aot_rules' "
    "pinned requirements yet, and it needs a model with a SignatureDef. Quantize when you convert "
    "(TFLiteConverter with a representative_dataset, int8 in and out), or export the float model to ONNX and "
    "quantize that (docs/quantize.md)."
)


def _json_number(x):
    return x if not (isinstance(x, float) and math.isinf(x)) else ("inf" if x > 0 else "-inf")


def run_quantize(model: str, flags) -> int:
    label = os.path.basename(model)
    if model.lower().endswith(".tflite"):
        raise CompileError(TFLITE_REFUSAL.format(label=label))
    if not model.lower().endswith(".onnx"):
        raise CompileError(f"{label}: `aotc quantize` takes a float32 .onnx model.")
    if not flags.calibration:
        raise CompileError("`quantize` needs --calibration CALIB.npz (one array per model input, samples first).")
    if not os.path.isfile(model):
        raise CompileError(f"{model}: no such model file.")
    check_model_bytes(label, os.path.getsize(model))
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
    report = {
        "model": label,
        "quantizer": "onnxruntime.quantization.quantize_static",
        "format": "QDQ",
        "activations": flags.activations,
        "weights": "int8 per channel" if flags.per_channel else "int8 per tensor",
        "calibration": {"file": os.path.basename(flags.calibration), "samples": len(samples)},
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
