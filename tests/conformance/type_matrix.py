"""Operator x type coverage decided by the oracle: every type variant of the conformance cases (type_variants.py)
is put to the tflite-micro interpreter, and what it runs must compile bit-exact with aotc, what it rejects must be
refused by aotc with one paragraph (no traceback).

    python tests/conformance/type_matrix.py [--only REGEX] [--jobs N] [--write_coverage FILE] [--check_coverage FILE]

Per variant (one operator, one combination of run-time input and output types, quantized per tensor; per-channel
weights where the base case has them):
- TFLite Micro runs it (its interpreter is built and invoked on seeded inputs): aotc must compile it, and its host
  build must give TFLite Micro's outputs on those inputs (integers bit-exact, float32 within 1e-5 relative).
  All such variants are built into one host program (one translation unit per model, compiled on --jobs cores).
  A variant aotc refuses is a gap: allowed only when listed in known_gaps.py with its reason.
- TFLite Micro rejects it (building or invoking the interpreter fails, or the interpreter aborts; each probe runs in
  a child process so an abort is an outcome): aotc must refuse it (CompileError/UnsupportedError).  A compiled one
  is "not refused"; checked once per signature.
The exit status is non-zero on: wrong, crash, not refused, a gap missing from known_gaps.py, or a known gap that now
compiles (stale).  --write_coverage writes the generated tests/conformance/COVERAGE.md.
"""

import argparse
import hashlib
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import traceback
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
for p in (REPO, HERE, os.path.join(REPO, "tests", "compiler")):
    if p not in sys.path:
        sys.path.insert(0, p)

import numpy as np  # noqa: E402

import op_conformance  # noqa: E402
import type_variants  # noqa: E402
from known_gaps import KNOWN_GAPS  # noqa: E402
from tflm_builtins import TFLM_BUILTINS  # noqa: E402

NUM_CASES = 3


# --- variants ---------------------------------------------------------------------------------------------------


def _gen_one(args):
    """Worker: the variants of one base case written to DIR/<n>_<k>.tflite; returns their metadata."""
    n, case_key, out_dir = args
    _, case = op_conformance._case(case_key)
    if out_dir is None:  # only the hand case's own signature
        m = type_variants._model_t(case.build().build())
        op = type_variants.operator_under_test(m, case.op)
        return [dict(hand=type_variants.signature(m, op, case.op))] if op is not None else []
    try:
        vs = type_variants.variants(case)
    except Exception:  # noqa: BLE001 - a case the rewriter cannot take is reported, not fatal
        return [dict(op=case.op, dtype=case.dtype, error=traceback.format_exc().splitlines()[-1])]
    extra = [list(x) for x in case.extra_inputs][:1]
    meta = []
    for k, (sig, data, _) in enumerate(vs):
        path = os.path.join(out_dir, f"v{n}_{k}.tflite")
        with open(path, "wb") as f:
            f.write(data)
        inputs = type_variants.model_inputs(data)
        cases = type_variants.random_inputs(
            inputs,
            NUM_CASES,
            7,
            base_case=extra[0] if extra else None,
            float_range=case.float_range if case.dtype == "float32" else (0.05, 1.0),
        )
        np.savez(path[:-7] + "_in.npz", *[np.stack([c[i] for c in cases]) for i in range(len(inputs))])
        meta.append(dict(op=case.op, dtype=case.dtype, case=case.name, sig=sig, path=path, base=k == 0))
    return meta


def generate(out_dir, only, jobs):
    keys = []
    for key in op_conformance.discover():
        _, c = op_conformance._case(key)
        if only and not re.search(only, f"{c.op}/{c.dtype}"):
            continue
        keys.append(((c.op, c.dtype), key))
    firsts, hand = {}, set()
    for opdt, key in keys:
        firsts.setdefault(opdt, key)
    work = [(n, key, out_dir) for n, (_, key) in enumerate(sorted(firsts.items()))]
    first_keys = set(firsts.values())
    work += [(0, key, None) for _, key in keys if key not in first_keys]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        metas = pool.map(_gen_one, work, chunksize=4)
    variants, errors = [], []
    for m in metas:
        for v in m:
            if "hand" in v:
                hand.add(v["hand"])
            else:
                (errors if "error" in v else variants).append(v)
    for v in variants:
        if v["base"]:
            hand.add(v["sig"])
    return variants, errors, hand


