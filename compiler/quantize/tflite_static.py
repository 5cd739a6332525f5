"""Static int8 quantization of a float .tflite model by Google's ai-edge-quantizer (its `static_wi8_ai8` recipe:
int8 weights, symmetric, per output channel or per tensor; int8 activations, asymmetric per tensor, from the min/max
over the calibration samples), and the float-vs-int8 agreement of the result, both models run by TFLite Micro.

ai-edge-quantizer (with ai-edge-litert and scipy) is an optional dependency: requirements_tflite_quantize.txt, which
tools/setup.sh installs with AOT_TFLITE_QUANTIZE=1 (docs/quantize.md). The quantized model takes int8 inputs and
gives int8 outputs (no QUANTIZE / DEQUANTIZE at its edges), as the int8 kernels and TFLite Micro run them; the
agreement quantizes each float sample with the input's scale and zero point and dequantizes the outputs.
"""

import contextlib
import io
import os
import sys

import numpy as np

from ..errors import CompileError

REQUIREMENTS = "requirements_tflite_quantize.txt"


def _quantizer():
    try:
        from ai_edge_quantizer import quantizer, recipe
    except Exception as e:  # noqa: BLE001 - a missing optional dependency, one paragraph
        raise CompileError(
            f"Quantizing a .tflite model needs Google's ai-edge-quantizer, which is not installed ({type(e).__name__}: "
            f"{e}). It is an optional dependency of aot_rules (it brings ai-edge-litert and scipy, about 200 MB): "
            f"install the pinned {REQUIREMENTS} (`AOT_TFLITE_QUANTIZE=1 tools/setup.sh` in a checkout, or "
            f"`pip install -r {REQUIREMENTS}` into the compiler's Python), or export the float model to ONNX and "
            "quantize that with onnxruntime (docs/quantize.md)."
        ) from None
    return quantizer, recipe


def signature(model_bytes: bytes, label: str) -> tuple:
    """(signature key, {input name: shape}) of a float .tflite with one SignatureDef over its main subgraph; one
    paragraph for a model without one, with a non-float input, or with quantized tensors already."""
    import tflite

    try:
        m = tflite.Model.GetRootAsModel(model_bytes, 0)
        sg = m.Subgraphs(0)
        n_sig = m.SignatureDefsLength()
    except Exception as e:  # noqa: BLE001 - a malformed file, one paragraph
        raise CompileError(f"Cannot read {label} as a .tflite model: {type(e).__name__}: {e}") from None
    for i in range(sg.TensorsLength()):
        t = sg.Tensors(i)
        if t.Type() in (tflite.TensorType.INT8, tflite.TensorType.UINT8) and t.Quantization() is not None:
            if t.Quantization().ScaleLength():
                raise CompileError(
                    f"{label} is quantized already (tensor '{t.Name().decode()}' is int8 with a scale): `aotc "
                    "quantize` takes a float32 model. Compile it as it is."
                )
    if n_sig != 1 or m.SignatureDefs(0).SubgraphIndex() != 0:
        raise CompileError(
            f"{label} has {n_sig} SignatureDefs; ai-edge-quantizer calibrates a .tflite through exactly one "
            "signature over its main subgraph (the TFLite converter writes one, `serving_default`, from a "
            "tf.function or a saved model). Convert the model with a signature, or export it to ONNX and quantize "
            "that."
        )
    sig = m.SignatureDefs(0)
    shapes = {}
    for j in range(sig.InputsLength()):
        t = sg.Tensors(sig.Inputs(j).TensorIndex())
        name = sig.Inputs(j).Name().decode()
        if t.Type() != tflite.TensorType.FLOAT32:
            raise CompileError(
                f"Input '{name}' of {label} is not float32: `aotc quantize` calibrates float inputs (a model with "
                "integer inputs such as token ids needs a recipe that leaves them alone, which aot_quantize does not "
                "offer)."
            )
        shapes[name] = tuple(int(d) for d in t.ShapeAsNumpy())
    return sig.SignatureKey().decode(), shapes


@contextlib.contextmanager
def _quiet():
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved + [devnull]:
            os.close(fd)


