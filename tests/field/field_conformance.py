"""Field conformance: every .tflite of the field corpus (real models no one here wrote) through the compiler.

    python tests/field/field_conformance.py [--models_dir DIR] [--only REGEX] [--qemu] [--update_baseline]

The corpus is `--models_dir`, else $AOT_FIELD_MODELS_DIR, else $AOT_MODELS_DIR/field, else ../shared/models/field
beside the checkout (under Bazel: the @shared_models repository's field/ in the runfiles). Models are never copied
into the project. When the directory is absent or holds no model, the suite says so and passes (exit 0).

Each model is compiled for the host target, built with this PC's C compiler and run on a few seeded inputs; the
outputs are compared with the TFLite Micro interpreter's (the `tflite-micro` package) for the same inputs: integer
outputs bit-exact, float32 within 1e-5 relative (+1e-6 absolute near zero, as `aotc testgen`). Outcomes:
- ok: every case matches;
- refused: the compiler's one-paragraph CompileError / UnsupportedError (its first sentence is the reason);
- refused (TFLM cannot run it either): refused, and TFLite Micro also fails to run it (hybrid float/int8 models,
  custom operators it does not know); never a pass;
- wrong: a mismatch; crash: a traceback, a failed C build or a failed run;
- not refused: the compiler accepted a model TFLite Micro cannot run (no reference, so no such model may compile).
The run fails (exit 1) on any wrong / crash / not refused, and when a model of the checked-in baseline
(baseline.bzl: PASSING) no longer passes. `--update_baseline` rewrites baseline.bzl from this run (the passing
models and the QEMU sample: the smallest passing model for each operator and input element type of a passing
model). `--qemu` also runs the QEMU sample (aot_model_test targets of tests/field on mps2-an386) through Bazel.

Per-model, per-operator and refusal-reason tables are printed and written as markdown and JSON (`--out_dir`).
"""

import argparse
import os
import re
import sys
import tempfile
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
if REPO not in sys.path:
    sys.path.insert(0, REPO)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import field_baseline  # noqa: E402
import field_tables  # noqa: E402

RTOL, ATOL = 1e-5, 1e-6
BAD_OUTCOMES = ("wrong", "crash", "not_refused")


@dataclass
class Result:
    model: str  # path relative to the corpus directory
    ops: dict  # operator kind -> count
    inputs: list  # input element types and shapes, e.g. "int8[1, 49, 10, 1]"
    bytes: int
    outcome: str = ""  # ok / refused / refused_tflm / wrong / crash / not_refused
    detail: str = ""  # refusal reason (first sentence), mismatch or failure
    reason: str = ""  # the refusal reason with names and numbers removed (groups models)
    tflm: str = ""  # "" when TFLite Micro runs the model, else its error
    cases: int = 0
    seconds: float = 0.0
    qemu: str = ""  # "", "pass" or "fail: ..." (QEMU sample, with --qemu)
    error: str = field(default="", repr=False)  # the full refusal paragraph or traceback


def default_models_dir() -> str:
    if os.environ.get("AOT_FIELD_MODELS_DIR"):
        return os.environ["AOT_FIELD_MODELS_DIR"]
    runfiles = os.environ.get("TEST_SRCDIR")
    if runfiles:  # under Bazel: the @shared_models repository (tests/shared_models.bzl) in the runfiles
        return os.path.join(runfiles, "shared_models", "field")
    if os.environ.get("AOT_MODELS_DIR"):
        return os.path.join(os.environ["AOT_MODELS_DIR"], "field")
    return os.path.join(REPO, "..", "shared", "models", "field")


def find_models(root: str, only: str = "", exts=(".tflite",)) -> list:
    found = []
    for d, _, files in os.walk(root, followlinks=True):
        for f in files:
            if f.endswith(exts):
                rel = os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                if not only or re.search(only, rel):
                    found.append(rel)
    return sorted(found, key=natural_key)


def natural_key(name: str):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


# --- what a model holds (read with the flatbuffer bindings, so refused models are described too) ---------------


