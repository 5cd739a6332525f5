"""Model frontends: parse a serialized model into the compiler IR.

The ONNX reader is imported on first use: it imports the onnx package, a fifth of the time of compiling a small
TFLite model, which every build action and test that never sees an ONNX model paid at start-up.
"""

from .tflite_reader import load_tflite, read_tflite

__all__ = ["load_onnx", "load_tflite", "read_onnx", "read_tflite"]


def __getattr__(name: str):
    if name in ("load_onnx", "read_onnx"):
        from . import onnx_reader

        return getattr(onnx_reader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
