"""int16x8 CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and TRANSPOSE_CONV (int16 activations with zero point 0,
int8 weights, int64 / int32 / int16 biases) bit-exact against the TFLite Micro interpreter, on seeded inputs over
the whole int16 range plus a case of the extremes.  Each case also checks which accumulation form the compiler
chose (params["acc16"], compiler/ops/common/int16.py): "int32" for int32 biases, "narrowed" when an int64 bias is
proven to fit int32 accumulation, "wide" otherwise (huge biases, long sums of large weights), and the clear
refusals of what TFLite Micro itself does not define."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ACT, ModelBuilder  # noqa: E402
from test_ops_tflite import _compile_error, needs_tflm  # noqa: E402
from test_ops_int16 import check  # noqa: E402
from test_transpose_conv import natural  # noqa: E402

from compiler.driver import analyze  # noqa: E402
from compiler.errors import UnsupportedError  # noqa: E402

pytestmark = needs_tflm

INT32 = 2  # TensorType.INT32, the options' quantizedBiasType


def _weights(rng, shape, big):
    """int8 weights; `big`: every weight at +-127 or -128 (the largest sums of products a layer can have)."""
    if big:
        return rng.choice(np.array([-128, -127, 127], np.int8), size=shape)
    return rng.integers(-127, 128, size=shape).astype(np.int8)


def layer_model(
    kind,
    in_shape,
    out_shape,
    fshape,
    oc,
    options,
    bias="int64",
    bias_mag=2**20,
    in_s=1e-3,
    out_s=2e-3,
    w_scale=(0.002, 0.01),
    per_channel=True,
    big_weights=False,
    act="NONE",
    seed=0,
):
    """One int16x8 layer. bias: "int64", "int32", "int16", None, or "none_int32" (no bias, quantizedBiasType
    INT32)."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.input("x", in_shape, "int16", in_s, 0)
    axis = 3 if kind == "DEPTHWISE_CONV_2D" else 0
    ws = rng.uniform(*w_scale, size=oc) if per_channel else np.float32(w_scale[0])
    w = b.const("w", _weights(rng, fshape, big_weights), "int8", ws, 0, quantized_dimension=axis)
    inputs = [x, w]
    if kind == "TRANSPOSE_CONV":
        inputs = [b.const("output_shape", np.array(out_shape, np.int32), "int32"), w, x]
    if bias in ("int64", "int32", "int16"):
        mag = min(bias_mag, np.iinfo(bias).max)
        inputs.append(
            b.const(
                "b",
                rng.integers(-mag, mag + 1, size=oc).astype(bias),
                bias,
                np.float32(in_s) * np.asarray(ws, np.float32),
                0,
            )
        )
    elif bias == "none_int32":
        options["quantizedBiasType"] = INT32
    options["fusedActivationFunction"] = ACT[act]
    y = b.tensor("y", out_shape, "int16", out_s, 0)
    b.op(kind, inputs, y, options)
    b.output(y)
    return b