def describe(path: str) -> tuple:
    """(operator kind -> count, input descriptions) of a .tflite file; empty when it cannot be read."""
    import tflite
    from tflite.BuiltinOperator import BuiltinOperator
    from tflite.TensorType import TensorType

    op_names = {v: k for k, v in vars(BuiltinOperator).items() if not k.startswith("_")}
    type_names = {v: k.lower() for k, v in vars(TensorType).items() if not k.startswith("_")}
    try:
        with open(path, "rb") as f:
            m = tflite.Model.GetRootAsModel(f.read(), 0)
        sg = m.Subgraphs(0)
        ops = {}
        for i in range(sg.OperatorsLength()):
            oc = m.OperatorCodes(sg.Operators(i).OpcodeIndex())
            code = max(oc.BuiltinCode(), oc.DeprecatedBuiltinCode())
            kind = op_names.get(code, f"BUILTIN_{code}")
            if kind == "CUSTOM":
                kind = "CUSTOM:" + (oc.CustomCode() or b"?").decode("utf-8", "replace")
            ops[kind] = ops.get(kind, 0) + 1
        inputs = []
        for i in range(sg.InputsLength()):
            t = sg.Tensors(sg.Inputs(i))
            shape = [int(d) for d in t.ShapeAsNumpy()] if t.ShapeLength() else []
            inputs.append(f"{type_names.get(t.Type(), t.Type())}{shape}")
        return ops, inputs
    except Exception as e:  # a malformed file: the compiler's refusal will say more
        return {}, [f"unreadable ({type(e).__name__})"]


def describe_onnx(path: str) -> tuple:
    """(operator kind -> count, input descriptions) of a .onnx file (main graph; ONNX-ML operators prefixed)."""
    try:
        import onnx

        m = onnx.load(path, load_external_data=False)
        ops = {}
        for n in m.graph.node:
            kind = n.op_type if n.domain in ("", "ai.onnx") else f"{n.domain}:{n.op_type}"
            ops[kind] = ops.get(kind, 0) + 1
        inits = {i.name for i in m.graph.initializer}
        inputs = []
        for i in m.graph.input:
            if i.name in inits:
                continue
            tt = i.type.tensor_type
            dims = [d.dim_param or d.dim_value for d in tt.shape.dim] if tt.HasField("shape") else "?"
            inputs.append(f"{onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type)}{dims}".replace("'", ""))
        return ops, inputs
    except Exception as e:
        return {}, [f"unreadable ({type(e).__name__})"]


# --- one model (runs in a worker process) --------------------------------------------------------------------


def first_sentence(message: str) -> str:
    text = " ".join(str(message).split())
    m = re.search(r"(?<!\.\.)[.;](\s+)(?=[A-Z(])", text)
    return text[: m.start() + 1] if m else text


def reason_key(sentence: str) -> str:
    """The refusal reason with model-specific parts removed, so models refused for the same reason group."""
    s = re.sub(r"\s*\(\d+ characters\)", "", sentence)
    s = re.sub(r"'[^']*'", "'…'", s)
    s = re.sub(r"\b\d+(, \d+)*\b", "N", s)
    return s


