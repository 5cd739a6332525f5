"""The benchmark report: measured rows against TFLite Micro's figures (reference_figures.json), as markdown.

Five tables: the issue's comparison on the reference board (TFLM's figures printed beside ours as ratios, and
each target as a pass/fail column), the same instruction and RAM comparison on every core against TFLM + CMSIS-NN
built for that core (and, on the cores with a timing model, estimated cycles beside instructions), every
measurement with its flash and RAM split, instructions per MAC by layer kind (toolchains/tools/layers.py), and the
(model, board) pairs that do not fit. Then how it was measured and
built: the exact compiler flags, versions and provenance.
"""

from toolchains.tools import layers


def _ratio(ours, theirs):
    """ours / theirs, or None where the reference has no figure (the issue gives none)."""
    return None if theirs is None else ours / theirs


def ram_bytes(row: dict) -> int:
    """What the model needs of RAM besides I/O and stack: its workspace plus, for a stateful model, its state (the
    figure to hold against TFLite Micro's arena, which holds both)."""
    return row["workspace_bytes"] + row.get("state_bytes", 0)


def compare(row: dict, ref: dict) -> dict:
    """Ratios to TFLite Micro's figures and the issue's targets, for a row on the reference board ({} otherwise)."""
    r = ref["models"].get(row["model"])
    if r is None or row["board"] != ref["board"]:
        return {}
    t = ref["targets"]
    out = {
        "vs_tflm_reference": _ratio(row["instructions"], r.get("tflm_reference_instructions")),
        "vs_tflm_cmsis_nn": _ratio(row["instructions"], r["tflm_cmsis_nn_instructions"]),
        "workspace_vs_arena": _ratio(ram_bytes(row), r["tflm_arena_bytes"]),
        "code_vs_library": _ratio(row["code_bytes"], r.get("tflm_library_code_bytes")),
        "instruction_target": r["target_instruction_ratio"],
    }
    out["meets"] = {
        "instructions": out["vs_tflm_cmsis_nn"] <= r["target_instruction_ratio"],
        "workspace": out["workspace_vs_arena"] <= t["workspace_vs_arena"],
        "code": None if out["code_vs_library"] is None else out["code_vs_library"] <= t["code_vs_library"],
        "weights": row["weight_bytes"] <= row["model_file_weight_bytes"],
    }
    return out


def _m(n: float) -> str:
    """Millions with two decimals, as the issue writes them; small counts (hello_world) as they are."""
    if n is None:
        return "n/a"
    return f"{n / 1e6:.2f} M" if n >= 10_000 else f"{n:,}"


def _ok(passed: bool) -> str:
    return "n/a" if passed is None else "pass" if passed else "**fail**"


def _x(ratio) -> str:
    return "" if ratio is None else f" ({ratio:.2f}×)"


def _ram(row: dict) -> str:
    """The workspace, plus the state of a stateful model."""
    state = row.get("state_bytes", 0)
    return f"{row['workspace_bytes']:,} + {state:,} state" if state else f"{row['workspace_bytes']:,}"


def _n(n) -> str:
    return "n/a" if n is None else f"{n:,}"


