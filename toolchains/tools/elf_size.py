"""Image report of a linked firmware ELF (an output of every aot_firmware): sizes, who uses them, stack per model.

Three views: section totals (text, rodata, data, bss, stack and heap reservations; flash and RAM totals against the
board), attribution to each model, the CRT and the rest by symbol prefix (image_report), and the worst-case stack of
each model's `<prefix>_run` from the linked code (stack_usage). Also enforces the firmware's flash/RAM budgets: an
exceeded budget fails the build with the three largest contributors.
"""

import json
import struct
import sys

from absl import app, flags

from compiler.budgets import parse_bytes
from compiler.errors import CompileError
from compiler.report import cost_model
from toolchains.tools.elf_file import (
    SHF_ALLOC,
    read_alloc_sections,
    read_marker_symbols,
    read_sections,
    read_symbols,
    section_kind,
    unique_symbols,
)
from toolchains.tools.image_report import attribute, owner_json, render_owners
from toolchains.tools.regions import (
    parse_region,
    placed_kinds,
    region_budget_problems,
    region_rows,
    render_placed,
    render_regions,
    total_capacity,
    usage,
)
from toolchains.tools.stack_usage import estimate

FLAGS = flags.FLAGS
flags.DEFINE_string("elf", None, "Linked ELF file.", required=True)
flags.DEFINE_string("name", "", "Name shown in the report.")
flags.DEFINE_string("board", "", "Board name shown in the report.")
flags.DEFINE_integer(
    "flash_bytes", 0, "Flash size of the board (the code region; the report sums the read-only regions in use)."
)
flags.DEFINE_integer(
    "ram_bytes", 0, "RAM size of the board (the RAM region; the report sums the writable regions in use)."
)
flags.DEFINE_string("json_out", None, "Where to write the JSON report.")
flags.DEFINE_string("text_out", None, "Where to write the human-readable report.")
flags.DEFINE_string("flash_budget", "", "Fail if flash_total exceeds this (e.g. 256K).")
flags.DEFINE_string("ram_budget", "", "Fail if ram_total exceeds this (e.g. 64K).")
flags.DEFINE_string("objdump", "", "objdump of the board's toolchain (for the stack estimate).")
flags.DEFINE_multi_string("model", [], "PREFIX=MANIFEST.json of a model linked into the image.")
flags.DEFINE_string("core", "", "The board's core (the inference-time estimate).")
flags.DEFINE_integer("clock_hz", 0, "The board's clock in Hz (0: unknown): the inference-time estimate.")
flags.DEFINE_multi_string("region", [], "NAME:ORIGIN:LENGTH:ATTRIBUTES of a memory region of the board.")
flags.DEFINE_multi_string("placement", [], "KIND=REGION: where the firmware placed weights, workspace, state, io.")
flags.DEFINE_multi_string("region_budget", [], "REGION=BUDGET (e.g. DTCM=48K): fail if the region holds more.")
flags.DEFINE_string(
    "stack_bounds_out",
    None,
    "Write each model's static stack bound here, one line `PREFIX_run BYTES` (`PREFIX_run unbounded BYTES WHY` for "
    "a lower bound only): what a QEMU model test holds the run's measured stack to (stack_peak_check.sh).",
)
flags.DEFINE_string(
    "problems_out",
    None,
    "Write the exceeded budgets here (empty: none) and exit 0, instead of failing: aot_firmware's budget check "
    "(budget_check.sh) prints them, so that the report itself is always built.",
)


def budget_problems(report, symbols, flash_budget: str, ram_budget: str):
    """One message per exceeded budget, naming the budget, the figure and the three largest contributors."""
    problems = []
    for key, budget_text, region in (("flash_total", flash_budget, "flash"), ("ram_total", ram_budget, "ram")):
        if not budget_text:
            continue
        budget = parse_bytes(budget_text, f"{region}_budget")
        if report[key] <= budget:
            continue
        items = [(sym.size, sym.name) for sym in symbols if (sym.in_flash if region == "flash" else sym.in_ram)]
        if region == "ram" and report["stack"]:
            items.append((report["stack"], "the stack reservation"))
        top = sorted(items, key=lambda x: (-x[0], x[1]))[:3]
        problems.append(
            f"{report['name']} is over its {region}_budget of {budget} B ({budget_text}): {key} is {report[key]} B. "
            f"Largest contributors: " + "; ".join(f"{name} ({size} B)" for size, name in top) + "."
        )
    return problems


