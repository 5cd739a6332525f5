"""Parsing of the flags that fix a graph's shapes or inputs: `--dim`, `--freeze_input` and `--input_shape`.

They are parsed for every command before any model is read, so a bad value fails first. This module imports numpy
only: the ONNX frontend, which uses the parsed values, imports the onnx package, and TFLite compiles (most build
actions) must not pay for that at start-up (frontend/__init__.py).
"""

import numpy as np

from ..errors import CompileError


def parse_dims(pins) -> dict:
    """['batch=1', 'seq=16'] -> {'batch': 1, 'seq': 16} (`--dim`)."""
    out = {}
    for item in pins or []:
        name, sep, value = str(item).partition("=")
        if not sep or not name.strip() or not value.strip().isdigit() or int(value) <= 0:
            raise CompileError(f"--dim '{item}' is not NAME=N with a positive integer N (e.g. --dim batch=1).")
        out[name.strip()] = int(value)
    return out


def parse_frozen(items) -> dict:
    """['w=weights.npy'] -> {'w': array}: graph inputs to compile as constants (`--freeze_input`)."""
    out = {}
    for item in items or []:
        name, sep, path = str(item).partition("=")
        if not sep or not name.strip() or not path.strip():
            raise CompileError(
                f"--freeze_input '{item}' is not NAME=FILE.npy (the graph input's name and a .npy "
                "file with its constant value)."
            )
        try:
            arr = np.load(path.strip(), allow_pickle=False)
        except (OSError, ValueError) as e:
            raise CompileError(f"--freeze_input {name}: cannot read '{path}' as a .npy array ({e}).") from None
        if not isinstance(arr, np.ndarray):
            raise CompileError(f"--freeze_input {name}: '{path}' holds several arrays; give one .npy file.")
        out[name.strip()] = arr
    return out


def parse_input_shapes(items) -> dict:
    """['x=1,512', 'state=2,1,128'] -> {'x': [1, 512], 'state': [2, 1, 128]} (`--input_shape`)."""
    out = {}
    for item in items or []:
        name, sep, value = str(item).partition("=")
        dims = [d.strip() for d in value.split(",")] if value.strip() else []
        if not sep or not name.strip() or not all(d.isdigit() for d in dims):
            raise CompileError(
                f"--input_shape '{item}' is not NAME=D0,D1,... with non-negative integer dimensions "
                "(e.g. --input_shape x=1,512)."
            )
        out[name.strip()] = [int(d) for d in dims]
    return out
