"""Wild conformance (issue 26 item 6): real published models from package registries and public repositories.

    python tests/wild/wild_conformance.py [--models_dir DIR] [--only REGEX] [--count N] [--update_expect]

The models are those of manifest.json, brought into a cache outside the repository by fetch_models.py (tools/setup.sh
runs it); `--models_dir`, else $AOT_WILD_DIR/models, else ~/.cache/aot_rules/wild/models (under Bazel: the
@wild_models repository, tests/wild/wild_models.bzl). A model absent from the cache (its package could not be
downloaded, or it comes from a repository mirror only a developer's machine has) is listed as absent; with no model
at all the suite says so and passes.

Each model goes through the field corpus's machinery (tests/field/field_conformance.py: compile for the host, run on
seeded inputs, compare): a .tflite with TFLite Micro, integer outputs bit-exact; a .onnx with onnxruntime within
compiler.oracle.output_tolerances. The manifest's `options` give a model the `aotc` shape flags a user would pass
(`--freeze_input`, `--dim`, `--input_shape`). Models are grouped as in issue 26: TFLite that TFLite Micro runs,
TFLite it cannot run (the compiler must refuse those), ONNX. The run fails on any wrong / crash / not refused
outcome, and when a model whose manifest entry says `"expect": "ok"` no longer passes (`--update_expect` rewrites
those marks from this run).
"""

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
FIELD = os.path.join(os.path.dirname(HERE), "field")
for p in (HERE, FIELD):
    if p not in sys.path:
        sys.path.insert(0, p)

import fetch_models  # noqa: E402
import field_conformance  # noqa: E402
import field_tables  # noqa: E402
import manifest_md  # noqa: E402

GROUPS = manifest_md.GROUPS


def default_models_dir() -> str:
    if os.environ.get("TEST_SRCDIR"):  # under Bazel: the @wild_models repository (wild_models.bzl)
        return os.path.join(os.environ["TEST_SRCDIR"], "wild_models", "models")
    return os.path.join(fetch_models.default_dir(), "models")


def group(r) -> str:
    if r.model.endswith(".onnx"):
        return GROUPS[2]
    return GROUPS[1] if r.outcome in ("refused_tflm", "not_refused") else GROUPS[0]


def group_table(results: list, entries: dict) -> list:
    """Issue 26's table: per group, models / ok / refused / wrong (crash and not refused counted as wrong)."""
    lines = ["| group | models | ok | refused | wrong |", "|---|---|---|---|---|"]
    for g in GROUPS:
        c = Counter(r.outcome for r in results if group(r) == g)
        bad = c["wrong"] + c["crash"] + c["not_refused"]
        lines.append(f"| {g} | {sum(c.values())} | {c['ok']} | {c['refused'] + c['refused_tflm']} | {bad} |")
    return lines


def domain_table(results: list, entries: dict) -> list:
    lines = ["| domain | models | TFLite | ONNX | ok | refused | wrong |", "|---|---|---|---|---|---|---|"]
    domains = sorted({entries[r.model]["domain"] for r in results})
    for d in domains:
        rs = [r for r in results if entries[r.model]["domain"] == d]
        c = Counter(r.outcome for r in rs)
        onnx = sum(r.model.endswith(".onnx") for r in rs)
        lines.append(
            f"| {d} | {len(rs)} | {len(rs) - onnx} | {onnx} | {c['ok']} | {c['refused'] + c['refused_tflm']} | "
            f"{c['wrong'] + c['crash'] + c['not_refused']} |"
        )
    return lines


def render(results: list, entries: dict, absent: list, seconds: float) -> str:
    parts = ["## Wild conformance", "", field_tables.summary(results, []) + f" Host run: {seconds:.0f} s.", ""]
    parts += ["### Per group (issue 26)", ""] + group_table(results, entries)
    parts += ["", "### Per domain", ""] + domain_table(results, entries)
    parts += ["", "### Refusal reasons", ""] + field_tables.per_reason(results)
    parts += ["", "### Per model", ""] + field_tables.per_model(results)
    if absent:
        parts += ["", "### Not checked", ""] + [f"- `{name}`: {why}" for name, why in absent]
    return "\n".join(parts)


def ci_sample(root: str, models: list, max_bytes: int) -> tuple:
    """(models to check, [(model, why not)]): for CI, one model per operator-and-input signature (the smallest
    file: the others are retrained variants of the same network, which test nothing more) and none over
    `max_bytes` (their C takes most of the time; the full run checks them)."""
    kept, left, seen = [], [], {}
    for m in sorted(models, key=lambda m: (os.path.getsize(os.path.join(root, m)), m)):
        path = os.path.join(root, m)
        ops, inputs = (field_conformance.describe_onnx if m.endswith(".onnx") else field_conformance.describe)(path)
        key = (tuple(sorted(ops.items())), tuple(inputs))
        if key in seen:
            left.append((m, f"CI sample: the same operators and inputs as {seen[key]}"))
        elif os.path.getsize(path) > max_bytes:
            left.append((m, f"CI sample: over {max_bytes:,} bytes (the full run checks it)"))
        else:
            seen[key] = m
            kept.append(m)
    return [m for m in models if m in kept], left


