"""aot_rules ahead-of-time compiler: .tflite and .onnx models to prefix-mangled C99 for Cortex-M (and the host).

Pipeline: frontends (TFLite flatbuffer, ONNX protobuf -> IR) -> passes (graph checks, compile-time quantization
parameters, folding and fusion, buffer aliasing) -> static memory planner (workspace, state buffer) -> per-core
kernel choice (ops/kernel_table.py) -> C code generation (header, runner, weights, manifest). `aotc --help` lists
the commands (compile, info, run, ref, report, workspace, bench, ...).
"""

__version__ = "0.1.0"
