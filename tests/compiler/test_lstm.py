"""UNIDIRECTIONAL_SEQUENCE_LSTM against TFLite Micro, over sequences of invocations with the state carried.

Single-op models from tflite_builder cover float32 and the integer form (int8 activations, int16 cell state) with
time-major and batch-major layouts, several batches, cell clipping, and scales chosen to reach every branch of the
arithmetic: cell-state scales above and below 2^-12 (the two tanh input rescalings), a non-power-of-two cell scale,
hidden-state zero points at the ends of int8. Every model runs SEQUENCE cases in order in ONE TFLite Micro
interpreter and in the generated program (reset once), so the hidden and cell states are checked across runs.
The real LSTM models are checked the same way, the LSTM output sequence itself (cut out of the model with
submodel.py) as well as the whole model; they are skipped with a message when absent.
"""

import os
import re
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from conftest import REPO, models_dir  # noqa: E402
from submodel import SavedModel, save_submodel  # noqa: E402
from test_ops_tflite import check_against_tflm, needs_tflm  # noqa: E402
from test_stateful import _cases  # noqa: E402
from tflite_builder import ACT, ModelBuilder  # noqa: E402

from compiler.codegen.emit_context import SCRATCH_ALIGN, _view  # noqa: E402
from compiler.driver import compile_model  # noqa: E402
from compiler.errors import UnsupportedError  # noqa: E402
from compiler.sigmoid_table import sigmoid_table  # noqa: E402


def lstm_model(
    dtype="float32",
    batches=1,
    steps=4,
    input_size=5,
    state=6,
    time_major=False,
    clip=0.0,
    in_q=(0.02, -5),
    weight_scale=0.01,
    hidden_q=(1 / 128, 0),
    cell_scale=2.0**-11,
    seed=3,
):
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    shape = [steps, batches, input_size] if time_major else [batches, steps, input_size]
    out_shape = shape[:2] + [state]
    ins = [None] * 24
    if dtype == "float32":
        ins[0] = b.input("x", shape, "float32")
        for i in range(1, 5):
            ins[i] = b.const(f"w{i}", rng.uniform(-0.6, 0.6, (state, input_size)), "float32")
        for i in range(5, 9):
            ins[i] = b.const(f"r{i}", rng.uniform(-0.6, 0.6, (state, state)), "float32")
        for i in range(12, 16):
            ins[i] = b.const(f"b{i}", rng.uniform(-0.5, 0.5, (state,)), "float32")
        ins[18] = b.variable("h", [batches, state], "float32")
        ins[19] = b.variable("c", [batches, state], "float32")
        y = b.tensor("y", out_shape, "float32")
    else:
        ins[0] = b.input("x", shape, "int8", *in_q)
        for i in range(1, 5):
            ins[i] = b.const(f"w{i}", rng.integers(-127, 128, (state, input_size)), "int8", weight_scale, 0)
        for i in range(5, 9):
            ins[i] = b.const(f"r{i}", rng.integers(-127, 128, (state, state)), "int8", weight_scale, 0)
        for i in range(12, 16):
            ins[i] = b.const(f"b{i}", rng.integers(-3000, 3000, (state,)), "int32", in_q[0] * weight_scale, 0)
        ins[18] = b.variable("h", [batches, state], "int8", *hidden_q)
        ins[19] = b.variable("c", [batches, state], "int16", cell_scale, 0)
        y = b.tensor("y", out_shape, "int8", *hidden_q)
    b.op(
        "UNIDIRECTIONAL_SEQUENCE_LSTM",
        ins,
        out=y,
        options={"fusedActivationFunction": ACT["TANH"], "cellClip": clip, "timeMajor": time_major},
    )
    b.output(y)
    return b, shape


FLOAT = [
    ("batch_major", dict()),
    ("time_major_3_batches", dict(batches=3, time_major=True)),
    ("batch_major_2_batches_clip", dict(batches=2, clip=0.3)),
    ("one_step_wide", dict(steps=1, input_size=17, state=9)),
]


@needs_tflm
@pytest.mark.parametrize("name,kw", FLOAT, ids=[c[0] for c in FLOAT])
def test_lstm_float32_over_a_sequence(tmp_path, name, kw):
    b, shape = lstm_model("float32", **kw)
    check_against_tflm(tmp_path, b, cases=_cases(shape, "float32", np.random.default_rng(0)))


INT8 = [
    ("cell_2e-11", dict()),
    ("cell_2e-12_time_major_2_batches", dict(cell_scale=2.0**-12, batches=2, time_major=True)),
    # Below 2^-12 the tanh input is shifted right (with rounding) instead of multiplied.
    ("cell_2e-15_clip", dict(cell_scale=2.0**-15, clip=0.5)),
    ("cell_2e-8_clip_saturates", dict(cell_scale=2.0**-8, clip=300.0)),
    ("cell_not_power_of_two", dict(cell_scale=0.00037, batches=3)),
    ("hidden_zero_point_extremes", dict(hidden_q=(0.004, 127), in_q=(0.05, -128), weight_scale=0.03)),
    ("hidden_zero_point_min", dict(hidden_q=(0.02, -128), in_q=(0.003, 127), weight_scale=0.002, steps=7)),
    ("wide", dict(input_size=33, state=20, steps=3, weight_scale=0.004)),
]


@needs_tflm
@pytest.mark.parametrize("name,kw", INT8, ids=[c[0] for c in INT8])
def test_lstm_int8_bit_exact_over_a_sequence(tmp_path, name, kw):
    b, shape = lstm_model("int8", **kw)
    check_against_tflm(tmp_path, b, cases=_cases(shape, "int8", np.random.default_rng(0)))