def _reference_table(rows, ref) -> list:
    t = ref["targets"]
    lines = [
        f"### Against TFLite Micro ({ref['board']})",
        "",
        "Each TFLM figure is followed by ours / TFLM. Targets: instructions ≤ the ratio shown × TFLM + CMSIS-NN; "
        f"workspace (+ state, for stateful models) ≤ {t['workspace_vs_arena']:.2f}× TFLM's arena; "
        "code (runner + CRT kernels) ≤ "
        f"{t['code_vs_library']:.2f}× TFLM's library code; weights ≤ the weights in the model file.",
        "",
        "| model | MACs | instructions | TFLM reference kernels | TFLM + CMSIS-NN | instr target | workspace B | "
        "TFLM arena B | ws target | code B | TFLM library code B | code target | weights B | model file B "
        "(its weights) | weights target |",
        "|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---|---:|---:|---|",
    ]
    for row in rows:
        c = row.get("compare")
        if not c:
            continue
        r = ref["models"][row["model"]]
        lines.append(
            f"| {row['model']} | {_m(row['macs'])} | {_m(row['instructions'])} | "
            f"{_m(r.get('tflm_reference_instructions'))}{_x(c['vs_tflm_reference'])} | "
            f"{_m(r['tflm_cmsis_nn_instructions'])}{_x(c['vs_tflm_cmsis_nn'])} | "
            f"≤ {c['instruction_target']:.2f}× {_ok(c['meets']['instructions'])} | "
            f"{_ram(row)} | {r['tflm_arena_bytes']:,}{_x(c['workspace_vs_arena'])} | "
            f"{_ok(c['meets']['workspace'])} | "
            f"{row['code_bytes']:,} | {_n(r.get('tflm_library_code_bytes'))}{_x(c['code_vs_library'])} | "
            f"{_ok(c['meets']['code'])} | "
            f"{row['weight_bytes']:,} | {r['model_file_bytes']:,} ({row['model_file_weight_bytes']:,}) | "
            f"{_ok(c['meets']['weights'])} |"
        )
    return lines


def _all_table(rows) -> list:
    lines = [
        "### All measurements",
        "",
        "Code = the model's generated runner + the CRT kernels it links (attributed by symbol prefix); startup, "
        "libc and the bench main are listed apart. Run stack = high-water mark of the measured run (painted "
        "stack), beside the static worst case of `<prefix>_run` from the linked code. Static = .data + .bss of the "
        "model and the CRT. Compile = `aotc compile` in-process (median of 3) and as a whole process.",
        "",
        "| model | board (core) | MACs | instructions | instr/MAC | est. cycles | code B: runner + CRT = total | "
        "startup+libc B "
        "| weights B (+ params) | workspace B (lower bound) | run stack B (static bound) | static B | "
        "compile s (process s) | outputs |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['model']} | {row['board']} ({row['core']}) | {_m(row['macs'])} | {row['instructions']:,} | "
            f"{row['instructions'] / max(row['macs'], 1):.2f} | {_n(row.get('cycles'))} | "
            f"{row['runner_code_bytes']:,} + {row['crt_code_bytes']:,} = {row['code_bytes']:,} | "
            f"{row['startup_libc_code_bytes']:,} | {row['weight_bytes']:,} (+ {row['param_bytes']:,}) | "
            f"{_ram(row)} ({row['workspace_lower_bound']:,}) | "
            f"{row['run_stack_bytes']:,} ({row['run_stack_static_bound']}) | {row['static_data_bytes']:,} | "
            f"{row['compile_seconds']:.2f} ({row['compile_process_seconds']:.2f}) | "
            + ("bit-exact" if row["outputs_exact"] else "**WRONG**")
            + " |"
        )
    return lines


def compare_on_board(row: dict, ref: dict) -> dict:
    """Ratios to TFLite Micro + CMSIS-NN built for the row's own board ({} when there is no such figure)."""
    r = ref.get("per_board", {}).get("boards", {}).get(row["board"], {}).get(row["model"])
    if r is None:
        return {}
    # A model with no reference-board figures (the generated MobileNets) carries its target in its per-board entry.
    target = r.get("target_instruction_ratio") or ref["models"][row["model"]]["target_instruction_ratio"]
    out = {
        "tflm_cmsis_nn_instructions": r["tflm_cmsis_nn_instructions"],
        # TFLM's estimated cycles under the same plugin and timing model, where recorded (tflm_cycles_build.sh).
        "tflm_cmsis_nn_cycles": r.get("tflm_cmsis_nn_cycles"),
        "cycles_vs_tflm_cmsis_nn": (
            row["cycles"] / r["tflm_cmsis_nn_cycles"] if row.get("cycles") and r.get("tflm_cmsis_nn_cycles") else None
        ),
        "tflm_arena_bytes": r["tflm_arena_bytes"],
        "vs_tflm_cmsis_nn": row["instructions"] / r["tflm_cmsis_nn_instructions"],
        "workspace_vs_arena": row["workspace_bytes"] / r["tflm_arena_bytes"],
        "instruction_target": target,
    }
    out["meets"] = {
        "instructions": out["vs_tflm_cmsis_nn"] <= target,
        "workspace": out["workspace_vs_arena"] <= ref["targets"]["workspace_vs_arena"],
    }
    return out


