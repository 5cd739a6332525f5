"""IR graph: operators in execution order over a list of tensors."""

from dataclasses import dataclass, field
from typing import Any, Optional

from .tensor import Tensor


@dataclass
class Operator:
    index: int
    kind: str  # TFLite builtin name, e.g. "CONV_2D"
    inputs: list  # list[Optional[Tensor]] (None = omitted optional input)
    outputs: list  # list[Tensor]
    options: dict  # raw builtin options, keys as in the schema
    lowering: Any = None  # compiler.ops lowering object
    params: dict = field(default_factory=dict)  # compile-time constants from passes
    kernel: Optional[str] = None  # CRT function chosen
    kernel_impl: Any = None  # the kernel table's Kernel behind it (compiler/ops/common/kernel.py), if the table chose
    is_noop: bool = False  # no code emitted (aliasing reshape, or an op fused into another)
    fused_into: Optional[int] = (
        None  # index of the op that computes this one (passes/fuse_residual_add.py, fold_pad.py)
    )
    fused_ops: list = field(default_factory=list)  # indices of the ops this one computes besides its own

    def input(self, i: int) -> Optional[Tensor]:
        return self.inputs[i] if i < len(self.inputs) else None

    @property
    def output(self) -> Tensor:
        return self.outputs[0]

    def fuse_into(self, other: "Operator") -> None:
        """From now on `other` computes this op too: this one emits no code and is listed under `other`."""
        self.fused_into = other.index
        other.fused_ops.append(self.index)
        self.is_noop = True
        self.kernel = None
        self.kernel_impl = None

    def kernel_label(self, graph) -> str:
        """The kernel for listings: "aot_conv2d_s8+add" when ops are fused into it, "(fused into op N)" for those."""
        if self.fused_into is not None:
            return f"(fused into op {self.fused_into})"
        if self.is_noop:
            return "(alias)"
        kernel = self.kernel
        if getattr(self, "user_route", None) == "offload":
            kernel = f"user {self.user_kernel.fn} for {getattr(self, 'offloaded_from', None) or self.kernel}"
        elif getattr(self, "user_route", None) == "custom":
            kernel = f"user {self.kernel}"
        label = "+".join([kernel] + [graph.ops[i].kind.lower() for i in self.fused_ops])
        acc16 = (self.params or {}).get("acc16")  # int16x8 layers: accumulation form (compiler/ops/common/int16.py)
        return label + (f" [acc {acc16}]" if acc16 else "")


@dataclass
class Graph:
    name: str
    tensors: list
    ops: list
    inputs: list  # list[Tensor], model order
    outputs: list  # list[Tensor], model order
    description: str = ""

    def link(self) -> None:
        """(Re)compute producer/consumer indices after ops are final.  An op fused into another reads and
        writes nothing itself: the op that absorbed it lists the tensors it still needs."""
        for t in self.tensors:
            t.producer = None
            t.consumers = []
        for op in self.ops:
            if op.fused_into is not None:
                continue
            for t in op.inputs:
                if t is not None and op.index not in t.consumers:
                    t.consumers.append(op.index)
            for t in op.outputs:
                t.producer = op.index
