"""strict_kernels over the real models: every shared model and every field model in scope builds with strict_kernels
for the Cortex-M4, M7 and M33, i.e. no layer leaves its core's best kernels because of its quantization parameters
(issue 14).  Layers that leave them for a structural reason (a shape no fast kernel covers) are allowed; the test
prints them (`pytest -s`), and the kernel table's reasons are checked on a few known ones.

Models outside the compiler's scope (operators or types it refuses) are skipped; the shared models are
$AOT_MODELS_DIR (../shared/models), the field corpus its field/ directory, each skipped with a message when absent.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from compiler.driver import compile_model  # noqa: E402
from compiler.errors import CompileError, UnsupportedError  # noqa: E402
from compiler.ops.kernel_table import FAMILIES, TABLE, KernelOptions  # noqa: E402
from compiler.targets import TARGETS as ALL_TARGETS  # noqa: E402
from conftest import models_dir, shared_model_path  # noqa: E402

TARGETS = ("cortex-m4", "cortex-m7", "cortex-m33")
STRICT = KernelOptions(strict=True)


def _models() -> list:
    root = models_dir()
    found = []
    for d, _, files in os.walk(root, followlinks=True):
        found += [os.path.join(d, f) for f in files if f.endswith(".tflite")]
    return sorted(found)


def _fallbacks(path: str, target: str):
    """(None, [structural fallbacks as text]) or (refusal, []) for a model out of scope; strict failures raise."""
    try:
        ops = compile_model(path, "m", target, kernel_options=STRICT).manifest["ops"]
    except (UnsupportedError, CompileError) as e:
        if str(e).startswith("strict_kernels:"):
            raise
        return str(e).split(". ")[0], []
    return None, [
        f"op {op['index']} {op['kind']} -> {op['kernel']}: {op['kernel_reason']}" for op in ops if op["kernel_reason"]
    ]


def test_targets_share_one_family_list():
    # The three cores choose from the same families, so one model's choice is the same on each of them.
    assert len({FAMILIES[t] for t in TARGETS}) == 1
    # Every target has its families, each ending with the portable one that takes every layer.
    assert set(FAMILIES) == set(ALL_TARGETS) and all(f[-1] == "portable" for f in FAMILIES.values())
    for (kind, _dtype), kernels in TABLE.items():
        assert kernels[-1].family == "portable" and kernels[-1].serves is None and kernels[-1].when is None, kind


@pytest.mark.parametrize("target", TARGETS)
def test_no_quantization_fallback(target):
    models = _models()
    if not models:
        pytest.skip(f"no .tflite models under {models_dir()} (set AOT_MODELS_DIR)")
    compiled, refused, report, field = 0, [], [], 0
    for path in models:
        refusal, slow = _fallbacks(path, target)
        if refusal is not None:
            refused.append(f"  {os.path.relpath(path, models_dir())}: {refusal}")
            continue
        compiled += 1
        rel = os.path.relpath(path, models_dir())
        field += rel.startswith("field")
        report += [f"  {rel}: {s}" for s in slow]
    print(
        f"\n{target}: {compiled} models built with strict_kernels; structural fallbacks: {len(report)}\n"
        + "\n".join(report)
        + f"\nout of scope ({len(refused)}):\n"
        + "\n".join(refused)
    )
    assert compiled > 0
    if os.path.isdir(os.path.join(models_dir(), "field")):
        assert field > 100, f"only {field} field models built"


def fold_overflow_model(path: str) -> str:
    """A 3x3 CONV_2D whose input zero point (-128) folded into its bias (near the int32 maximum) overflows int32, so
    on DSP cores it keeps the portable kernel because of its quantization parameters (also the model of
    tests/budgets' strict_kernels fixture, written by tests/budgets/make_fold_overflow.py)."""
    import numpy as np
    from tflite_builder import ModelBuilder

    b = ModelBuilder("strict_kernels fixture: zero-point fold overflows int32")
    x = b.input("x", [1, 6, 6, 4], "int8", 0.05, -128)
    w = b.const("w", np.full((4, 3, 3, 4), 127, np.int8), "int8", np.full(4, 0.004), 0, quantized_dimension=0)
    bias = b.const(
        "b", np.full(4, (1 << 31) - 1000, np.int32), "int32", np.full(4, 0.0002, np.float32), 0, quantized_dimension=0
    )
    y = b.tensor("y", [1, 4, 4, 4], "int8", 0.2, 0)
    b.op("CONV_2D", [x, w, bias], y, {"padding": 1, "strideH": 1, "strideW": 1})
    b.output(y)
    return b.save(path)


def test_strict_kernels_names_the_layer(tmp_path):
    """A layer whose numbers keep it off the DSP kernel (here: a zero point whose fold overflows int32) fails the
    strict build in one paragraph naming the operator, its kernel and why; without strict it builds."""
    path = fold_overflow_model(str(tmp_path / "fold.tflite"))
    ops = compile_model(path, "m", "cortex-m4").manifest["ops"]
    assert ops[0]["kernel_reason_numeric"] and "overflows int32" in ops[0]["kernel_reason"]
    with pytest.raises(
        UnsupportedError,
        match=r"strict_kernels: 1 layer.*operator 0 \(CONV_2D\) runs aot_conv2d_s8 "
        r"because aot_conv2d_s8_dsp: folding the input zero point",
    ):
        compile_model(path, "m", "cortex-m4", kernel_options=STRICT)


def test_structural_reasons_in_the_manifest():
    ops = compile_model(shared_model_path("micro_speech_quantized"), "m", "cortex-m4", kernel_options=STRICT).manifest[
        "ops"
    ]
    fc = [op for op in ops if op["kind"] == "FULLY_CONNECTED"][0]
    assert fc["kernel"] == "aot_fully_connected_s8" and not fc["kernel_reason_numeric"]
    assert "scratch would exceed 2 KiB" in fc["kernel_reason"]
    ops = compile_model(shared_model_path("micro_speech_quantized"), "m", "cortex-m0").manifest["ops"]
    fc = [op for op in ops if op["kind"] == "FULLY_CONNECTED"][0]
    assert fc["kernel_reason"] == "aot_fully_connected_s8_body: depth 4000 > 1365 (load immediate range)"
    dw = [op for op in ops if op["kind"] == "DEPTHWISE_CONV_2D"][0]
    assert dw["entry"] == "aot_depthwise_conv2d_s8_body[short requant]" and dw["kernel_reason"] is None
    # The Cortex-M3 packs the weights (ops/common/packed.py): the deep layer is specialized too, and the one-channel
    # depthwise layer runs as a packed convolution.
    ops = compile_model(shared_model_path("micro_speech_quantized"), "m", "cortex-m3").manifest["ops"]
    fc = [op for op in ops if op["kind"] == "FULLY_CONNECTED"][0]
    assert fc["entry"] == "aot_fully_connected_s8_packed_body[short requant]" and fc["kernel_reason"] is None
    dw = [op for op in ops if op["kind"] == "DEPTHWISE_CONV_2D"][0]
    assert dw["entry"] == "aot_conv2d_s8_packed_body[short requant]" and dw["kernel_reason"] is None
