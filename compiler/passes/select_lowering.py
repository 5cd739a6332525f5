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
            f"Supported TFLite operators are: {', '.join(supported_tflite_ops())}." + _custom_note(missing)
        )


def _custom_note(missing: dict) -> str:
    """CUSTOM operators are no TFLite builtin: their code comes with the tool that wrote the model, so say so."""
    custom = sorted(k for k in missing if k.startswith("CUSTOM:"))
    if not custom:
        return ""
    note = (f" {', '.join(custom)} {'is a custom operator' if len(custom) == 1 else 'are custom operators'}: not "
            "part of TFLite's operator set; its code comes from the tool or application that wrote the model.")
    signal = sorted(k for k in lowering_registry() if k.startswith("CUSTOM:Signal"))
    if any(k.startswith("CUSTOM:Signal") for k in custom):
        note += (" Of TFLite Micro's signal library (its audio front-end operators) these are supported: "
                 f"{', '.join(signal)}.")
    shipped = sorted(k for k in lowering_registry() if k.startswith("CUSTOM:") and not k.startswith("CUSTOM:Signal"))
    if shipped:
        note += f" Custom operators that ship with TFLite Micro and are supported: {', '.join(shipped)}."
    if "CUSTOM:ethos-u" in custom:
        note += (" CUSTOM:ethos-u is a command stream for an Arm Ethos-U NPU (the model went through the Vela "
                 "compiler): compile the .tflite from before Vela instead.")
    return note
