"""Bit-exactness and kernel choice of the fast int8 element-wise binary kernels (ADD / SUB / MUL in the row form
of crt/src/kernels/add_s8_rows*.c and mul_s8_rows*.c, same-shape MAXIMUM / MINIMUM of minmax_s8_flat_*.c) against
TFLite Micro, with shapes, broadcasts and quantization parameters drawn at random (seeded) and pushed to the
extremes: scales over eight decades (the short arithmetic's exhaustive proof then rejects some, and the generic
walker must run those), zero points at -128 / 127, fused activations, odd sizes.

Each model is compiled for the host, the Cortex-M4 and the Cortex-M55 and run on this machine (the DSP and Helium
kernels run their portable code here, so this checks the compiler side: the row form of each broadcast and the
parameters; the SMMLAR / SSUB8 / VRMULH / VMAX instructions themselves run under QEMU in
//tests/models:generated_exact_test_*, model elt).
"""

import itertools
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "models"))

from tflite_builder import ModelBuilder  # noqa: E402
from conftest import HostBatch, attempt, selected_params  # noqa: E402
from test_ops_tflite import check_against_tflm, prepare_tflm_check  # noqa: E402
from test_dsp_kernels import needs_tflm  # noqa: E402
from compiler.driver import compile_model, load_model  # noqa: E402
from compiler.ops.common import add_s8_fast as _add_s8_fast, mul_s8_fast as _mul_s8_fast, sqd_s8_fast as _sqd_s8_fast  # noqa: E402
from compiler.ops.squared_difference import SquaredDifference  # noqa: E402
from compiler.quant_math import quantize_multiplier  # noqa: E402
from compiler.ops.common.checks import (  # noqa: E402
    activation_range_quantized,
    broadcast_4d,
    fused_activation,
    rows_form,
)

TARGETS = ("host", "cortex-m4", "cortex-m55")


class _Op:
    index, kind = 0, "ADD"


def test_rows_form_matches_broadcast():
    """Every pair of broadcast shapes up to 4-D over small dims: where rows_form returns a row loop, that loop
    visits exactly the elements numpy's broadcasting pairs (and same shapes, a repeated row and a scalar have
    one)."""
    found = 0
    for o in itertools.product([1, 2, 3], [1, 3], [1, 2], [1, 4]):
        for ma, mb in itertools.product(itertools.product([0, 1], repeat=4), repeat=2):
            a_shape = [d if m else 1 for d, m in zip(o, ma)]
            b_shape = [d if m else 1 for d, m in zip(o, mb)]
            dims, sa, sb = broadcast_4d(_Op, a_shape, b_shape, o)
            f = rows_form(dict(dims=dims, sa=sa, sb=sb))
            if f is None:
                continue
            found += 1
            a = np.arange(int(np.prod(a_shape)))
            b = np.arange(int(np.prod(b_shape)))
            want_a = np.broadcast_to(a.reshape(a_shape), o).reshape(-1)
            want_b = np.broadcast_to(b.reshape(b_shape), o).reshape(-1)
            got_a, got_b = [], []
            for r in range(f["rows"]):
                for c in range(f["cols"]):
                    got_a.append(a[r * f["step1"] + (0 if f["mode"] == 2 else c)])
                    got_b.append(b[r * f["step2"] + (0 if f["mode"] == 1 else c)])
            assert np.array_equal(got_a, want_a) and np.array_equal(got_b, want_b), (a_shape, b_shape, o, f)
    assert found > 3000
    big = [1, 48, 48, 32]
    for other, want in (
        ([1, 48, 48, 32], dict(rows=1, cols=73728, mode=0)),
        ([1, 1, 1, 32], dict(rows=2304, cols=32, mode=0, step2=0)),
        ([1, 1, 1, 1], dict(rows=1, cols=73728, mode=1)),
        ([1, 48, 48, 1], dict(rows=2304, cols=32, mode=1, step2=1)),
    ):
        dims, sa, sb = broadcast_4d(_Op, big, other, big)
        f = rows_form(dict(dims=dims, sa=sa, sb=sb))
        assert {k: f[k] for k in want} == want, (other, f)
    dims, sa, sb = broadcast_4d(_Op, [1, 4, 1, 3], [1, 1, 5, 1], [1, 4, 5, 3])
    assert rows_form(dict(dims=dims, sa=sa, sb=sb)) is None


