"""Bit-exactness and kernel choice of the fast int8 element-wise binary kernels (ADD / SUB in the row form of
crt/src/kernels/add_s8_rows*.c) against TFLite Micro, with shapes, broadcasts and quantization parameters drawn at
random (seeded) and pushed to the extremes: scales over eight decades (the short arithmetic's exhaustive proof then
rejects some, and the generic walker must run those), zero points at -128 / 127, fused activations, odd sizes.

Each model is compiled for the host, the Cortex-M4 and the Cortex-M55 and run on this machine (the Helium kernels
run their portable code here, so this checks the compiler side: the row form of each broadcast and the parameters;
the Helium instructions themselves run under QEMU in //tests/models:eltwise_exact_test_*).
"""

import itertools
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "models"))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import check_against_tflm  # noqa: E402
from test_dsp_kernels import needs_tflm  # noqa: E402
from compiler.driver import compile_model, load_model  # noqa: E402
from compiler.ops import _add_s8_fast  # noqa: E402
from compiler.ops._common import broadcast_4d, rows_form  # noqa: E402

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
    b.op(kind, [x, y], out, {"fusedActivationFunction": int(rng.choice([0, 1, 2, 3]))})
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


@needs_tflm
@pytest.mark.parametrize("kind", ["ADD", "SUB"])
@pytest.mark.parametrize("shapes", _SHAPES, ids=lambda s: "x".join(map(str, s[0])) + "_" + "x".join(map(str, s[1])))
@pytest.mark.parametrize("seed", range(3))
def test_add_sub_rows(tmp_path, kind, shapes, seed):
    rng = np.random.default_rng(100 * seed + 7 * _SHAPES.index(shapes) + (kind == "SUB"))
    b = _model(rng, kind, shapes)
    path = b.save(tmp_path / "m.tflite")
    for target in TARGETS:
        kernel = compile_model(str(path), "m", target).manifest["ops"][0]["kernel"]
        d = tmp_path / target
        d.mkdir()
        check_against_tflm(d, b, seed=seed, target=target)
        prefix = "aot_" + kind.lower() + "_s8"
        assert kernel in (prefix, prefix + "_elementwise", prefix + "_rows", prefix + "_rows_mve"), kernel
        if shapes[0] == [1, 4, 1, 3]:
            assert kernel == prefix  # two runs of broadcast dimensions: the walker
        elif target == "cortex-m55" and kernel != prefix:
            assert kernel == prefix + "_rows_mve"


def test_kernel_choice_follows_the_proof():
    """The fast kernels are chosen exactly when the short arithmetic is proved exact for the op's scales: drawn
    scales over eight decades reach both outcomes, and the rejected ones run the generic walker."""
    rng = np.random.default_rng(5)
    seen = set()
    for i in range(40):
        shapes = _SHAPES[i % 3]
        b = _model(rng, "ADD", shapes)
        path = f"/tmp/aot_eltwise_choice_{os.getpid()}.tflite"
        b.save(path)
        g = load_model(path)
        (s1, z1), (s2, z2), (so, zo) = (t.quant.scalar() for t in (g.inputs[0], g.inputs[1], g.outputs[0]))
        exact = _add_s8_fast.short_params(s1, z1, s2, z2, so, zo, (-128, 127)) is not None
        kernel = compile_model(path, "m", "cortex-m55").manifest["ops"][0]["kernel"]
        os.remove(path)
        assert (kernel == "aot_add_s8_rows_mve") == exact, (kernel, exact, s1, s2, so)
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
