"""Builds int8 TFLite networks layer by layer without TensorFlow, quantized the way the TFLite converter does it.

Each layer method runs the float layer on a seeded calibration batch (numpy), so the network is trained nowhere but
its numbers look like a trained one's after conversion:
- weights are drawn He-normal, then every conv / depthwise / fully connected layer is normalized from the statistics
  of what actually reaches it (as a folded BatchNormalization: per channel mean 0, std gamma, plus a shift beta), so
  activations neither vanish nor explode through the depth;
- activations are quantized asymmetric int8 from their calibrated min/max (range widened to hold 0, as TFLite
  does), so nothing saturates on inputs of the calibration distribution;
- conv and depthwise weights per output channel, fully connected weights per tensor, symmetric; int32 biases at
  input scale x weight scale; softmax output at 1/256, -128; pooling and reshape keep their input's parameters.

The calibration inputs are uniform over the input tensor's quantized range, the distribution the repository's
reference data draws from (compiler/oracle.py: random_inputs), so the reference cases exercise the calibrated range.
The ops emitted go through tests/compiler/tflite_builder.py.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "compiler"))
from tflite_builder import ACT, ModelBuilder  # noqa: E402


class Act:
    """A calibrated activation: float values over the batch, its tensor in the model and its quantization."""

    def __init__(self, values, tensor, scale, zero_point):
        self.values, self.tensor, self.scale, self.zero_point = values, tensor, scale, zero_point


def _act_quant(values):
    lo, hi = min(float(values.min()), 0.0), max(float(values.max()), 0.0)
    scale = max(hi - lo, 1e-6) / 255.0
    zero_point = int(np.clip(round(-128 - lo / scale), -128, 127))
    return np.float32(scale), zero_point


def _dense(x, w):
    """x times w transposed (a fully connected layer), summed by numpy's own loops: `x @ w.T` goes to the BLAS
    library, whose kernel (and so whose order of summation, and the float32 result) depends on the CPU it finds
    (an AVX-512 machine gave another ad_autoencoder_int8.tflite than an AVX2 one), and the files these networks
    are written to must be the same bytes on every machine."""
    return np.einsum("ni,oi->no", x.reshape(-1, x.shape[-1]), w).reshape(x.shape[:-1] + (w.shape[0],))


def _pad_same(x, kh, kw, stride):
    n, h, w, c = x.shape
    oh, ow = -(-h // stride), -(-w // stride)
    ph = max((oh - 1) * stride + kh - h, 0)
    pw = max((ow - 1) * stride + kw - w, 0)
    return np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0))), oh, ow


def _patches(x, kh, kw, stride, padding):
    """(N, OH, OW, KH, KW, C) windows of an NHWC batch."""
    if padding == "SAME":
        x, oh, ow = _pad_same(x, kh, kw, stride)
    else:
        oh, ow = (x.shape[1] - kh) // stride + 1, (x.shape[2] - kw) // stride + 1
    rows = [
        x[:, i : i + stride * (oh - 1) + 1 : stride, j : j + stride * (ow - 1) + 1 : stride, :]
        for i in range(kh)
        for j in range(kw)
    ]
    return np.stack(rows, axis=3).reshape(x.shape[0], oh, ow, kh, kw, x.shape[3])


class CalibratedNet:
    def __init__(self, seed, description):
        self.rng = np.random.default_rng(seed)
        self.b = ModelBuilder(description)
        self.macs = 0

    # --- inputs and outputs -------------------------------------------------------------------------------
    def input(self, name, shape, scale, zero_point, batch=48):
        q = self.rng.integers(-128, 128, size=(batch,) + tuple(shape[1:]))
        values = ((q - zero_point) * scale).astype(np.float32)
        return Act(values, self.b.input(name, shape, "int8", scale, zero_point), np.float32(scale), zero_point)

    def output(self, a):
        self.b.output(a.tensor)
        return self.b.build()

    def _emit_act(self, name, values, quant=None):
        scale, zp = quant or _act_quant(values)
        shape = (1,) + values.shape[1:]
        return Act(values, self.b.tensor(name, shape, "int8", scale, zp), scale, zp)

    # --- weighted layers ------------------------------------------------------------------------------------
    def _normalize(self, z, beta, gamma_range):
        """Per-channel factor and shift that give z mean `beta` and std gamma (drawn per channel)."""
        axes = tuple(range(z.ndim - 1))
        gamma = self.rng.uniform(*gamma_range, size=z.shape[-1])
        factor = gamma / (z.std(axis=axes) + 1e-6)
        return factor, beta - z.mean(axis=axes) * factor

    def _bias(self, name, bias, in_scale, w_scale):
        bscale = (np.float32(in_scale) * np.asarray(w_scale, np.float32)).astype(np.float32)
        q = np.clip(np.round(bias / bscale), -(2**31), 2**31 - 1).astype(np.int32)
        return self.b.const(name + "/bias", q, "int32", bscale, 0), q * bscale

    def _finish(self, name, z, act, quant=None):
        values = {"NONE": z, "RELU": np.maximum(z, 0), "RELU6": np.clip(z, 0, 6)}[act]
        return self._emit_act(name, values.astype(np.float32), quant)

    def conv(self, name, x, oc, k, stride=1, padding="SAME", act="RELU", beta=0.5, gamma=(0.7, 1.3), depthwise=False):
        kh, kw = (k, k) if isinstance(k, int) else k
        ic = x.values.shape[-1]
        p = _patches(x.values, kh, kw, stride, padding)
        # Float weights with the output channel last: (kh, kw, ic, oc), or (kh, kw, c) for depthwise.
        if depthwise:
            spec, w = "nhwijc,ijc->nhwc", self.rng.normal(0, np.sqrt(2.0 / (kh * kw)), size=(kh, kw, ic))
        else:
            spec = "nhwijc,ijco->nhwo"
            w = self.rng.normal(0, np.sqrt(2.0 / (kh * kw * ic)), size=(oc, kh, kw, ic)).transpose(1, 2, 3, 0)
        factor, bias = self._normalize(np.einsum(spec, p, w), beta, gamma)
        w = w * factor
        w_scale = (np.maximum(np.abs(w).reshape(-1, w.shape[-1]).max(axis=0), 1e-8) / 127.0).astype(np.float32)
        wq = np.clip(np.round(w / w_scale), -127, 127).astype(np.int8)
        # TFLite's layouts: conv (oc, kh, kw, ic) per channel along axis 0; depthwise (1, kh, kw, c) along axis 3.
        wt = self.b.const(
            name + "/weights",
            wq[None] if depthwise else wq.transpose(3, 0, 1, 2),
            "int8",
            w_scale,
            0,
            quantized_dimension=3 if depthwise else 0,
        )
        bt, bias_real = self._bias(name, bias, x.scale, w_scale)
        # The float path continues with the weights as quantized, so later layers calibrate on what int8 computes.
        z = np.einsum(spec, p, wq * w_scale) + bias_real
        out = self._finish(name, z, act)
        oh, ow = z.shape[1:3]
        self.macs += oh * ow * oc * kh * kw * (1 if depthwise else ic)
        kind = "DEPTHWISE_CONV_2D" if depthwise else "CONV_2D"
        opts = {
            "padding": 0 if padding == "SAME" else 1,
            "strideH": stride,
            "strideW": stride,
            "fusedActivationFunction": ACT[act],
        }
        if depthwise:
            opts["depthMultiplier"] = 1
        self.b.op(kind, [x.tensor, wt, bt], out.tensor, opts)
        return out

    def depthwise(self, name, x, k=3, stride=1, act="RELU", **kw):
        return self.conv(name, x, x.values.shape[-1], k, stride, act=act, depthwise=True, **kw)

    def fc(self, name, x, units, act="RELU", beta=0.5, gamma=(0.7, 1.3), quant=None):
        """quant: the output's (scale, zero point) instead of the calibrated ones (a range fixed by design)."""
        n_in = x.values.shape[-1]
        w = self.rng.normal(0, np.sqrt(2.0 / n_in), size=(units, n_in))
        factor, bias = self._normalize(_dense(x.values, w), beta, gamma)
        w = w * factor[:, None]
        w_scale = np.float32(max(np.abs(w).max(), 1e-8) / 127.0)
        wq = np.clip(np.round(w / w_scale), -127, 127).astype(np.int8)
        wt = self.b.const(name + "/weights", wq, "int8", w_scale, 0)
        bt, bias_real = self._bias(name, bias, x.scale, w_scale)
        out = self._finish(name, _dense(x.values, wq * w_scale) + bias_real, act, quant)
        self.macs += units * n_in
        self.b.op("FULLY_CONNECTED", [x.tensor, wt, bt], out.tensor, {"fusedActivationFunction": ACT[act]})
        return out

    # --- parameter-free layers ------------------------------------------------------------------------------
    def add(self, name, a, b, act="RELU"):
        out = self._finish(name, a.values + b.values, act)
        self.b.op("ADD", [a.tensor, b.tensor], out.tensor, {"fusedActivationFunction": ACT[act]})
        return out

    def global_avg_pool(self, name, x):
        """AVERAGE_POOL_2D over the whole image, then RESHAPE to (1, C): the Keras classifier head."""
        n, h, w, c = x.values.shape
        pooled = self._emit_act(name, x.values.mean(axis=(1, 2), keepdims=True), (x.scale, x.zero_point))
        self.b.op(
            "AVERAGE_POOL_2D",
            [x.tensor],
            pooled.tensor,
            {"padding": 1, "strideH": h, "strideW": w, "filterHeight": h, "filterWidth": w},
        )
        flat = self._emit_act(name + "/flatten", pooled.values.reshape(n, c), (x.scale, x.zero_point))
        shape = self.b.const(name + "/flatten/shape", np.array([1, c], np.int32), "int32")
        self.b.op("RESHAPE", [pooled.tensor, shape], flat.tensor, {"newShape": [1, c]})
        return flat

    def softmax(self, name, x):
        z = x.values - x.values.max(axis=-1, keepdims=True)
        e = np.exp(z)
        out = self._emit_act(
            name, (e / e.sum(axis=-1, keepdims=True)).astype(np.float32), (np.float32(1.0 / 256.0), -128)
        )
        self.b.op("SOFTMAX", [x.tensor], out.tensor, {"beta": 1.0})
        return out
