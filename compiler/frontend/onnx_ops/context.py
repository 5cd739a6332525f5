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
        self.quant_out = quant_out  # list of QInfo per output in a fused int8 group, else None
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
        if isinstance(v, bytes):
            try:
                return v.decode()
            except UnicodeDecodeError:
                raise self.error(f"attribute '{name}' is not UTF-8 text ({v[:20]!r})") from None
        return v

    def required(self, i: int, what: str):
        """Input i, which the converter cannot do without."""
        v = self.input(i)
        if v is None:
            raise self.error(f"input {i} ({what}) is missing")
        return v

    def ints(self, value, what: str, length: int = None) -> list:
        """A constant operand or attribute as Python ints: integer elements only, `length` of them if given."""
        arr = np.asarray(value)
        if arr.size and arr.dtype.kind not in "iu":  # an empty list is float64 to numpy
            raise self.error(f"{what} has element type {arr.dtype}; it must hold integers")
        vals = [int(v) for v in arr.reshape(-1)]
        if length is not None and len(vals) != length:
            raise self.error(
                f"{length} values are needed for {what}, but {len(vals)} are given "
                f"({vals[:8]}{' ...' if len(vals) > 8 else ''})"
            )
        return vals

    def scalar(self, value, what: str) -> float:
        """The one number of a constant operand that must be a scalar (or a 1-element tensor)."""
        arr = np.asarray(value)
        if arr.size != 1 or arr.dtype.kind not in "iufb":
            raise self.error(f"{what} must be one number, but has shape {list(arr.shape)} and type {arr.dtype}")
        return arr.reshape(-1)[0].item()

    def axis(self, value, rank: int, what: str = "attribute 'axis'", inclusive: bool = False) -> int:
        """An axis in [-rank, rank - 1] (or [-rank, rank] when `inclusive`), made non-negative."""
        v, hi = int(value), rank if inclusive else rank - 1
        if hi < 0:
            raise self.error(f"{what} is {v}, but the input is a scalar (rank 0), which has no axes")
        if not -rank <= v <= hi:
            raise self.error(f"{what} is {v}, but for an input of rank {rank} it must lie in [{-rank}, {hi}]")
        return v + rank if v < 0 else v

    def axes(self, values, rank: int, what: str) -> list:
        """Distinct axes, each in [-rank, rank - 1], made non-negative."""
        out = [self.axis(v, rank, what) for v in values]
        if len(set(out)) != len(out):
            raise self.error(f"{what} names an axis twice ({list(values)})")
        return out

    # --- outputs ----------------------------------------------------------------------------------------------
    def out_name(self, i: int = 0) -> str:
        if i >= len(self.node.output):
            raise self.error(f"output {i} is missing (the node has {len(self.node.output)} outputs)")
        return self.node.output[i]

    def num_outputs(self) -> int:
        return len(self.node.output)

    def out_shape(self, i: int = 0, rank: int = None) -> tuple:
        """The inferred shape of output i; with `rank`, it must have that many dimensions."""
        shape = self.reader.shape_of(self.out_name(i), self)
        if rank is not None and len(shape) != rank:
            raise self.error(
                f"output '{self.out_name(i)}' has shape {list(shape)} after shape inference, but its "
                f"inputs give a rank-{rank} result"
            )
        return shape

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


def array_type_name(arr) -> str:
    """numpy's element type of a constant, 'string' for text (numpy calls it '<U2', 'object', ...)."""
    dtype = np.asarray(arr).dtype
    return "string" if dtype.kind in "USO" else str(dtype)


__all__ = ["NodeCtx", "NotQuantizable", "array_type_name", "elem_type_name", "np"]
