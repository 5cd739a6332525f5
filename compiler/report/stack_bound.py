"""The worst-case stack of a model's `<prefix>_run` before any firmware is linked: `aotc report --target CORE`.

The generated C and the CRT kernels it calls are compiled with arm-none-eabi-gcc for the core (the flags of the
firmware rules: toolchains/cores.bzl and toolchains/arm_gnu's compile flags, at -O2 -DNDEBUG or -Os) and linked
with `<prefix>_run` as the entry point and --gc-sections, so that the image holds exactly the code reachable from
it, libgcc's and newlib's libm routines included. The stack analysis of the firmware size report
(stack_usage.py: frame sizes replayed from the disassembly, deepest call path) then gives the same figure that
report prints for the same model, core and optimization level.

Only the CRT sources that define a symbol the model needs are compiled: the generated code's undefined `aot_*`
symbols are looked up in the CRT files that mention them (a file named after the kernel first), until nothing is
missing.
"""

import glob
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from ..errors import CompileError
from ..hostbuild import crt_dir
from .stack_usage import StackEstimate, estimate

# toolchains/cores.bzl's CORES for the cores `aotc --target` accepts (a test keeps the two equal).
CORE_FLAGS = {
    "cortex-m0": ["-mcpu=cortex-m0", "-mthumb", "-mfloat-abi=soft"],
    "cortex-m3": ["-mcpu=cortex-m3", "-mthumb", "-mfloat-abi=soft"],
    "cortex-m4": ["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"],
    "cortex-m7": ["-mcpu=cortex-m7", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-d16"],
    "cortex-m33": ["-mcpu=cortex-m33", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-sp-d16"],
    "cortex-m55": ["-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard"],
}

# toolchains/arm_gnu/cc_toolchain_config.bzl: the flags that change code (COMPILE_FLAGS) and per optimization level
# (MODE_COMPILE_FLAGS: opt and fastbuild).
COMMON_FLAGS = ["-std=c99", "-ffunction-sections", "-fdata-sections", "-fno-common"]
OPT_FLAGS = {"O2": ["-O2", "-DNDEBUG"], "Os": ["-Os"]}

_UNDEFINED = re.compile(r"^\s+U (\S+)$", re.M)
_DEFINED_TEXT = re.compile(r"^[0-9a-f]+ [TtWw] (\S+)$", re.M)


@dataclass
class StackBound:
    core: str
    opt: str
    estimate: StackEstimate = None
    missing_tool: str = ""  # the cross tool not on PATH (no figure then)


def _tool(name: str) -> str:
    return shutil.which(f"arm-none-eabi-{name}") or ""


def _run(cmd: list, what: str) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CompileError(f"stack bound: {what} failed with arm-none-eabi-gcc:\n{proc.stderr.strip()}")
    return proc.stdout


def _candidates(symbol: str, sources: list, texts: dict) -> list:
    """CRT files that may define `symbol`: the one named after it first, then every other file mentioning it."""
    stem = symbol[len("aot_") :] if symbol.startswith("aot_") else symbol
    named = [s for s in sources if os.path.basename(s)[:-2] == stem]
    return named + [s for s in sources if s not in named and symbol in texts[s]]


def bound(files: dict, prefix: str, core: str, opt: str = "O2") -> StackBound:
    """The worst-case stack of `<prefix>_run` in the generated `files` ({name: text}) compiled for `core`."""
    result = StackBound(core, opt)
    if core not in CORE_FLAGS:
        raise CompileError(f"stack bound: no Cortex-M core '{core}' (one of {', '.join(CORE_FLAGS)}).")
    if opt not in OPT_FLAGS:
        raise CompileError(f"stack bound: optimization level '{opt}' is not one of {', '.join(OPT_FLAGS)}.")
    gcc, nm, objdump = _tool("gcc"), _tool("nm"), _tool("objdump")
    for name, path in (("gcc", gcc), ("nm", nm), ("objdump", objdump)):
        if not path:
            result.missing_tool = f"arm-none-eabi-{name}"
            return result
    crt = crt_dir()
    flags = CORE_FLAGS[core] + COMMON_FLAGS + OPT_FLAGS[opt] + ["-I", os.path.join(crt, "include")]
    sources = sorted(glob.glob(os.path.join(crt, "src", "**", "*.c"), recursive=True))
    texts = {s: open(s, encoding="utf-8", errors="replace").read() for s in sources}
    with tempfile.TemporaryDirectory(prefix="aotc_stack_") as tmp:
        objects, defined, undefined = [], set(), set()

        def add(src: str) -> set:
            obj = os.path.join(tmp, f"{len(objects)}_{os.path.basename(src)[:-2]}.o")
            _run([gcc, *flags, "-c", src, "-o", obj], f"compiling {os.path.basename(src)}")
            objects.append(obj)
            table = _run([nm, obj], "nm")
            new = set(_DEFINED_TEXT.findall(table))
            defined.update(new)
            undefined.update(_UNDEFINED.findall(table))
            return new

        for name, text in files.items():
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
        for name in sorted(files):
            if name.endswith(".c"):
                add(os.path.join(tmp, name))
        compiled = set()
        while True:
            missing = sorted(s for s in undefined - defined if s.startswith("aot_"))
            if not missing:
                break
            for symbol in missing:
                for src in _candidates(symbol, sources, texts):
                    if src in compiled:
                        continue
                    compiled.add(src)
                    if symbol in add(src):
                        break
                else:
                    if symbol not in defined:
                        raise CompileError(f"stack bound: no CRT source defines {symbol} (CRT at {crt}).")
        elf = os.path.join(tmp, f"{prefix}_run.elf")
        _run(
            [
                gcc,
                *CORE_FLAGS[core],
                "-nostartfiles",
                "--specs=nosys.specs",
                "-Wl,--gc-sections",
                f"-Wl,-e,{prefix}_run",
                *objects,
                "-lm",
                "-o",
                elf,
            ],
            "linking",
        )
        result.estimate = estimate(objdump, elf, [f"{prefix}_run"]).get(f"{prefix}_run")
    if result.estimate is None:
        raise CompileError(f"stack bound: {prefix}_run is not a function of the generated code.")
    return result


def render(b: StackBound, prefix: str) -> list:
    """Lines for `aotc report`."""
    if b.missing_tool:
        return [
            f"stack        not computed: {b.missing_tool} is not on PATH (the bound of {prefix}_run is read from "
            f"the code compiled for {b.core}; install the GNU Arm Embedded toolchain)"
        ]
    e = b.estimate
    path = " -> ".join(f"{fn} ({n} B)" for fn, n in e.path)
    lines = [f"stack        {e.bytes:>10,} B   worst case of {prefix}_run on {b.core} at -{b.opt}: {path}"]
    if e.unbounded:
        lines.append(f"             a lower bound only: {e.unbounded}")
    return lines
