"""Stateful models: variable tensors kept between runs in a state buffer of their own, and the SVDF operator.

Every model here is compared with ONE TFLite Micro interpreter invoked once per case, in order, while the generated
program resets its state once and then runs the same cases in order (compiler/harness.py): the outputs depend on
the history, so a state lost, reset or misplaced between runs shows as a mismatch (each test also checks that the
same input given twice in a row gives different outputs, i.e. that the state matters). The API checks build a
small C program against the generated header: stateless models keep the three-argument run, stateful ones get
<PREFIX>_STATE_SIZE / _ALIGN, <prefix>_reset() and a run taking the state.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ACT, ModelBuilder  # noqa: E402
from test_ops_tflite import check_against_tflm, needs_tflm, unary_model  # noqa: E402

from compiler.driver import compile_model, write_files  # noqa: E402
from compiler.errors import CompileError, UnsupportedError  # noqa: E402
from compiler.hostbuild import build_executable  # noqa: E402

SEQUENCE = 8  # consecutive invocations per test, the state carried through all of them


def _cases(shape, dtype, rng, count=SEQUENCE, repeat_first=True):
    """Random inputs; the second case repeats the first, so a stateless result would repeat too."""
    if dtype == "int8":
        cases = [[rng.integers(-128, 128, size=shape).astype(np.int8)] for _ in range(count)]
    else:
        cases = [[rng.uniform(-1, 1, size=shape).astype(np.float32)] for _ in range(count)]
    if repeat_first:
        cases[1] = [cases[0][0].copy()]
    return cases


def svdf_model(
    dtype="int8",
    state_dtype="int16",
    batches=2,
    input_size=7,
    filters=6,
    rank=2,
    memory=5,
    in_q=(0.05, -3),
    feature_scale=0.01,
    time_scale=0.003,
    state_q=(0.02, 0),
    out_q=(0.05, 5),
    act="NONE",
    seed=1,
):
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    units = filters // rank
    if dtype == "float32":
        x = b.input("x", [batches, input_size], "float32")
        wf = b.const("wf", rng.uniform(-1, 1, (filters, input_size)), "float32")
        wt = b.const("wt", rng.uniform(-1, 1, (filters, memory)), "float32")
        bs = b.const("bias", rng.uniform(-1, 1, (units,)), "float32")
        st = b.variable("state", [batches, memory * filters], "float32")
        y = b.tensor("y", [batches, units], "float32")
    else:
        lim = 32767 if state_dtype == "int16" else 127
        x = b.input("x", [batches, input_size], "int8", *in_q)
        wf = b.const("wf", rng.integers(-127, 128, (filters, input_size)), "int8", feature_scale, 0)
        wt = b.const("wt", rng.integers(-lim, lim + 1, (filters, memory)), state_dtype, time_scale, 0)
        bias_scale = float(np.float32(state_q[0]) * np.float32(time_scale))
        bs = b.const("bias", rng.integers(-20000, 20000, (units,)), "int32", bias_scale, 0)
        st = b.variable("state", [batches, memory * filters], state_dtype, *state_q)
        y = b.tensor("y", [batches, units], "int8", *out_q)
    b.op("SVDF", [x, wf, wt, bs, st], out=y, options={"rank": rank, "fusedActivationFunction": ACT[act]})
    b.output(y)
    return b


def _check_sequence(tmp_path, builder, shape, dtype, seed=0, history=True):
    """history: the model's output depends on earlier inputs (not with a memory of one step)."""
    rng = np.random.default_rng(seed)
    cases = _cases(shape, dtype, rng)
    check_against_tflm(tmp_path, builder, cases=cases)
    if not history:
        return
    from compiler.oracle import tflm_outputs

    want = tflm_outputs(str(tmp_path / "model.tflite"), cases[:2], 1)
    assert not np.array_equal(want[0][0], want[1][0]), "the state does not influence this model's output"


