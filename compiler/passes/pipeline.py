"""Fixed pass order from a parsed graph to a plan-ready graph."""

from .alias import assign_storage
from .check_graph import check_graph
from .prepare_ops import prepare_ops
from .select_lowering import select_lowerings


def run_passes(graph):
    """Returns the StorageMap; ops gain lowering/params/kernel/is_noop."""
    select_lowerings(graph)
    check_graph(graph)
    prepare_ops(graph)
    return assign_storage(graph)
