"""The stack analysis of linked code (toolchains/tools/stack_usage.py) agrees with GCC's own -fstack-usage.

Compiles the CRT's sources with arm-none-eabi-gcc -fstack-usage for two cores (the Cortex-M4: all but the Helium
kernels; the Cortex-M0: the portable ones), links them (no garbage collection,
so every function stays), and checks that the frame our disassembly replay finds for each function equals the
`static` figure in the .su files, and that call paths add frames up.
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from toolchains.tools.stack_usage import deepest_path, disassemble, parse_disassembly

_GCC = shutil.which("arm-none-eabi-gcc")
_OBJDUMP = shutil.which("arm-none-eabi-objdump")
_CORES = {
    "cortex-m4": ["-mcpu=cortex-m4", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"],
    "cortex-m0": ["-mcpu=cortex-m0", "-mfloat-abi=soft"],
}
# Sources compiled for a core: not the kernels of an extension the core lacks, whose portable bodies there are
# the same C as the portable kernels'; the frames of the extension's own code are what the Cortex-M4 build adds.
_MVE_UNITS = (
    "_mve.c",
    "_mve_plane.c",
    "_mve_add.c",
    "_mve_left.c",
    "_mve_left_add.c",
    "_mve_strip.c",
    "_mve_3x3.c",
    "_mve_3x3_image.c",
    "_mve_3x3_left.c",
    "_mve_row.c",
    "_mve_plane_s1.c",
    "_mve_tail.c",
    "_mve_runs_add.c",
)
# The chain of DSP fully connected layers calls the general entry point, skipped there with the other _dsp.c units.
_SKIP = {"cortex-m4": _MVE_UNITS, "cortex-m0": (*_MVE_UNITS, "_dsp.c", "_dsp_chain.c")}


def _su_name(symbol: str) -> str:
    """A function's name without the numbers of its GCC clone suffixes (`f.constprop.0` -> `f.constprop`,
    `f.constprop.0.isra.0` -> `f.constprop.isra`): -fstack-usage writes some clones with the numbers and some without,
    so both sides are compared in this form."""
    return re.sub(r"\.\d+(?=\.|$)", "", symbol)


def _naked_functions(crt) -> set:
    """Names of the CRT's naked functions (asm bodies: GCC's -fstack-usage says 0 for them, as it cannot see into
    the asm; the disassembly replay measures what they push, which is what the static bound must use)."""
    # Headers too, and a macro defined in one file may mark a function of another: a body shared by split kernel
    # units lives in a header of crt/src (conv2d_s8_dsp_body.h's AOT_CONV_NAKED, used by conv2d_s8_dsp_rows.c).
    texts = []
    for ext in ("*.c", "*.h"):
        for src in glob.glob(os.path.join(crt, "src", "**", ext), recursive=True):
            with open(src) as f:
                texts.append(f.read())
    macros = {m for text in texts for m in re.findall(r"#\s*define\s+(\w+)\s+__attribute__\(\(naked\b", text)}
    names = set()
    for text in texts:
        for attr in sorted(macros) + [r"__attribute__\(\(naked[^)]*\)\)"]:
            names |= set(re.findall(r"^\s*" + attr + r"\s+(?:static\s+)?\w+\s+(\w+)\s*\(", text, flags=re.M))
    return names


def _crt_dir():
    for base in (os.environ.get("TEST_SRCDIR", ""), os.path.join(os.path.dirname(__file__), "..", "..")):
        for cand in (os.path.join(base, "aot_rules", "crt"), os.path.join(base, "crt")):
            if os.path.isdir(os.path.join(cand, "src")):
                return cand
    raise unittest.SkipTest("CRT sources not found")


@unittest.skipUnless(_GCC and _OBJDUMP, "arm-none-eabi-gcc/objdump not on PATH (tools/setup.sh installs them)")
class StackUsageTest(unittest.TestCase):
    # The CRT built and disassembled once per core for the whole class: both tests read the Cortex-M4 build.
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory()
        cls._builds = {}

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def _built(self, core):
        """(frames of the disassembly, .su figures) of the CRT built for `core`."""
        if core not in self._builds:
            tmp = os.path.join(self._tmp.name, core)
            os.makedirs(tmp)
            elf, su = self._build(tmp, _CORES[core], _SKIP[core])
            self._builds[core] = (parse_disassembly(disassemble(_OBJDUMP, elf)), su)
        return self._builds[core]

    def _build(self, tmp, flags, skip):
        crt = _crt_dir()
        sources = sorted(glob.glob(os.path.join(crt, "src", "**", "*.c"), recursive=True))
        sources = [s for s in sources if not s.endswith(skip)]
        objects = []
        for i, src in enumerate(sources):
            obj = os.path.join(tmp, f"{i}_{os.path.basename(src)[:-2]}.o")
            subprocess.run(
                [
                    _GCC,
                    "-mthumb",
                    *flags,
                    "-O2",
                    "-std=c99",
                    "-fstack-usage",
                    "-I",
                    os.path.join(crt, "include"),
                    "-c",
                    src,
                    "-o",
                    obj,
                ],
                check=True,
            )
            objects.append(obj)
        elf = os.path.join(tmp, "all.elf")
        subprocess.run(
            [_GCC, "-mthumb", *flags, "--specs=nosys.specs", "-nostartfiles", "-Wl,-e,0", *objects, "-lm", "-o", elf],
            check=True,
        )
        su = {}
        for path in glob.glob(os.path.join(tmp, "*.su")):
            with open(path) as f:
                for line in f:
                    loc, size, kind = line.rstrip("\n").split("\t")
                    su[_su_name(loc.rsplit(":", 1)[1])] = (int(size), kind)
        return elf, su

    def test_frames_match_fstack_usage(self):
        for core in _CORES:
            with self.subTest(core=core):
                frames, su = self._built(core)
                self.assertGreater(len(su), 20)
                by_su_name = {}
                for symbol, frame in frames.items():
                    by_su_name.setdefault(_su_name(symbol), []).append(frame)
                naked = _naked_functions(_crt_dir())
                for name, (size, kind) in su.items():
                    self.assertEqual(kind, "static", name)
                    self.assertIn(name, by_su_name)
                    if name in naked:
                        continue
                    # Numbered clones of one function share a name here; one of them has the .su line's frame.
                    self.assertIn(size, [f.depth for f in by_su_name[name]], f"{core}: frame of {name}")

    def test_paths_add_frames(self):
        frames, su = self._built("cortex-m4")
        callers = [f for f in frames.values() if f.name.startswith("aot_") and f.calls]
        self.assertTrue(callers)
        for f in callers:
            est = deepest_path(frames, f.name)
            self.assertGreaterEqual(est.bytes, su[_su_name(f.name)][0])
            self.assertEqual(est.path[0][0], f.name)
            # The deepest path is the caller's depth at the call plus the callee's own deepest path.
            for callee, at in f.calls:
                self.assertGreaterEqual(est.bytes, at + deepest_path(frames, callee).bytes)


class LiteralFrameTest(unittest.TestCase):
    def test_thumb1_frame_from_a_literal_word(self):
        # A Cortex-M0 frame too large for `sub sp, #imm`: the adjustment is a literal word added to sp.
        text = """
