"""No function of the CRT calls itself, directly or through others (MISRA C:2012 rule 17.2), on any core.

A model's stack bound (toolchains/tools/stack_usage.py) is the deepest path of its call graph; one cycle in the
CRT makes that bound unknowable. The call graph is GCC's own (`-fcallgraph-info`), taken at -O0 so that every call
written in the source is an edge (inlining would hide a recursive helper), once per preprocessor view of the
kernels: the host (portable code), the Cortex-M4 (DSP extension) and the Cortex-M55 (Helium). Functions with
internal linkage are told apart by their file; external names join the translation units into one graph.

The same Cortex-M4 objects (single-precision FPU) also show which files use double precision: their undefined
symbols name the soft-float double helpers (`__aeabi_d*`) and the double functions of libm. Every such file is a
deviation recorded in docs/misra.md ("Double precision"), where each says why float would not give the oracle's
bits; a new one fails here. At -O0 every operation written in the source is still there, so nothing is hidden.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor

_NODE = re.compile(r'node: \{ title: "([^"]+)"')
_EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')

# Files that compute in double on purpose (docs/misra.md, "Double precision"), and the libm functions of double.
DOUBLE_ON_PURPOSE = {
    "binary_math_f32.c",  # FLOOR_DIV: floor of the double quotient, as TFLite
    "detection_postprocess_f32.c",  # box decoding in double, as TFLite Micro
    "pow_int.c",  # int32 ** float32 / float32 ** int32 through double pow, as onnxruntime
    "quantize_onnx_f32_s8.c",  # the exact product of QLinearConv's multiply mode, rounded once
}
_DOUBLE_LIBM = {"floor", "ceil", "exp", "log", "pow", "sqrt", "rint", "round", "fmod", "trunc", "ldexp", "frexp"}
_DOUBLE_HELPER = re.compile(r"__aeabi_(d\w+|[fil]2d|ul2d)$")

# The objects' undefined symbols per view, kept from the call-graph builds for the double-precision check.
_UNDEFINED = {}

VIEWS = {
    "host": ["gcc"],
    "cortex-m4": ["arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"],
    "cortex-m55": ["arm-none-eabi-gcc", "-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard"],
}


def crt_root() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.dirname(here)


def sources(root: str) -> list:
    found = []
    for d, _, files in os.walk(os.path.join(root, "src")):
        found += [os.path.join(d, f) for f in sorted(files) if f.endswith(".c")]
    return sorted(found)


def call_graph(compiler: list, files: list, root: str, undefined: dict = None) -> dict:
    """caller -> set of callees over all `files`, from GCC's .ci files; fills `undefined` (file name -> the
    object's undefined symbols) when given."""
    graph = {}
    with tempfile.TemporaryDirectory() as tmp:

        def one(i_src):
            i, src = i_src
            out = os.path.join(tmp, f"{i}.o")
            cmd = compiler + [
                "-std=c99",
                "-O0",
                "-fcallgraph-info",
                "-I" + os.path.join(root, "include"),
                "-I" + os.path.join(root, "src", "kernels"),
                "-c",
                src,
                "-o",
                out,
            ]
            subprocess.run(cmd, check=True, capture_output=True, text=True)
            with open(os.path.join(tmp, f"{i}.ci")) as f:
                return f.read()

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            texts = list(pool.map(one, enumerate(files)))
        if undefined is not None:
            nm = compiler[0].replace("gcc", "nm")
            objs = [os.path.join(tmp, f"{i}.o") for i in range(len(files))]
            listing = subprocess.run([nm, "-u", *objs], check=True, capture_output=True, text=True).stdout
            current = None
            for line in listing.splitlines():
                if line.endswith(".o:"):
                    current = os.path.basename(files[int(os.path.basename(line[:-1])[:-2])])
                elif line.strip() and current:
                    undefined.setdefault(current, set()).add(line.split()[-1])
    for text in texts:
        for name in _NODE.findall(text):
            graph.setdefault(name, set())
        for caller, callee in _EDGE.findall(text):
            graph.setdefault(caller, set()).add(callee)
    return graph


def find_cycle(graph: dict):
    """One cycle of the graph as a list of names (first == last), or None (iterative depth-first search)."""
    state = {}  # name -> 1 on the current path, 2 done
    for start in graph:
        if state.get(start):
            continue
        path, iters = [start], [iter(graph.get(start, ()))]
        state[start] = 1
        while path:
            nxt = next(iters[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                iters.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                iters.append(iter(graph.get(nxt, ())))
    return None


class NoRecursionTest(unittest.TestCase):
    def test_detector_finds_a_cycle(self):
        self.assertEqual(find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}), ["a", "b", "c", "a"])
        self.assertEqual(find_cycle({"f": {"f"}}), ["f", "f"])
        self.assertIsNone(find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}))

    def test_crt_call_graph_has_no_cycle(self):
        root = crt_root()
        files = sources(root)
        self.assertGreater(len(files), 50, "CRT sources not found beside the test")
        for view, compiler in VIEWS.items():
            if shutil.which(compiler[0]) is None:
                self.skipTest(f"{compiler[0]} is not installed")
            with self.subTest(view=view):
                undefined = _UNDEFINED.setdefault(view, {})
                graph = call_graph(compiler, files, root, undefined)
                self.assertGreater(sum(len(v) for v in graph.values()), 100, "no calls read: is -fcallgraph-info on?")
                cycle = find_cycle(graph)
                self.assertIsNone(cycle, f"{view}: recursion in the CRT: {' -> '.join(cycle or [])}")

    def test_double_precision_only_where_recorded(self):
        root = crt_root()
        compiler = VIEWS["cortex-m4"]
        if shutil.which(compiler[0]) is None:
            self.skipTest(f"{compiler[0]} is not installed")
        undefined = _UNDEFINED.get("cortex-m4")  # read by test_crt_call_graph_has_no_cycle, which runs first
        if not undefined:
            undefined = {}
            call_graph(compiler, sources(root), root, undefined)
        self.assertTrue(undefined, "no undefined symbols read from the objects")
        double = {
            f: sorted(s for s in syms if s in _DOUBLE_LIBM or _DOUBLE_HELPER.match(s)) for f, syms in undefined.items()
        }
        double = {f: s for f, s in double.items() if s}
        new = {f: s for f, s in double.items() if f not in DOUBLE_ON_PURPOSE}
        self.assertEqual(new, {}, "double precision on a single-precision FPU without a record in docs/misra.md")
        gone = DOUBLE_ON_PURPOSE - set(double)
        self.assertEqual(gone, set(), "recorded as computing in double but no longer does: update the record")


if __name__ == "__main__":
    sys.exit(unittest.main())
