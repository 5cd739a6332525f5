"""Quantization inside the build: a float model statically quantized by a maintained quantizer (onnxruntime's, QDQ
form), the float-vs-quantized agreement measured on the calibration set, and the user's thresholds checked
(`aotc quantize`, `aot_quantize` in Bazel)."""