00001540 <big>:
    1540:\tpush\t{r4, r5, r6, r7, lr}
    1542:\tldr\tr4, [pc, #8]\t@ (154c <big+0xc>)
    1544:\tadd\tsp, r4
    1546:\tmovs\tr4, #3
    1548:\tadd\tsp, r4
    154a:\tpop\t{r4, r5, r6, r7, pc}
    154c:\t.word\t0xfffffdd4
"""
        frame = parse_disassembly(text)["big"]
        self.assertEqual(frame.depth, 20 + 556)  # r4 overwritten: the second `add sp, r4` is not replayed

    def test_call_target_named_by_the_function_at_its_address(self):
        # objdump names a branch target after any symbol of that value: here the linker script's absolute
        # __aot_stack_size (0x10000), where code crosses 64 KiB. The callee is the function that starts there.
        text = """
0000fff0 <caller>:
    fff0:\tpush\t{r4, lr}
    fff2:\tbl\t10000 <__aot_stack_size>
    fff6:\tpop\t{r4, pc}

00010000 <callee>:
   10000:\tpush\t{r4, r5, r6, lr}
   10002:\tpop\t{r4, r5, r6, pc}
"""
        frames = parse_disassembly(text)
        self.assertEqual(frames["caller"].calls, [("callee", 8)])
        # ... and a branch inside a function to an address that such a symbol names is no call.
        inner = parse_disassembly(text.replace("bl\t10000 <__aot_stack_size>", "b.n\tfff6 <__aot_stack_size>"))
        self.assertEqual(inner["caller"].calls, [])
        est = deepest_path(frames, "caller")
        self.assertEqual((est.bytes, est.unbounded), (8 + 16, ""))


if __name__ == "__main__":
    sys.exit(unittest.main())
