"""TFLite model features TFLite Micro cannot run either, refused up front with a message that names the feature.

Without these checks a sparse weight tensor fails the byte-count check ("has N bytes of data but its shape needs
M") and float16 weights fail at their DEQUANTIZE with a type list: both true, neither tells the user that the
converter option they chose (sparsity, float16 quantization) is the cause, nor that TFLite Micro refuses the model
too (it has no DENSIFY kernel and its DEQUANTIZE takes only int8, uint8 and int16).
"""

from ..errors import UnsupportedError


def check_not_sparse(index: int, name: str, t) -> None:
    """t: the flatbuffer Tensor table; refuse it when it carries TFLite sparsity parameters."""
    if t.Sparsity() is None:
        return
    raise UnsupportedError(
        f"Tensor {index} '{name}' is stored sparse (TFLite sparsity parameters: a compressed block format the "
        "converter writes for pruned weights, expanded at run time by a DENSIFY operator). Neither aotc nor "
        "TFLite Micro runs sparse tensors (TFLite Micro has no DENSIFY kernel and its kernels read dense data). "
        "Convert the model without the sparsity optimization (no tf.lite.Optimize.EXPERIMENTAL_SPARSITY); pruned "
        "weights stored dense compile as usual."
    )


def check_not_float16_weights(graph) -> None:
    """Refuse the first float16 constant (post-training float16 quantization: float16 weights, DEQUANTIZE to
    float32 before each use)."""
    for t in graph.tensors:
        if t.dtype == "float16" and t.data is not None:
            users = [graph.ops[i].kind for i in t.consumers]
            used = f", read by {users[0]}" if users else ""
            raise UnsupportedError(
                f"Tensor {t.index} '{t.name}' holds float16 weights{used}: the model was converted with float16 "
                "quantization (weights stored as float16 and dequantized to float32 at run time). Neither aotc "
                "nor TFLite Micro runs float16 weights (TFLite Micro's DEQUANTIZE takes only int8, uint8 and "
                "int16). Convert the model with float32 weights or with full-integer (int8) quantization."
            )