# --- the oracle, in child processes -----------------------------------------------------------------------------


def probe_main(list_file, result_file) -> int:
    """Child process: run every model of list_file (one path a line) through TFLite Micro; append one JSON line
    per model to result_file as it goes (the parent resumes after an abort).  The interpreter's own messages
    (stderr, fd 2) are captured into a file and the last one kept as the reason."""
    from tflite_micro.python.tflite_micro import runtime

    err_path = result_file + ".stderr"
    err_fd = os.open(err_path, os.O_RDWR | os.O_CREAT | os.O_TRUNC)
    os.dup2(err_fd, 2)
    done = set()
    if os.path.exists(result_file):
        with open(result_file) as f:
            done = {json.loads(line)["path"] for line in f if line.strip()}
    with open(list_file) as f:
        paths = [line.strip() for line in f if line.strip()]
    with open(result_file, "a") as out:
        for path in paths:
            if path in done:
                continue
            # Written first: if the interpreter aborts on this model, the parent finds it unfinished.
            out.write(json.dumps(dict(path=path, status="started")) + "\n")
            out.flush()
            os.ftruncate(2, 0)
            os.lseek(2, 0, 0)
            status, reason = "runs", ""
            try:
                with open(path, "rb") as f:
                    interp = runtime.Interpreter.from_bytes(f.read(), arena_size=1 << 20)
                ins = np.load(path[:-7] + "_in.npz")
                xs = [ins[f"arr_{i}"] for i in range(len(ins.files))]
                outs = []
                for c in range(NUM_CASES):
                    for i, x in enumerate(xs):
                        interp.set_input(x[c], i)
                    interp.invoke()
                    k, got = 0, []
                    while True:
                        try:
                            got.append(np.array(interp.get_output(k)))
                        except Exception:  # noqa: BLE001 - past the last output
                            break
                        k += 1
                    outs.append(got)
                np.savez(path[:-7] + "_want.npz", *[np.stack([o[k] for o in outs]) for k in range(len(outs[0]))])
            except Exception as e:  # noqa: BLE001 - the oracle refusing is the outcome we record
                status = "rejects"
                os.lseek(2, 0, 0)
                lines = [ln for ln in os.read(2, 1 << 16).decode(errors="replace").splitlines() if ln.strip()]
                reason = " ".join((lines[-2:] if lines else [str(e)]))
                # Some messages print a value read from uninitialized memory (FILL's "got 1867457436"): keep the
                # reason stable from run to run.
                reason = re.sub(r"(?<![\d.])-?\d{7,}(?!\d|\.\d)", "<undefined>", reason)[:300]
            out.write(json.dumps(dict(path=path, status=status, reason=reason)) + "\n")
            out.flush()
    return 0


def _probe_chunk(args):
    chunk, work_dir, n = args
    list_file = os.path.join(work_dir, f"probe{n}.txt")
    result_file = os.path.join(work_dir, f"probe{n}.jsonl")
    with open(list_file, "w") as f:
        f.write("\n".join(chunk) + "\n")
    results = {}
    for _ in range(len(chunk) + 1):
        subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--probe", list_file, result_file],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=1800,
        )
        results = {}
        with open(result_file) as f:
            for line in f:
                r = json.loads(line)
                results[r["path"]] = r
        unfinished = [p for p, r in results.items() if r["status"] == "started"]
        if not unfinished:
            if len(results) >= len(chunk):
                break
            continue
        # The interpreter aborted the process on this model: TFLite Micro does not run it.
        with open(result_file, "a") as f:
            for p in unfinished:
                f.write(json.dumps(dict(path=p, status="rejects", reason="the interpreter aborts")) + "\n")
    return results


def probe(variants, work_dir, jobs):
    paths = [v["path"] for v in variants]
    chunks = [paths[i::jobs] for i in range(jobs)]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        parts = pool.map(_probe_chunk, [(c, work_dir, n) for n, c in enumerate(chunks) if c])
    merged = {}
    for part in parts:
        merged.update(part)
    for v in variants:
        r = merged.get(v["path"], dict(status="rejects", reason="not probed"))
        v["tflm"], v["tflm_reason"] = r["status"], r.get("reason", "")


