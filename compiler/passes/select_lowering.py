"""Attach an op lowering to every operator; reject unknown ops in one message.

Operators the compile options route to a user kernel (compiler/user_kernels.py, `route`) are marked here:
a mapped CUSTOM operator gets the user-kernel lowering, an offloaded built-in keeps its own lowering and
op.user_kernel names the function its kernel call goes to (ops/_user_kernel.py)."""

from ..errors import UnsupportedError
from ..ops import lowering_registry, supported_tflite_ops
from ..ops._user_kernel import CustomOpLowering
from ..user_kernels import NO_USER_KERNELS, route


def select_lowerings(graph) -> None:
    registry = lowering_registry()
    options = getattr(graph, "user_kernels", None) or NO_USER_KERNELS
    missing = {}
    custom_lowerings = {}
    for op in graph.ops:
        lowering = registry.get(op.kind)
        op.user_kernel, op.user_route = None, None
        routed = route(op, options)
        if routed is not None:
            op.user_route, op.user_kernel = routed
            if op.user_route == "custom":
                lowering = custom_lowerings.setdefault(id(op.user_kernel), CustomOpLowering(op.user_kernel))
            elif lowering is None:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}) matches --offload '{op.user_kernel.spec}', but it has no "
                    f"built-in kernel to stand in for; map a custom operator with --custom_op "
                    f"{op.kind[len('CUSTOM:') :] if op.kind.startswith('CUSTOM:') else op.kind}=FUNCTION instead."
                )
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
    note = (
        f" {', '.join(custom)} {'is a custom operator' if len(custom) == 1 else 'are custom operators'}: its code "
        "comes with the tool that wrote the model, not with TFLite's operator set."
    )
    signal = sorted(k for k in lowering_registry() if k.startswith("CUSTOM:Signal"))
    if any(k.startswith("CUSTOM:Signal") for k in custom):
        note += f" Of TFLite Micro's signal library these are supported: {', '.join(signal)}."
    shipped = sorted(k for k in lowering_registry() if k.startswith("CUSTOM:") and not k.startswith("CUSTOM:Signal"))
    if shipped:
        note += f" Supported custom operators that ship with TFLite Micro: {', '.join(shipped)}."
    if "CUSTOM:ethos-u" in custom:
        note += (
            " CUSTOM:ethos-u is an Arm Ethos-U NPU command stream (Vela): compile the model from before Vela, or "
            "hand the stream to your Ethos-U driver with a user kernel as below."
        )
    name = custom[0][len("CUSTOM:") :]
    note += (
        f" To run it with your own C function: `aotc compile --custom_op {name}=my_function[,scratch=BYTES]"
        f'[,init=my_init]`, or aot_model_library(custom_ops = {{"{name}": "//pkg:my_kernel"}}) with an '
        "aot_user_kernel (docs/user-kernels.md)."
    )
    return note