def _min_max(q, key: str, samples: list) -> dict:
    """Every tensor's range over all the samples (MinMax, as the ONNX path calibrates). ai-edge-quantizer merges the
    samples of one calibrate() call by a moving average (0.95), which lets the last samples pull a range in and clips
    the extremes; calibrating each sample alone and taking the union of the ranges is the plain min/max."""
    merged = {}
    for sample in samples:
        for name, qsv in q.calibrate({key: [sample]}, num_threads=1).items():
            have = merged.get(name)
            if have is None or "min" not in qsv or "max" not in qsv:
                merged[name] = dict(qsv)
                continue
            have["min"] = np.minimum(have["min"], qsv["min"])
            have["max"] = np.maximum(have["max"], qsv["max"])
    return merged


def quantize(model_bytes: bytes, key: str, samples: list, per_channel: bool, activations: str, label: str) -> bytes:
    """The int8 .tflite ai-edge-quantizer makes of the float model, calibrated on the samples."""
    if activations != "int8":
        raise CompileError(
            f'activations = "{activations}" for {label}: a .tflite model is quantized with int8 activations (the '
            "type TFLite Micro's and aot_rules' int8 kernels take); uint8 is for ONNX QDQ models."
        )
    quantizer, recipe = _quantizer()
    rules = recipe.static_wi8_ai8()
    if not per_channel:
        for rule in rules:
            rule["op_config"]["weight_tensor_config"]["granularity"] = "TENSORWISE"
    # The quantizer reports progress on stdout and stderr (a progress bar, its interpreter's warnings): a build
    # action keeps quiet; its errors still raise.
    with _quiet():
        try:
            q = quantizer.Quantizer(bytes(model_bytes), rules)
            calibration = _min_max(q, key, samples)
            result = q.quantize(calibration, enable_progress_report=False)
        except CompileError:
            raise
        except Exception as e:  # noqa: BLE001 - the quantizer's refusal of this model, one paragraph
            raise CompileError(
                f"ai-edge-quantizer could not quantize {label}: {type(e).__name__}: {str(e).splitlines()[0][:300]}. "
                "It quantizes the TFLite builtin operators its static_wi8_ai8 recipe covers; export the model to "
                "ONNX and quantize that, or quantize when you convert (TFLiteConverter with a "
                "representative_dataset)."
            ) from None
    return bytes(result.quantized_model)


def run_pair(float_model: str, quant_model: str, samples: list) -> tuple:
    """(output names, float outputs, dequantized int8 outputs) per sample, both models run by TFLite Micro."""
    from ..driver import load_model
    from ..oracle import _interpreter

    fg, qg = load_model(float_model), load_model(quant_model)
    fi, qi = _interpreter(float_model), _interpreter(quant_model)
    float_outs, quant_outs = [], []
    for s in samples:
        for k, t in enumerate(fg.inputs):
            fi.set_input(np.asarray(s[t.name], np.float32).reshape(t.shape), k)
        for k, t in enumerate(qg.inputs):
            x = np.asarray(s[t.name], np.float64).reshape(t.shape)
            scale, zp = float(t.quant.scale[0]), int(t.quant.zero_point[0])
            info = np.iinfo(t.dtype)
            qi.set_input(np.clip(np.round(x / scale) + zp, info.min, info.max).astype(t.dtype), k)
        fi.invoke()
        qi.invoke()
        float_outs.append([np.asarray(fi.get_output(k), np.float32) for k in range(len(fg.outputs))])
        deq = []
        for k, t in enumerate(qg.outputs):
            v = np.asarray(qi.get_output(k))
            if t.quant is not None and t.dtype != "float32":
                v = (v.astype(np.float64) - int(t.quant.zero_point[0])) * float(t.quant.scale[0])
            deq.append(np.asarray(v, np.float32))
        quant_outs.append(deq)
    return [t.name for t in fg.outputs], float_outs, quant_outs


def quantizer_version() -> str:
    try:
        from importlib.metadata import version

        return f"ai-edge-quantizer {version('ai-edge-quantizer')}"
    except Exception:  # noqa: BLE001 - only the report's label
        return "ai-edge-quantizer"
