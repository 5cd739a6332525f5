"""TFLite Micro's builtin operators and the tensor types its reference kernels take for each: the yardstick of
the operator conformance table (op_conformance.py).

Facts, not code: the operator names are those TFLite Micro's MicroMutableOpResolver can register
(tensorflow/lite/micro/micro_mutable_op_resolver.h: 100 builtins besides CUSTOM, read in November 2026); the types
are the activation types each reference kernel's Prepare/Eval accepts (tensorflow/lite/micro/kernels/*.cc). "bool"
and "int32" appear where an operator's data (not only its shape/axis operands) may have that type.

DETECTION_POSTPROCESS is no builtin code but the CUSTOM operator "TFLite_Detection_PostProcess", which the resolver
registers by name (AddDetectionPostprocess) like a builtin; CUSTOM_KINDS gives the IR kind of such rows.
"""

F, I8, I16, I32, B = "float32", "int8", "int16", "int32", "bool"

TFLM_BUILTINS = {
    "ABS": (F, I8, I16), "ADD": (F, I8, I16, I32), "ADD_N": (F, I8), "ARG_MAX": (F, I8),
    "ARG_MIN": (F, I8), "ASSIGN_VARIABLE": (F, I8, I16, I32), "AVERAGE_POOL_2D": (F, I8, I16),
    "BATCH_MATMUL": (F, I8, I16), "BATCH_TO_SPACE_ND": (F, I8), "BROADCAST_ARGS": (I32,),
    "BROADCAST_TO": (F, I8, I16, I32, B), "CALL_ONCE": (), "CAST": (F, I8, I16, I32, B), "CEIL": (F,),
    "CONCATENATION": (F, I8, I16, I32, B), "CONV_2D": (F, I8, I16), "COS": (F,), "CUMSUM": (F, I8, I16),
    "DEPTHWISE_CONV_2D": (F, I8, I16), "DEPTH_TO_SPACE": (F, I8), "DETECTION_POSTPROCESS": (F,), "DEQUANTIZE": (I8, I16),
    "DIV": (F, I8), "DYNAMIC_UPDATE_SLICE": (F, I8, I16, I32), "ELU": (F, I8), "EMBEDDING_LOOKUP": (F, I8),
    "EQUAL": (F, I8, I32, B), "EXP": (F,), "EXPAND_DIMS": (F, I8, I16), "FILL": (F, I8, I32),
    "FLOOR": (F,), "FLOOR_DIV": (F,), "FLOOR_MOD": (F,), "FULLY_CONNECTED": (F, I8, I16),
    "GATHER": (F, I8), "GATHER_ND": (F, I8), "GREATER": (F, I8, I32),
    "GREATER_EQUAL": (F, I8, I32), "HARD_SWISH": (F, I8), "IF": (), "L2_NORMALIZATION": (F, I8),
    "L2_POOL_2D": (F,), "LEAKY_RELU": (F, I8, I16), "LESS": (F, I8, I32), "LESS_EQUAL": (F, I8, I32),
    "LOG": (F,), "LOGICAL_AND": (B,), "LOGICAL_NOT": (B,), "LOGICAL_OR": (B,), "LOGISTIC": (F, I8, I16),
    "LOG_SOFTMAX": (F, I8), "MAXIMUM": (F, I8, I16, I32), "MAX_POOL_2D": (F, I8, I16), "MEAN": (F, I8, I16),
    "MINIMUM": (F, I8, I16, I32), "MIRROR_PAD": (F, I8), "MUL": (F, I8, I16, I32), "NEG": (F,),
    "NOT_EQUAL": (F, I8, I32, B), "PACK": (F, I8, I16, I32), "PAD": (F, I8, I16), "PADV2": (F, I8, I16),
    "PRELU": (F, I8), "QUANTIZE": (F, I8, I16, I32), "READ_VARIABLE": (F, I8, I16, I32),
    "REDUCE_ALL": (B,), "REDUCE_MAX": (F, I8), "REDUCE_MIN": (F, I8), "RELU": (F, I8, I16),
    "RELU6": (F, I8, I16), "RESHAPE": (F, I8, I16, I32, B), "RESIZE_BILINEAR": (F, I8),
    "RESIZE_NEAREST_NEIGHBOR": (F, I8, I16), "REVERSE_V2": (F, I8, I16, I32), "ROUND": (F,), "RSQRT": (F, I8),
    "SELECT_V2": (F, I8, I16), "SHAPE": (I32,), "SIN": (F,), "SLICE": (F, I8, I16, I32, B),
    "SOFTMAX": (F, I8, I16), "SPACE_TO_BATCH_ND": (F, I8), "SPACE_TO_DEPTH": (F, I8),
    "SPLIT": (F, I8, I16, I32), "SPLIT_V": (F, I8, I16, I32), "SQRT": (F,), "SQUARE": (F,),
    "SQUARED_DIFFERENCE": (F, I8, I16, I32), "SQUEEZE": (F, I8, I16, I32, B), "STRIDED_SLICE": (F, I8, I16, I32, B),
    "SUB": (F, I8, I16, I32), "SUM": (F, I8, I16), "SVDF": (F, I8), "TANH": (F, I8, I16),
    "TRANSPOSE": (F, I8, I16), "TRANSPOSE_CONV": (F, I8, I16), "UNIDIRECTIONAL_SEQUENCE_LSTM": (F, I8),
    "UNPACK": (F, I8, I16, I32), "VAR_HANDLE": (), "WHILE": (), "ZEROS_LIKE": (F, I8, I32),
}

CUSTOM_KINDS = {"DETECTION_POSTPROCESS": "CUSTOM:TFLite_Detection_PostProcess"}
