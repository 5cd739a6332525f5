"""The fuzz target: one model file through the whole compiler, classified as success, clear error or bug.

Shared by the fuzzer (tests/fuzz/fuzz_frontend.py, which runs it in a forked child under a time and memory limit)
and the regression test over the corpus (tests/compiler/test_fuzz_corpus.py). The model goes through
`compiler.driver.compile_model`, i.e. the frontend chosen by the file's extension (`load_model`), every pass, the
memory planner and all of code generation (C, JSON, SVG), exactly as `aotc compile` does minus writing files.

Outcomes:
- "ok": compiled.
- "error": a CompileError (UnsupportedError included) whose message is one non-empty paragraph.
- "bug": anything else: another exception, a CompileError that is not one readable paragraph, generated C
  that does not compile (when checked), or a file opened that is not the model itself (an ONNX external-data
  reference must be refused, never followed: see _FileWatch).
"""

import os
import re
import subprocess
import sys
import traceback

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
COMPILER_DIR = os.path.join(REPO, "compiler")
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only"]

# The reader's last-resort message for a flatbuffer the bindings cannot walk: a clear error, but one that names
# no field. The fuzzer counts these separately ("vague") so they can be replaced by specific checks.
VAGUE_MARK = "could not be parsed as a TFLite flatbuffer"
# The ONNX reader's equivalent: the protobuf does not decode and onnx_wire found no defect to name (with one, the
# message names the field path and byte, and is not vague).
VAGUE_MARKS = (VAGUE_MARK, "could not be parsed as an ONNX model (")


def _bug_key(exc: BaseException) -> str:
    """Exception type and the innermost frame inside the compiler (where the fix goes)."""
    frames = traceback.extract_tb(exc.__traceback__)
    inner = [f for f in frames if f.filename.startswith(COMPILER_DIR)] or frames
    where = f"{os.path.relpath(inner[-1].filename, REPO)}:{inner[-1].lineno}" if inner else "?"
    return f"{type(exc).__name__} at {where}"


def normalize_message(msg: str) -> str:
    """An error message with its numbers and quoted names removed: one 'kind' of error per check."""
    msg = re.sub(r"'[^']*'", "''", msg)
    return re.sub(r"-?\d+(\.\d+)?(e-?\d+)?", "#", msg)[:200]


def check_c(files: dict, workdir: str) -> str:
    """Compile the generated .c files with strict flags; returns the compiler's complaint or ''."""
    os.makedirs(workdir, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(workdir, name), "w", encoding="ascii", newline="\n") as f:
            f.write(text)
    srcs = [os.path.join(workdir, n) for n in files if n.endswith(".c")]
    cmd = ["gcc"] + CFLAGS + ["-I", workdir, "-I", os.path.join(REPO, "crt", "include")] + srcs
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return "" if proc.returncode == 0 else (proc.stderr or proc.stdout)[:2000]


class _FileWatch:
    """Records files opened while a model compiles, other than the model and the Python installation / compiler
    sources (lazy imports). A hostile model (ONNX external data such as '../../etc/passwd') must not make the
    compiler open anything else. Uses an audit hook (sys.addaudithook), installed once and active only inside
    run_target, so it costs nothing elsewhere."""

    installed = False
    active = None  # None, or [model path, list of foreign paths opened]
    side_files = frozenset()  # the model's external-data files beside it, which the compiler may read

    @classmethod
    def _hook(cls, event, args):
        if cls.active is None or event != "open" or not args or not isinstance(args[0], (str, bytes)):
            return
        p = os.path.abspath(os.fsdecode(args[0]))
        model, seen = cls.active
        if p == model or p in cls.side_files or p.startswith(cls._allowed) or p.endswith((".py", ".pyc", ".so")):
            return
        if p in seen:
            return
        seen.append(p)

    @classmethod
    def start(cls, model_path: str) -> list:
        if not cls.installed:
            dirs = {
                sys.prefix,
                sys.base_prefix,
                sys.exec_prefix,
                COMPILER_DIR,
                "/proc/self",
                "/dev/null",
                "/usr/lib",
                "/usr/share/zoneinfo",
            }
            dirs |= {
                os.path.dirname(os.path.dirname(os.path.abspath(m.__file__)))
                for m in list(sys.modules.values())
                if getattr(m, "__file__", None) and m.__name__ == "numpy"
            }
            cls._allowed = tuple(sorted(os.path.abspath(d) for d in dirs))
            sys.addaudithook(cls._hook)
            cls.installed = True
        cls.active = [os.path.abspath(model_path), []]
        return cls.active[1]

    @classmethod
    def stop(cls) -> None:
        cls.active = None
        cls.side_files = frozenset()


