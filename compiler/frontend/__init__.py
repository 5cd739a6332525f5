"""Model frontends: parse a serialized model into the compiler IR."""

from .onnx_reader import load_onnx, read_onnx
from .tflite_reader import load_tflite, read_tflite

__all__ = ["load_onnx", "load_tflite", "read_onnx", "read_tflite"]
