"""Op lowerings, one module per TFLite builtin op, discovered automatically.

Every public module in this package (name not starting with "_") is imported
and the OpLowering subclasses it decorates with @register are indexed by the
builtin names they handle.  Adding an op therefore means adding
`compiler/ops/<op>.py` plus its CRT kernel files; no shared list to edit.

Below the lowerings: `common/` (helpers shared by lowerings and kernels: checks, quantization arithmetic, weight
layouts, the Kernel type), `kernels/` (the kernels the kernel table hands out) and `kernel_table.py` (the choice);
none of them imports a lowering (tests/compiler/test_import_graph.py).
"""

import importlib
import pkgutil

from ._base import OpLowering, register, registered_lowerings

_loaded = False


def _discover() -> None:
    global _loaded
    if _loaded:
        return
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_") and not info.ispkg:
            importlib.import_module(f"{__name__}.{info.name}")
    _loaded = True


def lowering_registry() -> dict:
    """{builtin op name: OpLowering instance} for every discovered op."""
    _discover()
    return registered_lowerings()


def supported_ops() -> list:
    return sorted(lowering_registry())


# TFLite builtins the TFLite frontend resolves at compile time, so that no lowering ever sees them: VAR_HANDLE names
# a resource variable (frontend/tflite_subgraphs.py).
FRONTEND_RESOLVED = ("VAR_HANDLE",)


def supported_tflite_ops() -> list:
    """The TFLite builtins among supported_ops(), plus FRONTEND_RESOLVED: the rest (CLAMP, PAD_MODE, IF_ELSE, ...)
    are kinds only the ONNX frontend or the control-flow expansion produces, which would mislead a TFLite user."""
    import tflite  # the TFLite frontend's schema package; imported here so ONNX-only use does not need it

    return sorted([k for k in supported_ops() if hasattr(tflite.BuiltinOperator, k)] + list(FRONTEND_RESOLVED))


__all__ = ["OpLowering", "register", "lowering_registry", "supported_ops", "supported_tflite_ops"]