def _onnx_external_refs(path: str) -> bool:
    """Whether an .onnx file (parsed without following anything) has a tensor stored as external data: False,
    the list of side files when every location is a plain file name beside the model (the compiler may read
    those), or True when some location is a path, which must be refused with an error that says so."""
    if not path.lower().endswith(".onnx"):
        return False
    try:
        import onnx

        with open(path, "rb") as f:
            m = onnx.ModelProto.FromString(f.read())
    except Exception:  # noqa: BLE001 - not a protobuf: nothing external to follow
        return False
    from onnx import AttributeProto

    def tensors_of(g):
        yield from g.initializer
        for sp in g.sparse_initializer:
            yield sp.values
            yield sp.indices
        for n in g.node:
            for a in n.attribute:
                if a.type == AttributeProto.TENSOR:
                    yield a.t
                elif a.type == AttributeProto.TENSORS:
                    yield from a.tensors
                elif a.type == AttributeProto.SPARSE_TENSOR:
                    yield a.sparse_tensor.values
                    yield a.sparse_tensor.indices
                elif a.type == AttributeProto.GRAPH:
                    yield from tensors_of(a.g)
                elif a.type == AttributeProto.GRAPHS:
                    for sg in a.graphs:
                        yield from tensors_of(sg)

    graphs = [m.graph] + [
        g for f in m.functions for n in f.node for a in n.attribute if a.type == AttributeProto.GRAPH for g in [a.g]
    ]
    ext = [
        t for g in graphs for t in tensors_of(g) if t.data_location == onnx.TensorProto.EXTERNAL or len(t.external_data)
    ]
    if not ext:
        return False
    # Plain file names beside the model are the one form the compiler reads (compiler/frontend/onnx_external.py):
    # it may open those (and compile), nothing else.
    locs = [next((e.value for e in t.external_data if e.key == "location"), "") for t in ext]
    plain = [loc for loc in locs if loc and loc == os.path.basename(loc) and loc not in (".", "..") and "\\" not in loc]
    if len(plain) == len(locs):
        return [os.path.join(os.path.dirname(os.path.abspath(path)), loc) for loc in plain]
    return True


def run_target(path: str, c_workdir: str = "") -> tuple:
    """(outcome, detail): ("ok", ""), ("error", message) or ("bug", key + traceback).

    With c_workdir, a successful compile's C is also compiled with gcc (-Werror -pedantic) in that directory.
    """
    from compiler.driver import compile_model
    from compiler.errors import CompileError

    external = _onnx_external_refs(path)
    opened = _FileWatch.start(path)
    if isinstance(external, list):  # side files beside the model, which the compiler may read
        _FileWatch.side_files = set(external)
    try:
        try:
            compiled = compile_model(path, "fz")
        finally:
            _FileWatch.stop()
        if opened:
            return "bug", f"file access: compiling the model opened another file\n{opened[:3]}"
        if external is True:
            return (
                "bug",
                "file access: a model with external data outside its directory compiled (it must be refused)\n",
            )
    except CompileError as e:
        if opened:
            return "bug", f"file access: compiling the model opened another file\n{opened[:3]} (then: {str(e)[:300]})"
        msg = str(e)
        if external is True and "external" not in msg.lower():
            return "bug", f"file access: a model with external data was not refused as such\n{msg[:500]}"
        if not msg or "Traceback" in msg or len(msg) > 2000 or any(ord(c) < 32 or ord(c) == 127 for c in msg):
            return "bug", f"CompileError that is not one readable paragraph: {msg[:500]!r}"
        return "error", msg
    except BaseException as e:  # noqa: BLE001 - everything else is what the fuzzer looks for
        if isinstance(e, KeyboardInterrupt):
            raise
        return "bug", _bug_key(e) + "\n" + "".join(traceback.format_exception(e))[-4000:]
    if c_workdir:
        complaint = check_c(compiled.files, c_workdir)
        if complaint:
            first = complaint.strip().splitlines()[0] if complaint.strip() else ""
            return "bug", "generated C does not compile: " + normalize_message(first) + "\n" + complaint
    return "ok", ""