# --- aotc ------------------------------------------------------------------------------------------------------


def _prefix(v) -> str:
    return "tm_" + os.path.basename(v["path"])[:-7]


def _ours_one(v):
    """Worker: compile one variant (python only); for a variant TFLite Micro runs, also write its self-checking
    test next to it."""
    from compiler.codegen.io_fields import io_fields
    from compiler.commands.testgen_cmd import render_test
    from compiler.driver import compile_model, load_model, write_files
    from compiler.errors import CompileError, UnsupportedError
    from compiler.reference import ReferenceCases

    try:
        compiled = compile_model(v["path"], _prefix(v), "host")
    except (CompileError, UnsupportedError) as e:
        return "refused", " ".join(str(e).split())
    except Exception:  # noqa: BLE001 - a traceback is an outcome to report
        return "crash", " | ".join(traceback.format_exc().strip().splitlines()[-3:])[-400:]
    if v["tflm"] != "runs":
        return "compiled", ""
    try:
        graph = load_model(v["path"])
        ins = np.load(v["path"][:-7] + "_in.npz")
        want = np.load(v["path"][:-7] + "_want.npz")
        cases = [[ins[f"arr_{i}"][c] for i in range(len(graph.inputs))] for c in range(NUM_CASES)]
        expected = [
            [want[f"arr_{k}"][c].reshape(t.shape) for k, t in enumerate(graph.outputs)] for c in range(NUM_CASES)
        ]
        if any(not np.all(np.isfinite(e)) for case in expected for e in case if e.dtype.kind == "f"):
            return "crash", "TFLite Micro's outputs are not finite on the generated inputs (the matrix needs others)"
        ref = ReferenceCases(os.path.basename(v["path"]), io_fields(graph), cases, expected, None)
        files = dict(compiled.files)
        prefix = _prefix(v)
        files[f"{prefix}_test.c"] = render_test(prefix, ref)
        d = os.path.join(os.path.dirname(v["path"]), prefix)
        os.makedirs(d, exist_ok=True)
        write_files(d, files)
        unit = [f'#include "{prefix}.c"', f'#include "{prefix}_weights.c"']
        unit += [f"#define main {prefix}_main", f'#include "{prefix}_test.c"', "#undef main"]
        with open(os.path.join(d, "unit.c"), "w") as f:
            f.write("\n".join(unit) + "\n")
    except Exception:  # noqa: BLE001
        return "crash", " | ".join(traceback.format_exc().strip().splitlines()[-3:])[-400:]
    return "compiled", ""


def ours(variants, jobs):
    """Compile what TFLite Micro runs, and what it rejects once per signature that no variant runs."""
    # One variant per signature: the first TFLite Micro runs, else the first; the hand cases (op_conformance.py)
    # check the structures (shapes, options, per-channel weights) of each type, this matrix the types.
    runs = {v["sig"] for v in variants if v["tflm"] == "runs"}
    # The hand case of a signature first: another case's variant may reach the same run-time types with
    # constants of other types (an int16 case's int64 bias under int8 activations).
    todo, seen = [], set()
    for v in sorted(variants, key=lambda v: not v["base"]):
        if v["sig"] not in seen and (v["tflm"] == "runs" or v["sig"] not in runs):
            todo.append(v)
            seen.add(v["sig"])
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        results = pool.map(_ours_one, todo, chunksize=8)
    for v, (outcome, detail) in zip(todo, results):
        v["ours"], v["ours_detail"] = outcome, detail


def _compile_unit(args):
    from compiler.hostbuild import CFLAGS, compiler_command, crt_dir

    d, obj = args
    # -O0: the build of hundreds of units dominates the run; integer results do not depend on the optimization
    # level, and on x86-64 (SSE arithmetic, no contraction in C99 mode) neither do float ones.
    flags = [f for f in CFLAGS if not f.startswith("-O")] + ["-O0"]
    cmd = [compiler_command()] + flags + ["-I", d, "-I", os.path.join(crt_dir(), "include"), "-c"]
    cmd += [os.path.join(d, "unit.c"), "-o", obj]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc.returncode, (proc.stdout + proc.stderr)[-600:]


