"""End-to-end compile: model file -> the four generated files.

Outputs are written into a temporary directory inside the destination and
moved into place only after everything was generated, so a failed compile
never leaves half-written files behind.
"""

import os
import shutil
import tempfile
from dataclasses import dataclass

from .budgets import check_budgets
from .errors import CompileError
from .codegen.cformat import NonFiniteConstant
from .codegen.emit_context import EmitContext
from .codegen.fc_chain import chain_fc_dsp
from .codegen.header import render_header
from .codegen.io_accessors import io_saving
from .codegen.io_fields import io_fields
from .codegen.manifest import build_manifest, render_manifest
from .codegen.runner import render_runner
from .codegen.weights import render_weights
from .codegen.weights_blob import HASH_PLACEHOLDER, BlobLayout, arch_hash, blob_bytes
from .codegen.blob_manifest import blob_manifest
from .codegen.cnames import validate_prefix
from .frontend import load_tflite
from .ops.kernel_table import DEFAULT_OPTIONS, check_strict
from .passes import run_passes
from .planner import plan_memory
from .report.cost_model import estimate as estimate_instructions
from .report.plan_svg import render_plan_svg
from .targets import validate_target
from .ops._user_kernel import emit_offloaded
from .user_kernels import NO_USER_KERNELS, user_api


@dataclass
class CompiledModel:
    prefix: str
    graph: object
    storage_map: object
    plan: object
    fields: list
    files: dict  # file name -> text
    manifest: dict


WEIGHTS_MODES = ("const", "blob")


def output_names(prefix: str) -> list:
    return [f"{prefix}.h", f"{prefix}.c", f"{prefix}_weights.c", f"{prefix}.json", f"{prefix}_plan.svg"]


# Symbolic ONNX input dimensions pinned by `--dim NAME=N` ({name: size}); set by the CLI before compiling.
ONNX_DIMS = {}
# ONNX graph inputs compiled as constants by `--freeze_input NAME=FILE.npy` ({name: array}); set by the CLI.
ONNX_FROZEN = {}
# Whole input shapes pinned by `--input_shape NAME=D0,D1,...` ({name: [dims]}); set by the CLI.  ONNX: dimensions
# the exporter left unnamed; TFLite: the -1 dimensions of an input's signature (frontend/tflite_input_shape.py).
ONNX_INPUT_SHAPES = {}


def load_model(model_path: str):
    """Parse a model file into the IR with the frontend of its format (chosen by the file extension)."""
    if model_path.lower().endswith(".onnx"):
        from .frontend.onnx_reader import load_onnx  # imports onnx: only for ONNX models (frontend/__init__.py)

        return load_onnx(model_path, ONNX_DIMS, ONNX_FROZEN, ONNX_INPUT_SHAPES)
    return load_tflite(model_path, ONNX_INPUT_SHAPES)


def analyze(
    model_path: str, target: str = "host", kernel_options=None, io_in_workspace: bool = False, user_kernels=None
):
    """Parse, run passes and plan memory (no code generation) for `target` (kernels and their scratch, chosen
    with `kernel_options`, ops/kernel_table.KernelOptions; None: the defaults). With `io_in_workspace` the model's
    inputs and outputs are planned inside the workspace (codegen/io_accessors.py). `user_kernels`
    (user_kernels.UserKernelOptions) routes operators to the application's functions."""
    graph = load_model(model_path)
    graph.target = target
    graph.kernel_options = kernel_options or DEFAULT_OPTIONS
    graph.user_kernels = user_kernels or NO_USER_KERNELS
    graph.io_in_workspace = io_in_workspace
    storage_map = run_passes(graph)
    plan = plan_memory(graph, storage_map)
    return graph, storage_map, plan


def _emit(op, ctx) -> list:
    try:
        if getattr(op, "user_route", None) == "offload":
            return emit_offloaded(op, ctx)
        return op.lowering.emit(op, ctx)
    except NonFiniteConstant as e:
        outs = ", ".join(f"'{t.name}'" for t in op.outputs)
        raise CompileError(
            f"Operator {op.index} ({op.kind}) computing {outs}: {e}. C float constants must be "
            "finite: the model's weights or operator attributes hold a NaN or an infinity (or a "
            "value that overflows float32)."
        ) from None


