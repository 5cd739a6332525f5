"""Compute every op's compile-time constants (requantization multipliers and
shifts, folded biases, softmax/add parameters) via its lowering's prepare()."""

from ..errors import CompileError
from ..quant_math import QuantRangeError


def _scales(op) -> str:
    named = [t for t in op.inputs + op.outputs if t is not None and t.quant is not None and not t.is_const]
    return ", ".join(f"'{t.name}' {float(t.quant.scale[0]):.6g}" for t in named) or "none"


def prepare_ops(graph) -> None:
    from ..ops.kernel_table import float_kind_macs

    target = getattr(graph, "target", "host")
    kind_macs = float_kind_macs(graph)  # the kernel table's FEW_FLOAT_MACS rule
    for op in graph.ops:
        if op.fused_into is not None:
            continue  # computed by another op (passes/fold_pad.py): nothing of its own to prepare
        # Lowerings pick target-specific kernels (and their weight layouts) from op.target.
        # An operator offloaded to a user function gets the portable kernel's parameters, the same on every
        # core, so one user kernel serves all targets (ops/_user_kernel.py).
        op.target = "host" if getattr(op, "user_route", None) == "offload" else target
        op.kernel_options = getattr(graph, "kernel_options", None)
        op.float_kind_macs = kind_macs
        try:
            op.lowering.prepare(op)
        except QuantRangeError as e:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): {e}, so its quantization scales are degenerate (tensor "
                f"scales: {_scales(op)}). TFLite Micro cannot run such a model correctly either; re-quantize it "
                "with representative data."
            ) from None
