"""Golden digests of the generated code: every committed generated model (tests/models/*.tflite, *.onnx) compiled
for every target (and the Cortex-M3 with unpacked specialized bodies) must give exactly the files it gave when the
digests were recorded, or fail with exactly the same error.

A compiler refactor (the kernel table, ops/common, a lowering's structure) must leave codegen byte-identical; this
test is the quick CI check of that.  tools/codegen_digest.py is the thorough one (shared and field models,
conformance cases).  When a change is *meant* to alter the generated code, regenerate the digests and commit them
with the change (the diff of codegen_golden.json then shows which (model, core) pairs changed):

    .venv/bin/python tests/compiler/test_codegen_golden.py --update
"""

import glob
import hashlib
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, REPO)

from compiler.driver import compile_model  # noqa: E402
from compiler.ops.kernel_table import KernelOptions, parse_specialize  # noqa: E402
from compiler.targets import TARGETS  # noqa: E402

GOLDEN = os.path.join(HERE, "data", "codegen_golden.json")
MODELS = os.path.join(REPO, "tests", "models")
# Beyond the defaults: the Cortex-M3 without packed weights (the unpacked specialized bodies the M0 also has, with
# the M3's other choices), and with packed inputs for every convolution (what the 224x224 MobileNet v2 takes).
VARIANTS = {
    "cortex-m3:nopack": ("cortex-m3", "conv,depthwise,fc"),
    "cortex-m3:xpair": ("cortex-m3", "conv,depthwise,fc,xpair"),
}


def models() -> list:
    # Left out: the QDQ forms of the PyTorch exports (make_torch_qdq.py quantizes the committed float exports) and
    # the exports with torch's default settings (the dynamo exports' graphs, weights in a side file). Their lowering is
    # the path onnx_cnn_qdq.onnx and the dynamo float exports already pin, and 24 models more on every core would cost
    # this quick check ~20 s of CPU; tools/codegen_digest.py's `repo` set still covers them.
    return sorted(
        os.path.basename(p)
        for ext in ("tflite", "onnx")
        for p in glob.glob(os.path.join(MODELS, "*." + ext))
        if not (os.path.basename(p).startswith("torch_") and p.endswith(("_qdq.onnx", "_default.onnx")))
    )


def configs() -> dict:
    """{config name: (target, --specialize or None)}."""
    return {**{t: (t, None) for t in TARGETS}, **VARIANTS}


def digest(model: str, target: str, specialize) -> dict:
    """{file name: sha256} of the generated files, or {"error": message}."""
    opts = KernelOptions(specialize=parse_specialize(specialize)) if specialize else None
    try:
        files = compile_model(os.path.join(MODELS, model), "net", target, kernel_options=opts).files
    except Exception as e:  # noqa: BLE001 - a model that fails must fail the same way
        return {"error": f"{type(e).__name__}: {' '.join(str(e).split())[:300]}"}
    return {name: hashlib.sha256(text.encode()).hexdigest() for name, text in sorted(files.items())}


def digests() -> dict:
    return {f"{m}@{c}": digest(m, *configs()[c]) for m in models() for c in configs()}


def _golden() -> dict:
    if not os.path.isfile(GOLDEN):
        pytest.fail(f"{GOLDEN} is missing; record it with: python tests/compiler/test_codegen_golden.py --update")
    with open(GOLDEN) as f:
        return json.load(f)


def test_golden_covers_every_generated_model_and_core():
    want = {f"{m}@{c}" for m in models() for c in configs()}
    assert set(_golden()) == want, (
        "models or cores changed: re-record with python tests/compiler/test_codegen_golden.py --update "
        f"(missing: {sorted(want - set(_golden()))[:5]}, stale: {sorted(set(_golden()) - want)[:5]})"
    )


@pytest.mark.parametrize("model", models())
def test_generated_code_is_unchanged(model):
    golden = _golden()
    changed = []
    for c, (target, spec) in configs().items():
        key = f"{model}@{c}"
        got = digest(model, target, spec)
        if key in golden and got != golden[key]:
            files = sorted(f for f in set(got) | set(golden[key]) if got.get(f) != golden[key].get(f))
            changed.append(f"{c}: {', '.join(files)}" + (f" ({got['error']})" if "error" in got else ""))
    assert not changed, (
        f"the generated code of {model} changed ({'; '.join(changed)}). If that is intended, re-record the digests: "
        "python tests/compiler/test_codegen_golden.py --update"
    )


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit(__doc__)
    os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
    with open(GOLDEN, "w") as f:
        json.dump(digests(), f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {GOLDEN}")
