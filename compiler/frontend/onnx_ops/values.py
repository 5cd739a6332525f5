"""What an ONNX value name stands for while the graph is translated.

A value is a compile-time constant (numpy, ONNX layout), or a run-time IR tensor that may exist in two
physical layouts: the ONNX order and NHWC (for 4-D activations feeding convolutions and pooling).  A
DequantizeLinear output is kept as a *dequantized view* (`q`) of an int8 value, so quantized operators can
consume the int8 data directly and a float tensor is only made if a float operator really needs one.
"""

from dataclasses import dataclass, field
from typing import Optional

import numpy as np


@dataclass
class QInfo:
    """real = scale * (stored - zero_point) of an int8 value (uint8 sources already shifted by -128)."""

    scale: np.ndarray  # float32, 1 or per-channel
    zero_point: np.ndarray  # int64, same length
    axis: int = 0  # ONNX-layout axis of per-channel parameters

    @property
    def per_tensor(self) -> bool:
        return self.scale.size == 1

    def same(self, other) -> bool:
        return (
            other is not None
            and self.per_tensor
            and other.per_tensor
            and np.float32(self.scale[0]) == np.float32(other.scale[0])
            and int(self.zero_point[0]) == int(other.zero_point[0])
        )


@dataclass
class Value:
    name: str
    shape: tuple  # ONNX (logical) shape
    dtype: str  # IR dtype of the logical element type
    const: Optional[np.ndarray] = None
    tensors: dict = field(default_factory=dict)  # layout ("onnx" | "nhwc") -> IR Tensor
    qsrc: Optional["Value"] = None  # dequantized view: the int8 value (run-time or constant) it reads
    qinfo: Optional[QInfo] = None  # quantization of this int8 value, or of qsrc for a view

    @property
    def is_const(self) -> bool:
        return self.const is not None

    @property
    def is_dq_view(self) -> bool:
        return self.qsrc is not None

    @property
    def rank(self) -> int:
        return len(self.shape)