def test_sigmoid_table_in_the_crt_is_the_computed_one():
    with open(os.path.join(REPO, "crt", "src", "aot_sigmoid_s16.c")) as f:
        text = f.read()
    body = text[text.index("aot_sigmoid_table[256] = {") :]
    body = body[body.index("{") + 1 : body.index("};")]
    assert [int(v) for v in re.findall(r"\d+", body)] == sigmoid_table()


def test_sigmoid_table_entries_are_at_least_one_half():
    # The DSP interpolation (aot/sigmoid_s16.h) reads two entries as int16 lanes, each its value - 2^16, and adds
    # 2^(16 + bits) back once: exact only if every entry is >= 2^15.
    table = sigmoid_table()
    assert len(table) == 256 and min(table) >= 1 << 15 and max(table) < 1 << 16
    assert all(a <= b for a, b in zip(table, table[1:]))


def test_lstm_variants_are_refused(tmp_path):
    b, _ = lstm_model("float32")
    b._ops[0].inputs[9] = b._ops[0].inputs[12]  # a peephole weight present
    path = b.save(tmp_path / "peephole.tflite")
    with pytest.raises(UnsupportedError, match="peephole"):
        compile_model(path, "m")
    b, _ = lstm_model("float32")
    b._ops[0].builtinOptions.fusedActivationFunction = ACT["RELU"]
    path = b.save(tmp_path / "relu.tflite")
    with pytest.raises(UnsupportedError, match="TANH"):
        compile_model(path, "m")


# --- the real LSTM models --------------------------------------------------------------------------------------

REAL = [
    # (file under the models directory, LSTM output tensor, input tensor, input dtype)
    ("trained_lstm_int8.tflite", 23, 0),
    ("field/tflm/micro_speech_lstm.tflite", 23, 0),
    ("field/tflm/trained_lstm.tflite", 18, 0),
]


def _real_model(rel):
    path = os.path.join(models_dir(), rel)
    if not os.path.isfile(path):
        pytest.skip(f"model {rel} not found in {models_dir()} (set AOT_MODELS_DIR)")
    return path


@needs_tflm
@pytest.mark.parametrize("rel,lstm_out,inp", REAL, ids=[r[0] for r in REAL])
def test_real_lstm_models_over_a_sequence(tmp_path, rel, lstm_out, inp):
    path = _real_model(rel)
    from compiler.driver import load_model

    graph = load_model(path)
    cases = _cases(graph.inputs[0].shape, graph.inputs[0].dtype, np.random.default_rng(1), count=6)
    # The LSTM's own output sequence, then the whole model (the classifier after it).
    only = save_submodel(path, tmp_path / "lstm_only.tflite", 0, 0, [inp], [lstm_out])
    (tmp_path / "a").mkdir()
    check_against_tflm(tmp_path / "a", SavedModel(only), cases=cases)
    (tmp_path / "b").mkdir()
    check_against_tflm(tmp_path / "b", SavedModel(path), cases=cases)


# --- LDRD operands aligned by what the compiler emits (issue 29) ------------------------------------------------
# Operands of the DSP kernels' LDRD / word loads are aligned by what the compiler emits, and checked as it emits.
#
# LDRD (and LDM) fault on an address that is not a multiple of 4 whatever the core's UNALIGN_TRP says, so the
# alignment of every such operand must be a property of the generated C, not of the linker's luck:
# - weights: the FC / convolution DSP kernels take `const int32_t` arrays (aligned by their type); the int8 LSTM
# weights, which lstm_s8.c reads as words by LDRD, are declared 16-byte aligned (`<P>_ALIGN_USER`), as a weights
# blob aligns every array;
# - workspace: every typed view `((T*)(void*)(ws + N))` is asserted, as it is generated, to have N a multiple of T's
# size, and scratch (the expanded inputs and int16 planes the DSP kernels read by LDRD) a multiple of 8
# (codegen/emit_context.py: a misaligned plan is an internal error, never C that faults on the core).


def test_typed_views_are_checked_as_generated():
    assert _view("int32_t", "ws", 16) == "((int32_t*)(void*)(ws + 16u))"
    assert _view("int8_t", "ws", 3) == "((int8_t*)(ws + 3u))"  # bytes: any offset
    assert _view("int16_t", "ws", 8, SCRATCH_ALIGN) == "((int16_t*)(void*)(ws + 8u))"
    for ctype, offset, align in (("int32_t", 6, 1), ("int16_t", 3, 1), ("float", 2, 1), ("int16_t", 4, SCRATCH_ALIGN)):
        with pytest.raises(AssertionError, match=f"offset {offset}, not a multiple of"):
            _view(ctype, "ws", offset, align)


def test_int8_lstm_weights_declared_aligned_for_ldrd(tmp_path):
    b, _ = lstm_model("int8", input_size=8, state=8)
    model = b.save(tmp_path / "lstm.tflite")
    out = compile_model(str(model), "al", target="cortex-m4")
    weights = out.files["al_weights.c"]
    assert "#define AL_ALIGN_USER __attribute__((aligned(16)))" in weights
    for name in ("input_weights", "recurrent_weights"):
        decl = re.search(rf"const int8_t al_op\d+_{name}\[\d+\] ([^=]*)=", weights)
        assert decl, f"no {name} array in:\n{weights[:2000]}"
        assert "AL_ALIGN_USER" in decl.group(1), decl.group(0)
    # Every scratch view of the runner is a multiple of SCRATCH_ALIGN into the workspace.
    runner = out.files["al.c"]
    offsets = [int(n) for n in re.findall(r"\(ws \+ (\d+)u\)", runner)]
    assert offsets and all(off % 2 == 0 for off in offsets)
    for off in out.plan.scratch_offset.values():
        assert off % SCRATCH_ALIGN == 0
