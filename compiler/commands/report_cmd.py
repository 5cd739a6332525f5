"""`report MODEL [--prefix P] [--out_dir D]`: what the model costs, before anything is flashed.

Prints a per-operator table (kernel, MACs, output, bytes), a summary (workspace vs its lower bound and why they
differ, weights, MACs) and, for a Cortex-M target, the estimated instructions per inference per layer and in total
(report/cost_model.py, calibrated by the benchmarks), and writes `D/P.json` (the full report: every tensor's
size/offset/lifetime, every buffer, per-op MACs and kernels) and `D/P_plan.svg` (the memory plan as a picture).
Without --out_dir only the table. --compare_tflm adds TFLite Micro's arena for the same model
(report/tflm_arena.py). For a Cortex-M --target also the worst-case stack of `P_run`, from the generated C and
the CRT kernels it calls compiled for that core (report/stack_bound.py; it says so when arm-none-eabi-gcc is
absent)."""

import os

from ..codegen.cnames import sanitize_comment, sanitize_identifier
from ..driver import compile_model, write_files
from ..ops.kernel_table import options_from_flags
from ..report import cost_model, stack_bound
from ..report.tflm_arena import measure
from .info_cmd import _table


def _kernel(op: dict, ops: list) -> str:
    if op.get("fused_into") is not None:
        return f"(fused into op {op['fused_into']})"
    if not op["kernel"]:
        return "(aliased: no code)"
    label = "+".join([op.get("entry") or op["kernel"]] + [ops[i]["kind"].lower() for i in op.get("fused_ops", [])])
    # int16x8 layers name their accumulation: int32 bias, int64 bias narrowed to int32, or the wide form.
    label += f" [tables {op['table_bytes']:,} B]" if op.get("table_bytes") else ""
    return label + (f" [acc {op['acc16']}]" if op.get("acc16") else "")


def render_summary(manifest: dict) -> str:
    ops = []
    for op in manifest["ops"]:
        outs = [t for t in manifest["tensors"] if t["index"] in op["outputs"]]
        shape = "x".join(map(str, outs[0]["shape"])) if outs else ""
        ops.append(
            [
                op["index"],
                op["kind"],
                _kernel(op, manifest["ops"]),
                f"{op['macs']:,}",
                shape,
                outs[0]["size"] if outs else "",
            ]
        )
    ws = manifest["workspace"]
    lines = [
        f"Model {sanitize_comment(manifest['model'])} as '{manifest['prefix']}' ({manifest['target']})",
        "",
        _table(["#", "op", "kernel", "MACs", "output", "bytes"], ops),
        "",
        f"workspace    {ws['size']:>10,} B   lower bound {ws['lower_bound']:,} B: {ws['gap']}",
    ]
    st = manifest["state"]
    if st["size"]:
        lines.append(
            f"state        {st['size']:>10,} B   {len(st['tensors'])} variable tensors kept between runs, "
            "in a buffer of their own (not shareable)"
        )
    io = manifest.get("io_in_workspace")
    if io:
        lines.append(
            f"I/O          inside the workspace: {io['total_ram']:,} B of RAM in all, against "
            f"{io['workspace_with_separate_io']:,} + {io['io_bytes']:,} B with separate I/O buffers "
            f"(saves {io['saved']:,} B)"
        )
    lines += (
        [
            f"weights      {manifest['weight_bytes']:>10,} B   (+ {manifest['param_bytes']:,} B of per-layer "
            "parameters), const, in flash",
            f"MACs         {manifest['macs']:>10,}",
        ]
        + fallback_lines(manifest)
        + [
            "inputs       " + ", ".join(f"{i['c_name']} {i['dtype']}{i['shape']}" for i in manifest["inputs"]),
            "outputs      " + ", ".join(f"{o['c_name']} {o['dtype']}{o['shape']}" for o in manifest["outputs"]),
        ]
    )
    return "\n".join(lines)


def fallback_lines(manifest: dict) -> list:
    """One line per layer that is not on the best kernel its core has, with the reason (ops/kernel_table.py)."""
    slow = [op for op in manifest["ops"] if op.get("kernel_reason")]
    if not slow:
        return [f"kernels      every layer on the best kernel of {manifest['target']}"]
    return [f"kernels      {len(slow)} layer(s) not on the best kernel of {manifest['target']}:"] + [
        f"  op {op['index']} {op['kind']}: {op['kernel']} because {op['kernel_reason']}"
        + (" [quantization]" if op.get("kernel_reason_numeric") else "")
        for op in slow
    ]


def render_tflm_comparison(workspace: int, arena, state: int = 0) -> str:
    if arena is None:
        return "TFLite Micro  (not measured: the tflite-micro interpreter is unavailable or refuses the model)"
    ours = f"our workspace + state ({workspace:,} + {state:,} B)" if state else "our workspace"
    return (
        f"TFLite Micro  {arena.total:>10,} B arena = {arena.head:,} B for tensors (its plan) + {arena.tail:,} B "
        f"of interpreter data; {ours} is {100.0 * (workspace + state) / arena.total:.0f} % of its arena"
    )


def run_report(model: str, flags) -> int:
    prefix = flags.prefix or sanitize_identifier(os.path.splitext(os.path.basename(model))[0], "model")
    from ..user_kernels import options_from_flags as user_kernel_options

    compiled = compile_model(
        model,
        prefix,
        flags.target,
        kernel_options=options_from_flags(flags),
        io_in_workspace=flags.io_in_workspace,
        user_kernels=user_kernel_options(flags),
    )
    print(render_summary(compiled.manifest))
    # Instructions per inference before flashing: the benchmarks' cost model for the target core.
    estimate = cost_model.estimate(compiled.manifest)
    if estimate is not None:
        print("\n" + "\n".join(cost_model.render(estimate)))
    elif compiled.manifest["target"] != "host":
        print(f"\nno instruction estimate: the cost model has no calibration for {compiled.manifest['target']}")
    if compiled.manifest["target"] != "host":
        opt = getattr(flags, "stack_opt", None) or "O2"
        print(
            "\n".join(
                stack_bound.render(stack_bound.bound(compiled.files, prefix, compiled.manifest["target"], opt), prefix)
            )
        )
    if flags.compare_tflm:
        print(
            render_tflm_comparison(
                compiled.manifest["workspace"]["size"], measure(model), compiled.manifest["state"]["size"]
            )
        )
    if flags.out_dir:
        names = (f"{prefix}.json", f"{prefix}_plan.svg")
        for path in write_files(flags.out_dir, {n: compiled.files[n] for n in names}):
            print(f"wrote {path}")
    return 0
