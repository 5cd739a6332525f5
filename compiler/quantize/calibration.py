"""The calibration set of `aotc quantize`: an .npz with one array per model input (key = the input's name), the
samples stacked on a new first axis (one sample may also be given with the input's own shape)."""

import os
import zipfile

import numpy as np

from ..errors import CompileError


def _input_shapes(model) -> dict:
    """name -> static shape (None for a symbolic dimension) of every real graph input (not an initializer)."""
    inits = {i.name for i in model.graph.initializer}
    shapes = {}
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        dims = vi.type.tensor_type.shape.dim
        shapes[vi.name] = tuple(d.dim_value if d.HasField("dim_value") else None for d in dims)
    return shapes


def _fits(shape, want) -> bool:
    return len(shape) == len(want) and all(w is None or s == w for s, w in zip(shape, want))


def load_calibration(path: str, model, shapes: dict = None) -> list:
    """The samples as a list of {input name: float32 array of the input's shape}, in file order. `shapes` (name ->
    shape) stands for an ONNX `model`'s inputs when the model is not ONNX (a .tflite's signature)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: np.asarray(data[k]) for k in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise CompileError(
            f"Cannot read the calibration set {os.path.basename(path)}: {e}. It must be an .npz with one array per "
            "model input (np.savez(path, input_name=samples)), the samples stacked on the first axis."
        ) from None
    shapes = shapes if shapes is not None else _input_shapes(model)
    missing = sorted(set(shapes) - set(arrays))
    extra = sorted(set(arrays) - set(shapes))
    if missing or extra:
        raise CompileError(
            f"The calibration set {os.path.basename(path)} does not match the model's inputs: "
            + (f"missing {missing}; " if missing else "")
            + (f"not an input of the model {extra}; " if extra else "")
            + f"the model's inputs are {sorted(shapes)}. Give one array per input, keyed by the input's name."
        )
    counts = set()
    per_input = {}
    for name, want in shapes.items():
        arr = arrays[name]
        if arr.dtype.kind not in "fiu":
            raise CompileError(
                f"Calibration array '{name}' has dtype {arr.dtype}; the quantizer calibrates float inputs, give "
                "numbers (they are converted to float32)."
            )
        if _fits(arr.shape, want):
            arr = arr[None]
        elif want and want[0] == 1 and _fits(arr.shape[1:], want[1:]):
            arr = arr[:, None]  # a batch-1 input's samples stacked on its batch axis
        elif not _fits(arr.shape[1:], want):
            shown = tuple("?" if d is None else d for d in want)
            raise CompileError(
                f"Calibration array '{name}' has shape {arr.shape}; the model's input '{name}' has shape {shown}, "
                f"so the array must be (N,) + {shown} (N samples), {shown} (one sample), or (N,) + {shown[1:]} "
                "for a batch-1 input (the samples on the batch axis)."
            )
        if not np.all(np.isfinite(arr)):
            raise CompileError(f"Calibration array '{name}' holds NaN or infinite values; calibrate on real data.")
        per_input[name] = arr.astype(np.float32)
        counts.add(arr.shape[0])
    if len(counts) != 1 or 0 in counts:
        raise CompileError(
            f"The calibration arrays of {os.path.basename(path)} hold different or zero sample counts "
            f"({ {k: v.shape[0] for k, v in per_input.items()} }); every input needs the same number N >= 1."
        )
    n = counts.pop()
    return [{k: v[i] for k, v in per_input.items()} for i in range(n)]