SVDF_INT = [
    # (name, state dtype, keyword arguments)
    ("int16_state", "int16", dict(state_q=(0.004, 0), out_q=(0.5, 5))),
    ("int8_state_zero_point", "int8", dict(state_q=(0.5, -50), time_scale=0.01, out_q=(0.3, -7))),
    # The projection saturates the state's type: int8 state with zero point 100 wraps after the clamp.
    ("int8_state_wraps", "int8", dict(state_q=(0.05, 100), feature_scale=0.05, time_scale=0.02, out_q=(1.0, 0))),
    ("int16_rank1_memory1", "int16", dict(filters=4, rank=1, memory=1, state_q=(0.001, 0), out_q=(2.0, -128))),
    (
        "int16_rank3_batch1",
        "int16",
        dict(
            batches=1,
            filters=9,
            rank=3,
            memory=11,
            input_size=33,
            in_q=(0.003, 127),
            state_q=(0.0005, 0),
            out_q=(0.02, 0),
        ),
    ),
    (
        "int8_extreme_scales",
        "int8",
        dict(in_q=(1e-3, -128), feature_scale=2.0, state_q=(1e-4, 0), time_scale=1e-5, out_q=(1e-6, 3)),
    ),
    # int16 time weights x int16 state summed over a long memory exceed int32: the reference wraps.
    (
        "int16_long_memory_wraps",
        "int16",
        dict(filters=2, rank=1, memory=64, state_q=(0.001, 0), time_scale=1.0, feature_scale=0.5, out_q=(1e3, 0)),
    ),
    ("relu_ignored_in_integer", "int8", dict(act="RELU", state_q=(0.2, 3), time_scale=0.02, out_q=(0.1, 0))),
]


@needs_tflm
@pytest.mark.parametrize("name,state_dtype,kw", SVDF_INT, ids=[c[0] for c in SVDF_INT])
def test_svdf_int8_bit_exact_over_a_sequence(tmp_path, name, state_dtype, kw):
    b = svdf_model("int8", state_dtype, **kw)
    _check_sequence(
        tmp_path, b, (kw.get("batches", 2), kw.get("input_size", 7)), "int8", history=kw.get("memory", 5) > 1
    )


def _random_svdf(seed):
    """An int8 SVDF with parameters drawn to be extreme: log-uniform scales over many decades (feature rescaling
    from a right shift of 2^-20 to a left shift, output rescaling anywhere from 2^-30 to 2^20), zero points at the
    ends of int8, every memory depth from 1, input sizes that are not multiples of four, filter counts with and
    without a remainder of four (the kernel's four-filter groups and its single filters), rank 1 mostly (the
    kernel's rank-1 output path) and sometimes more."""
    rng = np.random.default_rng(1000 + seed)

    def log_uniform(lo, hi):
        return float(10.0 ** rng.uniform(np.log10(lo), np.log10(hi)))

    def zero_point():
        return int(rng.choice([-128, 127, int(rng.integers(-128, 128))]))

    state_dtype = "int8" if seed % 2 else "int16"
    filters = int(rng.choice([4, 8, 12, 16, 5, 7, 10, 13]))
    rank = 1 if seed % 4 else int(rng.choice([r for r in (2, 3, 4) if filters % r == 0] or [1]))
    kw = dict(
        batches=int(rng.integers(1, 3)),
        input_size=int(rng.integers(1, 41)),
        filters=filters,
        rank=rank,
        memory=int(rng.integers(1, 13)),
        in_q=(log_uniform(1e-3, 1.0), zero_point()),
        feature_scale=log_uniform(1e-3, 2.0),
        state_q=(log_uniform(1e-5, 1.0), zero_point() if state_dtype == "int8" else 0),
        time_scale=log_uniform(1e-5, 1.0),
        out_q=(log_uniform(1e-6, 1e3), zero_point()),
        seed=seed,
    )
    return state_dtype, kw


@needs_tflm
@pytest.mark.parametrize("seed", range(12))
def test_svdf_int8_random_extreme_parameters(tmp_path, seed):
    state_dtype, kw = _random_svdf(seed)
    b = svdf_model("int8", state_dtype, **kw)
    # Saturated outputs may not show the history here; the bit-exact comparison over the sequence still applies.
    _check_sequence(tmp_path, b, (kw["batches"], kw["input_size"]), "int8", seed=seed, history=False)


@needs_tflm
@pytest.mark.parametrize("act,rank", [("NONE", 2), ("RELU", 1), ("RELU6", 3), ("RELU_N1_TO_1", 2)])
def test_svdf_float32_over_a_sequence(tmp_path, act, rank):
    b = svdf_model("float32", filters=6, rank=rank, act=act)
    _check_sequence(tmp_path, b, (2, 7), "float32")


