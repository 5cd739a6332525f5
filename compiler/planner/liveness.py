"""Liveness intervals over the operator order.

A buffer is live from the op that writes it to the last op that reads it,
inclusive at both ends, so an op's inputs and outputs never share memory.
Also computes the theoretical lower bound: the largest total size of buffers
simultaneously live at any op.
"""

from dataclasses import dataclass, field


@dataclass
class LiveBuffer:
    id: int
    name: str
    size: int
    start: int
    end: int
    kind: str = "tensor"  # "tensor" or "scratch"
    tensors: list = field(default_factory=list)  # tensor indices sharing the buffer

    def overlaps(self, other) -> bool:
        return self.start <= other.end and other.start <= self.end


def tensor_buffers(graph, storage_map) -> list:
    buffers = []
    # I/O in the workspace: the application writes the inputs before the run and reads the outputs after it.
    io_in_workspace = getattr(graph, "io_in_workspace", False)
    first, last = 0, max(len(graph.ops) - 1, 0)
    for group, members in storage_map.workspace_groups().items():
        tensors = [graph.tensors[i] for i in members]
        starts, ends = [], []
        for t in tensors:
            if t.producer is not None:
                starts.append(t.producer)
                ends.append(t.producer)
            ends.extend(t.consumers)
            if io_in_workspace and t.is_input:
                starts.append(first)
                ends.append(first)
            if io_in_workspace and t.is_output:
                ends.append(last)
        if all(getattr(t, "in_user_block", False) for t in tensors) and not any(
            t.is_input or t.is_output for t in tensors
        ):
            # Lives inside its user kernel's block (ops/_user_kernel.py), planned with that operator's scratch.
            if not any(t.producer is not None for t in tensors):
                continue
        if not starts and any(t.consumers and not t.is_input and not t.is_const for t in tensors):
            # Read but never written: a user kernel's scratch area declared as a tensor (passes/check_graph.py
            # allows it only there), live while that operator runs.
            starts = [min(c for t in tensors for c in t.consumers)]
        if not starts:
            continue  # never written: unused tensor
        size = max(t.nbytes for t in tensors)
        head = graph.tensors[group]
        buffers.append(
            LiveBuffer(id=group, name=head.name, size=size, start=min(starts), end=max(ends), tensors=list(members))
        )
    return buffers


def scratch_buffers(graph, first_id: int) -> list:
    out = []
    for op in graph.ops:
        n = op.lowering.scratch_bytes(op) if op.lowering else 0
        if n > 0:
            out.append(
                LiveBuffer(
                    id=first_id + op.index,
                    name=f"op{op.index}_scratch",
                    size=n,
                    start=op.index,
                    end=op.index,
                    kind="scratch",
                )
            )
    return out


def lower_bound(buffers, num_ops: int) -> int:
    # Bytes live at each op as a running sum of +size at a buffer's start and -size after its end: linear in
    # ops + buffers (a model may have 10,000 operators).
    steps = max(num_ops, 1)
    delta = [0] * (steps + 1)
    for b in buffers:
        first, last = max(b.start, 0), min(b.end, steps - 1)
        if first <= last:
            delta[first] += b.size
            delta[last + 1] -= b.size
    best = live = 0
    for t in range(steps):
        live += delta[t]
        best = max(best, live)
    return best
