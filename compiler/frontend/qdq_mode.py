"""Whether ONNX QDQ Conv / Gemm / MatMul run as onnxruntime runs the QDQ graph (`--qdq_exact`,
frontend/onnx_ops/qdq_exact.py). A module of its own, importing nothing, so that the command line sets it without
importing the ONNX frontend (TFLite compiles never import onnx)."""

# Set by the command line for one command (compile, run, testgen, ...) before a model is read.
EXACT = False