class _CapturedOutput:
    """Redirects this process's stdout/stderr file descriptors (TFLite Micro's C++ prints its errors there)."""

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self.file = tempfile.TemporaryFile(mode="w+b")
        self.saved = [os.dup(1), os.dup(2)]
        os.dup2(self.file.fileno(), 1)
        os.dup2(self.file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(self.saved[0], 1)
        os.dup2(self.saved[1], 2)
        for fd in self.saved:
            os.close(fd)
        self.file.seek(0)
        self.text = self.file.read().decode("utf-8", "replace")
        self.file.close()
        return False


def _tflm_error(e: Exception, printed: str) -> str:
    lines = [ln.strip() for ln in printed.splitlines() if ln.strip()]
    return "; ".join(lines[:3] + [str(e).strip()])[:300]


def tflm_probe(path: str) -> str:
    """'' when TFLite Micro can prepare and invoke the model (zero inputs), else its error."""
    from compiler.oracle import tflm_arena_bytes
    from tflite_micro.python.tflite_micro import runtime

    cap = _CapturedOutput()
    try:
        with cap:
            interp = runtime.Interpreter.from_file(path, arena_size=tflm_arena_bytes(path))
            i = 0
            while True:
                try:
                    d = interp.get_input_details(i)
                except Exception:
                    break
                interp.set_input(np.zeros(d["shape"], d["dtype"]), i)
                i += 1
            interp.invoke()
        return ""
    except Exception as e:
        return _tflm_error(e, getattr(cap, "text", ""))


def compare(got: list, want: list, outputs, tolerances=None) -> str:
    """'' when every output matches, else what differs. `tolerances`: per output (integer steps, float atol, float
    rtol) as compiler.oracle.output_tolerances gives for ONNX models; None: integers bit-exact, floats RTOL/ATOL."""
    for i, (t, g, w) in enumerate(zip(outputs, got, want)):
        w = np.asarray(w).reshape(g.shape)
        steps, atol, rtol = tolerances[i] if tolerances else (0, ATOL, RTOL)
        if t.dtype == "float32":
            g64, w64 = g.astype(np.float64), w.astype(np.float64)
            bad = ~((np.abs(g64 - w64) <= atol + rtol * np.abs(w64)) | (np.isnan(g64) & np.isnan(w64)))
        elif steps:
            bad = np.abs(g.astype(np.int64) - w.astype(np.int64)) > steps
        else:
            bad = g != w
        if bad.any():
            diff = np.abs(g.astype(np.float64) - w.astype(np.float64))
            return (
                f"output '{t.name[:60]}': {int(bad.sum())} of {bad.size} values differ "
                f"(max |diff| {float(np.nanmax(diff)):.6g})"
            )
    return ""


def set_compiler_options(options: dict) -> None:
    """The `aotc` shape flags for the next compile (`--dim`, `--input_shape`, `--freeze_input`), in this process:
    {"dim": {NAME: N}, "input_shape": {NAME: [D0, ...]}, "freeze_input": {NAME: [DTYPE, VALUE]}}; {} clears them."""
    from compiler import driver

    driver.ONNX_DIMS.clear()
    driver.ONNX_DIMS.update(options.get("dim", {}))
    driver.ONNX_INPUT_SHAPES.clear()
    driver.ONNX_INPUT_SHAPES.update({k: list(v) for k, v in options.get("input_shape", {}).items()})
    driver.ONNX_FROZEN.clear()
    driver.ONNX_FROZEN.update({k: np.array(v, dtype=t) for k, (t, v) in options.get("freeze_input", {}).items()})


def check_model(args) -> Result:
    """args: (corpus root, model path relative to it, cases, seed[, compiler options as set_compiler_options]).
    A .onnx model is compared with onnxruntime within compiler.oracle.output_tolerances; a .tflite model with TFLite
    Micro (integers bit-exact)."""
    root, rel, count, seed = args[:4]
    from compiler import hostbuild
    from compiler.commands import run_cmd
    from compiler.commands.run_cmd import execute_on_host

    # Each model's host run built as one translation unit (its sources and harness #included by one file): one
    # compiler and assembler run instead of three, the same code and flags.
    run_cmd.build_executable = hostbuild.build_one_unit_executable
    from compiler.driver import compile_model
    from compiler.errors import CompileError
    from compiler.oracle import output_tolerances, random_inputs, reference_outputs

    path = os.path.join(root, rel)
    is_onnx = rel.endswith(".onnx")
    ops, inputs = describe_onnx(path) if is_onnx else describe(path)
    r = Result(rel, ops, inputs, os.path.getsize(path))
    start = time.time()
    try:
        set_compiler_options(args[4] if len(args) > 4 else {})
        try:
            compiled = compile_model(path, "field", "host")
        except CompileError as e:
            r.tflm = "" if is_onnx else tflm_probe(path)
            r.outcome = "refused_tflm" if r.tflm else "refused"
            r.error, r.detail = str(e), first_sentence(e)
            r.reason = reason_key(r.detail)
            return r
        graph = compiled.graph
        cases = random_inputs(graph, count, seed)
        cap = _CapturedOutput()
        try:
            with cap:
                expected = reference_outputs(path, graph, cases)
        except Exception as e:
            r.tflm = _tflm_error(e, getattr(cap, "text", ""))
            oracle = "onnxruntime" if is_onnx else "TFLite Micro"
            r.outcome, r.detail = "not_refused", f"compiles, but {oracle} cannot run it: " + r.tflm
            return r
        tolerances = output_tolerances(path, graph) if is_onnx else None
        try:
            got = execute_on_host(compiled, cases, timeout=300)
        except Exception as e:
            r.outcome, r.detail, r.error = "crash", first_sentence(str(e).strip())[:300], str(e)[-3000:]
            return r
        r.cases = len(cases)
        for i, (g, w) in enumerate(zip(got, expected)):
            diff = compare(g, w, graph.outputs, tolerances)
            if diff:
                r.outcome, r.detail = "wrong", f"case {i}: {diff}"
                return r
        exact = all(t.dtype != "float32" for t in graph.outputs) and not is_onnx
        r.outcome = "ok"
        r.detail = f"{len(cases)} cases " + ("bit-exact" if exact else f"within {RTOL:g} relative")
        return r
    except Exception:
        r.outcome, r.error = "crash", traceback.format_exc(limit=6)
        r.detail = r.error.strip().splitlines()[-1][:300]
        return r
    finally:
        r.seconds = round(time.time() - start, 2)


def run_suite(root: str, models: list, jobs: int, count: int, seed: int, log=print, options=None) -> list:
    """Results in the order of `models`. Models run in `jobs` forked workers (largest first); a worker that dies
    (a segfault in the interpreter, say) fails only its model, which is retried alone to tell which. `options`:
    model -> compiler options (set_compiler_options)."""
    options = options or {}
    from compiler.hostbuild import crt_objects

    crt_objects()  # compiled once here; the forked workers inherit the cache
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    order = sorted(models, key=lambda m: -os.path.getsize(os.path.join(root, m)))
    results, lost = {}, []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        futures = {m: pool.submit(check_model, (root, m, count, seed, options.get(m, {}))) for m in order}
        for m in order:
            try:
                results[m] = futures[m].result()
                log(f"  {results[m].outcome:12s} {results[m].seconds:6.1f}s  {m}")
            except BrokenProcessPool:
                lost.append(m)
    for m in lost:
        with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
            try:
                results[m] = pool.submit(check_model, (root, m, count, seed, options.get(m, {}))).result()
            except BrokenProcessPool:
                ops, inputs = describe(os.path.join(root, m))
                results[m] = Result(
                    m,
                    ops,
                    inputs,
                    os.path.getsize(os.path.join(root, m)),
                    "crash",
                    "the worker process died (a signal in the compiler, the interpreter or cc)",
                )
        log(f"  {results[m].outcome:12s} {results[m].seconds:6.1f}s  {m} (retried alone)")
    return [results[m] for m in models]


def failures(results: list, passing: list) -> list:
    """Why this run fails: bad outcomes, and baseline models (present in this run) that no longer pass."""
    by_name = {r.model: r for r in results}
    msgs = [
        f"{r.model}: {r.outcome}: {r.detail}" + (f"\n{r.error}" if r.outcome == "crash" and r.error else "")
        for r in results
        if r.outcome in BAD_OUTCOMES
    ]
    for m in passing:
        if m in by_name and by_name[m].outcome != "ok":
            msgs.append(f"{m}: passes on main (baseline.bzl) but is now {by_name[m].outcome}: {by_name[m].detail}")
    return msgs


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models_dir", default="", help="the field corpus (default: see the module docstring)")
    p.add_argument("--only", default="", help="regular expression: only models whose relative path matches")
    p.add_argument("--count", type=int, default=3, help="seeded input cases per model")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=0, help="worker processes (default: the number of CPUs, at most 4)")
    p.add_argument(
        "--out_dir",
        default="",
        help="where the tables go (default: $TEST_UNDECLARED_OUTPUTS_DIR or a directory under /tmp)",
    )
    p.add_argument("--qemu", action="store_true", help="also run the QEMU sample (mps2-an386) through Bazel")
    p.add_argument(
        "--update_baseline",
        action="store_true",
        help="rewrite baseline.bzl: the models passing now and the QEMU sample drawn from them",
    )
    p.add_argument("--quiet", action="store_true", help="no per-model progress lines")
    flags = p.parse_args(argv)

    root = flags.models_dir or default_models_dir()
    models = find_models(root, flags.only) if os.path.isdir(root) else []
    if not models:
        print(
            f"field conformance: SKIPPED: no .tflite models under '{os.path.abspath(root)}'"
            + (f" matching '{flags.only}'" if flags.only else "")
            + " (set --models_dir, $AOT_FIELD_MODELS_DIR or $AOT_MODELS_DIR; the corpus is ../shared/models/field"
            " beside the checkout)."
        )
        return 0
    if flags.update_baseline and flags.only:
        print("field conformance: --update_baseline needs the whole corpus (no --only).", file=sys.stderr)
        return 2
    jobs = flags.jobs or max(1, min(4, os.cpu_count() or 1))
    print(
        f"field conformance: {len(models)} models under {os.path.abspath(root)}, {flags.count} cases each, "
        f"{jobs} workers"
    )
    start = time.time()
    results = run_suite(root, models, jobs, flags.count, flags.seed, log=(lambda *_: None) if flags.quiet else print)
    host_seconds = time.time() - start

    baseline = field_baseline.read()
    if flags.update_baseline:
        baseline = field_baseline.update(results)
        print(
            f"field conformance: wrote {field_baseline.PATH}: {len(baseline.passing)} passing models, "
            f"{len(baseline.qemu_sample)} in the QEMU sample"
        )
    if flags.qemu:
        import field_qemu

        field_qemu.run_sample(results, baseline.qemu_sample, flags.models_dir)

    out_dir = (
        flags.out_dir
        or os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR")
        or os.path.join(tempfile.gettempdir(), "aot_field_conformance")
    )
    text = field_tables.render(results, baseline.passing, host_seconds)
    paths = field_tables.write(out_dir, text, results)
    print(text)
    print("tables written to " + ", ".join(paths))
    bad = failures(results, baseline.passing)
    if flags.qemu:
        bad += [f"{r.model}: QEMU mps2-an386: {r.qemu}" for r in results if r.qemu.startswith("fail")]
    if bad:
        print("\nFIELD CONFORMANCE FAILED:\n" + "\n".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
