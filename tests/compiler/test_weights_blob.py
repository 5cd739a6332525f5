"""Weights as an updatable blob (`--weights blob`, compiler/codegen/weights_blob.py): one build of model A's code runs
A's blob bit-exact with TFLite Micro on A and, without rebuilding, B's blob (same architecture, other training,
tests/weights_blob/make_blob_models.py) bit-exact on B; blobs of another architecture, format version, truncated,
corrupt or misaligned are refused with their codes (crt/include/aot/errors.h); `aotc blob` names the first
differing operator when the architectures differ."""

import os
import struct
import sys
import zlib

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)

from compiler.commands.blob_cmd import make_blob  # noqa: E402
from compiler.commands.run_cmd import execute_on_host  # noqa: E402
from compiler.driver import compile_model, write_files  # noqa: E402
from compiler.errors import CompileError  # noqa: E402
from compiler.harness import render_run_harness  # noqa: E402
from compiler.hostbuild import build_executable, run_executable  # noqa: E402
from compiler.oracle import random_inputs, reference_outputs, tflm_available  # noqa: E402

MODELS = os.path.join(ROOT, "tests", "weights_blob")
A, B, OTHER = (os.path.join(MODELS, f"blob_{m}_int8.tflite") for m in ("a", "b", "other"))
# The DSP kernels (their weight layouts and folded tables), emulated on the host.
TARGET = "cortex-m4"

ERR = {"UNBOUND": -20, "ALIGN": -21, "TRUNCATED": -22, "MAGIC": -23, "VERSION": -24, "ARCH": -25, "CRC": -26}


@pytest.fixture(scope="module")
def lib():
    return compile_model(A, "bm", TARGET, weights="blob")


def _outputs(compiled, cases, blob=None, blob_args=()):
    return [o[0] for o in execute_on_host(compiled, cases, blob=blob, blob_args=blob_args)]


def _binder(compiled, tmp):
    """A host build of the model's harness (compiler/harness.py), built once: bind(blob, *args) -> its stderr and
    exit code after binding `blob` (no case run)."""
    write_files(str(tmp), compiled.files)
    harness, exe = tmp / "harness.c", str(tmp / "harness")
    harness.write_text(render_run_harness(compiled.prefix, compiled.fields, len(compiled.files["bm_weights.bin"])))
    build_executable([str(tmp / "bm.c"), str(tmp / "bm_weights.c"), str(harness)], [str(tmp)], exe)
    (tmp / "in.bin").write_bytes(b"")

    def bind(blob, *args):
        (tmp / "blob.bin").write_bytes(blob)
        files = [str(tmp / n) for n in ("in.bin", "out.bin")]
        proc = run_executable(exe, files + ["0", str(tmp / "blob.bin")] + [str(a) for a in args])
        return proc.stderr, proc.returncode

    return bind


def test_errors_header_documents_the_codes():
    text = open(os.path.join(ROOT, "crt", "include", "aot", "errors.h")).read()
    for name, code in ERR.items():
        macro = f"AOT_ERR_{'WEIGHTS_' if name == 'UNBOUND' else 'BLOB_'}{name}"
        assert f"#define {macro} ({code})" in text


def test_blob_layout(lib):
    blob = lib.files["bm_weights.bin"]
    magic, version, arch, size, crc = struct.unpack_from("<II16sII", blob)
    assert (magic, version, size) == (0x57544F41, 1, len(blob))
    assert crc == zlib.crc32(blob[32:])
    assert arch.hex() == lib.manifest["weights_blob"]["arch_hash"]
    # No weights left in the C: the weights file is empty, every kernel reads through the bound blob.
    assert "bm_op" not in lib.files["bm_weights.c"] and "static const int" not in lib.files["bm.c"]
    assert f"#define BM_WEIGHTS_BLOB_SIZE {len(blob)}u" in lib.files["bm.h"]


