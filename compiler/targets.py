"""Code generation targets accepted by --target.

The target does not change generated code yet; it is validated and recorded
in the JSON manifest so build rules can already pass it through.
"""

from .errors import CompileError

TARGETS = (
    "host",
    "cortex-m0",
    "cortex-m3",
    "cortex-m4",
    "cortex-m7",
    "cortex-m33",
    "cortex-m55",
)


def validate_target(name: str) -> str:
    if name not in TARGETS:
        raise CompileError(
            f"Unknown --target '{name}'. Supported targets: {', '.join(TARGETS)}."
        )
    return name