def _q(rng):
    return float(10 ** rng.uniform(-6, 2)), int(rng.choice([-128, 127, 0, int(rng.integers(-128, 128))]))


def _model(rng, kind, shapes):
    b = ModelBuilder("eltwise")
    a_shape, b_shape, o_shape = shapes
    qx, qy, qo = _q(rng), _q(rng), _q(rng)
    # TFLite takes output scales above 2^-19 of the larger input scale (a rescaling factor below 1).
    qo = (max(qx[0], qy[0]) * float(10 ** rng.uniform(-5.5, 2)), qo[1])
    x = b.input("x", a_shape, "int8", *qx)
    y = b.input("y", b_shape, "int8", *qy)
    out = b.tensor("out", o_shape, "int8", *qo)
    act = int(rng.choice([0, 1, 2, 3]))
    b.op(kind, [x, y], out, {"fusedActivationFunction": act} if kind in ("ADD", "SUB", "MUL") else None)
    b.output(out)
    return b


_SHAPES = (
    ([1, 3, 5, 7], [1, 3, 5, 7], [1, 3, 5, 7]),
    ([1, 3, 5, 17], [1, 1, 1, 17], [1, 3, 5, 17]),
    ([1, 1, 1, 9], [2, 3, 2, 9], [2, 3, 2, 9]),
    ([2, 4, 5], [1], [2, 4, 5]),
    ([1], [3, 33], [3, 33]),
    ([1, 4, 3, 6], [1, 4, 3, 1], [1, 4, 3, 6]),
    ([1, 4, 1, 3], [1, 1, 5, 1], [1, 4, 5, 3]),
)


# The kernel each target should get for each op when its operands have the row form (same shapes for MAXIMUM /
# MINIMUM) and, for ADD / SUB / MUL, the short arithmetic is exact; the walker otherwise.
FAST = {
    "ADD": {"host": "aot_add_s8_rows", "cortex-m4": "aot_add_s8_rows", "cortex-m55": "aot_add_s8_rows_mve"},
    "SUB": {"host": "aot_sub_s8_rows", "cortex-m4": "aot_sub_s8_rows", "cortex-m55": "aot_sub_s8_rows_mve"},
    "MUL": {"cortex-m4": "aot_mul_s8_rows", "cortex-m55": "aot_mul_s8_rows_mve"},
    "SQUARED_DIFFERENCE": {
        "cortex-m4": "aot_squared_difference_s8_rows",
        "cortex-m55": "aot_squared_difference_s8_rows_mve",
    },
    "MAXIMUM": {"cortex-m4": "aot_minmax_s8_flat_dsp", "cortex-m55": "aot_minmax_s8_flat_mve"},
    "MINIMUM": {"cortex-m4": "aot_minmax_s8_flat_dsp", "cortex-m55": "aot_minmax_s8_flat_mve"},
}
GENERIC = {
    "ADD": "aot_add_s8",
    "SUB": "aot_sub_s8",
    "MUL": "aot_mul_s8",
    "SQUARED_DIFFERENCE": "aot_squared_difference_s8",
    "MAXIMUM": "aot_minmax_s8",
    "MINIMUM": "aot_minmax_s8",
}


def _rows_model(kind, shapes, seed):
    rng = np.random.default_rng(100 * seed + 7 * _SHAPES.index(shapes) + (kind == "SUB"))
    return _model(rng, kind, shapes)


@pytest.fixture(scope="module")
def rows_runs(request, tmp_path_factory):
    """Every selected test_add_sub_rows case compiled for every target up front (the tests read the kernel choice
    from these compiles too), their host runs one program."""
    checks = {}
    for _, p in selected_params(request, "test_add_sub_rows"):
        kind, shapes, seed = p["kind"], p["shapes"], p["seed"]
        b = _rows_model(kind, shapes, seed)
        for target in TARGETS:
            key = (kind, _SHAPES.index(shapes), seed, target)
            d = tmp_path_factory.mktemp("rows")
            checks[key] = attempt(prepare_tflm_check, d, b, seed=seed, target=target, prefix=f"r{len(checks)}")
    return HostBatch(checks)


