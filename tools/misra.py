"""MISRA C:2012 compliance report of the C runtime and of generated model code (cppcheck's MISRA addon).

What a safety team asks a supplier for: every finding per rule with the rule's category, and for every rule that
still has findings a deviation record (rule, where, why, why it is safe). The records live in docs/misra.md, in its
"Deviation records" table; this tool reads them, runs the checker, and fails when a finding is covered by no record.

The CRT is checked once per preprocessor view a core sees (its sources, and the public headers none of them
includes) (portable: Cortex-M0/M3; dsp: the DSP extension of the
M4/M7/M33; mve: Helium on the M55), with GCC's predefined feature macros, since each view compiles different code.
Generated code is checked on the models this checkout can compile: the shared models when they are beside the
checkout (../shared/models or $AOT_MODELS_DIR), else the networks tests/models generates, for the M4 and the M55;
only findings located in the generated files count there (the CRT headers they include are the CRT's findings).
Generated code must have no finding of a Required or Mandatory rule at all: a deviation record does not cover one
there (what the compiler emits can always be changed instead; the one conversion its checks need is the CRT's
aot_is_aligned), and docs/misra.md may record only Advisory rules for `generated/*`.

    tools/misra.py                 # report to stdout, exit 1 on a finding with no deviation record
    tools/misra.py --report FILE   # also write the per-rule table as markdown
    tools/misra.py --part crt      # the CRT only (or: --part generated)

Rule categories (Mandatory / Required / Advisory) are those MISRA C:2012 with its amendments assigns; the rule
texts are MISRA's and are not reproduced here.
"""

import argparse
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ADDON_DIRS = [
    "/usr/lib/x86_64-linux-gnu/cppcheck/addons",
    "/usr/lib/aarch64-linux-gnu/cppcheck/addons",
    "/usr/share/cppcheck/addons",
]

# MISRA C:2012 (Amendments 1-4) rule -> category: M(andatory), R(equired), A(dvisory).
_CATEGORY_RUNS = {
    "1": "RARRR",
    "2": "RRAAAAAA",
    "3": "RR",
    "4": "RA",
    "5": "RRRRRRRRA",
    "6": "RRR",
    "7": "RRRRMR",
    "8": "RRRRRRARARARARRAA",
    "9": "MRRRRRM",
    "10": "RRRRARRR",
    "11": "RRRAARRRRR",
    "12": "ARAAMR",
    "13": "RRAARM",
    "14": "RRRR",
    "15": "ARRAARR",
    "16": "RRRRRRR",
    "17": "RRMMAMRAMRAAR",
    "18": "RRRAARRRRM",
    "19": "MA",
    "20": "ARRRARRRRARRRR",
    "21": "RRRRRRRRRRRAMRRRMMMMRRRR",
    "22": "RMRMMMRRRR",
    "23": "AAAARRRR",
}
CATEGORY = {
    f"{sec}.{i + 1}": {"M": "Mandatory", "R": "Required", "A": "Advisory"}[c]
    for sec, run in _CATEGORY_RUNS.items()
    for i, c in enumerate(run)
}

CRT_VIEWS = {
    "portable": [],
    "dsp": ["-D__ARM_FEATURE_DSP=1", "-D__ARM_FEATURE_SAT=1"],
    "mve": ["-D__ARM_FEATURE_DSP=1", "-D__ARM_FEATURE_SAT=1", "-D__ARM_FEATURE_MVE=3"],
}
MODEL_TARGETS = ("cortex-m4", "cortex-m55")
_FINDING = re.compile(r"^(.+?):(\d+):(\S+)$")


def addon_dir():
    for d in ADDON_DIRS:
        if os.path.exists(os.path.join(d, "misra.py")):
            return d
    return None


def cppcheck(paths, defines, includes, jobs):
    """[(file relative to ROOT or as given, line, id)] of cppcheck + MISRA addon over `paths`."""
    with tempfile.TemporaryDirectory() as build_dir:  # its dump files, which would otherwise land beside the sources
        return _cppcheck(paths, defines, includes, jobs, build_dir)


