"""Refusal of hybrid (dynamic-range quantized) TFLite models: float32 activations computed with int8 weights.

TFLite's converter emits such operators when a model is quantized with `optimizations = [DEFAULT]` but no
representative data set: weights are stored as int8, activations stay float32, and the interpreter dequantizes
(or quantizes on the fly) at run time. TFLite Micro refuses these models ("Hybrid models are not supported"), so
there is no reference to be bit-exact with; the compiler refuses them too, with a message saying how to convert
the model instead. Checked on the whole graph before any operator is lowered, so the message names the first
hybrid operator rather than a generic element-type mismatch.
"""

from ..errors import UnsupportedError

# Constant element types that make an operator with float32 activations hybrid.
_QUANTIZED_WEIGHTS = ("int8", "uint8", "int16")


def check_not_hybrid(graph) -> None:
    for op in graph.ops:
        floats = [t for t in op.inputs if t is not None and not t.is_const and t.dtype == "float32"]
        weights = [t for t in op.inputs if t is not None and t.is_const and t.dtype in _QUANTIZED_WEIGHTS]
        if floats and weights:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) is hybrid (dynamic-range quantized): its activation "
                f"'{floats[0].name}' is float32 but its weights '{weights[0].name}' are {weights[0].dtype} "
                "constants. TFLite Micro does not run hybrid models either, so no such model can be compiled. "
                "Convert the model with full-integer quantization (TFLiteConverter with optimizations = [DEFAULT], "
                "a representative_dataset and target_spec.supported_ops = [TFLITE_BUILTINS_INT8]) to run it in "
                "int8, or without optimizations to keep it float32."
            )
