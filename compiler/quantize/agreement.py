"""How close the quantized model stays to the float one on the calibration set, per output: top-1 agreement for a
classifier's scores ([1, C] or [C], C >= 2), signal-to-noise ratio and largest absolute error for every output; and
the user's thresholds, whose breach is one paragraph naming the output, the figure and the threshold."""

import math
import os
import sys

import numpy as np

from ..errors import CompileError


def quiet_onnxruntime() -> None:
    """onnxruntime's warnings would print on every build: it warns when its environment is created where it cannot
    persist its telemetry identifier (a Bazel sandbox), before any severity can be set. It is imported and its
    environment created here with stderr closed, then set to report errors only; its errors still raise."""
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        try:
            import onnxruntime as ort
        except Exception as e:  # noqa: BLE001 - a missing or broken install, one paragraph
            raise CompileError(
                f"onnxruntime is not available ({type(e).__name__}: {e}); `aotc quantize` runs onnxruntime's "
                "quantizer. Install the pinned requirements (onnxruntime is one of them)."
            ) from None
        ort.set_default_logger_severity(3)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def _session(model_bytes: bytes):
    import onnxruntime as ort

    quiet_onnxruntime()
    opts = ort.SessionOptions()
    # The graph as written (a QDQ graph's dequantize / float op / quantize, as the int8 kernels' oracle runs it),
    # one thread: the same figures on every run and machine.
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(model_bytes, opts, providers=["CPUExecutionProvider"])


def run_all(model_bytes: bytes, samples: list) -> list:
    """Per sample, the model's outputs in graph order (float32 arrays)."""
    sess = _session(model_bytes)
    names = [o.name for o in sess.get_outputs()]
    return names, [[np.asarray(r, np.float32) for r in sess.run(names, s)] for s in samples]


def _is_classifier(shape) -> bool:
    dims = [d for d in shape if d != 1]
    return len(dims) == 1 and dims[0] >= 2


def measure(names: list, float_outs: list, quant_outs: list) -> list:
    """One dict per output: name, snr_db, max_abs_error, (classifiers) top1_agreement, samples."""
    result = []
    for k, name in enumerate(names):
        f = np.stack([o[k] for o in float_outs]).astype(np.float64)
        q = np.stack([o[k] for o in quant_outs]).astype(np.float64)
        noise = float(np.sum((f - q) ** 2))
        signal = float(np.sum(f**2))
        if noise == 0.0:
            snr = math.inf
        elif signal == 0.0:
            snr = -math.inf
        else:
            snr = 10.0 * math.log10(signal / noise)
        entry = {
            "output": name,
            "samples": int(f.shape[0]),
            "snr_db": round(snr, 3) if math.isfinite(snr) else snr,
            "max_abs_error": float(np.float32(np.max(np.abs(f - q)))) if f.size else 0.0,
            "float_range": [float(np.float32(f.min())), float(np.float32(f.max()))] if f.size else [0.0, 0.0],
        }
        if _is_classifier(f.shape[1:]):
            ff = f.reshape(f.shape[0], -1)
            qq = q.reshape(q.shape[0], -1)
            entry["top1_agreement"] = round(float(np.mean(np.argmax(ff, 1) == np.argmax(qq, 1))), 6)
        result.append(entry)
    return result


def check_thresholds(model_label: str, figures: list, min_top1=None, min_snr_db=None, max_abs_error=None) -> None:
    """Raises one paragraph for the first output that breaks a threshold (None: not checked)."""
    if min_top1 is not None and not any("top1_agreement" in e for e in figures):
        raise CompileError(
            f"A top-1 agreement threshold ({min_top1:g}) was set for {model_label}, but none of its outputs is a "
            f"classifier's scores (shape [1, C] or [C] with C >= 2): {[e['output'] for e in figures]}. Set "
            "min_snr_db or max_abs_error instead."
        )
    for e in figures:
        n = e["samples"]
        where = f"output '{e['output']}' of {model_label}, over the {n} calibration sample{'s' if n != 1 else ''}"
        if min_top1 is not None and "top1_agreement" in e and e["top1_agreement"] < min_top1:
            raise CompileError(
                f"The quantized model agrees with the float model on the top-1 class of {e['top1_agreement']:.2%} "
                f"of the samples for {where}, under the threshold of {min_top1:.2%} (min_top1). Calibrate on more "
                "representative data, keep per-channel weights, or lower the threshold."
            )
        if min_snr_db is not None and e["snr_db"] < min_snr_db:
            raise CompileError(
                f"The quantized model's signal-to-noise ratio against the float model is {e['snr_db']:.2f} dB for "
                f"{where}, under the threshold of {min_snr_db:g} dB (min_snr_db); its largest absolute error is "
                f"{e['max_abs_error']:.6g}. Calibrate on more representative data, keep per-channel weights, or "
                "lower the threshold."
            )
        if max_abs_error is not None and e["max_abs_error"] > max_abs_error:
            raise CompileError(
                f"The quantized model's largest absolute error against the float model is {e['max_abs_error']:.6g} "
                f"for {where}, over the threshold of {max_abs_error:g} (max_abs_error); its signal-to-noise ratio "
                f"is {e['snr_db']:.2f} dB. Calibrate on more representative data, keep per-channel weights, or "
                "raise the threshold."
            )


def summary_lines(model_label: str, figures: list) -> list:
    """The agreement as text, one line per output."""
    lines = []
    for e in figures:
        parts = [f"SNR {e['snr_db']:.2f} dB", f"max |error| {e['max_abs_error']:.6g}"]
        if "top1_agreement" in e:
            parts.insert(0, f"top-1 agreement {e['top1_agreement']:.2%}")
        lines.append(f"{model_label}: output '{e['output']}' over {e['samples']} samples: " + ", ".join(parts))
    return lines