@pytest.mark.skipif(not tflm_available(), reason="tflite-micro (the oracle) is not installed")
def test_one_build_runs_two_trainings_bit_exact(lib):
    like = lib.manifest["weights_blob"]
    blob_b = make_blob(B, dict(like, model="blob_a_int8.tflite"), "blob_a_int8.tflite", "bm", TARGET)
    assert blob_b != lib.files["bm_weights.bin"]
    cases = random_inputs(lib.graph, 4, seed=3)
    want_a = [np.asarray(w[0]) for w in reference_outputs(A, lib.graph, cases)]
    want_b = [np.asarray(w[0]) for w in reference_outputs(B, lib.graph, cases)]
    assert any(not np.array_equal(a, b) for a, b in zip(want_a, want_b)), "A and B must compute different things"
    for blob, want in ((None, want_a), (blob_b, want_b)):
        for got, w in zip(_outputs(lib, cases, blob), want):
            np.testing.assert_array_equal(got, w.reshape(got.shape))


def test_wrong_blobs_are_refused_with_their_codes(lib, tmp_path):
    bind = _binder(lib, tmp_path)
    good = lib.files["bm_weights.bin"]
    assert bind(good) == ("", 0)
    other = compile_model(OTHER, "bm", TARGET, weights="blob").files["bm_weights.bin"]

    def patched(offset, value):
        b = bytearray(good)
        struct.pack_into("<I", b, offset, value)
        return bytes(b)

    corrupt = bytearray(good)
    corrupt[len(good) // 2] ^= 0x40
    wrong = {
        "ARCH": (other, ()),
        "VERSION": (patched(4, 2), ()),
        "MAGIC": (patched(0, 0x46464F45), ()),
        "TRUNCATED": (good, (len(good) - 16,)),
        "CRC": (bytes(corrupt), ()),
        "ALIGN": (good, (-1, 4)),
    }
    for name, (blob, args) in wrong.items():
        err, code = bind(blob, *args)
        assert code == 3 and f"bm_bind_weights failed with {ERR[name]}" in err, (name, err)
    # A header alone is truncated too, before any other check can read past it.
    assert "failed with -22" in bind(good, 20)[0]


def test_other_architecture_names_the_first_differing_operator(lib):
    with pytest.raises(CompileError) as e:
        make_blob(OTHER, lib.manifest["weights_blob"], "blob_a_int8.tflite", "bm", TARGET)
    msg = str(e.value)
    assert "operator 2 (CONV_2D)" in msg and "'pointwise/weights'" in msg and "[12, 1, 1, 8]" in msg
    # Other compile options are another architecture as well: the kernels' code differs.
    with pytest.raises(CompileError, match="operator 0 \\(CONV_2D\\)"):
        make_blob(B, lib.manifest["weights_blob"], "blob_a_int8.tflite", "bm", "host")


def test_default_weights_stay_in_the_code():
    plain = compile_model(A, "bm", TARGET)
    assert "bm_weights.bin" not in plain.files and "weights_blob" not in plain.manifest
    assert "bind_weights" not in plain.files["bm.c"] + plain.files["bm.h"]


# Models whose constants take the other routes into the C: parameter structs (residual ADD, element-wise), state
# (LSTM), I/O in the workspace with Helium kernels, int16 and float layers.
OTHERS = [
    ("resnet8_int8", "cortex-m4", False),
    ("lstm_int8_extremes", "cortex-m4", False),
    ("tiny_mobilenet_int8", "cortex-m55", True),
    ("decoder_int16", "host", False),
    ("decoder_float", "host", False),
]


@pytest.mark.skipif(not tflm_available(), reason="tflite-micro (the oracle) is not installed")
@pytest.mark.parametrize("name,target,io_in_workspace", OTHERS, ids=[m for m, _, _ in OTHERS])
def test_every_constant_comes_from_the_blob(name, target, io_in_workspace):
    path = os.path.join(ROOT, "tests", "models", name + ".tflite")
    compiled = compile_model(path, "m", target, io_in_workspace=io_in_workspace, weights="blob")
    # The only constants left in the code: the architecture hash and the blob pointer.
    assert compiled.files["m.c"].count("static const") == 2
    cases = random_inputs(compiled.graph, 2, seed=3)
    for got, want in zip(execute_on_host(compiled, cases), reference_outputs(path, compiled.graph, cases)):
        for g, w in zip(got, want):
            w = np.asarray(w).reshape(g.shape)
            if g.dtype.kind == "f":
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
            else:
                np.testing.assert_array_equal(g, w)
