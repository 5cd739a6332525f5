"""Operator conformance: every generated single-operator case (cases_*.py) compiled, run on the host and compared
with the TFLite Micro interpreter, and the operator x type coverage table beside TFLite Micro's builtin list.

    python tests/conformance/op_conformance.py [--only REGEX] [--jobs N] [--out FILE] [--quiet]

Each case module `cases_<family>.py` defines `cases()` returning a list of case.Case. Outcomes per case: ok
(bit-exact integers, floats within the harness tolerance), refused (one clear CompileError/UnsupportedError
paragraph; expected when the case says `refused`), tflm_refuses (the interpreter itself rejects the model), wrong (a
mismatch) or crash (a traceback, a C build failure or a
failed run). The exit status is non-zero on any wrong or crash, and on a case that must be refused but compiles.

The table has one row per TFLite Micro builtin (tflm_builtins.py) and one column per type: "ok" when every case of
that operator and type passed, "refused" when all of them were refused, "-" when no case covers it, "n/a" when
TFLite Micro's reference kernel does not take that type. Coverage counts a builtin as covered in a type when it is
"ok" there.
"""

import argparse
import importlib
import multiprocessing
import os
import re
import sys
import tempfile
import traceback
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
for p in (REPO, HERE, os.path.join(REPO, "tests", "compiler")):
    if p not in sys.path:
        sys.path.insert(0, p)

from tflm_builtins import CUSTOM_KINDS, TFLM_BUILTINS  # noqa: E402

TYPES = ("float32", "int8", "int16", "int32", "bool")
# Cases per host program at most (run_cases).
CHUNK = 40


def discover(only=None) -> list:
    """Keys (module, index) of every case of every cases_*.py module, filtered by `only` on "OP/dtype/name"."""
    out = []
    for fn in sorted(os.listdir(HERE)):
        if fn.startswith("cases_") and fn.endswith(".py"):
            for i, c in enumerate(importlib.import_module(fn[:-3]).cases()):
                if only is None or re.search(only, f"{c.op}/{c.dtype}/{c.name}"):
                    out.append((fn[:-3], i))
    return out


_CASES = None


def _case(key):
    """The case (module name, index in that module's cases()); worker processes build their own list once."""
    global _CASES
    if _CASES is None:
        _CASES = {}
        for fn in sorted(os.listdir(HERE)):
            if fn.startswith("cases_") and fn.endswith(".py"):
                _CASES[fn[:-3]] = importlib.import_module(fn[:-3]).cases()
    return key[0], _CASES[key[0]][key[1]]


def _classify(c, step, *args) -> tuple:
    """(outcome, detail, step's value) of one step of a case: the outcome when the step raises, else the case's
    outcome if this was its last step."""
    from compiler.errors import CompileError, UnsupportedError

    value = None
    try:
        value = step(*args)
        outcome, detail = ("crash", f"compiled, but must be refused ({c.refused})") if c.refused else ("ok", "")
    except (CompileError, UnsupportedError) as e:
        msg = " ".join(str(e).split())
        if c.refused and c.refused not in msg:
            outcome, detail = "crash", f"refused without naming '{c.refused}': {msg}"
        else:
            # A case that must be refused (TFLite Micro rejects it too) counts as conformant.
            outcome, detail = ("ok" if c.refused else "refused"), msg
    except RuntimeError as e:
        # "Interpreter ...": the oracle itself rejects the model (TFLite Micro does not run this operator/type).
        outcome, detail = (
            ("tflm_refuses", " ".join(str(e).split()))
            if "Interpreter" in str(e) or "TFLM" in str(e)
            else ("crash", " | ".join(traceback.format_exc().strip().splitlines()[-3:])[-600:])
        )
    except AssertionError as e:
        outcome, detail = "wrong", " ".join(str(e).split())[:400]
    except Exception:  # noqa: BLE001 - a crash is an outcome to report, not to propagate
        outcome, detail = "crash", " | ".join(traceback.format_exc().strip().splitlines()[-3:])[-600:]
    return outcome, detail, value


def _prepare(d, c, prefix):
    from test_ops_tflite import prepare_tflm_check

    if c.only_extra:
        kw = dict(cases=[list(x) for x in c.extra_inputs])
    else:
        kw = dict(float_range=c.float_range, extra_cases=c.extra_inputs)
    return prepare_tflm_check(d, c.build(), fix_reference=c.fix_reference, prefix=prefix, **kw)


def _finish(check, per_case):
    if isinstance(per_case, Exception):  # its host build or run failed (compiler/host_batch.py)
        raise per_case
    check.finish(per_case)


def run_cases(keys) -> list:
    """(module, op, dtype, name, outcome, detail) per case of keys. Each case is compiled (with a prefix of its
    own) and its inputs drawn; the host runs of all of them are one program (compiler/host_batch.py: one link, one
    process; a model that fails to build or crashes fails alone); then each is compared with TFLite Micro."""
    from pathlib import Path

    from compiler import host_batch

    out = [None] * len(keys)
    prepared = []
    with tempfile.TemporaryDirectory(prefix="aot_conf_") as tmp:
        for n, key in enumerate(keys):
            module, c = _case(key)
            d = Path(tmp) / f"case{n}"
            d.mkdir()
            outcome, detail, check = _classify(c, _prepare, d, c, f"conf{n}")
            if check is None:
                out[n] = (module, c.op, c.dtype, c.name, outcome, detail)
            else:
                prepared.append((n, module, c, check))
        # -O0, as type_matrix.py and tests/compiler/onnx_conformance.py build theirs: the units' build is most of
        # the run (-O2 took half as much CPU again), and the results do not depend on the level.
        got = host_batch.run_many(
            [(check.compiled, check.cases) for *_, check in prepared], work_dir=tmp, cflags=["-O0"]
        )
        for (n, module, c, check), per_case in zip(prepared, got):
            outcome, detail, _ = _classify(c, _finish, check, per_case)
            out[n] = (module, c.op, c.dtype, c.name, outcome, detail)
    return out


