"""Names from the model reach C only through sanitisation: hostile tensor names still give valid, working C.

The model's tensors are named with comment terminators, newlines, backslashes, quotes, trigraphs, non-ASCII, C
keywords, names that collide after sanitising, a leading digit and a 5,000-character name. The generated files
must compile with `gcc -std=c99 -pedantic -Wall -Wextra -Werror` (next to the CRT), have unique valid field names,
carry none of the hostile text raw, and `aotc run` must still compute the right answer.
"""

import os
import re
import subprocess
import sys

import numpy as np

from compiler.driver import compile_model, write_files
from compiler.hostbuild import compiler_command
from conftest import REPO
from tflite_builder import ModelBuilder

HOSTILE = [
    "*/ int evil; /*",
    "line\nbreak\r\n#define X",
    "back\\slash\\",
    "quote\"d'",
    "tri??/graph??=",
    "ünïcødé ☃",
    "int",
    "a-b",
    "a_b",
    "9lives",
    "x" * 5000,
]


def _model(tmp_path):
    b = ModelBuilder(description="*/ description with\nnewline")
    ins = [b.input(HOSTILE[0], [1, 4], "float32"), b.input(HOSTILE[1], [1, 4], "float32")]
    h = b.op("ADD", ins, out=b.tensor(HOSTILE[2], [1, 4], "float32"))
    outs = []
    for i, name in enumerate(HOSTILE[3:]):
        h = b.op("RELU" if i % 2 else "RELU6", [h], out=b.tensor(name, [1, 4], "float32"))
        if name in ("int", "a-b", "a_b", "9lives"):
            outs.append(h)
    for o in outs:
        b.output(o)
    return b.save(tmp_path / "hostile.tflite")


def test_hostile_names_compile_cleanly_and_run(tmp_path):
    path = _model(tmp_path)
    compiled = compile_model(path, "hm", "host")
    out = tmp_path / "out"
    write_files(str(out), compiled.files)
    text = "".join(compiled.files[f] for f in ("hm.h", "hm.c", "hm_weights.c"))
    assert text.isascii()
    for raw in ("*/ int evil", "\\slash", "??/", "??=", "\n#define X"):
        assert raw not in text, raw
    fields = re.findall(r"\b(?:const )?float\* (\w+);", compiled.files["hm.h"])
    assert len(fields) == 6 and len(set(fields)) == 6, fields
    assert all(re.fullmatch(r"[a-z_][a-z0-9_]*", f) and len(f) <= 40 for f in fields)

    crt = os.path.join(REPO, "crt")
    main = tmp_path / "main.c"
    main.write_text('#include "hm.h"\nint main(void) { return 0; }\n')
    sources = [str(out / "hm.c"), str(out / "hm_weights.c"), str(main)]
    sources += [os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(crt, "src")) for f in fs if f.endswith(".c")]
    r = subprocess.run(
        [
            compiler_command(),
            "-std=c99",
            "-pedantic",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-I",
            str(out),
            "-I",
            os.path.join(crt, "include"),
            *sources,
            "-lm",
            "-o",
            str(tmp_path / "a.out"),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr

    x0 = np.array([[1.0, -2.0, 3.0, 7.0]], np.float32)
    x1 = np.array([[0.5, 0.5, 5.0, -1.0]], np.float32)
    np.savez(tmp_path / "in.npz", **{HOSTILE[0]: x0, HOSTILE[1]: x1})
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "compiler",
            "run",
            path,
            "--inputs",
            tmp_path / "in.npz",
            "--outputs",
            tmp_path / "o.npz",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert r.returncode == 0, r.stderr
    got = np.load(tmp_path / "o.npz")
    expected = np.clip(x0 + x1, 0, 6)  # RELU6 then RELU: idempotent after the first clamp
    for name in ("int", "a-b", "a_b", "9lives"):
        np.testing.assert_array_equal(got[name], expected)


CXX_AND_MACRO_NAMES = ["class", "linux", "unix", "new", "this", "ctl\x01\x1b[0m", "offsetof", "template"]


def test_names_safe_in_cxx_and_gnu_c_and_in_the_reports(tmp_path):
    """The header is included from C++ (extern "C") and from C built in GCC's default GNU mode, where `linux` and
    `unix` are predefined macros: fields named after C++ keywords or those macros would break the user's build."""
    import json
    import xml.etree.ElementTree as ET

    b = ModelBuilder()
    ins = [b.input(n, [1, 4], "float32") for n in CXX_AND_MACRO_NAMES[:4]]
    h = b.op("ADD", ins[:2], out=b.tensor(CXX_AND_MACRO_NAMES[4], [1, 4], "float32"))
    h = b.op("ADD", [h, ins[2]], out=b.tensor(CXX_AND_MACRO_NAMES[5], [1, 4], "float32"))
    h = b.op("ADD", [h, ins[3]], out=b.tensor(CXX_AND_MACRO_NAMES[6], [1, 4], "float32"))
    b.output(b.op("RELU", [h], out=b.tensor(CXX_AND_MACRO_NAMES[7], [1, 4], "float32")))
    compiled = compile_model(b.save(tmp_path / "cxx.tflite"), "cx", "host")
    out = tmp_path / "out"
    write_files(str(out), compiled.files)
    fields = re.findall(r"\b(?:const )?float\* (\w+);", compiled.files["cx.h"])
    assert len(set(fields)) == 5 and not set(fields) & {"class", "linux", "unix", "new", "template"}, fields
    include = os.path.join(REPO, "crt", "include")
    (tmp_path / "use.cpp").write_text('#include "cx.h"\nint main() { cx_inputs in = {}; (void)in; return 0; }\n')
    r = subprocess.run(
        [
            "g++",
            "-std=c++11",
            "-pedantic",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fsyntax-only",
            "-I",
            str(out),
            "-I",
            include,
            str(tmp_path / "use.cpp"),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    r = subprocess.run(
        [
            "gcc",
            "-std=gnu11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fsyntax-only",
            "-I",
            str(out),
            "-I",
            include,
            str(out / "cx.c"),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    ET.fromstring(compiled.files["cx_plan.svg"])
    report = json.loads(compiled.files["cx.json"])
    assert [i["name"] for i in report["inputs"]] == CXX_AND_MACRO_NAMES[:4]