def compile_model(
    model_path: str,
    prefix: str,
    target: str = "host",
    ram_budget: str = "",
    flash_budget: str = "",
    kernel_options=None,
    io_in_workspace: bool = False,
    user_kernels=None,
    weights: str = "const",
) -> CompiledModel:
    """`weights`: "const" (arrays in <prefix>_weights.c) or "blob" (<prefix>_weights.bin bound at run time,
    codegen/weights_blob.py)."""
    validate_prefix(prefix)
    validate_target(target)
    if weights not in WEIGHTS_MODES:
        raise CompileError(
            f"--weights {weights}: unknown mode; use const (arrays compiled into the image, the default) or blob "
            "(<prefix>_weights.bin, bound at run time with <prefix>_bind_weights)."
        )
    graph, storage_map, plan = analyze(model_path, target, kernel_options, io_in_workspace, user_kernels)
    check_strict(graph)
    label = os.path.basename(model_path)
    fields = io_fields(graph)
    field_map = {(f.kind, f.position): f.field for f in fields}
    ctx = EmitContext(prefix, graph, storage_map, plan, field_map)
    if weights == "blob":
        ctx.blob = BlobLayout()
    # An op fused into another has no code of its own (passes/fuse_residual_add.py).
    op_lines = [[] if op.fused_into is not None else _emit(op, ctx) for op in graph.ops]
    op_lines = chain_fc_dsp(graph, ctx, op_lines)
    # A zero-byte workspace would make `uint8_t ws[SIZE]` invalid C; keep one unit.
    workspace_size = max(plan.workspace_size, plan.alignment)
    check_budgets(prefix, plan, ctx.consts, workspace_size, ram_budget, flash_budget)
    baked = [c for c in ctx.consts if c.in_weights_file and getattr(c, "offset", None) is None]
    blob_size = ctx.blob.size if ctx.blob is not None else None

    def runner(blob_hash):
        return render_runner(prefix, label, graph, fields, ctx, op_lines, workspace_size, blob_hash)

    files = {
        f"{prefix}.h": render_header(
            prefix,
            label,
            fields,
            workspace_size,
            plan.alignment,
            sum(c.nbytes for c in ctx.consts if c.in_weights_file) if blob_size is None else blob_size,
            plan.state_size,
            plan.state_alignment,
            io_plan=plan if io_in_workspace else None,
            user_api=user_api(graph),
            weights=baked,
            blob_size=blob_size,
        ),
        f"{prefix}.c": runner(HASH_PLACEHOLDER if blob_size is not None else None),
        f"{prefix}_weights.c": render_weights(prefix, label, ctx.consts),
    }
    manifest = build_manifest(prefix, label, target, graph, storage_map, plan, fields, ctx, workspace_size)
    if blob_size is not None:
        # The hash covers the code with a placeholder where the hash itself goes.
        arch = arch_hash(files[f"{prefix}.h"], files[f"{prefix}.c"])
        files[f"{prefix}.c"] = runner(arch)
        files[f"{prefix}_weights.bin"] = blob_bytes(ctx.blob, arch)
        manifest["weights_blob"] = blob_manifest(graph, op_lines, files[f"{prefix}.h"], arch, blob_size)
    title = f"{prefix} ({label})"
    if io_in_workspace:
        # What it saves: the same model planned with its I/O in buffers of their own.
        separate = max(
            analyze(model_path, target, kernel_options, user_kernels=user_kernels)[2].workspace_size, plan.alignment
        )
        manifest["io_in_workspace"] = io_saving(fields, workspace_size, separate)
        title += (
            f", I/O inside: {workspace_size} B in all against {separate} B + "
            f"{manifest['io_in_workspace']['io_bytes']} B of I/O buffers"
        )
    est = estimate_instructions(manifest)
    if est is not None:
        # The latency before anything is flashed, in the library's own report (the firmware's size report and
        # `aotc report` print it too): instructions per inference as the benchmarks count them, an estimate.
        manifest["estimated_instructions"] = {
            "core": est["core"],
            "total": est["total"],
            "per_layer": [{"index": r["index"], "instructions": r["instructions"]} for r in est["layers"]],
        }
    files[f"{prefix}.json"] = render_manifest(manifest)
    files[f"{prefix}_plan.svg"] = render_plan_svg(
        title, plan.buffers, len(graph.ops), workspace_size, plan.lower_bound, state_size=plan.state_size
    )
    return CompiledModel(prefix, graph, storage_map, plan, fields, files, manifest)


def write_files(out_dir: str, files: dict) -> list:
    """Atomically-ish publish files: write to a temp dir in out_dir, then rename."""
    try:
        os.makedirs(out_dir, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".aotc-", dir=out_dir)
    except OSError as e:
        raise CompileError(
            f"Cannot write into the output directory '{out_dir}': {e.strerror or e}. --out_dir "
            "must be a directory (it is created if missing) that this user may write to."
        ) from None
    try:
        for name, text in files.items():
            if isinstance(text, bytes):
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(text)
                continue
            with open(os.path.join(tmp, name), "w", encoding="ascii", newline="\n") as f:
                f.write(text)
        paths = []
        for name in files:
            dst = os.path.join(out_dir, name)
            os.replace(os.path.join(tmp, name), dst)
            paths.append(dst)
        return paths
    except OSError as e:
        raise CompileError(f"Cannot write the generated files into '{out_dir}': {e.strerror or e}.") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
