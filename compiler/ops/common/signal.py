"""Shared checks of TFLite Micro's signal operators (CUSTOM:Signal*): fixed element types per operand and rank-1
tensors, refused in one paragraph naming the operator, the operand and what the operator takes."""

from ...errors import UnsupportedError


def require_signal_types(op, inputs: tuple, outputs: tuple) -> None:
    """inputs / outputs: the element type each operand must have, in order (as TFLite Micro's Prepare checks)."""
    if len(op.inputs) != len(inputs) or len(op.outputs) != len(outputs) or any(t is None for t in op.inputs):
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}) has {len(op.inputs)} inputs and {len(op.outputs)} outputs; "
            f"{op.kind} takes {len(inputs)} inputs ({', '.join(inputs)}) and {len(outputs)} output(s) "
            f"({', '.join(outputs)})."
        )
    for what, tensors, types in (("input", op.inputs, inputs), ("output", op.outputs, outputs)):
        for i, (t, dtype) in enumerate(zip(tensors, types)):
            if t.dtype != dtype:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}) {what} {i} '{t.name}' has type {t.dtype}; {op.kind} takes "
                    f"{', '.join(inputs)} inputs and gives {', '.join(outputs)} (TFLite Micro's signal library)."
                )


def require_rank1(op, *tensors) -> None:
    for t in tensors:
        if len(t.shape) != 1:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): tensor '{t.name}' has shape {list(t.shape)}; {op.kind} takes "
                "rank-1 tensors, as TFLite Micro's signal library requires."
            )
