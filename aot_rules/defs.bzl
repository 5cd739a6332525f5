"""Public API of aot_rules. Load rules from here only; everything else is private and may change.

- `aot_model_library`: compiles a .tflite/.onnx model to plain, prefix-mangled C; a cc_library.
- `aot_quantize`: quantization inside the build (`aot_model_library(quantize = aot_quantize(...))`): onnxruntime's
  static quantizer (QDQ) on a float ONNX model, the float-vs-int8 agreement reported and checked.
- `aot_model_test`: bit-exact test of a model's C against the TFLite Micro interpreter, on host and boards.
- `aot_hygiene_suite`: one symbol/ABI hygiene test for a package's model libraries declared with `hygiene_test = False`.
- `aot_workspace`: one static workspace buffer shared by several model libraries (exclusive or concurrent use).
- `aot_reference_data`: seeded inputs + reference outputs of a model as C arrays, for on-target checks.
- `aot_board`, `aot_memory_region`: a board as a target (core, memory regions, linker script, startup, QEMU).
- `aot_firmware`: a firmware ELF (+ .bin and size report) for one board, through a platform transition.
- `aot_qemu_test`: runs a firmware under QEMU; the guest's exit code is the test result (tagged `qemu`).
- `aot_weights_blob`: the weights blob of another model of the same architecture for a library with weights = "blob".
- `aot_perf_test`, `aot_perf_firmware`: performance budgets as tests: the first inference's instructions (counted
  under QEMU), run stack and workspace of one or several models against budgets; fails with the worst layers.
- `aot_user_kernel`: a cc_library of yours that runs a model operator (custom_ops / offload of aot_model_library).
- `AotBoardInfo`, `AotFirmwareInfo`, `AotModelInfo`, `AotUserKernelInfo`: providers.
"""

load("//aot_rules/private:board.bzl", _aot_board = "aot_board", _aot_memory_region = "aot_memory_region")
load("//aot_rules/private:firmware.bzl", _aot_firmware = "aot_firmware")
load("//aot_rules/private:hygiene_test.bzl", _aot_hygiene_suite = "aot_hygiene_suite")
load("//aot_rules/private:model_library.bzl", _aot_model_library = "aot_model_library")
load("//aot_rules/private:model_test.bzl", _aot_model_test = "aot_model_test")
load("//aot_rules/private:perf_test.bzl", _aot_perf_firmware = "aot_perf_firmware", _aot_perf_test = "aot_perf_test")
load(
    "//aot_rules/private:providers.bzl",
    _AotBoardInfo = "AotBoardInfo",
    _AotFirmwareInfo = "AotFirmwareInfo",
    _AotModelInfo = "AotModelInfo",
    _AotUserKernelInfo = "AotUserKernelInfo",
)
load("//aot_rules/private:qemu_test.bzl", _aot_qemu_test = "aot_qemu_test")
load("//aot_rules/private:quantize.bzl", _aot_quantize = "aot_quantize")
load("//aot_rules/private:reference_data.bzl", _aot_reference_data = "aot_reference_data")
load("//aot_rules/private:shared_workspace.bzl", _aot_workspace = "aot_workspace")
load("//aot_rules/private:user_kernel.bzl", _aot_user_kernel = "aot_user_kernel")
load("//aot_rules/private:weights_blob.bzl", _aot_weights_blob = "aot_weights_blob")

aot_model_library = _aot_model_library
aot_model_test = _aot_model_test
aot_hygiene_suite = _aot_hygiene_suite
aot_quantize = _aot_quantize
aot_workspace = _aot_workspace
aot_reference_data = _aot_reference_data
aot_board = _aot_board
aot_memory_region = _aot_memory_region
aot_firmware = _aot_firmware
aot_qemu_test = _aot_qemu_test
aot_perf_test = _aot_perf_test
aot_perf_firmware = _aot_perf_firmware
AotBoardInfo = _AotBoardInfo
AotFirmwareInfo = _AotFirmwareInfo
AotModelInfo = _AotModelInfo
AotUserKernelInfo = _AotUserKernelInfo
aot_user_kernel = _aot_user_kernel
aot_weights_blob = _aot_weights_blob