def _cores_table(rows, ref) -> list:
    """Ours against TFLite Micro + CMSIS-NN compiled for the same core, model by model and core by core."""
    pairs = [(row, compare_on_board(row, ref)) for row in rows]
    pairs = [(row, c) for row, c in pairs if c]
    if not pairs:
        return []
    order = {b: i for i, b in enumerate(sorted({row["board"] for row, _ in pairs}))}
    pairs.sort(key=lambda p: (p[0]["model"], order[p[0]["board"]]))
    t = ref["targets"]["workspace_vs_arena"]
    lines = [
        "",
        "### Against TFLite Micro + CMSIS-NN on every core",
        "",
        "TFLM + CMSIS-NN built for each core (its Helium kernels on the Cortex-M55, portable C on the M3); "
        f"targets: instructions ≤ the ratio shown, workspace ≤ {t:.2f}× TFLM's arena on that core.",
        "",
        "| model | board (core) | instructions | TFLM + CMSIS-NN | ours / TFLM | instr target | workspace B | "
        "TFLM arena B | ws target |",
        "|---|---|---:|---:|---:|---|---:|---:|---|",
    ]
    for row, c in pairs:
        lines.append(
            f"| {row['model']} | {row['board']} ({row['core']}) | {row['instructions']:,} | "
            f"{c['tflm_cmsis_nn_instructions']:,} | {c['vs_tflm_cmsis_nn']:.2f}× | ≤ {c['instruction_target']:.2f}× "
            f"{_ok(c['meets']['instructions'])} | {row['workspace_bytes']:,} | {c['tflm_arena_bytes']:,} "
            f"({c['workspace_vs_arena']:.2f}×) | {_ok(c['meets']['workspace'])} |"
        )
    return lines + _cycles_table(pairs)