def update_expect(results: list, path: str = fetch_models.MANIFEST) -> int:
    """Records each model's outcome (`expect`, and `reason` for a refusal) in the manifest and regenerates
    MANIFEST.md; returns how many are `ok`."""
    with open(path) as f:
        doc = json.load(f)
    by_name = {r.model: r for r in results}
    for e in doc["models"]:
        r = by_name.get(e["name"])
        if r is None:
            continue
        e.pop("reason", None)
        e["expect"] = r.outcome
        if r.outcome.startswith("refused"):
            e["reason"] = r.detail
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    manifest_md.write(doc)
    return sum(e.get("expect") == "ok" for e in doc["models"])


def failures(results: list, entries: dict) -> list:
    """Bad outcomes, and models the manifest records `ok` that no longer pass."""
    msgs = field_conformance.failures(results, [])
    msgs += [
        f"{r.model}: recorded ok in manifest.json but is now {r.outcome}: {r.detail}"
        for r in results
        if entries[r.model].get("expect") == "ok" and r.outcome != "ok"
    ]
    return msgs


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models_dir", default="", help="the cache's models/ (default: see the module docstring)")
    p.add_argument("--only", default="", help="regular expression: only models whose manifest name matches")
    p.add_argument("--count", type=int, default=2, help="seeded input cases per model")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=0, help="worker processes (default: the number of CPUs, at most 4)")
    p.add_argument("--out_dir", default="", help="where the tables go (default: $TEST_UNDECLARED_OUTPUTS_DIR or /tmp)")
    p.add_argument("--update_expect", action="store_true", help="mark the models passing now `expect: ok`")
    p.add_argument("--quiet", action="store_true", help="no per-model progress lines")
    p.add_argument(
        "--ci_sample",
        type=int,
        default=0,
        metavar="MAX_BYTES",
        help="check one model per operator/input signature, none larger than MAX_BYTES (the Bazel test's budget)",
    )
    flags = p.parse_args(argv)

    root = flags.models_dir or default_models_dir()
    entries = {e["name"]: e for e in fetch_models.load_manifest() if not flags.only or re.search(flags.only, e["name"])}
    absent, models = [], []
    for name, e in entries.items():
        if e.get("skip"):
            absent.append((name, "skipped: " + e["skip"]))
        elif not os.path.isfile(os.path.join(root, name)):
            absent.append((name, f"not in the cache ({e['source']}; tests/wild/fetch_models.py brings it)"))
        else:
            models.append(name)
    if not models:
        print(
            f"wild conformance: SKIPPED: none of the {len(entries)} manifest models is under '{os.path.abspath(root)}'"
            " (run tests/wild/fetch_models.py, which tools/setup.sh runs, or set --models_dir / $AOT_WILD_DIR)."
        )
        return 0
    if flags.ci_sample:
        models, left = ci_sample(root, models, flags.ci_sample)
        absent += left
    if flags.update_expect and (flags.only or flags.ci_sample):
        print("wild conformance: --update_expect records the whole corpus (no --only / --ci_sample).", file=sys.stderr)
        return 2
    jobs = flags.jobs or max(1, min(4, os.cpu_count() or 1))
    print(
        f"wild conformance: {len(models)} models under {os.path.abspath(root)}, {flags.count} cases each, "
        f"{jobs} workers"
    )
    for name, why in absent:
        print(f"  not checked: {name}: {why}")
    options = {m: entries[m].get("options", {}) for m in models}
    log = (lambda *_: None) if flags.quiet else print
    start = time.time()
    results = field_conformance.run_suite(root, models, jobs, flags.count, flags.seed, log=log, options=options)
    seconds = time.time() - start
    if flags.update_expect:
        print(f"wild conformance: outcomes recorded in manifest.json and MANIFEST.md ({update_expect(results)} ok)")
    out_dir = (
        flags.out_dir
        or os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR")
        or os.path.join(tempfile.gettempdir(), "aot_wild_conformance")
    )
    text = render(results, entries, absent, seconds)
    os.makedirs(out_dir, exist_ok=True)
    md = os.path.join(out_dir, "wild_conformance.md")
    with open(md, "w") as f:
        f.write(text + "\n")
    with open(os.path.join(out_dir, "wild_conformance.json"), "w") as f:
        json.dump([vars(r) for r in results], f, indent=1)
    print(text)
    print("tables written to " + md)
    bad = failures(results, entries)
    if bad:
        print("\nWILD CONFORMANCE FAILED:\n" + "\n".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
