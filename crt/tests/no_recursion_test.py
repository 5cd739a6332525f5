"""No function of the CRT calls itself, directly or through others (MISRA C:2012 rule 17.2), on any core.

A model's stack bound (toolchains/tools/stack_usage.py) is the deepest path of its call graph; one cycle in the
CRT makes that bound unknowable. The call graph is GCC's own (`-fcallgraph-info`), taken at -O0 so that every call
written in the source is an edge (inlining would hide a recursive helper), once per preprocessor view of the
kernels: the host (portable code), the Cortex-M4 (DSP extension) and the Cortex-M55 (Helium). Functions with
internal linkage are told apart by their file; external names join the translation units into one graph.
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


def call_graph(compiler: list, files: list, root: str) -> dict:
    """caller -> set of callees over all `files`, from GCC's .ci files."""
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
                graph = call_graph(compiler, files, root)
                self.assertGreater(sum(len(v) for v in graph.values()), 100, "no calls read: is -fcallgraph-info on?")
                cycle = find_cycle(graph)
                self.assertIsNone(cycle, f"{view}: recursion in the CRT: {' -> '.join(cycle or [])}")


if __name__ == "__main__":
    sys.exit(unittest.main())
