"""<prefix>.json: machine-readable description of the generated code."""

import json

from .. import __version__
from ..ir.dtypes import QUANTIZED_IO_DTYPES
from ..ops.kernel_table import entry_point
from ..report.macs import op_macs


def gap_reason(planned: int, lower_bound: int, alignment: int) -> str:
    """Why the workspace is larger than the lower bound, in one phrase (for the report)."""
    if planned <= lower_bound:
        return "equal to the lower bound"
    if planned <= (lower_bound + alignment - 1) // alignment * alignment + alignment * 4:
        return f"within alignment padding of the lower bound (buffers start on {alignment}-byte boundaries)"
    return (
        "fragmentation: tensors live at the peak cannot all be packed contiguously without moving buffers "
        "that outlive it"
    )


def _io_entry(f):
    t = f.tensor
    e = {
        "name": t.name,
        "c_name": f.field,
        "shape": list(t.shape),
        "dtype": t.dtype,
        "bytes": t.nbytes,
        "scale": None,
        "zero_point": None,
    }
    if t.quant is not None and t.dtype in QUANTIZED_IO_DTYPES:
        s, z = t.quant.scalar()
        e["scale"], e["zero_point"] = s, z
    if t.meaning:
        e["meaning"] = dict(t.meaning)
    return e


def build_manifest(prefix, model_label, target, graph, storage_map, plan, fields, ctx, workspace_size):
    weights = [c for c in ctx.consts if c.in_weights_file]
    params = [c for c in ctx.consts if not c.in_weights_file]
    tensors = []
    for t in graph.tensors:
        used = t.is_input or t.is_output or t.producer is not None or t.consumers
        if not used:
            continue
        st = storage_map.storage(t)
        entry = {
            "index": t.index,
            "name": t.name,
            "shape": list(t.shape),
            "dtype": t.dtype,
            "size": t.nbytes,
            "storage": st.kind,
            "offset": None,
            "lifetime": None,
        }
        if st.kind == "workspace":
            entry["offset"] = plan.tensor_offset.get(t.index)
        elif st.kind == "state":
            entry["offset"] = plan.state_offset.get(t.index)
        if not t.is_const:
            start = t.producer if t.producer is not None else -1
            end = max([start] + list(t.consumers))
            if t.is_output:
                end = len(graph.ops)
            entry["lifetime"] = [start, end]
        tensors.append(entry)
    manifest = {
        "generator": f"aot_rules compiler {__version__}",
        "prefix": prefix,
        "model": model_label,
        "target": target,
        "inputs": [_io_entry(f) for f in fields if f.kind == "input"],
        "outputs": [_io_entry(f) for f in fields if f.kind == "output"],
        "workspace": {
            "size": workspace_size,
            "planned_bytes": plan.workspace_size,
            "lower_bound": plan.lower_bound,
            "gap": gap_reason(plan.workspace_size, plan.lower_bound, plan.alignment),
            "alignment": plan.alignment,
            "buffers": [
                {
                    "name": b.name,
                    "kind": b.kind,
                    "offset": b.offset,
                    "size": b.size,
                    "lifetime": [b.start, b.end],
                    "tensors": b.tensors,
                }
                for b in plan.buffers
            ],
        },
        # Variable tensors, kept between runs in the model's own buffer (size 0: a stateless model).
        "state": {
            "size": plan.state_size,
            "alignment": plan.state_alignment,
            "tensors": [
                {
                    "index": s.tensor,
                    "name": s.name,
                    "dtype": s.dtype,
                    "offset": s.offset,
                    "size": s.size,
                    "reset_byte": s.fill,
                }
                for s in plan.state
                if s.tensor >= 0
            ],
            # Kernels' own state (SVDF's ring position): {op index, offset, size}, reset to zero.
            "ops": [{"op": s.op, "offset": s.offset, "size": s.size} for s in plan.state if s.op >= 0],
        },
        "macs": sum(op_macs(op) for op in graph.ops),
        "weight_bytes": sum(c.nbytes for c in weights),
        "param_bytes": sum(c.nbytes for c in params),
        "ops": [
            {
                "index": op.index,
                "kind": op.kind,
                "kernel": None if op.is_noop else op.kernel,
                # The function the layer's code calls (its exact / short / unrolled variant, or the specialized
                # body) and, for a layer not on the best kernel its core has, why (ops/kernel_table.py).
                "entry": None if op.is_noop else entry_point(op),
                "kernel_reason": getattr(op, "kernel_reason", None),
                "kernel_reason_numeric": bool(getattr(op, "kernel_reason_numeric", False)),
                "aliased": op.is_noop and op.fused_into is None,
                "fused_into": op.fused_into,
                "fused_ops": list(op.fused_ops),
                "macs": op_macs(op),
                # int16x8 layers: how the 64-bit accumulation of TFLite is computed (compiler/ops/common/int16.py).
                "acc16": (op.params or {}).get("acc16"),
                # Index / weight tables a kernel reads (RESIZE), bytes in flash.
                "table_bytes": (op.params or {}).get("table_bytes") if isinstance(op.params, dict) else None,
                "inputs": [t.index if t is not None else -1 for t in op.inputs],
                "outputs": [t.index for t in op.outputs],
            }
            for op in graph.ops
        ],
        "tensors": tensors,
    }
    users = [op for op in graph.ops if getattr(op, "user_kernel", None) is not None and op.fused_into is None]
    if users:
        # Which operators run the application's functions (compiler/user_kernels.py), and for an offloaded
        # built-in the CRT kernel whose parameter list the function takes.
        manifest["user_kernels"] = [
            {
                "op": op.index,
                "kind": op.kind,
                "route": op.user_route,
                "function": op.user_kernel.fn,
                "stands_in_for": getattr(op, "offloaded_from", None),
                "scratch": op.user_kernel.scratch,
                "scratch_offset": ctx.plan.scratch_offset.get(op.index) if op.user_kernel.scratch else None,
                "init": op.user_kernel.init,
            }
            for op in users
        ]
    return manifest


def render_manifest(manifest: dict) -> str:
    return json.dumps(manifest, indent=2) + "\n"
