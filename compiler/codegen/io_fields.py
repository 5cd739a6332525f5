"""C field names and macro data for model inputs/outputs."""

from dataclasses import dataclass

from .cnames import unique_identifiers


@dataclass
class IOField:
    kind: str  # "input" | "output"
    position: int
    field: str  # C struct field name (lowercase, unique across all I/O)
    tensor: object


def io_fields(graph) -> list:
    tensors = [("input", i, t) for i, t in enumerate(graph.inputs)]
    tensors += [("output", i, t) for i, t in enumerate(graph.outputs)]
    names = unique_identifiers([t.name for _, _, t in tensors], [f"{k}{i}" for k, i, _ in tensors])
    return [IOField(k, i, n, t) for (k, i, t), n in zip(tensors, names)]