def _cppcheck(paths, defines, includes, jobs, build_dir):
    cmd = [
        "cppcheck",
        "--addon=misra",
        # The addon runs once per file and view: started through `python3` on PATH it can be a version manager's
        # shell shim (pyenv: ~0.1 s of CPU a start, ~25 s a report); this interpreter is a real one.
        f"--addon-python={sys.executable}",
        "--std=c99",
        "--quiet",
        f"-j{jobs}",
        f"--cppcheck-build-dir={build_dir}",
        "-D__GNUC__=12",
        "--template={file}:{line}:{id}",
    ]
    cmd += defines + [f"-I{i}" for i in includes] + list(paths)
    res = subprocess.run(cmd, capture_output=True, text=True)
    found = []
    for line in res.stderr.splitlines():
        m = _FINDING.match(line.strip())
        if not m:
            continue
        path = os.path.relpath(os.path.abspath(m.group(1)), ROOT)
        found.append((path, int(m.group(2)), m.group(3)))
    return found


_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


_FEATURE_MACRO = re.compile(r"__ARM_FEATURE_\w+")


def feature_macros(path, includes, seen=None) -> set:
    """The __ARM_FEATURE_ macros a source, or a header of ours it includes (transitively), names."""
    seen = set() if seen is None else seen
    if path in seen:
        return set()
    seen.add(path)
    with open(path, errors="replace") as f:
        text = f.read()
    names = set(_FEATURE_MACRO.findall(text))
    for name in _INCLUDE.findall(text):
        for d in [os.path.dirname(path)] + includes:
            cand = os.path.join(d, name)
            if os.path.exists(cand):
                names |= feature_macros(cand, includes, seen)
                break
    return names


def uses_feature_macros(path, includes) -> bool:
    """Whether a source, or a header of ours it includes (transitively), tests an __ARM_FEATURE_ macro."""
    return bool(feature_macros(path, includes))


def included_headers(sources, includes) -> set:
    """The headers of ours that the sources include, directly or through other headers."""
    seen, todo = set(), list(sources)
    while todo:
        path = todo.pop()
        with open(path, errors="replace") as f:
            text = f.read()
        for name in _INCLUDE.findall(text):
            for d in [os.path.dirname(path)] + includes:
                cand = os.path.normpath(os.path.join(d, name))
                if os.path.exists(cand):
                    if cand not in seen:
                        seen.add(cand)
                        todo.append(cand)
                    break
    return seen


def view_files(sources, includes, views=CRT_VIEWS):
    """{view: the sources to check in it}: a source is checked in a view only when the view's macros that the
    source names differ from those of every view before it (otherwise its preprocessed text, and so its
    findings, are those of that earlier view): every source in the portable view, in the DSP view those naming
    a DSP/SAT macro, in the MVE view those naming the MVE macro."""
    names = {f: feature_macros(f, includes) for f in sources}
    out, seen = {}, {f: [] for f in sources}
    for view, defines in views.items():
        defined = {d[2:].split("=")[0] for d in defines if d.startswith("-D")}
        out[view] = []
        for f in sources:
            key = defined & names[f]
            if key not in seen[f]:
                seen[f].append(key)
                out[view].append(f)
    return out


def rule_of(finding_id: str) -> str:
    """'misra-c2012-12.1' -> '12.1'; cppcheck's own checks keep their name ('nullPointer')."""
    return finding_id.split("misra-c2012-")[-1]


def read_deviations(path):
    """The rows of docs/misra.md's deviation table: (rule, path glob, why, why safe)."""
    rows, inside = [], False
    with open(path) as f:
        for line in f:
            if line.startswith("## "):
                inside = line.strip() == "## Deviation records"
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if (
                not inside
                or not line.startswith("|")
                or len(cells) < 4
                or cells[0] in ("rule", "")
                or "---" in cells[0]
            ):
                continue
            rows.append((cells[0].strip("`"), cells[1].strip("`"), cells[2], cells[3]))
    return rows


def covered(rule, path, deviations):
    return any(r == rule and fnmatch.fnmatch(path, glob) for r, glob, _, _ in deviations)


def binding(rule) -> bool:
    """Whether a rule is Required or Mandatory (the ones generated code may not break, recorded or not)."""
    return CATEGORY.get(rule) in ("Required", "Mandatory")


def unrecordable(findings):
    """The findings no deviation record can cover: those of generated code under a Required or Mandatory rule."""
    return [(p, line, fid) for p, line, fid in findings if p.startswith("generated/") and binding(rule_of(fid))]


