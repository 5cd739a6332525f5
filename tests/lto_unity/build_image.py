"""Links many models' generated bit-exactness tests into one firmware with -flto and the CRT as one translation unit.

The image is what issue 29 asks the CRT to survive: every kernel in a single translation unit (a unity file that
#includes every CRT source, as tests/compiler/test_crt_unity.py builds it on the host) and the whole program --
unity CRT, each model's generated C, each model's `aotc testgen` test and a runner -- compiled and linked with
`-flto -O2`, so the compiler sees every access of an object across kernels and the generated code at once (type
punning through incompatible pointers would turn into wrong code here). Each model's test has its `main` renamed to
`<prefix>_test_main`; the runner calls them all, prints `FAILED: <prefix>` for each model that differs (the test
itself prints the case, the output element, got and want) and exits non-zero if any did.

    build_image.py --core_flags '-mcpu=...' --linker_script L --startup startup.c --out fw.elf \
        --model HEADER,SRC[,SRC...],TEST ... CRT_FILES...
"""

import argparse
import os
import shutil
import subprocess
import sys


def _run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(" ".join(cmd) + "\n" + proc.stdout + proc.stderr)
        raise SystemExit(proc.returncode)


def runner_source(name: str, prefixes: list) -> str:
    """The image's main(): every model's test in turn, then one summary line."""
    lines = ["#include <stdio.h>", ""] + [f"int {p}_test_main(void);" for p in prefixes]
    lines += ["", "int main(void)", "{", "    int failed = 0;"]
    for p in prefixes:
        lines += [
            f"    if ({p}_test_main() != 0) {{",
            f'        printf("FAILED: {p}\\n");',
            "        failed++;",
            "    }",
        ]
    n = len(prefixes)
    lines += [
        f'    printf("{name}: %d of {n} models match the reference with -flto and a unity CRT\\n", {n} - failed);',
        "    return failed == 0 ? 0 : 1;",
        "}",
        "",
    ]
    return "\n".join(lines)


def move_rodata(script: str, origin: str, length: str) -> str:
    """The board's expanded linker script with `.rodata` in a region AOT_CONST of its own at ORIGIN."""
    memory = script.index("MEMORY")
    brace = script.index("{", memory) + 1
    script = script[:brace] + f"\n  AOT_CONST (rx) : ORIGIN = {origin}, LENGTH = {length}" + script[brace:]
    start = script.index("  .rodata :")
    end = script.index("} >", start)
    eol = script.index("\n", end)
    if end < 0 or eol < 0:
        sys.exit("build_image: the linker script has no `.rodata : { ... } > REGION` to move")
    return script[:end] + "} > AOT_CONST" + script[eol:]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gcc", default="arm-none-eabi-gcc")
    ap.add_argument("--core_flags", required=True, help="the core's flags, space-separated (toolchains/cores.bzl)")
    ap.add_argument("--linker_script", required=True)
    ap.add_argument("--startup", required=True)
    ap.add_argument("--out", required=True, help="the ELF to write")
    ap.add_argument(
        "--const_region",
        help="ORIGIN:LENGTH of more read-only memory for .rodata (weights and reference cases) when every model's "
        "constants do not fit the board's code region beside the code (the Cortex-M55's 512 KiB ITCM)",
    )
    ap.add_argument("--model", action="append", required=True, help="HEADER,SOURCE...,TEST: one model's files")
    ap.add_argument("crt", nargs="+", help="the CRT's .c and .h files (//crt:sources)")
    args = ap.parse_args(argv)

    work = args.out + ".d"
    shutil.rmtree(work, ignore_errors=True)
    own = os.path.join(work, "src")
    os.makedirs(own)
    # Every model's files in one directory of this image's own: the tests #include "<prefix>.h", and Bazel's output
    # tree may hold other builds' files of the same names beside them.
    models = []
    for spec in args.model:
        files = spec.split(",")
        header, sources, test = files[0], files[1:-1], files[-1]
        prefix = os.path.basename(header)[: -len(".h")]
        local = []
        for f in files:
            target = os.path.join(own, os.path.basename(f))
            if os.path.exists(target):
                sys.exit(f"build_image: two input files named {os.path.basename(f)} (prefixes must be unique)")
            shutil.copyfile(f, target)
            local.append(target)
        models.append((prefix, local[1:-1], local[-1]))
        assert sources, spec

    crt = [os.path.abspath(f) for f in args.crt]
    crt_c = sorted(f for f in crt if f.endswith(".c") and "/crt/src/" in f)
    root = crt_c[0][: crt_c[0].index("/crt/src/") + len("/crt")]
    unity = os.path.join(work, "aot_crt_unity.c")
    with open(unity, "w") as f:
        f.write("".join(f'#include "{c}"\n' for c in crt_c))
    runner = os.path.join(work, "lto_unity_main.c")
    with open(runner, "w") as f:
        f.write(runner_source(os.path.basename(args.out)[: -len(".elf")], [p for p, _, _ in models]))

    script = args.linker_script
    if args.const_region:
        script = os.path.join(work, "image.ld")
        with open(script, "w") as f:
            f.write(move_rodata(open(args.linker_script).read(), *args.const_region.split(":")))

    core = args.core_flags.split()
    # Warnings are errors at the link too: -flto reports declarations that disagree across translation units there.
    warn = ["-Wall", "-Wextra", "-Werror"]
    flags = core + ["-O2", "-std=c99", "-flto", *warn, f"-I{own}", f"-I{root}/include", f"-I{root}/src/kernels"]
    objs = []

    def compile_one(src, extra=()):
        obj = os.path.join(work, f"{len(objs)}_{os.path.basename(src)[:-2]}.o")
        _run([args.gcc, *flags, *extra, "-c", src, "-o", obj])
        objs.append(obj)

    compile_one(unity)
    for prefix, sources, test in models:
        for src in sources:
            compile_one(src)
        compile_one(test, [f"-Dmain={prefix}_test_main"])
    compile_one(runner)
    # The startup stays out of LTO: its vector table is reached only through the linker script.
    startup = os.path.join(work, "startup.o")
    _run([args.gcc, *[f for f in flags if f != "-flto"], "-c", args.startup, "-o", startup])
    link = core + ["-O2", "-flto", *warn, "-nostartfiles", "--specs=rdimon.specs", "-T", script]
    _run([args.gcc, *link, startup, *objs, "-lm", "-o", args.out])
    return 0


if __name__ == "__main__":
    sys.exit(main())