@needs_tflm
@pytest.mark.parametrize("kind", list(FAST))
@pytest.mark.parametrize("shapes", _SHAPES, ids=lambda s: "x".join(map(str, s[0])) + "_" + "x".join(map(str, s[1])))
@pytest.mark.parametrize("seed", range(3))
def test_add_sub_rows(rows_runs, kind, shapes, seed):
    for target in TARGETS:
        key = (kind, _SHAPES.index(shapes), seed, target)
        kernel = rows_runs.check(key).compiled.manifest["ops"][0]["kernel"]
        rows_runs.finish(key)
        fast = FAST[kind].get(target, GENERIC[kind])
        if kind in ("ADD", "SUB") and shapes[0] == shapes[1] and target != "cortex-m55":
            fast = fast.replace("_rows", "_elementwise")
        if shapes[0] == [1, 4, 1, 3] or (kind in ("MAXIMUM", "MINIMUM") and shapes[0] != shapes[1]):
            assert kernel == GENERIC[kind]  # two runs of broadcast dimensions (or a MAXIMUM broadcast): the walker
        else:
            assert kernel in (fast, GENERIC[kind]), kernel
            if kind in ("MAXIMUM", "MINIMUM"):
                assert kernel == fast


@pytest.mark.parametrize("kind", ["ADD", "MUL", "SQUARED_DIFFERENCE"])
def test_kernel_choice_follows_the_proof(kind):
    """The fast kernels are chosen exactly when the short arithmetic is proved exact for the op's scales: drawn
    scales over eight decades reach both outcomes (MUL's short form is TFLite's arithmetic up to int32 overflow:
    only multipliers s1 * s2 / s_out of 2^14 and more are rejected, drawn here on purpose; SQUARED_DIFFERENCE's only
    for output scales far below the squared input scales), and the rejected ones run the generic walker."""
    rng = np.random.default_rng(5)
    seen = set()
    for i in range(40):
        shapes = _SHAPES[i % 3]
        b = _model(rng, kind, shapes)
        if kind == "MUL" and i % 4 == 0:
            b._tensors[2].quantization.scale = [
                b._tensors[0].quantization.scale[0]
                * b._tensors[1].quantization.scale[0]
                / float(2 ** rng.uniform(14, 20))
            ]
        path = f"/tmp/aot_eltwise_choice_{os.getpid()}.tflite"
        b.save(path)
        g = load_model(path)
        (s1, z1), (s2, z2), (so, zo) = (t.quant.scalar() for t in (g.inputs[0], g.inputs[1], g.outputs[0]))
        op = compile_model(path, "m", "cortex-m55").manifest["ops"][0]
        act = activation_range_quantized(fused_activation(g.ops[0]), so, zo, "int8")
        if kind == "ADD":
            exact = _add_s8_fast.short_params(s1, z1, s2, z2, so, zo, act) is not None
        elif kind == "SQUARED_DIFFERENCE":
            exact = _sqd_s8_fast.short_params(SquaredDifference._params(g.ops[0])) is not None
        else:
            mo, sho = quantize_multiplier(float(np.float32(s1)) * float(np.float32(s2)) / float(np.float32(so)))
            exact = _mul_s8_fast.short_params(z1, z2, zo, mo, sho, act) is not None
        os.remove(path)
        assert (op["kernel"] == FAST[kind]["cortex-m55"]) == exact, (op["kernel"], exact, s1, s2, so)
        seen.add(exact)
    assert seen == {True, False}


@needs_tflm
def test_eltwise_models(tmp_path):
    """The generated bench and variants models (tests/models/make_eltwise_models.py) on every target."""
    import make_eltwise_models as mk

    for make in (mk.eltwise, mk.variants):
        b = make()
        for target in TARGETS:
            d = tmp_path / f"{b._description}_{target}"
            d.mkdir()
            check_against_tflm(d, b, target=target)