def run_batch(variants, work_dir, jobs):
    """One host program over every compiled variant TFLite Micro runs: each model's self-checking test, called in
    turn; a failing unit or test marks its variant wrong / crash."""
    from concurrent.futures import ThreadPoolExecutor

    from compiler.hostbuild import compiler_command, crt_objects

    todo = [v for v in variants if v["tflm"] == "runs" and v.get("ours") == "compiled"]
    jobs_ = [(os.path.join(work_dir, _prefix(v)), os.path.join(work_dir, _prefix(v) + ".o")) for v in todo]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        built = list(pool.map(_compile_unit, jobs_))
    linked = []
    for v, (rc, log) in zip(todo, built):
        if rc != 0:
            v["ours"], v["ours_detail"] = "crash", "C build failed: " + " ".join(log.split())[-300:]
        else:
            linked.append(v)
    if not linked:
        return
    main = ["#include <stdio.h>"]
    main += [f"int {_prefix(v)}_main(void);" for v in linked]
    main += ["int main(void)", "{", "    int bad = 0;"]
    for n, v in enumerate(linked):
        main += [f'    if ({_prefix(v)}_main() != 0) {{ printf("FAILED {n}\\n"); bad++; }}']
    main += ['    printf("DONE\\n");', "    return bad != 0;", "}"]
    main_c = os.path.join(work_dir, "batch_main.c")
    with open(main_c, "w") as f:
        f.write("\n".join(main) + "\n")
    exe = os.path.join(work_dir, "batch")
    objs = [os.path.join(work_dir, _prefix(v) + ".o") for v in linked]
    cmd = [compiler_command(), "-std=c99", "-O2", main_c] + objs + crt_objects() + ["-o", exe, "-lm"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("linking the batch failed: " + (proc.stdout + proc.stderr)[-2000:])
    proc = subprocess.run([exe], capture_output=True, text=True, timeout=600)
    failed = {int(m) for m in re.findall(r"FAILED (\d+)", proc.stdout)}
    if "DONE" not in proc.stdout:
        raise RuntimeError("the batch program did not finish: " + proc.stdout[-2000:] + proc.stderr[-2000:])
    for n, v in enumerate(linked):
        if n in failed:
            v["ours"], v["ours_detail"] = "wrong", "outputs differ from TFLite Micro's"
        else:
            v["ours"] = "ok"


# --- verdicts and the table -------------------------------------------------------------------------------------


def verdicts(variants):
    """Per signature: 'ok' (TFLite Micro runs it, every such variant bit-exact), 'gap' (it runs, aotc refuses),
    'wrong' / 'crash', 'refused' (both refuse), 'not refused' (TFLite Micro rejects, aotc compiles)."""
    by = defaultdict(list)
    for v in variants:
        by[v["sig"]].append(v)
    out = {}
    for sig, vs in by.items():
        running = [v for v in vs if v["tflm"] == "runs" and "ours" in v]
        if running:
            outcomes = {v.get("ours") for v in running}
            for bad in ("crash", "wrong", "refused"):
                if bad in outcomes:
                    v = next(v for v in running if v.get("ours") == bad)
                    out[sig] = ("gap" if bad == "refused" else bad, v.get("ours_detail", ""), vs)
                    break
            else:
                out[sig] = ("ok", "", vs)
        else:
            checked = [v for v in vs if "ours" in v]
            v = checked[0] if checked else vs[0]
            o = v.get("ours")
            tflm_reason = v.get("tflm_reason", "")
            if o == "crash":
                out[sig] = ("crash", v["ours_detail"], vs)
            elif o == "compiled":
                out[sig] = ("not refused", tflm_reason, vs)
            else:
                out[sig] = ("refused", tflm_reason, vs)
    return out


def _op_of(sig):
    return sig.split("(", 1)[0]


def render(verd, hand, errors) -> tuple:
    counts = defaultdict(int)
    for st, _, _ in verd.values():
        counts[st] += 1
    runs = [s for s, (st, _, _) in verd.items() if st in ("ok", "gap", "wrong", "crash") and st != "refused"]
    runs = [s for s in runs if any(v["tflm"] == "runs" for v in verd[s][2])]
    missed = [s for s in runs if s not in hand]
    ops_probed = sorted({_op_of(s) for s in verd})
    untested = sorted(set(TFLM_BUILTINS) - set(ops_probed))
    summary = (
        f"{len(verd)} operator x type combinations put to TFLite Micro ({sum(len(x[2]) for x in verd.values())} "
        f"models, {len(ops_probed)} builtins); TFLite Micro runs {len(runs)}: {counts['ok']} compile bit-exact, "
        f"{counts['gap']} refused by aotc (known gaps), {counts['wrong']} wrong, {counts['crash']} crash. "
        f"TFLite Micro rejects {counts['refused'] + counts['not refused']}: {counts['refused']} refused by aotc "
        f"too, {counts['not refused']} compiled by aotc anyway. Combinations TFLite Micro runs that no hand-written "
        f"case covered (the old table missed): {len(missed)}."
    )
    L = [
        "# Operator x type coverage, decided by TFLite Micro",
        "",
        "Generated by `python tests/conformance/type_matrix.py --write_coverage tests/conformance/COVERAGE.md`; do "
        "not edit. Every hand-written conformance case (`cases_*.py`, one per operator and type) is rewritten into "
        "every combination of run-time input and output types (float32, int8, uint8, int16, int32, int64, bool; "
        "per-tensor quantization; weights, biases and other constants as the case has them, per-channel where it "
        "does) and put to the `tflite-micro` interpreter. Each combination it runs is compiled by aotc and checked "
        "on the host against it (integers bit-exact); each it rejects must be refused by aotc. "
        "`bazel test //tests/conformance:type_matrix_test` fails when TFLite Micro runs a combination aotc refuses "
        "that `known_gaps.py` does not list (or a listed one starts to compile), and on any wrong output or crash. "
        "Only QUANTIZE, DEQUANTIZE and CAST get every (input, output) type pair; other operators compute in one "
        "type, so their outputs follow the input type (TFLite Micro's kernels do not check the other pairs and "
        "read the buffers as the wrong type).",
        "",
        summary,
        "",
        "## Combinations TFLite Micro runs",
        "",
        "| builtin | run-time inputs -> outputs | aotc | hand case before |",
        "|---|---|---|---|",
    ]
    for sig in sorted(runs):
        st, detail, _ = verd[sig]
        types = sig[len(_op_of(sig)) :]
        cell = "ok (bit-exact)" if st == "ok" else f"**{st}** ({gap_category(detail)}): {detail[:200]}"
        L.append(f"| {_op_of(sig)} | `{types}` | {cell} | {'yes' if sig in hand else '**no**'} |")
    extra = sorted(s for s, (st, _, _) in verd.items() if st == "not refused")
    L += [
        "",
        "## Combinations TFLite Micro rejects that aotc compiles",
        "",
        "Extensions, not failures: aotc's lowerings also serve its ONNX frontend, whose graphs carry these types.",
        "",
    ]
    if extra:
        L += ["| builtin | run-time inputs -> outputs | TFLite Micro's message |", "|---|---|---|"]
        for sig in extra:
            L.append(f"| {_op_of(sig)} | `{sig[len(_op_of(sig)) :]}` | {verd[sig][1][:160]} |")
    else:
        L.append("None.")
    L += ["", "## Builtins no hand-written case reaches (no variant generated)", ""]
    L.append(", ".join(untested) if untested else "None.")
    if errors:
        L += ["", "## Cases the type rewriter could not take", ""]
        L += [f"- {e['op']}/{e['dtype']}: {e['error']}" for e in errors]
    return "\n".join(L) + "\n", summary, missed


def gap_category(detail: str) -> str:
    if "int64" in detail:
        return "int64 at the model boundary: aotc's generated API has no 64-bit types"
    if re.match(r"Operator \d+ \(LOGICAL_(AND|OR)\) mixes element types", detail):
        return (
            "LOGICAL_AND / LOGICAL_OR are defined on bool: TFLite Micro's kernel reads any operand's bytes as bool "
            "without checking its type (kernels/logical_common.cc): int8 2 AND 1 gives false (the bytes are ANDed), "
            "int32 and float32 operands are read byte by byte, not element by element"
        )
    if "never computes" in detail:
        return (
            "TFLite Micro's result is undefined: its int16 GREATER rescales with parameters its Prepare computes for "
            "int8 only (kernels/comparisons.cc), all false in a fresh interpreter"
        )
    if "hybrid" in detail:
        return "float activations with the int8 constants of an int8 case: TFLite Micro runs it without checking"
    return "not supported by aotc yet"


def write_known_gaps(path: str, gaps: dict) -> None:
    with open(path) as f:
        head = f.read().split("KNOWN_GAPS = {", 1)[0]
    L = [head + "KNOWN_GAPS = {"]
    for sig in sorted(gaps):
        detail = " ".join(gaps[sig].split())
        L.append(f"    {json.dumps(sig)}: {json.dumps(gap_category(detail) + '. aotc: ' + detail[:240])},")
    L.append("}")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="regex on OP/dtype of the base cases")
    ap.add_argument("--jobs", type=int, default=max(1, os.cpu_count() or 2))
    ap.add_argument("--write_coverage", metavar="FILE", help="write the generated coverage table (COVERAGE.md)")
    ap.add_argument(
        "--check_coverage", metavar="FILE", help="fail unless FILE is the generated table (a committed COVERAGE.md)"
    )
    ap.add_argument(
        "--write_known_gaps",
        metavar="FILE",
        help="rewrite known_gaps.py from this run: every combination TFLite Micro runs and aotc refuses, with "
        "aotc's message (review the diff: a new entry is a regression unless it is a new variant)",
    )
    ap.add_argument("--out", help="also write the table to this file (e.g. the test's undeclared outputs)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--probe", nargs=2, metavar=("LIST", "RESULTS"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.probe:
        return probe_main(*args.probe)
    from compiler.oracle import tflm_available

    if not tflm_available():
        print("type_matrix: SKIPPED: the tflite-micro interpreter (the oracle) is not installed; run tools/setup.sh")
        return 0
    import time

    times, t0 = [], time.time()

    def lap(name):
        nonlocal t0
        times.append(f"{name} {time.time() - t0:.0f} s")
        t0 = time.time()

    with tempfile.TemporaryDirectory(prefix="aot_tm_") as work:
        variants, errors, hand = generate(work, args.only, args.jobs)
        lap("generate")
        probe(variants, work, args.jobs)
        lap("TFLite Micro")
        ours(variants, args.jobs)
        lap("aotc")
        run_batch(variants, work, args.jobs)
        lap("host build and run")
    verd = verdicts(variants)
    text, summary, _ = render(verd, hand, errors)
    problems = []
    for sig, (st, detail, _) in sorted(verd.items()):
        if st in ("wrong", "crash"):
            problems.append(f"- {st.upper()} {sig}: {detail}")
        elif st == "gap" and sig not in KNOWN_GAPS:
            problems.append(f"- NEW GAP {sig}: TFLite Micro runs it, aotc refuses: {detail}")
    for sig in sorted(KNOWN_GAPS):
        if (args.only is None or re.search(args.only, sig)) and sig in verd and verd[sig][0] == "ok":
            problems.append(f"- STALE known gap {sig}: it compiles bit-exact now; remove it from known_gaps.py")
    if args.check_coverage and args.only is None:
        with open(args.check_coverage) as f:
            if f.read() != text:
                problems.append(
                    f"- {args.check_coverage} is not the table this run generates: regenerate it with "
                    "`python tests/conformance/type_matrix.py --write_coverage tests/conformance/COVERAGE.md`"
                )
    if args.write_known_gaps:
        write_known_gaps(args.write_known_gaps, {s: d for s, (st, d, _) in verd.items() if st == "gap"})
    if args.write_coverage:
        with open(args.write_coverage, "w") as f:
            f.write(text)
    out = args.out or (
        os.path.join(os.environ["TEST_UNDECLARED_OUTPUTS_DIR"], "COVERAGE.md")
        if os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR")
        else None
    )
    if out:
        with open(out, "w") as f:
            f.write(text)
    print(summary if args.quiet else text)
    print("\n".join(problems) if problems else "type_matrix: no problems")
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    print(f"table digest {digest}; " + ", ".join(times))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
