"""Attach an op lowering to every operator; reject unknown ops in one message."""

from ..errors import UnsupportedError
from ..ops import lowering_registry, supported_tflite_ops


def select_lowerings(graph) -> None:
    registry = lowering_registry()
    missing = {}
    for op in graph.ops:
        lowering = registry.get(op.kind)
        if lowering is None:
            missing.setdefault(op.kind, []).append(op.index)
        op.lowering = lowering
    if missing:
        parts = [
            f"{kind} (operator{'s' if len(idx) > 1 else ''} {', '.join(map(str, idx))})"
            for kind, idx in sorted(missing.items())
        ]
        raise UnsupportedError(
            f"Unsupported operator{'s' if len(parts) > 1 else ''}: {'; '.join(parts)}. "
            f"Supported TFLite operators are: {', '.join(supported_tflite_ops())}."
        )