def _compile(tmp_path, builder, prefix):
    path = builder.save(tmp_path / f"{prefix}.tflite")
    compiled = compile_model(path, prefix)
    write_files(str(tmp_path), compiled.files)
    return compiled


def test_stateless_api_unchanged(tmp_path):
    compiled = _compile(tmp_path, unary_model("RELU", [4], "float32"), "plain")
    h = compiled.files["plain.h"]
    assert "int32_t plain_run(const struct plain_inputs* inputs, struct plain_outputs* outputs, void* workspace);" in h
    assert "STATE" not in h and "reset" not in h
    assert compiled.manifest["state"] == {"size": 0, "alignment": 4, "tensors": [], "ops": []}


_API_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "sv.h"
#include "aot/errors.h"

static uint8_t ws[SV_WORKSPACE_SIZE] __attribute__((aligned(SV_WORKSPACE_ALIGN)));
static uint8_t st[SV_STATE_SIZE + 4] __attribute__((aligned(SV_STATE_ALIGN)));

int main(void)
{
    int8_t x[SV_X_SIZE], first[SV_Y_SIZE], y[SV_Y_SIZE];
    struct sv_inputs in;
    struct sv_outputs out;
    int i, changed = 0;
    for (i = 0; i < (int)SV_X_SIZE; i++) x[i] = (int8_t)(i * 37 - 100);
    in.x = x;
    out.y = first;
    if (sv_reset(NULL) != AOT_ERR_NULL_ARG || sv_reset(st + 1) != AOT_ERR_STATE_ALIGN) return 10;
    if (sv_run(&in, &out, ws, NULL) != AOT_ERR_NULL_ARG) return 11;
    if (sv_run(&in, &out, ws, st + 1) != AOT_ERR_STATE_ALIGN) return 12;
    if (sv_reset(st) != AOT_OK || sv_run(&in, &out, ws, st) != AOT_OK) return 13;
    out.y = y;
    for (i = 0; i < 3; i++) {
        if (sv_run(&in, &out, ws, st) != AOT_OK) return 14;
        changed |= memcmp(y, first, sizeof y) != 0;
    }
    /* After a reset the sequence starts over: the first output again. */
    if (sv_reset(st) != AOT_OK || sv_run(&in, &out, ws, st) != AOT_OK) return 15;
    if (memcmp(y, first, sizeof y) != 0) return 16;
    printf("changed=%d state=%u\n", changed, (unsigned)SV_STATE_SIZE);
    return changed ? 0 : 17;
}
"""


def test_stateful_api_reset_and_errors(tmp_path):
    b = svdf_model("int8", "int8", state_q=(0.5, -50), time_scale=0.01, out_q=(0.3, -7))
    compiled = _compile(tmp_path, b, "sv")
    h = compiled.files["sv.h"]
    # 2 x 30 int8 steps, and the kernel's ring position (an int32 of its own).
    assert "#define SV_STATE_SIZE 64u" in h and "#define SV_STATE_ALIGN 4u" in h
    assert "int32_t sv_reset(void* state);" in h
    assert (
        "int32_t sv_run(const struct sv_inputs* inputs, struct sv_outputs* outputs, void* workspace, void* state);" in h
    )
    state = compiled.manifest["state"]
    assert state["size"] == 64 and state["tensors"][0]["reset_byte"] == (-50) & 0xFF
    assert state["ops"] == [{"op": 0, "offset": 60, "size": 4}]
    main = tmp_path / "main.c"
    main.write_text(_API_MAIN)
    exe = str(tmp_path / "api")
    build_executable([str(tmp_path / "sv.c"), str(tmp_path / "sv_weights.c"), str(main)], [str(tmp_path)], exe)
    proc = subprocess.run([exe], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_state_is_not_in_the_workspace(tmp_path):
    b = svdf_model("int8", "int16", state_q=(0.004, 0), out_q=(0.5, 5))
    compiled = _compile(tmp_path, b, "sv")
    plan = compiled.plan
    assert plan.state_size == 2 * 5 * 6 * 2 + 4
    assert all(4 not in buf.tensors for buf in plan.buffers)
    tensor = next(t for t in compiled.manifest["tensors"] if t["name"] == "state")
    assert tensor["storage"] == "state" and tensor["offset"] == 0


def test_variable_tensor_outside_a_stateful_op_is_refused(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [4], "float32")
    v = b.variable("v", [4], "float32")
    b.output(b.op("ADD", [x, v], out=b.tensor("y", [4], "float32")))
    path = b.save(tmp_path / "m.tflite")
    with pytest.raises(UnsupportedError, match="variable tensor 'v'"):
        compile_model(path, "m")


def test_svdf_bad_shapes_and_types_are_refused(tmp_path):
    b = svdf_model("float32")
    b._ops[0].inputs[3] = -1  # no bias: TFLite Micro cannot run it either
    path = b.save(tmp_path / "m0.tflite")
    with pytest.raises(UnsupportedError, match="bias"):
        compile_model(path, "m0")
    b = svdf_model("int8", "int16")
    b._tensors[4].type = 9  # the state int8 while weights_time is int16
    path = b.save(tmp_path / "m.tflite")
    with pytest.raises(UnsupportedError, match="both int16 or both int8"):
        compile_model(path, "m")
    b = svdf_model("int8", "int16", state_q=(0.004, 0))
    b._tensors[3].quantization.scale = [1.0]  # the bias scale must be state scale x time scale
    path = b.save(tmp_path / "m2.tflite")
    with pytest.raises(CompileError, match="bias scale"):
        compile_model(path, "m2")


# --- the real SVDF models ------------------------------------------------------------------------------------

# Their SVDF / FULLY_CONNECTED chain (operators 1-12: int8 in, int8 out) with every SVDF's output compared, then
# the whole model (int16 input, QUANTIZE to int8, ..., SOFTMAX int8 -> int16, QUANTIZE to int32).
KEYWORD_MODELS = [
    ("keyword_scrambled_8bit.tflite", "int8 state"),
    ("field/tflm/keyword_scrambled.tflite", "int16 state"),
]


@needs_tflm
@pytest.mark.parametrize("rel,what", KEYWORD_MODELS, ids=[m[0] for m in KEYWORD_MODELS])
def test_real_svdf_chain_over_a_sequence(tmp_path, rel, what):
    from conftest import models_dir
    from submodel import SavedModel, save_submodel

    path = os.path.join(models_dir(), rel)
    if not os.path.isfile(path):
        pytest.skip(f"model {rel} not found in {models_dir()} (set AOT_MODELS_DIR)")
    chain = save_submodel(path, tmp_path / "chain.tflite", 1, 12, [0], [5, 13, 21, 29, 37, 42, 47, 50])

    # Inputs near the zero point (-128) as the model's QUANTIZE produces them from audio features, and random.
    rng = np.random.default_rng(2)
    cases = [[rng.integers(-128, -100, size=(1, 96)).astype(np.int8)] for _ in range(4)] + [
        [rng.integers(-128, 128, size=(1, 96)).astype(np.int8)] for _ in range(4)
    ]
    (tmp_path / "chain").mkdir()
    check_against_tflm(tmp_path / "chain", SavedModel(chain), cases=cases)
    whole = [[rng.integers(-32768, 32768, size=(1, 96)).astype(np.int16)] for _ in range(SEQUENCE)]
    (tmp_path / "whole").mkdir()
    check_against_tflm(tmp_path / "whole", SavedModel(path), cases=whole)


def test_info_report_and_budget_count_the_state(tmp_path, capsys):
    from compiler.commands.info_cmd import render_info
    from compiler.commands.report_cmd import render_summary

    b = svdf_model("int8", "int16", state_q=(0.004, 0), out_q=(0.5, 5))
    path = b.save(tmp_path / "sv.tflite")
    info = render_info(path)
    assert "State (variable tensors" in info and "State: 124 B" in info and "(op 0)" in info
    compiled = compile_model(path, "sv")
    assert "state               124 B" in render_summary(compiled.manifest)
    assert "state 124 B" in compiled.files["sv_plan.svg"]
    # ram_budget holds workspace + state: the workspace alone (16 B) fits 100 B, with the state it does not.
    with pytest.raises(CompileError, match="plus 124 B of state"):
        compile_model(path, "sv", ram_budget="100")
    compile_model(path, "sv", ram_budget="140")
