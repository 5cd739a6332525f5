"""The view of one ONNX node that a converter works with: its inputs as values, attributes, inferred output
shapes, and (for quantized operators) the quantization its outputs must have."""

import numpy as np
import onnx
from onnx import helper

from ...errors import CompileError, UnsupportedError


class NotQuantizable(Exception):
    """Raised by a converter, before it emits anything, when a QDQ group cannot be run in int8; the reader
    then converts the node in float between a DEQUANTIZE and a QUANTIZE instead."""


class NodeCtx:
    def __init__(self, reader, node, index: int, inputs: list, quant_out=None):
        self.reader = reader
        self.b = reader.builder
        self.node = node
        self.index = index
        self.op_type = node.op_type
        self.name = node.name or f"{node.op_type}_{index}"
        self._inputs = inputs
        self.quant_out = quant_out       # list of QInfo per output in a fused int8 group, else None
        self.opset = reader.opset

    @property
    def quantized(self) -> bool:
        return self.quant_out is not None

    # --- inputs / attributes ----------------------------------------------------------------------------------
    def num_inputs(self) -> int:
        return len(self._inputs)

    def input(self, i: int):
        return self._inputs[i] if i < len(self._inputs) else None

    def const_input(self, i: int, what: str, default=None):
        v = self.input(i)
        if v is None:
            return default
        if not v.is_const:
            raise self.unsupported(f"{what} ('{v.name}') is computed at run time; it must be a constant")
        return v.const

    def attr(self, name: str, default=None):
        for a in self.node.attribute:
            if a.name == name:
                return helper.get_attribute_value(a)
        return default

    def attr_str(self, name: str, default: str = "") -> str:
        v = self.attr(name, default)
        return v.decode() if isinstance(v, bytes) else v

    # --- outputs ----------------------------------------------------------------------------------------------
    def out_name(self, i: int = 0) -> str:
        return self.node.output[i]

    def num_outputs(self) -> int:
        return len(self.node.output)

    def out_shape(self, i: int = 0) -> tuple:
        return self.reader.shape_of(self.node.output[i], self)

    def set_output(self, i: int, value) -> None:
        self.reader.set_value(self.node.output[i], value)

    def out_qinfo(self, i: int = 0):
        return self.quant_out[i] if self.quant_out else None

    # --- errors -----------------------------------------------------------------------------------------------
    def unsupported(self, what: str) -> UnsupportedError:
        return UnsupportedError(f"ONNX node '{self.name}' ({self.op_type}): {what}.")

    def error(self, what: str) -> CompileError:
        return CompileError(f"ONNX node '{self.name}' ({self.op_type}): {what}. The model file is malformed.")


def elem_type_name(code: int) -> str:
    try:
        return onnx.TensorProto.DataType.Name(code)
    except ValueError:
        return str(code)


__all__ = ["NodeCtx", "NotQuantizable", "elem_type_name", "np"]
