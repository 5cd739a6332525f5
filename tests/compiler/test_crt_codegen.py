"""The CRT's speed is a property of its source, not of our build's flags.

GCC 12 schedules before register allocation at -O2 on the Armv8-M Mainline cores (Cortex-M33, M55), which made the
DSP and Helium GEMM loops spill; crt/src/kernels/aot_sched.h turns that pass off inside the CRT's own translation
units.  These checks compile the hot kernels the way a CMake or IDE user does (`arm-none-eabi-gcc -mcpu=<core>
-O2 -std=c99`, no flag of ours) and require exactly the code of the build with -fno-schedule-insns (which the bench
figures were measured with), that -Os and the other cores are left alone, and that every CRT source includes the
header before it defines anything; that -Os keeps the MAC helpers inline (AOT_HOT_INLINE, dsp_s8.h); and that the
loops written in asm because GCC compiled their C worse at -Os (the DSP fully connected main loop, the Helium
requantization of a pixel pair) are what both -Os and -O2 builds run.
"""

import os
import re
import shutil
import subprocess

import pytest

_GCC = shutil.which("arm-none-eabi-gcc")
_OBJDUMP = shutil.which("arm-none-eabi-objdump")
needs_gcc = pytest.mark.skipif(not (_GCC and _OBJDUMP), reason="arm-none-eabi-gcc/objdump not on PATH")

