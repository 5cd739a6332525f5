"""IR graph: operators in execution order over a list of tensors."""

from dataclasses import dataclass, field
from typing import Any, Optional

from .tensor import Tensor


@dataclass
class Operator:
    index: int
    kind: str                     # TFLite builtin name, e.g. "CONV_2D"
    inputs: list                  # list[Optional[Tensor]] (None = omitted optional input)
    outputs: list                 # list[Tensor]
    options: dict                 # raw builtin options, keys as in the schema
    lowering: Any = None          # compiler.ops lowering object
    params: dict = field(default_factory=dict)   # compile-time constants from passes
    kernel: Optional[str] = None  # CRT function chosen
    is_noop: bool = False         # aliasing reshape: no code emitted

    def input(self, i: int) -> Optional[Tensor]:
        return self.inputs[i] if i < len(self.inputs) else None

    @property
    def output(self) -> Tensor:
        return self.outputs[0]


@dataclass
class Graph:
    name: str
    tensors: list
    ops: list
    inputs: list      # list[Tensor], model order
    outputs: list     # list[Tensor], model order
    description: str = ""

    def link(self) -> None:
        """(Re)compute producer/consumer indices after ops are final."""
        for t in self.tensors:
            t.producer = None
            t.consumers = []
        for op in self.ops:
            for t in op.inputs:
                if t is not None and op.index not in t.consumers:
                    t.consumers.append(op.index)
            for t in op.outputs:
                t.producer = op.index