def conv(in_shape, oc, k=3, stride=1, padding="SAME", dilation=1, **kw):
    n, h, w, ic = in_shape
    if padding == "SAME":
        oh, ow = -(-h // stride), -(-w // stride)
    else:
        eff = (k - 1) * dilation + 1
        oh, ow = (h - eff) // stride + 1, (w - eff) // stride + 1
    opts = {
        "padding": 0 if padding == "SAME" else 1,
        "strideH": stride,
        "strideW": stride,
        "dilationHFactor": dilation,
        "dilationWFactor": dilation,
    }
    return layer_model("CONV_2D", in_shape, [n, oh, ow, oc], (oc, k, k, ic), oc, opts, **kw)


def depthwise(in_shape, mult, k=3, stride=1, padding="SAME", **kw):
    n, h, w, ic = in_shape
    oh, ow = (-(-h // stride), -(-w // stride)) if padding == "SAME" else ((h - k) // stride + 1, (w - k) // stride + 1)
    opts = {"padding": 0 if padding == "SAME" else 1, "strideH": stride, "strideW": stride, "depthMultiplier": mult}
    return layer_model(
        "DEPTHWISE_CONV_2D", in_shape, [n, oh, ow, ic * mult], (1, k, k, ic * mult), ic * mult, opts, **kw
    )


def fc(batches, depth, units, **kw):
    return layer_model("FULLY_CONNECTED", [batches, depth], [batches, units], (units, depth), units, {}, **kw)


def tconv(in_shape, oc, k=3, stride=2, padding="SAME", **kw):
    n, h, w, ic = in_shape
    oh, ow = natural((h, w), k, stride, padding)
    (kh, kwid), (sh, sw) = (
        (k if isinstance(k, tuple) else (k, k)),
        (stride if isinstance(stride, tuple) else (stride, stride)),
    )
    opts = {"padding": 0 if padding == "SAME" else 1, "strideH": sh, "strideW": sw}
    return layer_model("TRANSPOSE_CONV", in_shape, [n, oh, ow, oc], (oc, kh, kwid, ic), oc, opts, **kw)


def compiled_layer(tmp_path, b, target="host"):
    """(accumulation form, kernel) of the model's one int16x8 layer."""
    graph, _, _ = analyze(b.save(tmp_path / "form.tflite"), target)
    (layer,) = [(op.params["acc16"], op.kernel) for op in graph.ops if "acc16" in op.params]
    return layer


# (name, model, expected accumulation form)
CASES = [
    ("conv_narrowed", lambda: conv([1, 5, 6, 4], 6), "narrowed"),
    ("conv_valid_stride2", lambda: conv([1, 7, 6, 3], 5, stride=2, padding="VALID"), "narrowed"),
    ("conv_dilated", lambda: conv([1, 7, 7, 2], 3, dilation=2), "narrowed"),
    ("conv_1x1_per_tensor", lambda: conv([1, 4, 4, 8], 4, k=1, per_channel=False), "narrowed"),
    ("conv_relu", lambda: conv([1, 4, 5, 3], 4, act="RELU"), "narrowed"),
    ("conv_relu6", lambda: conv([1, 4, 5, 3], 4, act="RELU6", out_s=5e-4), "narrowed"),
    ("conv_relu_n1_to_1", lambda: conv([1, 4, 5, 3], 4, act="RELU_N1_TO_1", out_s=1e-4), "narrowed"),
    ("conv_no_bias", lambda: conv([1, 4, 5, 3], 4, bias=None), "narrowed"),
    ("conv_int32_bias", lambda: conv([1, 4, 5, 3], 4, bias="int32"), "int32"),
    ("conv_no_bias_int32_type", lambda: conv([1, 4, 5, 3], 4, bias="none_int32"), "int32"),
    (
        "conv_wide_bias",
        lambda: conv([1, 4, 5, 3], 4, bias_mag=2**40, in_s=1e-4, w_scale=(0.005, 0.01), out_s=50.0),
        "wide",
    ),
    ("conv_wide_sums", lambda: conv([1, 3, 3, 64], 4, big_weights=True, w_scale=(1e-4, 2e-4), out_s=0.02), "wide"),
    (
        "conv_wide_bias_and_sums",
        lambda: conv([1, 4, 5, 3], 4, bias_mag=2**33, in_s=1e-4, w_scale=(0.005, 0.01), out_s=0.5),
        "wide",
    ),
    ("conv_near_dead_and_large_scales", lambda: conv([1, 4, 4, 3], 6, w_scale=(1e-12, 4.0), out_s=1e-3), "narrowed"),
    ("depthwise_narrowed", lambda: depthwise([1, 5, 6, 4], 1), "narrowed"),
    ("depthwise_mult2_stride2", lambda: depthwise([1, 6, 5, 3], 2, stride=2), "narrowed"),
    ("depthwise_valid_relu", lambda: depthwise([1, 6, 6, 4], 1, padding="VALID", act="RELU"), "narrowed"),
    ("depthwise_no_bias", lambda: depthwise([1, 4, 4, 4], 1, bias=None), "narrowed"),
    (
        "depthwise_wide_bias",
        lambda: depthwise([1, 4, 4, 4], 1, bias_mag=2**42, in_s=1e-4, w_scale=(0.005, 0.01), out_s=200.0),
        "wide",
    ),
    ("fc_narrowed", lambda: fc(2, 24, 6), "narrowed"),
    ("fc_per_tensor", lambda: fc(1, 32, 5, per_channel=False), "narrowed"),
    ("fc_int32_bias", lambda: fc(2, 24, 6, bias="int32"), "int32"),
    ("fc_no_bias_int32_type", lambda: fc(1, 16, 4, bias="none_int32"), "int32"),
    ("fc_wide_sums", lambda: fc(1, 2048, 4, big_weights=True, w_scale=(1e-5, 2e-5), out_s=0.005), "wide"),
    (
        "fc_wide_bias_relu",
        lambda: fc(2, 16, 4, bias_mag=2**44, in_s=1e-4, w_scale=(0.005, 0.01), out_s=800.0, act="RELU"),
        "wide",
    ),
    ("tconv_narrowed", lambda: tconv([1, 3, 4, 4], 5), "narrowed"),
    (
        "tconv_valid_3x4_seanet_like",
        lambda: tconv([1, 1, 5, 8], 8, k=(3, 4), stride=(1, 2), padding="VALID"),
        "narrowed",
    ),
    ("tconv_int16_bias", lambda: tconv([1, 3, 3, 4], 3, bias="int16"), "narrowed"),
    ("tconv_no_bias_relu", lambda: tconv([1, 3, 3, 4], 3, bias=None, act="RELU"), "narrowed"),
    ("tconv_wide_sums", lambda: tconv([1, 2, 2, 96], 3, big_weights=True, w_scale=(1e-4, 2e-4), out_s=0.02), "wide"),
    (
        "tconv_wide_bias",
        lambda: tconv([1, 3, 3, 4], 3, bias_mag=2**40, in_s=1e-4, w_scale=(0.005, 0.01), out_s=50.0),
        "wide",
    ),
]


@pytest.mark.parametrize("name,make,form", CASES, ids=[c[0] for c in CASES])
def test_int16_layer_bit_exact(tmp_path, name, make, form):
    b = make()
    assert compiled_layer(tmp_path, b)[0] == form
    check(tmp_path, b, seed=len(name))


# On DSP cores the int32 and narrowed forms of CONV_2D, TRANSPOSE_CONV and FULLY_CONNECTED take the SMLAD entry
# points (run here as their portable emulation, with the reordered filter the core reads); wide layers and
# depthwise ones keep the portable kernel.
DSP_CASES = [c for c in CASES if not c[0].startswith("depthwise")]


@pytest.mark.parametrize("name,make,form", DSP_CASES, ids=[c[0] for c in DSP_CASES])
def test_int16_layer_bit_exact_on_dsp_cores(tmp_path, name, make, form):
    b = make()
    _, kernel = compiled_layer(tmp_path, b, "cortex-m4")
    assert kernel.endswith("_dsp") == (form != "wide"), kernel
    check(tmp_path, b, seed=len(name) + 1, target="cortex-m4")


def test_int16_depthwise_keeps_the_portable_kernel_on_dsp_cores(tmp_path):
    assert compiled_layer(tmp_path, depthwise([1, 4, 4, 4], 1), "cortex-m4")[1] == "aot_depthwise_conv2d_s16"


def test_reject_int16_depthwise_with_int32_bias(tmp_path):
    # TFLite Micro's int16 depthwise kernel reads its bias as int64 whatever its declared type.
    err = _compile_error(tmp_path, depthwise([1, 4, 4, 4], 1, bias="int32"))
    assert isinstance(err, UnsupportedError) and "int64" in str(err) and "DEPTHWISE_CONV_2D" in str(err)


def test_reject_int16_conv_with_nonzero_zero_point(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 4, 4, 2], "int16", 1e-3, 0)
    w = b.const("w", np.ones((2, 3, 3, 2), np.int8), "int8", 0.01, 0)
    y = b.tensor("y", [1, 4, 4, 2], "int16", 1e-3, 5)
    b.op("CONV_2D", [x, w], y, {"padding": 0, "strideH": 1, "strideW": 1})
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "'y'" in str(err) and "zero point" in str(err)
