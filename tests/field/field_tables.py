"""Tables of the field conformance suite: per model, per operator and per refusal reason, as markdown and JSON."""

import json
import os
from collections import Counter, defaultdict
from dataclasses import asdict

LABELS = {
    "ok": "ok",
    "refused": "refused",
    "refused_tflm": "refused (TFLM cannot run it either)",
    "wrong": "WRONG",
    "crash": "CRASH",
    "not_refused": "NOT REFUSED (TFLM cannot run it)",
}
ORDER = ("ok", "refused", "refused_tflm", "wrong", "crash", "not_refused")


def _cell(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summary(results: list, passing: list) -> str:
    c = Counter(r.outcome for r in results)
    present = {r.model for r in results}
    base = [m for m in passing if m in present]
    text = (
        f"{len(results)} models: **{c['ok']} ok**, {c['refused']} refused, {c['refused_tflm']} refused (TFLite "
        f"Micro cannot run them either), {c['wrong']} wrong, {c['crash']} crash, {c['not_refused']} not refused "
        f"(compiled although TFLite Micro cannot run them); baseline: {len(base)} must pass."
    )
    qemu = [r for r in results if r.qemu]
    if qemu:
        text += f" QEMU mps2-an386 sample: {sum(r.qemu == 'pass' for r in qemu)} of {len(qemu)} pass."
    return text


def per_model(results: list) -> list:
    lines = ["| model | operators | inputs | result | detail | QEMU | s |", "|---|---|---|---|---|---|---|"]
    for r in results:
        ops = ", ".join(f"{k}×{v}" if v > 1 else k for k, v in sorted(r.ops.items(), key=lambda kv: (-kv[1], kv[0])))
        lines.append(
            f"| `{r.model}` | {_cell(ops, 90)} | {_cell(', '.join(r.inputs), 60)} | {LABELS[r.outcome]} | "
            f"{_cell(r.detail)} | {_cell(r.qemu, 40)} | {r.seconds:.1f} |"
        )
    return lines


def per_operator(results: list) -> list:
    rows = defaultdict(Counter)
    reasons = defaultdict(Counter)
    qemu = defaultdict(Counter)
    for r in results:
        for op in r.ops:
            rows[op]["models"] += 1
            rows[op][r.outcome] += 1
            if r.outcome.startswith("refused"):
                reasons[op][r.reason] += 1
            if r.qemu:
                qemu[op]["pass" if r.qemu == "pass" else "fail"] += 1
    lines = [
        "| operator | models | ok | refused | refused (TFLM cannot either) | wrong | crash or not refused | "
        "QEMU sample (pass/run) | most common refusal of the models using it |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for op in sorted(rows, key=lambda o: (-rows[o]["ok"], -rows[o]["models"], o)):
        s = rows[op]
        q = qemu[op]
        top = reasons[op].most_common(1)
        qemu_cell = f"{q['pass']}/{q['pass'] + q['fail']}" if q else ""
        top_cell = _cell(f"{top[0][0]} ({top[0][1]})", 140) if top else ""
        lines.append(
            f"| {op} | {s['models']} | {s['ok']} | {s['refused']} | {s['refused_tflm']} | {s['wrong']} | "
            f"{s['crash'] + s['not_refused']} | {qemu_cell} | {top_cell} |"
        )
    return lines


def per_reason(results: list) -> list:
    groups = defaultdict(list)
    for r in results:
        if r.outcome.startswith("refused"):
            groups[(r.reason, r.outcome, r.model.endswith(".onnx"))].append(r.model)
    lines = [
        "| refusal (first sentence, names and numbers elided) | TFLM runs it? | models | example |",
        "|---|---|---|---|",
    ]
    for (reason, outcome, onnx), models in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        runs = "– (ONNX)" if onnx else "no" if outcome == "refused_tflm" else "yes"
        lines.append(f"| {_cell(reason, 200)} | {runs} | {len(models)} | `{models[0]}` |")
    return lines


def render(results: list, passing: list, seconds: float) -> str:
    parts = [
        "## Field conformance",
        "",
        summary(results, passing) + f" Host run: {seconds:.0f} s.",
        "",
        "### Per operator",
        "",
    ] + per_operator(results)
    parts += ["", "### Refusal reasons", ""] + per_reason(results)
    parts += ["", "### Per model", ""] + per_model(results)
    return "\n".join(parts)


def write(out_dir: str, text: str, results: list) -> list:
    os.makedirs(out_dir, exist_ok=True)
    md, js = os.path.join(out_dir, "field_conformance.md"), os.path.join(out_dir, "field_conformance.json")
    with open(md, "w") as f:
        f.write(text + "\n")
    with open(js, "w") as f:
        json.dump([asdict(r) for r in results], f, indent=1)
        f.write("\n")
    return [md, js]
