"""I/O inside the workspace (`--io_in_workspace`): the inputs and outputs are planned in the workspace like any
tensor, the header gives accessors instead of I/O structs and `<prefix>_run(workspace)` takes no I/O.

Each model runs bit-exact with TFLite Micro both ways on the host, and its total RAM (workspace + I/O buffers
against the one workspace) is printed both ways (`pytest -s`)."""

import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)

from compiler.commands.run_cmd import execute_on_host  # noqa: E402
from compiler.driver import compile_model  # noqa: E402
from compiler.oracle import random_inputs, reference_outputs, tflm_available  # noqa: E402

MODELS = [
    # e2e/make_model.py's model (e2e/ is outside this Bazel workspace, so a copy lives in tests/models).
    os.path.join(ROOT, "tests", "models", "tiny_mobilenet_int8.tflite"),
    os.path.join(ROOT, "tests", "models", "kws_ds_cnn_int8.tflite"),
    os.path.join(ROOT, "tests", "models", "mobilenet_v1_025_96_int8.tflite"),  # 96x96x3 vision model
    os.path.join(ROOT, "tests", "models", "resnet8_int8.tflite"),  # residual ADDs (in place)
    os.path.join(ROOT, "tests", "models", "svdf_int16_state.tflite"),  # stateful: (workspace, state)
]


@pytest.mark.skipif(not tflm_available(), reason="tflite-micro (the oracle) is not installed")
@pytest.mark.parametrize("model", MODELS, ids=lambda p: os.path.basename(p))
def test_bit_exact_both_ways_with_less_ram(model):
    plain = compile_model(model, "m")
    inside = compile_model(model, "m", io_in_workspace=True)
    assert inside.plan.overlapping_live_pairs() == []
    cases = random_inputs(plain.graph, 3, seed=7)
    want = reference_outputs(model, plain.graph, cases)
    for compiled in (plain, inside):
        got = execute_on_host(compiled, cases)
        for case_got, case_want in zip(got, want):
            for g, w in zip(case_got, case_want):
                np.testing.assert_array_equal(g, np.asarray(w).reshape(g.shape))
    io = inside.manifest["io_in_workspace"]
    io_bytes = sum(t.nbytes for t in plain.graph.inputs + plain.graph.outputs)
    ws_plain = plain.manifest["workspace"]["size"]
    assert io["io_bytes"] == io_bytes
    assert io["workspace_with_separate_io"] == ws_plain
    assert io["total_ram_separate_io"] == ws_plain + io_bytes
    assert io["total_ram"] == inside.manifest["workspace"]["size"]
    if io_bytes >= 256:
        assert io["total_ram"] < ws_plain + io_bytes
    else:
        # A few bytes of I/O can cost more inside: every workspace buffer starts on a 16-byte boundary, so at most
        # each I/O buffer rounded up to 16 bytes on top (when it is live beside all of the plain workspace).
        padded = sum(-(-t.nbytes // 16) * 16 for t in plain.graph.inputs + plain.graph.outputs)
        assert io["total_ram"] <= ws_plain + padded
    print(
        f"\n{os.path.basename(model)}: total RAM with separate I/O buffers {ws_plain} + {io_bytes} = "
        f"{ws_plain + io_bytes} B; with I/O in the workspace {io['total_ram']} B (saves {io['saved']} B)"
    )


def test_api_shape():
    compiled = compile_model(MODELS[0], "tiny", io_in_workspace=True)
    h, c = compiled.files["tiny.h"], compiled.files["tiny.c"]
    assert "struct tiny_inputs" not in h and "struct tiny_outputs" not in h
    assert "#define TINY_IO_IN_WORKSPACE 1" in h
    assert "static inline int8_t* tiny_input_image(void* workspace)" in h
    assert "static inline const int8_t* tiny_output_scores(const void* workspace)" in h
    assert "int32_t tiny_run(void* workspace);" in h
    assert "inputs->" not in c and "outputs->" not in c
    offsets = {t["name"]: t["offset"] for t in compiled.manifest["tensors"] if t["storage"] == "workspace"}
    assert offsets[compiled.graph.inputs[0].name] is not None
    assert "I/O inside" in compiled.files["tiny_plan.svg"]


def test_default_api_unchanged():
    h = compile_model(MODELS[0], "tiny").files["tiny.h"]
    assert "IO_IN_WORKSPACE" not in h and "struct tiny_inputs {" in h
