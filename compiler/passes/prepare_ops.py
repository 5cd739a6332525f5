"""Compute every op's compile-time constants (requantization multipliers and
shifts, folded biases, softmax/add parameters) via its lowering's prepare()."""


def prepare_ops(graph) -> None:
    for op in graph.ops:
        op.lowering.prepare(op)