def _cycles_table(pairs) -> list:
    """Estimated cycles beside instructions, ours and TFLM + CMSIS-NN's, on the cores with a timing model."""
    pairs = [(row, c) for row, c in pairs if c.get("cycles_vs_tflm_cmsis_nn") is not None]
    if not pairs:
        return []
    lines = [
        "",
        "### Estimated cycles against TFLite Micro + CMSIS-NN",
        "",
        "An estimate, not silicon: every executed instruction priced by a per-core table of Arm's published "
        "instruction timings (`toolchains/qemu/cycle_model.c`; zero wait states, no caches or bus contention; "
        "bench/README.md says what is and is not modelled), for our run and TFLM's, under the same plugin. "
        "Cycles per instruction (CPI) and the two ratios side by side.",
        "",
        "| model | board (core) | instructions | est. cycles (CPI) | TFLM instructions | TFLM est. cycles (CPI) | "
        "ours / TFLM, instructions | ours / TFLM, est. cycles |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row, c in pairs:
        theirs = c["tflm_cmsis_nn_cycles"]
        lines.append(
            f"| {row['model']} | {row['board']} ({row['core']}) | {row['instructions']:,} | {row['cycles']:,} "
            f"({row['cycles'] / row['instructions']:.2f}) | {c['tflm_cmsis_nn_instructions']:,} | {theirs:,} "
            f"({theirs / c['tflm_cmsis_nn_instructions']:.2f}) | {c['vs_tflm_cmsis_nn']:.3f}× | "
            f"{c['cycles_vs_tflm_cmsis_nn']:.3f}× |"
        )
    return lines


def _kind_table(rows) -> list:
    """Instructions per MAC by layer kind (toolchains/tools/layers.py), for the runs with per-layer figures: how the
    same kernels fare on each model's layers, e.g. MobileNet's against KWS's and ResNet's."""
    rows = [r for r in rows if r.get("by_kind")]
    if not rows:
        return []
    lines = [
        "",
        "### Instructions per MAC by layer kind",
        "",
        "Each layer's instructions (its kernel call, argument set-up included) over its MACs, summed per kind; "
        "in brackets the kind's share of the inference. Other ops (pooling, softmax, ADD, PAD, ...): "
        "their share only.",
        "",
        "| model | board | " + " | ".join(h for _, h in layers.KINDS) + " |",
        "|---|---|" + "---:|" * len(layers.KINDS),
    ]
    for r in rows:
        total = sum(v["instructions"] for v in r["by_kind"].values()) or 1
        cells = []
        for key, _ in layers.KINDS:
            v = r["by_kind"][key]
            share = f"({100 * v['instructions'] / total:.0f} %)"
            if v["instructions"] == 0 and v["macs"] == 0:
                cells.append("")
            elif v["macs"] and key != "other":
                cells.append(f"{v['instructions'] / v['macs']:.2f} {share}")
            else:
                cells.append(share)
        lines.append(f"| {r['model']} | {r['board']} | " + " | ".join(cells) + " |")
    return lines


def _unfit_table(unfit) -> list:
    if not unfit:
        return []
    lines = ["### Not measured", "", "| model | board (core) | why |", "|---|---|---|"]
    for u in unfit:
        lines.append(
            f"| {u['model']} | {u['board']} ({u['core']}) | "
            + (
                "not compiled: "
                if u.get("unsupported")
                else "does not fit: "
                if not u["fits"]
                else "**not built, but** "
            )
            + f"{u['reason']} |"
        )
    return [""] + lines


def _how(rows, build, env, ref) -> list:
    cores = sorted({row["core"] for row in rows})
    lines = [
        "",
        "### How",
        "",
        "- Instructions: guest instructions executed between two marker functions around one `<prefix>_run()` "
        "after a warm-up run, counted by a QEMU TCG plugin (`toolchains/qemu/insn_count_plugin.c`), exact and "
        "deterministic; instruction counts, not cycles (QEMU models no pipeline, latencies or wait states). "
        "Outputs are checked against TFLite Micro's for the same input.",
        "- Estimated cycles (M4, M55): the same plugin prices every executed instruction by its core's table "
        "(`toolchains/qemu/cycle_model.c`, from Arm's published timings: loads and pipelined loads, LDM/LDRD, "
        "multiplies and DSP, divides, branches taken and not taken with the refill, VFP, MVE's dual-beat "
        "execution and overlap); an estimate, not silicon (no wait states, caches or bus contention).",
        f"- QEMU: {env['qemu']}. Compiler: {', '.join(sorted({row['gcc'] for row in rows}))}, "
        f"`--compilation_mode={build['compilation_mode']}`.",
        "- Compile flags (every C file: CRT, generated code, bench main), per core:",
    ]
    lines += [f"  - {core}: `{' '.join(build['compile_flags'][core])}`" for core in cores]
    lines.append("- Link flags, per core:")
    lines += [f"  - {core}: `{' '.join(build['link_flags'][core])}`" for core in cores]
    lines.append(f"- TFLite Micro reference figures: {ref['provenance']}")
    if ref.get("per_board"):
        lines.append(f"- TFLite Micro + CMSIS-NN on every core: {ref['per_board']['source']}")
    return lines


def render_markdown(rows, unfit, ref, build, env) -> str:
    lines = ["## Benchmark: instructions per inference, flash, RAM, compile time", ""]
    lines += (
        _reference_table(rows, ref)
        + _cores_table(rows, ref)
        + [""]
        + _all_table(rows)
        + _kind_table(rows)
        + _unfit_table(unfit)
        + _how(rows, build, env, ref)
    )
    return "\n".join(lines) + "\n"
