"""Compiler intermediate representation: tensors, operators and the graph."""

from .dtypes import DType, DTYPES
from .graph import Graph, Operator
from .tensor import QuantParams, Tensor

__all__ = ["DType", "DTYPES", "Graph", "Operator", "QuantParams", "Tensor"]
