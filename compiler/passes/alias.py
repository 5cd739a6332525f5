"""Decide where each tensor lives: user input/output buffer, weights, or a
workspace buffer shared by aliasing (reshape-like) ops.

Reshape outputs join their input's buffer.  A reshape whose output is a model
output cannot alias a user buffer it does not own; if its input is a private
intermediate the whole intermediate group is instead placed directly in the
user's output buffer, otherwise a copy is kept.

In-place ops: an element-wise op (activation, ADD, requantize, ...) writes its
output over an input of the same shape and element size when that input's
buffer is read for the last time by this op, so the two never need separate
memory.  Only workspace buffers are reused this way: model inputs are const to
the kernel, and a model output's buffer belongs to the caller.

With I/O in the workspace (graph.io_in_workspace, `--io_in_workspace`) the
model's inputs and outputs are workspace tensors like any other: planned,
shared and reused in place; the planner keeps inputs live from the start of
the run and outputs to its end (planner/liveness.py).
"""

from dataclasses import dataclass

from ..ir.dtypes import DTYPES


@dataclass(frozen=True)
class Storage:
    kind: str  # "input" | "output" | "const" | "workspace" | "state"
    key: int  # model I/O position, tensor index (const) or buffer id (workspace)


class StorageMap:
    def __init__(self, graph):
        self.graph = graph
        self._group = {}  # tensor index -> group id (representative tensor)
        self._members = {}  # group id -> [tensor indices]
        self._storage = {}  # group id -> Storage

    def _new_group(self, t, storage):
        self._group[t.index] = t.index
        self._members[t.index] = [t.index]
        self._storage[t.index] = storage

    def _join(self, t, group):
        self._group[t.index] = group
        self._members[group].append(t.index)

    def storage(self, tensor) -> Storage:
        return self._storage[self._group[tensor.index]]

    def group_of(self, tensor) -> int:
        return self._group[tensor.index]

    def state_tensors(self) -> list:
        """Indices of the tensors that live in the state buffer, in tensor order."""
        return sorted(g for g, st in self._storage.items() if st.kind == "state")

    def workspace_groups(self) -> dict:
        """{group id: [tensor indices]} for groups that need workspace memory."""
        return {g: sorted(m) for g, m in sorted(self._members.items()) if self._storage[g].kind == "workspace"}


def assign_storage(graph) -> StorageMap:
    sm = StorageMap(graph)
    in_pos = {t.index: i for i, t in enumerate(graph.inputs)}
    out_pos = {t.index: i for i, t in enumerate(graph.outputs)}
    if getattr(graph, "io_in_workspace", False):
        in_pos, out_pos = {}, {}
    for t in graph.tensors:
        if t.index in in_pos:
            sm._new_group(t, Storage("input", in_pos[t.index]))
        elif t.index in out_pos:
            sm._new_group(t, Storage("output", out_pos[t.index]))
        elif t.is_const:
            sm._new_group(t, Storage("const", t.index))
        elif t.is_variable:
            # Kept across runs in the model's own state buffer (planner/state_plan.py), never in the workspace.
            sm._new_group(t, Storage("state", t.index))
        else:
            sm._new_group(t, Storage("workspace", t.index))

    for op in graph.ops:
        if not op.lowering.aliases_input(op):
            continue
        src, dst = op.input(0), op.output
        src_group = sm.group_of(src)
        src_store = sm._storage[src_group]
        if not dst.is_output:
            # Fold the output into the input's group (any storage kind: reads only).
            dst_group = sm.group_of(dst)
            del sm._members[dst_group]
            del sm._storage[dst_group]
            sm._join(dst, src_group)
            op.is_noop = True
        elif src_store.kind == "workspace" and not src.is_output:
            # Produce the intermediate straight into the user's output buffer.
            dst_group = sm.group_of(dst)
            for idx in sm._members.pop(src_group):
                sm._group[idx] = dst_group
                sm._members[dst_group].append(idx)
            del sm._storage[src_group]
            op.is_noop = True
        # else: keep the copy (e.g. model input -> model output, or shared outputs)
    _share_inplace(graph, sm)
    return sm


def _inplace_candidates(op) -> list:
    chosen = op.lowering.inplace_input(op)
    if chosen is not None:
        return [chosen]
    if not op.lowering.elementwise or len(op.outputs) != 1:
        return []
    out = op.output
    return [
        i
        for i, t in enumerate(op.inputs)
        if t is not None and tuple(t.shape) == tuple(out.shape) and DTYPES[t.dtype].size == DTYPES[out.dtype].size
    ]


def _share_inplace(graph, sm: StorageMap) -> None:
    last_use = {}  # group id -> last op reading any of its tensors
    for t in graph.tensors:
        g = sm.group_of(t)
        last_use[g] = max([last_use.get(g, -1)] + list(t.consumers))
    for op in graph.ops:
        if op.is_noop or not op.outputs or op.output is None:
            continue
        dst = op.output
        dst_group = sm.group_of(dst)
        if sm._storage[dst_group].kind != "workspace":
            continue
        for i in _inplace_candidates(op):
            src = op.input(i)
            src_group = sm.group_of(src)
            if src_group == dst_group or sm._storage[src_group].kind != "workspace" or last_use[src_group] != op.index:
                continue
            # Another input in the same buffer must be read at the same flat index (no broadcast), or the
            # output would overwrite elements it still has to read.
            if any(
                t is not None and j != i and sm.group_of(t) == src_group and t.num_elements != dst.num_elements
                for j, t in enumerate(op.inputs)
            ):
                continue
            for idx in sm._members.pop(dst_group):
                sm._group[idx] = src_group
                sm._members[src_group].append(idx)
            del sm._storage[dst_group]
            last_use[src_group] = last_use.pop(dst_group, op.index)
            break
