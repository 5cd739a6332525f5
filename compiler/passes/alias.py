"""Decide where each tensor lives: user input/output buffer, weights, or a
workspace buffer shared by aliasing (reshape-like) ops.

Reshape outputs join their input's buffer.  A reshape whose output is a model
output cannot alias a user buffer it does not own; if its input is a private
intermediate the whole intermediate group is instead placed directly in the
user's output buffer, otherwise a copy is kept.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Storage:
    kind: str   # "input" | "output" | "const" | "workspace"
    key: int    # model I/O position, tensor index (const) or buffer id (workspace)


class StorageMap:
    def __init__(self, graph):
        self.graph = graph
        self._group = {}          # tensor index -> group id (representative tensor)
        self._members = {}        # group id -> [tensor indices]
        self._storage = {}        # group id -> Storage

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

    def workspace_groups(self) -> dict:
        """{group id: [tensor indices]} for groups that need workspace memory."""
        return {g: sorted(m) for g, m in sorted(self._members.items())
                if self._storage[g].kind == "workspace"}


def assign_storage(graph) -> StorageMap:
    sm = StorageMap(graph)
    in_pos = {t.index: i for i, t in enumerate(graph.inputs)}
    out_pos = {t.index: i for i, t in enumerate(graph.outputs)}
    for t in graph.tensors:
        if t.index in in_pos:
            sm._new_group(t, Storage("input", in_pos[t.index]))
        elif t.index in out_pos:
            sm._new_group(t, Storage("output", out_pos[t.index]))
        elif t.is_const:
            sm._new_group(t, Storage("const", t.index))
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
    return sm