def generated_records_of_binding_rules(deviations):
    """The deviation records for generated code that name a Required or Mandatory rule (there must be none)."""
    return [row for row in deviations if row[1].startswith("generated/") and binding(row[0])]


def model_files():
    """The models to compile for the generated-code part, and what set they are."""
    shared = os.environ.get("AOT_MODELS_DIR") or os.path.join(os.path.dirname(ROOT), "shared", "models")
    names = ["kws_ref_model", "pretrainedResnet_quant", "ad01_int8", "micro_speech_quantized", "trained_lstm_int8"]
    if all(os.path.exists(os.path.join(shared, n + ".tflite")) for n in names):
        # Every shared model: the five above and the small ones (a few seconds more).
        names += ["keyword_scrambled_8bit", "hello_world_int8", "hello_world_float"]
        found = [os.path.join(shared, n + ".tflite") for n in names]
        return [p for p in found if os.path.exists(p)], "shared models"
    gen = os.path.join(ROOT, "tests", "models")
    names = ["kws_ds_cnn_int8", "ad_autoencoder_int8", "lstm_int8_extremes", "decoder_int16", "eltwise_int8"]
    return [os.path.join(gen, n + ".tflite") for n in names if os.path.exists(os.path.join(gen, n + ".tflite"))], (
        "generated models (tests/models; the shared models are not beside this checkout)"
    )


def generated_findings(out_dir, jobs):
    aotc = os.path.join(ROOT, ".venv", "bin", "aotc")
    aotc_cmd = [aotc] if os.path.exists(aotc) else [sys.executable, "-m", "compiler"]
    models, which = model_files()
    found = []
    smallest = min(models, key=os.path.getsize)
    for target in MODEL_TARGETS:
        for model in models:
            prefix = re.sub(r"\W", "_", os.path.basename(model).split(".")[0]).lower()
            d = os.path.join(out_dir, target, prefix)
            os.makedirs(d, exist_ok=True)
            subprocess.run(
                aotc_cmd + ["compile", model, "--prefix", prefix, "--out_dir", d, "--target", target],
                check=True,
                capture_output=True,
                cwd=ROOT,
            )
            defines = CRT_VIEWS["mve" if target == "cortex-m55" else "dsp"]
            # The weights file is const arrays in one fixed form for every model (and megabytes of tokens for
            # the addon): it is checked for the model with the smallest one, the code of every model.
            srcs = sorted(
                os.path.join(d, f) for f in os.listdir(d) if f.endswith(".c") and not f.endswith("_weights.c")
            )
            if model == smallest:
                srcs.append(os.path.join(d, f"{prefix}_weights.c"))
            for path, line, fid in cppcheck(srcs, defines, [d, os.path.join(ROOT, "crt", "include")], jobs):
                if os.path.abspath(os.path.join(ROOT, path)).startswith(os.path.abspath(d)):
                    found.append((f"generated/{target}/{os.path.basename(path)}", line, fid))
    return found, which, len(models)


def table(findings, deviations, kloc):
    """Markdown per-rule table: rule, category, findings, per 1,000 lines, covered by a deviation record."""
    by_rule = defaultdict(list)
    for path, _, fid in findings:
        by_rule[rule_of(fid)].append(path)
    lines = ["| rule | category | findings | per 1,000 lines | without a deviation record |", "|---|---|---|---|---|"]

    def key(r):
        return [int(x) if x.isdigit() else 0 for x in r.split(".")] if r[0].isdigit() else [999]

    for rule in sorted(by_rule, key=key):
        paths = by_rule[rule]
        open_ = sum(1 for p in paths if not covered(rule, p, deviations))
        cat = CATEGORY.get(rule, "cppcheck check")
        lines.append(f"| {rule} | {cat} | {len(paths)} | {len(paths) / kloc:.1f} | {open_} |")
    return "\n".join(lines)


