"""Element types known to the IR and their C / numpy spellings."""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class DType:
    name: str  # IR name, also used in the JSON manifest
    ctype: str  # C element type
    np: type  # numpy scalar type
    size: int  # bytes per element


DTYPES = {
    "int8": DType("int8", "int8_t", np.int8, 1),
    "uint8": DType("uint8", "uint8_t", np.uint8, 1),
    "int16": DType("int16", "int16_t", np.int16, 2),
    "int32": DType("int32", "int32_t", np.int32, 4),
    "uint32": DType("uint32", "uint32_t", np.uint32, 4),
    # The filter bank sums of TFLite Micro's signal operators: never a model input or output, stored as two
    # uint32 words (low word first) so that no 64-bit type appears in generated code (ops/signal_filter_bank.py).
    "uint64": DType("uint64", "uint32_t", np.uint64, 8),
    "int64": DType("int64", "int64_t", np.int64, 8),
    "float16": DType("float16", "uint16_t", np.float16, 2),
    "float32": DType("float32", "float", np.float32, 4),
    "float64": DType("float64", "double", np.float64, 8),
    "bool": DType("bool", "uint8_t", np.bool_, 1),
}

# Activation dtypes the code generator can place in user buffers/workspace.  TFLite models carry int8, float32 and
# int16 (16x8 quantization: symmetric int16 activations, int8 weights) activations, and quantized int32 at QUANTIZE
# boundaries; ONNX models may also carry uint8 (quantized or raw), int32 and bool data.  Which operator accepts
# which type is each lowering's decision (ops/*.py).  uint32 is the energy / filter bank data of TFLite Micro's
# signal operators (ops/signal_*.py); only they and CAST accept it.
ACTIVATION_DTYPES = ("int8", "int16", "float32", "uint8", "int32", "bool", "uint32")

# Types an operator may write that are never model inputs or outputs (each lowering still checks its own).
INTERMEDIATE_ONLY_DTYPES = ("uint64",)

# Integer element types whose quantization parameters the generated header publishes (<FIELD>_SCALE/_ZERO_POINT).
QUANTIZED_IO_DTYPES = ("int8", "int16", "uint8")