def classify(sections):
    """Sums section sizes into the report's categories."""
    totals = {"text": 0, "rodata": 0, "data": 0, "bss": 0, "heap": 0, "stack": 0}
    for name, sh_type, sh_flags, size in sections:
        if not sh_flags & SHF_ALLOC:
            continue
        if name in (".heap", ".stack"):
            totals[name[1:]] += size
        else:
            totals[section_kind(sh_type, sh_flags)] += size
    totals["flash_total"] = totals["text"] + totals["rodata"] + totals["data"]
    totals["ram_total"] = totals["data"] + totals["bss"] + totals["stack"]
    return totals


def render(report):
    """The human-readable table."""
    lines = [f"{report['name']} on {report['board']}"]
    for key in ("text", "rodata", "data", "bss", "stack", "heap"):
        lines.append(f"  {key:<12}{report[key]:>10} B")
    for key, cap, names in (
        ("flash_total", "flash_bytes", "flash_regions"),
        ("ram_total", "ram_bytes", "ram_regions"),
    ):
        of = " + ".join(report.get(names) or [])
        of = f"{of}: {report[cap]} B" if of else f"{report[cap]} B"
        pct = f"  ({100.0 * report[key] / report[cap]:.1f} % of {of})" if report[cap] else ""
        lines.append(f"  {key:<12}{report[key]:>10} B{pct}")
    lines.append("  (flash = text + rodata + data load image; RAM = data + bss + stack; heap = rest of RAM)")
    if report.get("regions"):
        lines.append("  (each total is a share of the regions that hold it; each region's own share is below)")
    text = "\n".join(lines) + "\n"
    if report.get("regions"):
        text += "\n" + render_regions(report["regions"]) + render_placed(report.get("placed", {}))
    if report.get("owners"):
        text += "\n" + render_owners(report["owners_detail"])
    estimates = sorted(report.get("inference_estimate", {}).items())
    if estimates:
        text += "\n" + "".join(inference_line(prefix, est, report["board"]) + "\n" for prefix, est in estimates)
    return text


def inference_estimate(models: dict, clock_hz: int) -> dict:
    """prefix -> {instructions, clock_hz, milliseconds}: the cost model's estimate (compiler/report/cost_model.py)
    of each linked model's inference on the core it was compiled for; models of an uncalibrated core are left out."""
    out = {}
    for prefix, manifest in models.items():
        est = cost_model.estimate(manifest)
        if est is not None:
            ms = 1000.0 * est["total"] / clock_hz if clock_hz else None
            out[prefix] = {"instructions": est["total"], "clock_hz": clock_hz, "milliseconds": ms, "core": est["core"]}
    return out


def inference_line(prefix: str, est: dict, board: str) -> str:
    line = (
        f"inference of {prefix} (ESTIMATE, cost model, for -O2 code): about {est['instructions']:,} instructions on "
        f"{est['core']}"
    )
    if est["clock_hz"]:
        return line + (
            f", about {est['milliseconds']:,.2f} ms at {est['clock_hz'] / 1e6:g} MHz if the core retires one "
            "instruction per cycle (wait states and stalls add to it)"
        )
    return line + f" (set aot_board(clock_hz = ...) of {board} for a time)"


def stack_bounds_text(models: dict, stacks: dict) -> str:
    """The `--stack_bounds_out` lines: one per linked model, `PREFIX_run BYTES`, or `PREFIX_run unbounded BYTES
    WHY` (an indirect call or recursion: the figure is a lower bound), or `PREFIX_run none` (no such function in the
    image, or no objdump to read it)."""
    lines = []
    for prefix in sorted(models):
        est = stacks.get(prefix + "_run")
        if est is None:
            lines.append(f"{prefix}_run none")
        elif est.unbounded:
            lines.append(f"{prefix}_run unbounded {est.bytes} {' '.join(est.unbounded.split())}")
        else:
            lines.append(f"{prefix}_run {est.bytes}")
    return "".join(line + "\n" for line in lines)