def code_lines(paths):
    n = 0
    for p in paths:
        with open(p, errors="replace") as f:
            n += sum(1 for line in f if line.strip() and not line.strip().startswith(("/*", "*", "//")))
    return n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--report", help="write the per-rule tables (markdown) to this file")
    ap.add_argument("--part", choices=("all", "crt", "generated"), default="all", help="what to check")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args(argv)
    if shutil.which("cppcheck") is None or addon_dir() is None:
        print(
            "misra: cppcheck with its MISRA addon is not installed (Debian: apt-get install cppcheck)", file=sys.stderr
        )
        return 2
    deviations = read_deviations(os.path.join(ROOT, "docs", "misra.md"))
    crt_src = os.path.join(ROOT, "crt", "src")
    crt_files = [
        os.path.join(d, f)
        for d, _, fs in os.walk(os.path.join(ROOT, "crt"))
        for f in fs
        if f.endswith((".c", ".h")) and "/tests" not in d
    ]
    includes = [os.path.join(ROOT, "crt", "include"), os.path.join(crt_src, "kernels")]
    crt = set()
    views = CRT_VIEWS if args.part != "generated" else {}
    sources = sorted(f for f in crt_files if f.endswith(".c"))
    # A public header no CRT source includes (the boundary's aot/align.h, the user-kernel ABI) is code only the
    # generated or the user's C compiles: it is checked as a file of its own.
    reached = included_headers(sources, includes)
    sources += sorted(
        f for f in crt_files if f.endswith(".h") and "/include/" in f and os.path.normpath(f) not in reached
    )
    # The portable view reads every file; a core's view only the files whose code its macros change.
    per_view = view_files(sources, includes, views)
    for view, defines in views.items():
        files = per_view[view]
        for f in cppcheck(files, defines, includes, args.jobs):
            crt.add(f)
        print(f"misra: CRT, {view} view ({len(files)} files): {len(crt)} distinct findings so far", file=sys.stderr)
    crt = sorted(crt)
    crt_kloc = code_lines(crt_files) / 1000
    out = []
    if views:
        out += [
            f"## CRT ({crt_kloc * 1000:.0f} code lines, views {', '.join(views)}): {len(crt)} findings",
            "",
            table(crt, deviations, crt_kloc),
            "",
        ]
    gen = []
    if args.part != "crt":
        with tempfile.TemporaryDirectory() as tmp:
            gen, which, count = generated_findings(tmp, args.jobs)
            gen_files = [
                os.path.join(d, f)
                for d, _, fs in os.walk(tmp)
                for f in fs
                if f.endswith(".c") and not f.endswith("_weights.c")
            ]
            gen_kloc = max(code_lines(gen_files), 1) / 1000
        required = sum(1 for _, _, fid in gen if binding(rule_of(fid)))
        out += [
            f"## Generated code: {count} {which} on {', '.join(MODEL_TARGETS)} ({gen_kloc * 1000:.0f} code "
            f"lines): {len(gen)} findings, {required} of Required or Mandatory rules",
            "",
            table(gen, deviations, gen_kloc),
            "",
        ]
    uncovered = [(p, line, fid) for p, line, fid in crt + gen if not covered(rule_of(fid), p, deviations)]
    text = "\n".join(out)
    print(text)
    if args.report:
        with open(args.report, "w") as f:
            f.write(text + "\n")
    bad_records = generated_records_of_binding_rules(deviations)
    if bad_records:
        print(
            "misra: docs/misra.md records Required/Mandatory rules for generated code, which must have none: "
            + ", ".join(f"{r} ({w})" for r, w, _, _ in bad_records),
            file=sys.stderr,
        )
        return 1
    forbidden = unrecordable(gen)
    if forbidden:
        counts = Counter(rule_of(fid) for _, _, fid in forbidden)
        print(
            f"misra: generated code has {len(forbidden)} finding(s) of Required/Mandatory rules, which must be 0 "
            f"({', '.join(f'{r} x{n}' for r, n in counts.most_common())}); first ones:",
            file=sys.stderr,
        )
        for p, line, fid in forbidden[:20]:
            print(f"  {p}:{line}: {fid}", file=sys.stderr)
        return 1
    if uncovered:
        counts = Counter(rule_of(fid) for _, _, fid in uncovered)
        print(
            f"misra: {len(uncovered)} finding(s) with no deviation record in docs/misra.md "
            f"({', '.join(f'{r} x{n}' for r, n in counts.most_common())}); first ones:",
            file=sys.stderr,
        )
        for p, line, fid in uncovered[:20]:
            print(f"  {p}:{line}: {fid}", file=sys.stderr)
        return 1
    print("misra: every finding is covered by a deviation record", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
