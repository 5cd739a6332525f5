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


def _interpreter(model_path: str):
    try:
        from tflite_micro.python.tflite_micro import runtime
    except Exception as e:
        raise CompileError(f"The tflite_micro package is not available ({e}); it is needed "
                           "to compute expected outputs.")
    arena = max(os.path.getsize(model_path) * 10, 1 << 20)
    return runtime.Interpreter.from_file(model_path, arena_size=arena)


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


def reference_outputs(model_path: str, graph, cases: list) -> list:
    """Outputs of the reference interpreter for the model's format, per case."""
    return tflm_outputs(model_path, cases, len(graph.outputs))


def random_inputs(graph, count: int, seed: int) -> list:
    """Seeded cases: full int8 range, floats uniform in [-1, 1]."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(count):
        case = []
        for t in graph.inputs:
            if t.dtype == "int8":
                case.append(rng.integers(-128, 128, size=t.shape, dtype=np.int64)
                            .astype(np.int8))
            else:
                case.append(rng.uniform(-1.0, 1.0, size=t.shape).astype(np.float32))
        cases.append(case)
    return cases
