"""The static memory planner: liveness, offsets that never overlap while live, alignment, lower bound, aliasing."""

import os
import random

import pytest

from compiler.driver import analyze
from conftest import model_or_generated
from compiler.planner.allocator import allocate
from compiler.planner.liveness import LiveBuffer, lower_bound


def _overlaps_in_memory(a, b, offsets):
    return offsets[a.id] < offsets[b.id] + b.size and offsets[b.id] < offsets[a.id] + a.size


def _check(buffers, offsets, total, alignment):
    for i, a in enumerate(buffers):
        assert offsets[a.id] % alignment == 0
        assert offsets[a.id] + a.size <= total
        for b in buffers[i + 1 :]:
            if a.overlaps(b):
                assert not _overlaps_in_memory(a, b, offsets), (a, b)
    assert total % alignment == 0


def test_disjoint_lifetimes_share_offset_zero():
    bufs = [LiveBuffer(0, "a", 100, 0, 1), LiveBuffer(1, "b", 100, 2, 3), LiveBuffer(2, "c", 50, 4, 4)]
    offsets, total = allocate(bufs, 16)
    assert set(offsets.values()) == {0}
    assert total == 112 and lower_bound(bufs, 5) == 100


def test_inputs_and_outputs_of_an_op_never_share_memory():
    # a: written by op 0, read by op 1; b: written by op 1. Both live at op 1.
    bufs = [LiveBuffer(0, "a", 64, 0, 1), LiveBuffer(1, "b", 64, 1, 2)]
    offsets, total = allocate(bufs, 16)
    assert offsets[0] != offsets[1] and total == 128


def test_gap_is_reused():
    # A long-lived small buffer and two short big ones at different times: the second big one reuses the first's
    # space instead of stacking.
    bufs = [LiveBuffer(0, "long", 16, 0, 9), LiveBuffer(1, "big1", 1000, 0, 3), LiveBuffer(2, "big2", 1000, 5, 9)]
    offsets, total = allocate(bufs, 16)
    _check(bufs, offsets, total, 16)
    assert offsets[1] == offsets[2]
    assert lower_bound(bufs, 10) == 1016 and total == 1024  # the bound rounded up to the alignment


@pytest.mark.parametrize("seed", range(30))
def test_random_intervals_are_planned_safely_and_near_the_bound(seed):
    rng = random.Random(seed)
    bufs = []
    for i in range(rng.randint(1, 25)):
        start = rng.randint(0, 20)
        bufs.append(
            LiveBuffer(i, f"t{i}", rng.choice([1, 7, 16, 100, 333, 1024, 4000]), start, start + rng.randint(0, 6))
        )
    alignment = rng.choice([1, 4, 16])
    offsets, total = allocate(bufs, alignment)
    _check(bufs, offsets, total, alignment)
    bound = lower_bound(bufs, 30)
    assert total >= bound
    # Greedy best-fit over several orders stays within 2x of the bound on such inputs (a sanity ceiling).
    assert total <= 2 * bound + len(bufs) * alignment


def test_planning_is_deterministic():
    rng = random.Random(7)
    bufs = [
        LiveBuffer(i, f"t{i}", rng.randint(1, 500), s, s + rng.randint(0, 4))
        for i, s in enumerate(rng.randint(0, 10) for _ in range(20))
    ]
    assert allocate(bufs, 16) == allocate(list(bufs), 16)


def test_shared_model_plans_are_valid(shared_model):
    graph, storage_map, plan = analyze(shared_model)
    assert plan.overlapping_live_pairs() == []
    assert plan.workspace_size >= plan.lower_bound
    assert all(b.offset % plan.alignment == 0 for b in plan.buffers)
    # Every intermediate tensor has an offset inside the workspace.
    for t, off in plan.tensor_offset.items():
        assert 0 <= off and off + graph.tensors[t].nbytes <= plan.workspace_size


def test_reshape_aliases_its_input():
    graph, storage_map, plan = analyze(model_or_generated("kws_ref_model"))
    reshapes = [op for op in graph.ops if op.kind == "RESHAPE"]
    assert reshapes
    for op in reshapes:
        src, dst = op.inputs[0], op.outputs[0]
        assert plan.tensor_offset[src.index] == plan.tensor_offset[dst.index]


@pytest.mark.parametrize("target", ["cortex-m4", "cortex-m7", "cortex-m33"])
def test_dsp_gemm_scratch_at_the_peak_moves_inside_the_layer(target):
    """ResNet-8's peak is its 16x16x32 3x3 convolution beside the 16 KB shortcut source: with its 1,728 B of tile
    scratch inside its own output and input (two bands of rows, ops/common/conv.py dsp_gemm_split) the peak is the
    stride-2 convolutions' (32,768 B of tensors + 864 B), and only that layer is split."""
    graph, _, plan = analyze(model_or_generated("pretrainedResnet_quant"), target)
    split = [op.index for op in graph.ops if "scratch_split" in op.params]
    assert plan.overlapping_live_pairs() == []
    assert plan.workspace_size == plan.lower_bound
    if graph.ops[5].params.get("dsp_scratch") == 1728:  # the shared model (the generated one has other numbers)
        assert split == [5] and plan.workspace_size == 33632
    for i in split:
        assert i not in plan.scratch_offset  # no scratch buffer of its own


def test_xpair_pointwise_scratch_at_the_peak_moves_inside_the_layer():
    """On the M3 KWS's 1x1 layers (8,000 B in, 8,000 B out) set the peak with their 256 B of packed-input scratch:
    their first pairs' scratch goes in the output's last bytes, the rest in the input's first bytes
    (ops/common/specialize.py xpair_split), and the workspace is the tensors' alone."""
    path = model_or_generated("kws_ref_model")
    graph, _, plan = analyze(path, "cortex-m3")
    split = [op for op in graph.ops if "scratch_split" in op.params]
    assert plan.overlapping_live_pairs() == []
    assert split and plan.workspace_size == plan.lower_bound
    for op in split:
        assert op.index not in plan.scratch_offset
        assert op.params["spec"]["body"] == "aot_conv2d_s8_xpair_body" and op.params["kh"] == op.params["kw"] == 1
    if os.path.basename(path) == "kws_ref_model.tflite":  # the shared model (the generated one has other numbers)
        assert plan.workspace_size == 16000


def test_no_dsp_gemm_split_off_the_peak_or_without_the_kernel():
    """The M3 has no DSP GEMM, and on the M4 a model whose peak the GEMM's scratch does not set keeps one call
    per layer."""
    for target, name in (("cortex-m3", "pretrainedResnet_quant"), ("cortex-m4", "kws_ref_model")):
        graph, _, _ = analyze(model_or_generated(name), target)
        assert not [op.index for op in graph.ops if "scratch_split" in op.params], (target, name)
