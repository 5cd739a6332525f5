"""User kernels: which operators run a function the application provides instead of (or where there is no)
built-in kernel, decided in one place (`route`).

Two mappings come from the compile command (crt/include/aot/user_kernel.h is the C side of both):
  --custom_op NAME=FN[,scratch=N][,init=FN]   a CUSTOM operator "NAME" of the model runs FN, which gets the
                                               generic user-kernel ABI (typed I/O pointers, a const parameter
                                               block, the custom options bytes, a planned scratch);
  --offload PATTERN=FN[,init=FN]              built-in operators matching PATTERN (an operator type such as
                                               CONV_2D, `#N` for operator N, or `name:GLOB` for an operator whose
                                               first output's name matches GLOB) call FN with exactly the arguments
                                               of the portable CRT kernel they would have called (BYOC).
The compile options carry them as a UserKernelOptions value (graph.user_kernels), never module state.
"""

import fnmatch
import re
from dataclasses import dataclass
from typing import Optional

from .errors import CompileError

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Bounded so a typo cannot plan gigabytes; a larger scratch belongs in memory the application owns.
MAX_SCRATCH = 1 << 28


@dataclass(frozen=True)
class UserKernel:
    fn: str  # the user's C function
    scratch: int = 0  # bytes of workspace it gets during its call (custom operators only)
    init: Optional[str] = None  # its init hook, run by <prefix>_init()
    spec: str = ""  # the flag text, for messages


@dataclass(frozen=True)
class UserKernelOptions:
    custom: tuple = ()  # ((custom code, UserKernel), ...)
    offload: tuple = ()  # ((pattern, UserKernel), ...), first match wins

    def __bool__(self):
        return bool(self.custom or self.offload)

    def function_names(self) -> set:
        return {k.fn for _, k in self.custom + self.offload} | {k.init for _, k in self.custom + self.offload if k.init}


NO_USER_KERNELS = UserKernelOptions()


def _ident(value: str, flag: str, spec: str, what: str) -> str:
    if not _IDENT.match(value):
        raise CompileError(
            f"{flag} '{spec}': {what} '{value}' is not a C identifier (letters, digits and '_', not "
            "starting with a digit)."
        )
    if value == "aot" or value.startswith("aot_") or value.startswith("__"):
        raise CompileError(
            f"{flag} '{spec}': {what} '{value}' is reserved ('aot_' belongs to the C runtime, '__' "
            "to the C implementation); name your function otherwise."
        )
    return value


def parse_spec(spec: str, flag: str, allow_scratch: bool):
    """'KEY=FN[,scratch=N][,init=FN]' -> (KEY, UserKernel), or a CompileError naming the flag and the field."""
    usage = (
        f"expected KEY=FUNCTION[,{'scratch=BYTES,' if allow_scratch else ''}init=FUNCTION], e.g. "
        f"{'MyOp=my_op,scratch=256,init=my_op_init' if allow_scratch else 'CONV_2D=npu_conv2d'}"
    )
    key, sep, rest = spec.partition("=")
    if not sep or not key.strip() or not rest.strip():
        raise CompileError(f"{flag} '{spec}': {usage}.")
    parts = [p.strip() for p in rest.split(",")]
    fn = _ident(parts[0], flag, spec, "function name")
    scratch, init = 0, None
    for p in parts[1:]:
        name, eq, value = p.partition("=")
        name, value = name.strip(), value.strip()
        if name == "scratch" and eq and allow_scratch:
            if not value.isdigit() or int(value) > MAX_SCRATCH:
                raise CompileError(
                    f"{flag} '{spec}': scratch must be a byte count from 0 to {MAX_SCRATCH}, got '{value}'."
                )
            scratch = int(value)
        elif name == "init" and eq:
            init = _ident(value, flag, spec, "init hook")
        elif name == "scratch" and not allow_scratch:
            raise CompileError(
                f"{flag} '{spec}': an offloaded operator's function receives the arguments of the "
                "built-in kernel, including that kernel's own scratch; it takes no scratch of its "
                "own (scratch= is for --custom_op)."
            )
        else:
            raise CompileError(f"{flag} '{spec}': unknown field '{p}'; {usage}.")
    return key.strip(), UserKernel(fn, scratch, init, spec)


def options_from_flags(flags) -> UserKernelOptions:
    custom, seen = [], {}
    for spec in getattr(flags, "custom_op", None) or []:
        name, k = parse_spec(spec, "--custom_op", allow_scratch=True)
        if name.startswith("CUSTOM:"):
            name = name[len("CUSTOM:") :]
        if name in seen:
            raise CompileError(f"--custom_op: operator '{name}' is mapped twice ('{seen[name]}' and '{spec}').")
        seen[name] = spec
        custom.append((name, k))
    offload = []
    for spec in getattr(flags, "offload", None) or []:
        pattern, k = parse_spec(spec, "--offload", allow_scratch=False)
        _check_pattern(pattern, spec)
        offload.append((pattern, k))
    return UserKernelOptions(tuple(custom), tuple(offload))


def _check_pattern(pattern: str, spec: str) -> None:
    if pattern.startswith("#"):
        if not pattern[1:].isdigit():
            raise CompileError(f"--offload '{spec}': '#' must be followed by an operator index, e.g. #3.")
    elif pattern.startswith("name:"):
        if not pattern[5:]:
            raise CompileError(
                f"--offload '{spec}': 'name:' must be followed by a tensor name pattern, e.g. name:*conv*."
            )
    elif not re.match(r"[A-Z][A-Z0-9_]*\Z", pattern):
        raise CompileError(
            f"--offload '{spec}': '{pattern}' is neither an operator type (e.g. CONV_2D), nor #N "
            "(operator N), nor name:GLOB (operators whose first output name matches GLOB)."
        )


def _matches(pattern: str, op) -> bool:
    if pattern.startswith("#"):
        return op.index == int(pattern[1:])
    if pattern.startswith("name:"):
        return bool(op.outputs) and fnmatch.fnmatchcase(op.outputs[0].name, pattern[5:])
    return op.kind == pattern


def route(op, options: UserKernelOptions):
    """The user kernel that runs `op`, or None for the built-in one: ("custom", kernel) for a mapped CUSTOM
    operator, ("offload", kernel) for a built-in operator matching an --offload pattern (first match wins)."""
    if not options:
        return None
    if op.kind.startswith("CUSTOM:"):
        for name, k in options.custom:
            if op.kind == "CUSTOM:" + name:
                return ("custom", k)
    for pattern, k in options.offload:
        if _matches(pattern, op):
            return ("offload", k)
    return None


def unused_mappings(graph, options: UserKernelOptions) -> list:
    """The mappings no operator of the graph took (reported, not an error: a kernel library may cover more)."""
    used = {id(getattr(op, "user_kernel", None)) for op in graph.ops}
    return [k.spec for _, k in options.custom + options.offload if id(k) not in used]


def user_api(graph) -> tuple:
    """(has user kernels, needs init): what the model's API gains — <prefix>_failed_op() when any operator runs a
    user kernel, <prefix>_init() when one of them declares an init hook; a model without either keeps its API."""
    kernels = [
        op.user_kernel for op in graph.ops if getattr(op, "user_kernel", None) is not None and op.fused_into is None
    ]
    return bool(kernels), any(k.init for k in kernels)
