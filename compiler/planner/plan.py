"""Build the memory plan for a prepared graph."""

from dataclasses import dataclass

from .allocator import allocate
from .liveness import lower_bound, scratch_buffers, tensor_buffers
from .state_plan import STATE_ALIGN, plan_state

WORKSPACE_ALIGN = 16


@dataclass
class PlannedBuffer:
    id: int
    name: str
    kind: str
    size: int
    offset: int
    start: int
    end: int
    tensors: list


@dataclass
class MemoryPlan:
    buffers: list  # list[PlannedBuffer], sorted by offset then id
    workspace_size: int  # bytes, multiple of alignment (0 allowed)
    lower_bound: int  # max over ops of simultaneously live bytes
    alignment: int
    tensor_offset: dict  # tensor index -> workspace offset
    scratch_offset: dict  # op index -> scratch offset
    state: list = None  # list[StateBuffer]: the variable tensors, in the separate state buffer
    state_size: int = 0  # bytes of the state buffer (0: a stateless model, today's API)
    state_alignment: int = STATE_ALIGN

    @property
    def stateful(self) -> bool:
        return self.state_size > 0

    @property
    def state_offset(self) -> dict:
        """tensor index -> offset in the state buffer"""
        return {s.tensor: s.offset for s in self.state or [] if s.tensor >= 0}

    @property
    def op_state_offset(self) -> dict:
        """op index -> offset of the operator's own state (OpLowering.state_bytes) in the state buffer"""
        return {s.op: s.offset for s in self.state or [] if s.op >= 0}

    def overlapping_live_pairs(self) -> list:
        """Pairs of buffers that are live together and overlap in memory (must be empty)."""
        bad = []
        for i, a in enumerate(self.buffers):
            for b in self.buffers[i + 1 :]:
                if a.start <= b.end and b.start <= a.end:
                    if a.offset < b.offset + b.size and b.offset < a.offset + a.size:
                        bad.append((a.name, b.name))
        return bad


def plan_memory(graph, storage_map, alignment: int = WORKSPACE_ALIGN) -> MemoryPlan:
    """The plan, with the scratch of the layers at the peak moved inside their own output and input where their kernel
    can and that lowers the workspace (_scratch_in_output), then the layers still at the peak given their kernel's
    smaller-scratch form where that lowers it (_smaller_tile)."""
    plan = _plan(graph, storage_map, alignment)
    for mark, key in ((_scratch_in_output, "scratch_split"), (_smaller_tile, "dsp_tile")):
        while True:
            moved = mark(graph, plan)
            if not moved:
                break
            better = _plan(graph, storage_map, alignment)
            if better.workspace_size >= plan.workspace_size:
                for op in moved:
                    del op.params[key]
                break
            plan = better
    return plan


def _peak_scratch_ops(graph, plan) -> list:
    """The ops at the plan's peak (most bytes live) whose scratch is part of it."""
    live = [0] * len(graph.ops)
    for b in plan.buffers:
        for t in range(max(b.start, 0), min(b.end, len(graph.ops) - 1) + 1):
            live[t] += b.size
    peak = max(live, default=0)
    scratch = {b.id - len(graph.tensors) for b in plan.buffers if b.kind == "scratch"}
    return [op for op in graph.ops if live[op.index] == peak and op.index in scratch]


def _smaller_tile(graph, plan) -> list:
    """The ops at the plan's peak whose scratch is part of it and whose kernel has a form with less (Kernel.small_tile:
    the DSP GEMM's two-pixel tile, slower); marks them (op.params["dsp_tile"] = 2) and returns them.  Only there:
    elsewhere the layer keeps its faster form."""
    moved = []
    for op in _peak_scratch_ops(graph, plan):
        small = getattr(getattr(op, "kernel_impl", None), "small_tile", None)
        if small is not None and "dsp_tile" not in op.params and small(op):
            op.params["dsp_tile"] = 2
            moved.append(op)
    return moved


def _scratch_in_output(graph, plan) -> list:
    """The ops at the plan's peak (most bytes live) whose scratch is part of it and whose kernel can run them in two
    bands of output rows with the scratch inside their output and their input (Kernel.split: the DSP GEMM
    convolution), where both are in the workspace, in buffers of their own, and the input dies with the op; marks them
    (op.params["scratch_split"]) and returns them.  Only there: elsewhere the layer keeps one call."""
    live = [0] * len(graph.ops)
    for b in plan.buffers:
        for t in range(max(b.start, 0), min(b.end, len(graph.ops) - 1) + 1):
            live[t] += b.size
    peak = max(live, default=0)
    scratch = {b.id - len(graph.tensors) for b in plan.buffers if b.kind == "scratch"}
    home = {t: b for b in plan.buffers if b.kind != "scratch" for t in b.tensors}
    moved = []
    for op in graph.ops:
        if live[op.index] != peak or op.index not in scratch or "scratch_split" in op.params:
            continue
        split = getattr(getattr(op, "kernel_impl", None), "split", None)
        out, inp = op.output, op.input(0)
        if split is None or out is None or inp is None or out.index not in home or inp.index not in home:
            continue  # no such kernel, or a tensor outside the workspace (the application's buffers, constants)
        src, dst = home[inp.index], home[out.index]
        if src is dst or src.end != op.index or any(t is not inp and t.index in src.tensors for t in op.inputs if t):
            continue  # shared with the output, read after the op, or another of its inputs
        rows = split(op)
        if rows is not None:
            op.params["scratch_split"] = rows
            moved.append(op)
    return moved


def _plan(graph, storage_map, alignment: int) -> MemoryPlan:
    live = tensor_buffers(graph, storage_map)
    live += scratch_buffers(graph, first_id=len(graph.tensors))
    offsets, total = allocate(live, alignment)
    planned = sorted(
        (
            PlannedBuffer(
                id=b.id,
                name=b.name,
                kind=b.kind,
                size=b.size,
                offset=offsets[b.id],
                start=b.start,
                end=b.end,
                tensors=b.tensors,
            )
            for b in live
        ),
        key=lambda p: (p.offset, p.id),
    )
    tensor_offset, scratch_offset = {}, {}
    for p in planned:
        if p.kind == "scratch":
            scratch_offset[p.id - len(graph.tensors)] = p.offset
        for t in p.tensors:
            tensor_offset[t] = p.offset
    state, state_size = plan_state(graph, storage_map)
    return MemoryPlan(
        buffers=planned,
        workspace_size=total,
        lower_bound=lower_bound(live, len(graph.ops)),
        alignment=alignment,
        tensor_offset=tensor_offset,
        scratch_offset=scratch_offset,
        state=state,
        state_size=state_size,
    )