_CORES = {
    "cortex-m4": ["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"],
    "cortex-m33": ["-mcpu=cortex-m33", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-sp-d16"],
    "cortex-m55": ["-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard"],
}

# The GEMM-heavy kernels of each core (the DSP ones run on the M33, the Helium ones on the M55).  Not
# conv2d_s8_dsp_k8.c, _k16.c, _k24.c: with the channel-pairs asm they forward to aot_conv2d_s8_dsp_sat (one branch).
_HOT = {
    "cortex-m33": [
        "conv2d_s8_dsp.c",
        "conv2d_s8_dsp_sat.c",
        "conv2d_s8_dsp_exact.c",
        "conv2d_s8_dsp_k9.c",
        "conv2d_s8_dsp_k27.c",
        "conv2d_s8_dsp_t2.c",
        "conv2d_s8_dsp_add.c",
        "conv2d_s8_dsp_rows.c",
        "depthwise_conv2d_s8_dsp.c",
        "depthwise_conv2d_s8_dsp_c4.c",
        "fully_connected_s8_dsp.c",
        "fully_connected_s8_dsp_exact.c",
    ],
    "cortex-m55": [
        "conv2d_s8_mve.c",
        "conv2d_s8_mve_add.c",
        "conv2d_s8_mve_runs_add.c",
        "conv2d_s8_mve_left.c",
        "conv2d_s8_mve_left_add.c",
        "conv2d_s8_mve_tail.c",
        "depthwise_conv2d_s8_mve.c",
        "depthwise_conv2d_s8_mve_strip.c",
        "depthwise_conv2d_s8_mve_3x3.c",
        "depthwise_conv2d_s8_mve_3x3_image.c",
        "depthwise_conv2d_s8_mve_3x3_left.c",
        "depthwise_conv2d_s8_mve_plane.c",
        "depthwise_conv2d_s8_mve_plane_s1.c",
        "fully_connected_s8_mve.c",
        "fully_connected_s8_mve_row.c",
        "conv2d_s8_dsp.c",
        "conv2d_s8_dsp_sat.c",
        "conv2d_s8_dsp_exact.c",
        "conv2d_s8_dsp_k9.c",
        "conv2d_s8_dsp_k27.c",
        "conv2d_s8_dsp_t2.c",
        "conv2d_s8_dsp_add.c",
        "conv2d_s8_dsp_rows.c",
    ],
}


def _crt_dir():
    for base in (os.environ.get("TEST_SRCDIR", ""), os.path.join(os.path.dirname(__file__), "..", "..")):
        for cand in (os.path.join(base, "aot_rules", "crt"), os.path.join(base, "crt")):
            if os.path.isdir(os.path.join(cand, "src", "kernels")):
                return cand
    pytest.skip("CRT sources not found")


# Disassemblies and assembly files by (source text, core, flags): several tests read the same build (the -O2 and -Os
# DSP kernels, the Helium convolution at -O2).
_BUILT = {}
_ASM = {}


def _code(tmp_path, src, core, flags, name):
    """The disassembly of `src` built with plain flags + `flags`, without addresses of the file name."""
    key = (open(src).read(), core, tuple(flags))
    if key not in _BUILT:
        _BUILT[key] = _build(tmp_path, src, core, flags, name)
    return _BUILT[key]


def _asm(tmp_path, src, core, flags, name):
    """The compiler's assembly of `src` built with plain flags + `flags` (cached like _code, whose object is this
    assembly assembled: what `-c` runs)."""
    key = (open(src).read(), core, tuple(flags))
    if key not in _ASM:
        crt = _crt_dir()
        out = tmp_path / (name + ".s")
        cmd = [_GCC, *_CORES[core], "-std=c99", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(crt, "include")]
        cmd += ["-I", os.path.join(crt, "src", "kernels"), *flags, "-S", str(src), "-o", str(out)]
        subprocess.run(cmd, check=True)
        _ASM[key] = out
    return _ASM[key]


def _build(tmp_path, src, core, flags, name):
    obj = tmp_path / (name + ".o")
    subprocess.run([_GCC, *_CORES[core], "-c", str(_asm(tmp_path, src, core, flags, name)), "-o", str(obj)], check=True)
    out = subprocess.run([_OBJDUMP, "-d", str(obj)], check=True, capture_output=True, text=True).stdout
    return out.split("\n", 3)[3]


def _without_header(tmp_path, src):
    """`src` with its aot_sched.h include removed (same line numbers)."""
    text = open(src).read()
    assert '#include "aot_sched.h"' in text
    out = tmp_path / os.path.basename(src)
    out.write_text(text.replace('#include "aot_sched.h"', ""))
    return out


@needs_gcc
@pytest.mark.parametrize("core,kernel", [(c, k) for c, ks in _HOT.items() for k in ks])
def test_plain_O2_build_is_the_unscheduled_build(tmp_path, core, kernel):
    src = os.path.join(_crt_dir(), "src", "kernels", kernel)
    plain = _code(tmp_path, src, core, ["-O2"], "plain")
    assert plain == _code(tmp_path, src, core, ["-O2", "-fno-schedule-insns"], "nosched")
    # The header is what does it: the same source without it is scheduled (and spills) under plain -O2.
    assert plain != _code(tmp_path, _without_header(tmp_path, src), core, ["-O2"], "bare")


@needs_gcc
@pytest.mark.parametrize("core,opt", [("cortex-m33", "-Os"), ("cortex-m55", "-Os"), ("cortex-m4", "-O2")])
def test_other_builds_are_left_alone(tmp_path, core, opt):
    src = os.path.join(_crt_dir(), "src", "kernels", "conv2d_s8_dsp.c")
    bare = _code(tmp_path, _without_header(tmp_path, src), core, [opt], "bare")
    assert _code(tmp_path, src, core, [opt], "plain") == bare


def test_every_crt_source_includes_the_header_first():
    crt = _crt_dir()
    sources = [os.path.join(crt, "src", f) for f in os.listdir(os.path.join(crt, "src")) if f.endswith(".c")]
    kernels = os.path.join(crt, "src", "kernels")
    sources += [os.path.join(kernels, f) for f in os.listdir(kernels) if f.endswith(".c")]
    assert len(sources) > 100
    late = []
    for path in sorted(sources):
        text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
        first = re.search(r"^\s*#\s*include\s+(\S+)", text, flags=re.M)
        if not first or not first.group(1).endswith('aot_sched.h"') or "{" in text[: first.start()]:
            late.append(os.path.relpath(path, crt))
    assert not late, f"CRT sources that do not include aot_sched.h first: {', '.join(late)}"


@needs_gcc
@pytest.mark.parametrize("core", ["cortex-m4", "cortex-m33"])
def test_Os_keeps_the_mac_helpers_inline(tmp_path, core):
    """Under -Os GCC kept small static inline helpers as calls (aot_mac_2x2: a call per four MACs); AOT_HOT_INLINE
    forces them inline there, so the hot loops of a size-optimized build call none of them."""
    hot = {"aot_mac_2x2", "aot_conv_tail", "aot_conv_expand1", "aot_smlad", "aot_fc_quad4", "aot_fc_out"}
    for kernel in ["conv2d_s8_dsp.c", "fully_connected_s8_dsp.c"]:
        code = _code(tmp_path, os.path.join(_crt_dir(), "src", "kernels", kernel), core, ["-Os"], "os")
        called = set(re.findall(r"\bbl\s+[0-9a-f]+ <([\w.]+)>", code))
        assert not called & hot, f"{kernel} at -Os calls {sorted(called & hot)}"


def _mnemonics(code: str, function: str) -> list:
    """The mnemonics of `function` in objdump output, in address order, without Thumb-2's width suffixes."""
    body = code.split(f"<{function}>:\n", 1)[1].split("\n\n", 1)[0]
    ops = [f.split("\t")[2].split()[0] for f in body.splitlines() if f.count("\t") >= 2]
    return [re.sub(r"\.[wn]$", "", op) for op in ops]


@needs_gcc
@pytest.mark.parametrize("core", ["cortex-m4", "cortex-m33"])
def test_fc_dsp_block_loop_is_one_loop_at_Os_and_O2(tmp_path, core):
    """GCC 12's -Os code for the DSP fully connected kernel's C loop copied the weight pointer out of and back into
    its register every pass (two MOVs), reloaded the loop's end and branched twice (ad01_int8 on the M4: 351,516
    instructions against 315,780 at -O2).  The blocks of 8 rows are an assembly routine now (aot_fc8_blocks), the
    same instructions at both levels: its loop is 8 quads of LDRD, 4 LDRD, 16 SMLAD / 8 SXTB16 (116 bytes each, which
    the entry arithmetic relies on), then the end compared with a value on the stack."""
    src = os.path.join(_crt_dir(), "src", "kernels", "fully_connected_s8_dsp_fc8.c")
    loops = []
    for opt in ["-Os", "-O2"]:
        ops = _mnemonics(_code(tmp_path, src, core, [opt], opt[1:]), "aot_fc8_blocks")
        start = next(i for i in range(len(ops)) if ops[i] == "ldr" and ops[i + 1] == "ldrd" and ops[i + 2] == "ldrd")
        loop = ops[start + 1 : start + 1 + 8 * 29 + 3]
        assert loop[-3:] == ["ldr", "cmp", "bne"], (opt, loop)
        assert loop.count("smlad") == 128 and loop.count("sxtb16") == 64 and loop.count("ldrd") == 40, (opt, loop)
        loops.append(loop)
    assert loops[0] == loops[1]


@needs_gcc
def test_mve_requant_store_loop_at_Os_and_O2(tmp_path):
    """At -Os GCC 12 kept the Helium GEMM's requantization loop's invariants on the stack and reloaded them per block
    of 4 channels (ResNet-8 on the M55: 3.00 M instructions against 2.90 M at -O2).  It is an asm loop now
    (mve_s8.h, aot_mve_store_blocks_right): both levels must take it in the convolution (objdump does not decode
    every MVE instruction, so the compiler's assembly is read)."""
    crt = _crt_dir()
    src = os.path.join(crt, "src", "kernels", "conv2d_s8_mve.c")
    for opt in ["-Os", "-O2"]:
        text = (
            _asm(tmp_path, src, "cortex-m55", [opt], f"conv{opt}")
            .read_text()
            .split("aot_conv2d_s8_mve:", 1)[1]
            .split(".size\taot_conv2d_s8_mve,", 1)[0]
        )
        ops = [ln.split()[0] for ln in text.splitlines() if ln.strip() and not ln.strip().startswith((".", "@"))]
        loops = [i for i in range(len(ops) - 24) if ops[i : i + 4] == ["vldrw.32"] * 4 and ops[i + 24] == "bne"]
        assert loops, f"{opt}: aot_conv2d_s8_mve has no requantization loop of aot_mve_store_blocks_right"
        loop = ops[loops[0] : loops[0] + 25]
        assert loop.count("vqrdmulh.s32") == 2 and loop[-3:] == ["vstrb.32", "subs", "bne"], (opt, loop)
