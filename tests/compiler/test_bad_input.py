"""Bad input gets one clear paragraph and exit code 2 from `aotc` — never a traceback, never half-written files.

Each case runs the real command line in a subprocess and checks: exit code 2, a single `aotc: error:` paragraph on
stderr naming what is wrong (file, op, tensor or flag) and what is supported, no "Traceback", and an output
directory with no generated files in it.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO, shared_model_path
from tflite_builder import ModelBuilder


def aotc(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "compiler", *map(str, args)], capture_output=True, text=True, cwd=cwd or REPO
    )


def assert_clear_error(result, *needles):
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    err = result.stderr.strip()
    assert "Traceback" not in result.stderr + result.stdout
    assert err.startswith("aotc: error: ") and "\n" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)


def compile_into(tmp_path, model, *extra):
    out = tmp_path / "out"
    result = aotc("compile", model, "--prefix", "m", "--out_dir", out, *extra)
    leftovers = [f for f in os.listdir(out)] if out.exists() else []
    assert not [f for f in leftovers if not f.startswith(".")], leftovers
    assert not leftovers, f"temporary files left behind: {leftovers}"
    return result


def test_missing_file(tmp_path):
    assert_clear_error(compile_into(tmp_path, tmp_path / "nope.tflite"), "nope.tflite")


def test_empty_file(tmp_path):
    p = tmp_path / "empty.tflite"
    p.write_bytes(b"")
    assert_clear_error(compile_into(tmp_path, p), "empty.tflite")


def test_garbage_file(tmp_path):
    p = tmp_path / "garbage.tflite"
    p.write_bytes(np.random.default_rng(1).integers(0, 256, 4096, dtype=np.uint8).tobytes())
    assert_clear_error(compile_into(tmp_path, p), "garbage.tflite")


@pytest.mark.parametrize("keep", [8, 100, 1000, 0.5, 0.99])
def test_truncated_model(tmp_path, keep):
    data = open(shared_model_path("micro_speech_quantized"), "rb").read()
    data = data[: keep if isinstance(keep, int) else int(len(data) * keep)]
    p = tmp_path / "truncated.tflite"
    p.write_bytes(data)
    assert_clear_error(compile_into(tmp_path, p), "truncated.tflite")


def test_unknown_extension(tmp_path):
    p = tmp_path / "model.pb"
    p.write_bytes(b"\x00" * 64)
    assert_clear_error(compile_into(tmp_path, p), "model.pb", ".tflite")


def test_unsupported_op_is_named_with_the_supported_list(tmp_path):
    # (Every shared model compiles now that LSTM and SVDF do: a generated model holds the unsupported operator.)
    b = ModelBuilder()
    x = b.input("x", [4], "float32")
    y = b.op("RELU", [x], out=b.tensor("y", [4], "float32"))
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    b.output(b.op("RANK", [y], out=b.tensor("z", [], "int32"), options=fb.RankOptionsT()))
    result = compile_into(tmp_path, b.save(tmp_path / "rank.tflite"))
    assert_clear_error(
        result,
        "RANK",
        "operator 1",
        "Supported TFLite operators are:",
        "CONV_2D",
        "UNIDIRECTIONAL_SEQUENCE_LSTM",
        "SVDF",
    )
    # Kinds only the ONNX frontend produces are no TFLite operator a user could pick.
    assert "PAD_MODE" not in result.stderr and "QUANTIZE_ONNX" not in result.stderr


def test_unsupported_dtype_int16_activations(tmp_path):
    b = ModelBuilder()
    x = b.input("x16", [4], "int16", 1 / 4096, 0)
    b.output(b.op("HARD_SWISH", [x], out=b.tensor("y16", [4], "int16", 1 / 32768, 0)))
    p = b.save(tmp_path / "int16.tflite")
    assert_clear_error(compile_into(tmp_path, p), "'y16'", "int16", "int8, float32")


def test_hybrid_model_is_refused_as_hybrid(tmp_path):
    """Float activations with int8 constant weights (dynamic-range quantization): TFLite Micro refuses such models
    too, so the message names the hybrid operator and says how to convert instead of a bare type mismatch."""
    b = ModelBuilder()
    x = b.input("x", [1, 4], "float32")
    w = b.const("w_int8", np.arange(12, dtype=np.int8).reshape(3, 4), "int8", 0.05, 0)
    bias = b.const("bias", np.zeros(3, np.float32), "float32")
    b.output(b.op("FULLY_CONNECTED", [x, w, bias], out=b.tensor("y", [1, 3], "float32")))
    p = b.save(tmp_path / "hybrid.tflite")
    assert_clear_error(
        compile_into(tmp_path, p),
        "FULLY_CONNECTED",
        "hybrid",
        "'x'",
        "'w_int8'",
        "TFLite Micro does not run hybrid models",
        "full-integer quantization",
    )


def test_custom_operator_is_named_as_custom(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 4], "int8", 0.1, 0)
    b.output(b.op("RELU", [x], out=b.tensor("y", [1, 4], "int8", 0.1, 0)))
    oc = b._opcode_list[0]  # the converter's form of a custom operator: CUSTOM plus its name
    oc.builtinCode = oc.deprecatedBuiltinCode = 32
    oc.customCode = "ethos-u"
    p = b.save(tmp_path / "vela.tflite")
    assert_clear_error(
        compile_into(tmp_path, p), "CUSTOM:ethos-u (operator 0)", "is a custom operator", "Ethos-U NPU", "before Vela"
    )


def _relu_with_signature(tmp_path, signature, stored=(1, 4)):
    b = ModelBuilder()
    x = b.input("x", list(stored), "float32")
    b.output(b.op("RELU", [x], out=b.tensor("y", list(stored), "float32")))
    for t in b._tensors:  # the converter records dynamic dimensions as -1 in shape_signature
        t.shapeSignature = signature
    return b.save(tmp_path / "dynamic.tflite")


def test_dynamic_shape(tmp_path):
    """A dynamic dimension with no positive stored size: nothing to compile for (TFLite Micro never resizes)."""
    p = _relu_with_signature(tmp_path, [1, -1], stored=(1, 0))
    assert_clear_error(compile_into(tmp_path, p), "dynamic", "'x'", "[1, -1]")


def test_dynamic_dimension_compiles_at_the_stored_size(tmp_path):
    """TFLite Micro runs a [1, -1] signature at the stored shape; so does the compiler."""
    p = _relu_with_signature(tmp_path, [1, -1])
    result = aotc("compile", p, "--prefix", "m", "--out_dir", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "#define M_X_DIM1 4\n" in (tmp_path / "out" / "m.h").read_text()


def test_dynamic_batch_compiles_at_the_stored_batch(tmp_path):
    p = _relu_with_signature(tmp_path, [-1, 4])
    result = aotc("compile", p, "--prefix", "m", "--out_dir", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    header = (tmp_path / "out" / "m.h").read_text()
    assert "#define M_X_DIM0 1\n" in header and "#define M_X_DIM1 4\n" in header


@pytest.mark.parametrize("prefix", ["1abc", "my-model", "aot_kws", "", "a" * 65])
def test_invalid_prefix(tmp_path, prefix):
    result = aotc("compile", shared_model_path("hello_world_int8"), "--prefix", prefix, "--out_dir", tmp_path)
    assert_clear_error(result, "--prefix")


def test_unknown_target(tmp_path):
    result = aotc(
        "compile",
        shared_model_path("hello_world_int8"),
        "--prefix",
        "m",
        "--out_dir",
        tmp_path,
        "--target",
        "cortex-a53",
    )
    assert_clear_error(result, "cortex-a53", "cortex-m4")


@pytest.mark.parametrize("make", ["file", "under_file"])
def test_out_dir_that_cannot_be_a_directory(tmp_path, make):
    f = tmp_path / "a_file"
    f.write_text("x")
    out = f if make == "file" else f / "sub"
    result = aotc("compile", shared_model_path("hello_world_int8"), "--prefix", "m", "--out_dir", out)
    assert_clear_error(result, str(out), "--out_dir")


@pytest.mark.parametrize("budget", ["--ram_budget=12Q", "--flash_budget=-4K", "--ram_budget=K"])
def test_bad_budget_syntax(tmp_path, budget):
    assert_clear_error(compile_into(tmp_path, shared_model_path("hello_world_int8"), budget), "budget")


def test_over_ram_budget_names_the_figures(tmp_path):
    # The message quotes short names ('m') and long tensor names together: shortening the long ones must not eat
    # the text between them ("its workspace needs N B").
    result = compile_into(tmp_path, shared_model_path("kws_ref_model"), "--ram_budget=12K")
    assert_clear_error(result, "over its ram_budget of 12288 B (12K): its workspace needs ", "Largest contributors")


def test_long_quoted_names_are_shortened_alone():
    from compiler.errors import CompileError

    long_name = "n" * 200
    text = str(CompileError(f"Model 'm' needs 5 B; see '{long_name}' and 'x'."))
    assert text.startswith("Model 'm' needs 5 B; see '") and "(200 characters)" in text and text.endswith(" and 'x'.")


def test_unknown_flag_and_command(tmp_path):
    assert_clear_error(aotc("compile", "x.tflite", "--prefx", "m"), "prefx")
    assert_clear_error(aotc("compyle", "x.tflite"), "compyle", "compile")


def _npz(tmp_path, **arrays):
    p = tmp_path / "in.npz"
    np.savez(p, **arrays)
    return p


def test_run_with_wrong_inputs(tmp_path):
    model = shared_model_path("hello_world_int8")
    out = tmp_path / "out.npz"
    # The model's input tensor is 'serving_default_dense_input:0' [1, 1] int8.
    name = "serving_default_dense_input:0"
    assert_clear_error(
        aotc("run", model, "--inputs", _npz(tmp_path, wrong=np.zeros((1, 1), np.int8)), "--outputs", out), "wrong", name
    )
    assert_clear_error(
        aotc("run", model, "--inputs", _npz(tmp_path, **{name: np.zeros((3, 3), np.int8)}), "--outputs", out), "shape"
    )
    assert_clear_error(
        aotc("run", model, "--inputs", _npz(tmp_path, **{name: np.zeros((1, 1), np.float64)}), "--outputs", out),
        name,
        "int8",
    )
    missing = tmp_path / "missing.npz"
    assert_clear_error(aotc("run", model, "--inputs", missing, "--outputs", out), "missing.npz")
    assert not out.exists()
