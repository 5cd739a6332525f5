"""The float value of a DequantizeLinear whose inputs are all constants, for the rewrites of graph normalization
(onnx_decompose.py) that need a parameter as a constant.

onnxruntime's static quantizer (QDQ format) quantizes the constant parameters of the operators it knows, so in a
QDQ export InstanceNormalization's scale and bias, or a recurrent layer's weights, arrive as DequantizeLinear of an
int8 initializer rather than as float initializers. The normalizer does not fold those nodes (fold.py never folds
DequantizeLinear: the reader matches DequantizeLinear of constant weights into the int8 kernels), so the rewrites
read the dequantized value from here instead, computed as onnxruntime computes it: (x - zero_point) in integers,
converted to float32 and multiplied by the float32 scale (per tensor, or per axis broadcast along `axis`).
"""

import numpy as np
from onnx import helper

_DATA = ("int8", "uint8", "int16", "uint16", "int32")


def dequantized_constant(node, values: dict):
    """The float32 array `node` (a DequantizeLinear) computes when its inputs are constants in `values` (name ->
    array), else None (run-time data, a blocked or non-float32 quantization: left to the reader)."""
    if node.op_type != "DequantizeLinear" or node.domain not in ("", "ai.onnx") or len(node.input) < 2:
        return None
    ins = list(node.input) + [""] * (3 - len(node.input))
    if any(n and n not in values for n in ins) or not ins[0] or not ins[1]:
        return None
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    if int(attrs.get("block_size", 0) or 0):
        return None
    x = np.asarray(values[ins[0]])
    scale = np.asarray(values[ins[1]])
    zp = np.asarray(values[ins[2]]) if ins[2] else np.zeros((), x.dtype)
    if str(x.dtype) not in _DATA or scale.dtype != np.float32 or zp.size not in (1, scale.size) or not scale.size:
        return None
    if zp.size != scale.size:  # one zero point for every scale
        zp = np.full(scale.shape, zp.reshape(-1)[0])
    if scale.size > 1:
        axis = int(attrs.get("axis", 1))
        axis = axis + x.ndim if axis < 0 else axis
        if scale.ndim != 1 or not 0 <= axis < x.ndim or x.shape[axis] != scale.size:
            return None
        shape = [1] * x.ndim
        shape[axis] = scale.size
        scale, zp = scale.reshape(shape), zp.reshape(shape)
    else:  # per tensor: a scalar or a one-element 1-D scale broadcasts to x's shape
        scale, zp = scale.reshape(()), zp.reshape(())
    return (x.astype(np.int64) - zp.astype(np.int64)).astype(np.float32) * scale