def sample_file_name(c) -> str:
    """The QEMU sample's model file for case c: a name Bazel accepts as a target name."""
    return re.sub(r"[^A-Za-z0-9_]+", "_", f"{c.op}__{c.dtype}__{c.name}").strip("_").lower() + ".tflite"


def write_qemu_sample(out_dir) -> list:
    """Save the model of every qemu_sample case into out_dir (replacing the .tflite files there)."""
    os.makedirs(out_dir, exist_ok=True)
    for fn in os.listdir(out_dir):
        if fn.endswith(".tflite"):
            os.remove(os.path.join(out_dir, fn))
    paths = []
    for key in discover():
        _, c = _case(key)
        if c.qemu_sample:
            paths.append(os.path.join(out_dir, sample_file_name(c)))
            with open(paths[-1], "wb") as f:
                f.write(c.build().build())
    return paths


def coverage_table(results) -> tuple:
    """(markdown table, summary line, covered pairs, applicable pairs)."""
    from compiler.ops import supported_ops, supported_tflite_ops

    by = defaultdict(list)
    for _, op, dtype, _, outcome, _ in results:
        by[(op, dtype)].append(outcome)
    compiled = set(supported_tflite_ops()) | {op for op, kind in CUSTOM_KINDS.items() if kind in supported_ops()}
    rows = ["| TFLite Micro builtin | compiler | " + " | ".join(TYPES) + " |", "|---|---|" + "---|" * len(TYPES)]
    covered = applicable = ops_full = 0
    for op in sorted(TFLM_BUILTINS):
        tflm_types = TFLM_BUILTINS[op]
        cells, full = [], True
        for t in TYPES:
            outs = by.get((op, t))
            if t not in tflm_types:
                cells.append(
                    "n/a" if not outs else "extra: " + ("ok" if set(outs) == {"ok"} else "/".join(sorted(set(outs))))
                )
                continue
            applicable += 1
            if not outs:
                cells.append("-")
                full = False
            elif set(outs) == {"ok"}:
                cells.append("ok")
                covered += 1
            else:
                cells.append("/".join(sorted(set(outs))))
                full = False
        ops_full += full and bool(tflm_types)
        rows.append(f"| {op} | {'yes' if op in compiled else 'no'} | " + " | ".join(cells) + " |")
    n = len(results)
    counts = defaultdict(int)
    for r in results:
        counts[r[4]] += 1
    summary = (
        f"{n} cases: {counts['ok']} ok, {counts['refused']} refused, {counts['wrong']} wrong, "
        f"{counts['crash']} crash, {counts['tflm_refuses']} that TFLite Micro itself does not run. "
        f"TFLite Micro builtin x type pairs covered (all cases ok): {covered} of "
        f"{applicable} ({100.0 * covered / max(1, applicable):.1f} %); builtins covered in every type "
        f"TFLite Micro takes: {ops_full} of {sum(1 for v in TFLM_BUILTINS.values() if v)}; compiled by "
        f"aotc: {len(compiled & set(TFLM_BUILTINS))} of {len(TFLM_BUILTINS)}."
    )
    return "\n".join(rows), summary, covered, applicable


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="regex on OP/dtype/case-name")
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2)))
    ap.add_argument("--out", help="also write the table and the failures to this file")
    ap.add_argument("--quiet", action="store_true", help="print only the summary and the failures")
    ap.add_argument(
        "--write_qemu_sample",
        metavar="DIR",
        help="write the models of the cases marked qemu_sample to DIR (tests/conformance/qemu_sample, "
        "run by `bazel test //tests/conformance:qemu_sample`) and exit",
    )
    args = ap.parse_args(argv)
    if args.write_qemu_sample:
        for path in write_qemu_sample(args.write_qemu_sample):
            print(path)
        return 0
    from compiler.oracle import tflm_available

    if not tflm_available():
        print("op_conformance: SKIPPED: the tflite-micro interpreter (the oracle) is not installed; run tools/setup.sh")
        return 0
    items = discover(args.only)
    # Chunks of cases, each one host program: a few per process so the processes finish together.
    size = max(1, min(CHUNK, -(-len(items) // (4 * args.jobs))))
    chunks = [items[k : k + size] for k in range(0, len(items), size)]
    if args.jobs > 1 and len(chunks) > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            results = [r for part in pool.map(run_cases, chunks, chunksize=1) for r in part]
    else:
        results = [r for chunk in chunks for r in run_cases(chunk)]
    table, summary, _, _ = coverage_table(results)
    bad = [r for r in results if r[4] in ("wrong", "crash")]
    refused = [r for r in results if r[4] == "refused"]
    lines = [] if args.quiet else [table, ""]
    lines.append(summary)
    for r in bad:
        lines.append(f"- {r[4].upper()} {r[1]}/{r[2]}/{r[3]} ({r[0]}): {r[5]}")
    if not args.quiet:
        for r in refused:
            lines.append(f"- refused {r[1]}/{r[2]}/{r[3]}: {r[5][:200]}")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