def _models():
    models = {}
    for spec in FLAGS.model:
        prefix, _, path = spec.partition("=")
        with open(path) as f:
            models[prefix] = json.load(f)
    return models


def main(argv):
    del argv
    with open(FLAGS.elf, "rb") as f:
        data = f.read()
    try:
        report = classify(read_sections(data))
        symbols = list(unique_symbols(read_symbols(data)))
        sections = list(read_alloc_sections(data))
        markers = read_marker_symbols(data, "__aot_")
    except (ValueError, struct.error, IndexError) as e:
        sys.exit(f"elf_size: {FLAGS.elf}: {e}")
    regions = [parse_region(spec) for spec in FLAGS.region]
    placement = dict(spec.split("=", 1) for spec in FLAGS.placement)
    budget_texts = dict(spec.split("=", 1) for spec in FLAGS.region_budget)
    try:
        budgets = {r: parse_bytes(t, f"region_budgets[{r}]") for r, t in budget_texts.items()}
    except CompileError as e:
        # Reported with the other problems once the report is written (every output must exist).
        budgets, budget_texts, bad_budget = {}, {}, [str(e)]
    else:
        bad_budget = []
    rows = region_rows(regions, usage(regions, sections), budgets, placement)
    models = _models()
    stacks = estimate(FLAGS.objdump, FLAGS.elf, [p + "_run" for p in models]) if FLAGS.objdump and models else {}
    owners = attribute(symbols, models, stacks)
    flash_regions, flash_bytes = total_capacity(rows, writable=False)
    ram_regions, ram_bytes = total_capacity(rows, writable=True)
    report.update(
        name=FLAGS.name,
        board=FLAGS.board,
        flash_bytes=flash_bytes or FLAGS.flash_bytes,
        ram_bytes=ram_bytes or FLAGS.ram_bytes,
        flash_regions=flash_regions,
        ram_regions=ram_regions,
        owners=[owner_json(o) for o in owners],
        regions=rows,
        placement=placement,
        placed=placed_kinds(regions, symbols, markers, placement),
        inference_estimate=inference_estimate(models, FLAGS.clock_hz),
    )
    if FLAGS.json_out:
        with open(FLAGS.json_out, "w") as f:
            json.dump(report, f, indent=2, sort_keys=True)
            f.write("\n")
    if FLAGS.stack_bounds_out:
        with open(FLAGS.stack_bounds_out, "w") as f:
            f.write(stack_bounds_text(models, stacks))
    text = render(dict(report, owners_detail=owners))
    if FLAGS.text_out:
        with open(FLAGS.text_out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    try:
        problems = bad_budget + budget_problems(report, symbols, FLAGS.flash_budget, FLAGS.ram_budget)
        problems += region_budget_problems(
            report["name"], regions, rows, symbols, sections, markers, models, placement, budget_texts
        )
    except CompileError as e:
        problems = [str(e)]
    end_with(problems)


def end_with(problems):
    """Ends the run over `problems` (exceeded budgets, a budget that is not a size): with --problems_out they go to
    that file for the budget check, which fails `bazel build` with them; otherwise this run fails with them."""
    text = "".join(f"aot_firmware: {p}\n" for p in problems)
    if FLAGS.problems_out:
        with open(FLAGS.problems_out, "w") as f:
            f.write(text)
        sys.exit(0)
    if problems:
        sys.exit(text.rstrip("\n"))


def run_action(argv: list) -> int:
    """One size report with `argv` (the flags, no program name): what a fork of the worker runs per action."""
    main(FLAGS(["elf_size"] + argv))
    return 0


def _warm(_command: str) -> None:
    """Nothing more to import before the first fork: this module's imports are the whole tool."""


if __name__ == "__main__":
    if sys.argv[1:] == ["--persistent_worker"]:
        # A Bazel persistent worker (compiler/worker.py): one process imports the report's modules (the compiler's
        # budgets and cost model among them) once, and forks a child per firmware's size report.
        from compiler.worker import serve

        sys.exit(serve(run=run_action, warm=_warm))
    from compiler.worker import expand_params

    app.run(main, argv=sys.argv[:1] + expand_params(sys.argv[1:]))
