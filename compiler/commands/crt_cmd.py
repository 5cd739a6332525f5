"""`crt --out_dir DIR`: writes the C runtime (headers and sources) that generated code links against, for builds
without Bazel (make, CMake, a vendor IDE).

The runtime is the one this compiler was built with (the checkout's crt/ or the wheel's aot_compiler/_crt): its
sources are compiled once per core with the core's flags and -I DIR/include, and linked with every model.
"""

import os
import shutil

from ..errors import CompileError
from ..hostbuild import crt_dir

_HOW = """wrote the C runtime to {out}: {headers} headers in {out}/include, {sources} sources in {out}/src.
Build it once per core and link it with the generated code, e.g. for a Cortex-M4F:
  arm-none-eabi-gcc -std=c99 -O2 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 \\
    -ffunction-sections -fdata-sections -I {out}/include -c {out}/src/**/*.c
and compile the model's C with -I {out}/include and the same core flags (the model's --target picks its kernels)."""


def run_crt(_unused, flags) -> int:
    out = flags.out_dir
    src = crt_dir()
    if os.path.exists(out) and not os.path.isdir(out):
        raise CompileError(f"--out_dir {out} exists and is not a directory.")
    counts = {}
    for part in ("include", "src"):
        dest = os.path.join(out, part)
        if os.path.exists(dest):
            raise CompileError(f"{dest} exists already: give an empty or new --out_dir (nothing was written).")
    for part, ext in (("include", ".h"), ("src", (".c", ".h"))):
        shutil.copytree(os.path.join(src, part), os.path.join(out, part), ignore=_only(ext))
        counts[part] = sum(1 for _, _, files in os.walk(os.path.join(out, part)) for f in files if f.endswith(".c"))
        counts[part + "_h"] = sum(
            1 for _, _, files in os.walk(os.path.join(out, part)) for f in files if f.endswith(".h")
        )
    if not flags.quiet:
        print(_HOW.format(out=out, headers=counts["include_h"], sources=counts["src"]))
    return 0


def _only(ext):
    """A copytree ignore function keeping directories and files ending in `ext`."""

    def ignore(directory, names):
        return [n for n in names if not os.path.isdir(os.path.join(directory, n)) and not n.endswith(ext)]

    return ignore
