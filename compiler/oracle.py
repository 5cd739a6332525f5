"""Reference outputs from the TFLite Micro interpreter (bit-exactness oracle)."""

import os

import numpy as np

from .errors import CompileError


def tflm_available() -> bool:
    try:
        from tflite_micro.python.tflite_micro import runtime  # noqa: F401

        return True
    except Exception:
        return False


def tflm_arena_bytes(model_path: str) -> int:
    """The interpreter's tensor arena: ten times the model, at least 16 MiB. A float model with large activations
    (a 256x256x3 image) needs more than its file size suggests, and an arena too small makes TFLite Micro fail to
    allocate, which would pass for "TFLite Micro cannot run this model"; host memory it never touches costs nothing."""
    return max(os.path.getsize(model_path) * 10, 16 << 20)


def _interpreter(model_path: str):
    try:
        from tflite_micro.python.tflite_micro import runtime
    except Exception as e:
        raise CompileError(
            f"The tflite_micro package is not available ({e}); it is needed to compute expected outputs of TFLite "
            "models. Install the pinned oracles with `pip install 'aot-rules[oracles]'`."
        ) from None
    return runtime.Interpreter.from_file(model_path, arena_size=tflm_arena_bytes(model_path))


def tflm_outputs(model_path: str, cases: list, num_outputs: int) -> list:
    """cases: list of lists of input arrays -> list of lists of output arrays."""
    interp = _interpreter(model_path)
    results = []
    for inputs in cases:
        for i, x in enumerate(inputs):
            interp.set_input(x, i)
        interp.invoke()
        results.append([np.array(interp.get_output(i)) for i in range(num_outputs)])
    return results


def onnxruntime_outputs(model_path: str, graph, cases: list) -> list:
    """ONNX models: onnxruntime on the CPU with graph optimizations off, so a QDQ graph runs as written
    (dequantize, float operator, quantize); its fused int8 kernels round and saturate differently."""
    try:
        import onnxruntime as ort
    except Exception as e:
        raise CompileError(
            f"The onnxruntime package is not available ({e}); it is needed to compute expected outputs of ONNX "
            "models. Install the pinned oracles with `pip install 'aot-rules[oracles]'`."
        ) from None
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model_path, opts, providers=["CPUExecutionProvider"])
    names = [t.name for t in graph.inputs]
    outs = [t.name for t in graph.outputs]
    # Inputs compiled as constants (--freeze_input) are still inputs of the ONNX graph: fed their frozen values.
    from .driver import ONNX_FROZEN

    wanted = {i.name for i in sess.get_inputs()}
    frozen = {k: v for k, v in ONNX_FROZEN.items() if k in wanted and k not in names}
    return [
        [_as_tensor(r, t) for r, t in zip(sess.run(outs, dict(zip(names, inputs), **frozen)), graph.outputs)]
        for inputs in cases
    ]


def _as_tensor(result, tensor) -> np.ndarray:
    """onnxruntime's output as the compiled output holds it: a ZipMap's list of maps {label: probability} as the
    [N, classes] tensor in class-label order (frontend/onnx_zipmap.py)."""
    labels = (tensor.meaning or {}).get("class_labels")
    if labels is not None and isinstance(result, list):
        return np.array([[row[k] for k in labels] for row in result], np.float32)
    return np.asarray(result)


def reference_outputs(model_path: str, graph, cases: list) -> list:
    """Outputs of the reference interpreter for the model's format, per case."""
    if model_path.lower().endswith(".onnx"):
        return onnxruntime_outputs(model_path, graph, cases)
    from .driver import ONNX_INPUT_SHAPES

    if ONNX_INPUT_SHAPES:
        # --input_shape: TFLite Micro runs the model as stored at the chosen size (frontend/tflite_input_shape.py).
        import tempfile

        from .frontend.tflite_input_shape import rewrite_shapes

        with open(model_path, "rb") as f:
            data = rewrite_shapes(f.read(), graph)
        with tempfile.TemporaryDirectory(prefix="aot_resized_") as tmp:
            path = os.path.join(tmp, os.path.basename(model_path))
            with open(path, "wb") as f:
                f.write(data)
            return tflm_outputs(path, cases, len(graph.outputs))
    return tflm_outputs(model_path, cases, len(graph.outputs))


def output_tolerances(model_path: str, graph) -> list:
    """Per model output, (int8 steps, float absolute, float relative) a match may differ by.  TFLite models are
        bit-exact against TFLite Micro.  ONNX models are compared with onnxruntime: int8 within 1 step (TFLite
        rounding, which the int8 kernels use, differs from onnxruntime's at ties); float within 1e-5 + 1e-4 * |want|
        (summation order), plus one quantization step when the float output is dequantized from int8; the int32 / bool
    outputs of a graph without quantized tensors exactly. Compiled with
        --qdq_exact, a QDQ model's int8 outputs and the float outputs dequantized from int8 must be equal."""
    if not model_path.lower().endswith(".onnx"):
        return [(0, None, None) for _ in graph.outputs]
    from .frontend import qdq_mode

    # A float graph's integer outputs (an ArgMax, a classifier's labels) are computed, not requantized: exact.
    quantized = any(t.dtype in ("int8", "uint8", "int16") and t.quant is not None for t in graph.tensors)
    result = []
    for t in graph.outputs:
        if not quantized and t.dtype in ("int32", "bool"):
            result.append((0, None, None))
            continue
        dequantized = t.producer is not None and graph.ops[t.producer].kind == "DEQUANTIZE"
        if qdq_mode.EXACT and (dequantized or t.dtype in ("int8", "uint8")):
            result.append((0, 0.0, 0.0))
            continue
        atol = 1e-5
        if t.producer is not None and graph.ops[t.producer].kind == "DEQUANTIZE":
            src = graph.ops[t.producer].inputs[0]
            atol += 1.001 * float(src.quant.scale[0])
        result.append((1, atol, 1e-4))
    return result


def random_inputs(graph, count: int, seed: int) -> list:
    """Seeded cases: full int8 / int16 range (and full int32 range for quantized int32 inputs), floats uniform in
    [-1, 1]."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(count):
        case = []
        for t in graph.inputs:
            if t.dtype in ("int8", "int16") or (t.dtype == "int32" and t.quant is not None):
                info = np.iinfo(t.dtype)
                case.append(
                    rng.integers(info.min, info.max, size=t.shape, dtype=np.int64, endpoint=True).astype(t.dtype)
                )
            elif t.dtype in ("uint8", "int32", "bool"):  # ONNX raw data: full byte range / small ints
                hi = {"uint8": 256, "int32": 128, "bool": 2}[t.dtype]
                case.append(
                    rng.integers(0 if t.dtype != "int32" else -128, hi, size=t.shape, dtype=np.int64).astype(
                        np.dtype(t.dtype if t.dtype != "bool" else np.bool_)
                    )
                )
            else:
                case.append(rng.uniform(-1.0, 1.0, size=t.shape).astype(np.float32))
        cases.append(case)
    return cases
