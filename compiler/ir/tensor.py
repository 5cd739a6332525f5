"""IR tensor: static shape, dtype, optional quantization and constant data."""

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from .dtypes import DTYPES


@dataclass
class QuantParams:
    """Affine quantization: real = scale * (q - zero_point), per tensor or per axis."""

    scale: np.ndarray  # float32, length 1 (per tensor) or channels
    zero_point: np.ndarray  # int64, same length as scale
    axis: int = 0

    @property
    def per_channel(self) -> bool:
        return len(self.scale) > 1

    def scalar(self) -> tuple[float, int]:
        return float(self.scale[0]), int(self.zero_point[0])


@dataclass
class Tensor:
    index: int
    name: str
    shape: tuple
    dtype: str
    quant: Optional[QuantParams] = None
    data: Optional[np.ndarray] = None  # constant payload (weights), shaped
    is_input: bool = False
    is_output: bool = False
    is_variable: bool = False  # TFLite variable tensor: state kept from one run to the next
    producer: Optional[int] = None  # operator index
    consumers: list = field(default_factory=list)
    # What a model output stands for beyond its values, for the header comment and the manifest: e.g. a ZipMap'd
    # ONNX-ML probability output {"from": "ZipMap", "class_labels": [...], "note": "..."} (onnx_zipmap.py).
    meaning: Optional[dict] = None

    @property
    def is_const(self) -> bool:
        return self.data is not None

    @property
    def num_elements(self) -> int:
        n = 1
        for d in self.shape:
            n *= int(d)
        return n

    @property
    def nbytes(self) -> int:
        return self.num_elements * DTYPES[self.dtype].size

    @property
    def ctype(self) -> str:
        return DTYPES[self.dtype].ctype

    def __repr__(self) -> str:  # keep debug output short: no data dump
        return f"Tensor({self.index}, {self.name!r}, {self.shape}, {self.dtype})"
