"""Model frontends: parse a serialized model into the compiler IR."""

from .tflite_reader import load_tflite, read_tflite

__all__ = ["load_tflite", "read_tflite"]
