"""uint8 at QUANTIZE / DEQUANTIZE and at the model boundary, bit-exact with the TFLite Micro interpreter.

Published models carry uint8 in exactly the places TFLite Micro's QUANTIZE and DEQUANTIZE accept it: vision models
take a camera's uint8 image through a uint8 -> int8 QUANTIZE, streaming wake-word and VAD models publish their
result through an int8 -> uint8 QUANTIZE, and DEQUANTIZE still takes a uint8 tensor.  Every uint8 pair is checked
on all 256 input values under several quantizations (the pure 128 shift TFLite takes a fast path for, rescaling
up and down, zero points at the limits); then a small int8 network with uint8 input and output through the
reference-data path `aot_model_test` uses (`aotc testgen`: the self-checking C test, uint8_t arrays); the pairs
TFLite Micro rejects are refused with one paragraph.
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import check_against_tflm, needs_tflm  # noqa: E402

from compiler.driver import compile_model  # noqa: E402
from compiler.errors import CompileError  # noqa: E402

# (input scale, input zero point), (output scale, output zero point)
_QUANTS = {
    "shift_128": ((0.0078125, 128), (0.0078125, 0)),
    "same_scale_zp_off": ((0.02, 200), (0.02, -5)),
    "down": ((0.05, 100), (0.13, -20)),
    "up": ((0.003, 0), (0.0007, 127)),
    "zp_limits": ((1.3, 255), (0.9, -128)),
    "image": ((1.0 / 255.0, 0), (0.003921568859368563, -128)),
}


def _pair_model(kind, src, dst, qin, qout, shape=(2, 128)):
    b = ModelBuilder()
    x = b.input("x", list(shape), src, *qin)
    b.output(b.op(kind, [x], out=b.tensor("y", list(shape), dst, *qout)))
    return b


def _all_values(dtype, shape=(2, 128)):
    lo, hi = np.iinfo(dtype).min, np.iinfo(dtype).max
    return [[np.resize(np.arange(lo, hi + 1), shape).astype(dtype)]]


@needs_tflm
@pytest.mark.parametrize("name", sorted(_QUANTS))
def test_quantize_uint8_to_int8(tmp_path, name):
    qin, qout = _QUANTS[name]
    check_against_tflm(tmp_path, _pair_model("QUANTIZE", "uint8", "int8", qin, qout), extra_cases=_all_values("uint8"))


@needs_tflm
@pytest.mark.parametrize("name", sorted(_QUANTS))
def test_quantize_int8_to_uint8(tmp_path, name):
    (si, zi), (so, zo) = _QUANTS[name]
    # The same quantizations mirrored: the int8 side is the input (zero points moved into int8's range).
    qin, qout = (so, zo), (si, min(255, max(0, zi)))
    check_against_tflm(tmp_path, _pair_model("QUANTIZE", "int8", "uint8", qin, qout), extra_cases=_all_values("int8"))


@needs_tflm
@pytest.mark.parametrize("q", [(0.02, 128), (0.5, 0), (1e-4, 255)])
def test_dequantize_uint8(tmp_path, q):
    check_against_tflm(
        tmp_path, _pair_model("DEQUANTIZE", "uint8", "float32", q, (None, None)), extra_cases=_all_values("uint8")
    )


def _uint8_network():
    """uint8 image -> QUANTIZE -> int8 CONV_2D -> int8 FULLY_CONNECTED -> QUANTIZE -> uint8 scores (and a float
    copy through DEQUANTIZE of the uint8 scores)."""
    rng = np.random.default_rng(3)
    b = ModelBuilder()
    x = b.input("image", [1, 6, 6, 2], "uint8", 1.0 / 255.0, 0)
    q = b.op("QUANTIZE", [x], out=b.tensor("image_s8", [1, 6, 6, 2], "int8", 1.0 / 255.0, -128))
    w = b.const("w", rng.integers(-127, 128, (4, 3, 3, 2)).astype(np.int8), "int8", 0.01, 0)
    bias = b.const("bias", rng.integers(-500, 500, 4).astype(np.int32), "int32", 0.01 / 255.0, 0)
    c = b.op(
        "CONV_2D",
        [q, w, bias],
        out=b.tensor("conv", [1, 3, 3, 4], "int8", 0.02, -7),
        options={"padding": 0, "strideH": 2, "strideW": 2},
    )
    r = b.op(
        "RESHAPE",
        [c, b.const("shape", np.array([1, 36], np.int32), "int32")],
        out=b.tensor("flat", [1, 36], "int8", 0.02, -7),
    )
    fw = b.const("fw", rng.integers(-127, 128, (5, 36)).astype(np.int8), "int8", 0.015, 0)
    fb = b.const("fb", rng.integers(-300, 300, 5).astype(np.int32), "int32", 0.02 * 0.015, 0)
    f = b.op("FULLY_CONNECTED", [r, fw, fb], out=b.tensor("logits", [1, 5], "int8", 0.1, 4))
    s = b.op("QUANTIZE", [f], out=b.tensor("scores", [1, 5], "uint8", 0.1, 132))
    d = b.op("DEQUANTIZE", [s], out=b.tensor("scores_f", [1, 5], "float32"))
    b.output(s, d)
    return b


@needs_tflm
def test_uint8_network(tmp_path):
    check_against_tflm(tmp_path, _uint8_network())


@needs_tflm
def test_testgen_with_uint8_io(tmp_path):
    """The reference-data path of `aot_model_test`: uint8 inputs and expected outputs as uint8_t arrays, the
    self-checking C test built with the host compiler passes, and the header publishes the uint8 quantization."""
    from compiler.commands.refdata_cmd import render_refdata
    from compiler.commands.testgen_cmd import render_test
    from compiler.driver import write_files
    from compiler.hostbuild import build_executable, run_executable
    from compiler.reference import reference_cases

    path = _uint8_network().save(tmp_path / "u8net.tflite")
    ref = reference_cases(str(path), 5, 11)
    assert ref.cases[0][0].dtype == np.uint8 and ref.expected[0][0].dtype == np.uint8
    files = dict(compile_model(str(path), "u8net", "host").files)
    header = files["u8net.h"]
    assert "uint8_t" in header and "U8NET_IMAGE_ZERO_POINT" in header and "U8NET_SCORES_ZERO_POINT" in header
    files["u8net_test.c"] = render_test("u8net", ref)
    files.update(render_refdata("u8net", ref))
    assert "const uint8_t u8net_ref_image[5 * 72]" in files["u8net_ref.c"]
    write_files(str(tmp_path), files)
    exe = str(tmp_path / "u8net_test")
    build_executable(
        [str(tmp_path / f) for f in ("u8net.c", "u8net_weights.c", "u8net_test.c", "u8net_ref.c")], [str(tmp_path)], exe
    )
    proc = run_executable(exe, [])
    assert proc.returncode == 0 and "5 of 5 cases match" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    "kind, src, dst",
    [
        ("QUANTIZE", "float32", "uint8"),
        ("QUANTIZE", "uint8", "uint8"),
        ("QUANTIZE", "uint8", "int16"),
        ("QUANTIZE", "int16", "uint8"),
        ("QUANTIZE", "uint8", "int32"),
    ],
)
def test_pairs_tflite_micro_rejects_are_refused(tmp_path, kind, src, dst):
    qs = {"float32": (None, None), "uint8": (0.02, 128), "int16": (0.001, 0), "int32": (0.0001, 0)}
    path = _pair_model(kind, src, dst, qs[src], qs[dst]).save(tmp_path / "m.tflite")
    with pytest.raises(CompileError) as e:
        compile_model(str(path), "m", "host")
    msg = str(e.value)
    assert f"({src}) to output 'y' ({dst}) is not supported" in msg and "uint8 -> int8" in msg and "\n" not in msg
