"""Fixed pass order from a parsed graph to a plan-ready graph."""

from .alias import assign_storage
from .check_graph import check_graph
from .fold_pad import fold_pads
from .fuse_residual_add import fuse_residual_adds
from .prepare_ops import prepare_ops
from .raw_int32_arith import rewrite_raw_int32_arith
from .select_lowering import select_lowerings


def run_passes(graph):
    """Returns the StorageMap; ops gain lowering/params/kernel/is_noop (fused ops: fused_into)."""
    rewrite_raw_int32_arith(graph)
    select_lowerings(graph)
    check_graph(graph)
    fold_pads(graph)
    prepare_ops(graph)
    fuse_residual_adds(graph)
    return assign_storage(graph)
