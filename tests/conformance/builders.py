"""Small model builders shared by the case modules: one operator on fresh inputs, with quantization per tensor."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compiler"))

from tflite_builder import ModelBuilder  # noqa: E402

# Typical quantization per type, and extreme ones (zero points at the limits, tiny and large scales).
Q = {"float32": (None, None), "int8": (0.05, -3), "int16": (0.001, 0), "int32": (None, None), "bool": (None, None)}
Q_EXTREME = {"int8": [(0.003, 127), (0.5, -128), (1e-6, 0)], "int16": [(3e-6, 0), (0.9, 0)]}


def leaky_relu_options(alpha):
    """LEAKY_RELU has no dict options table in the builder: its *OptionsT object, made at build time."""

    def make():
        from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

        o = fb.LeakyReluOptionsT()
        o.alpha = alpha
        return o

    return make


def unary(kind, shape, dtype, qin=None, qout=None, options=None, out_dtype=None):
    """options: a dict, or a function returning the *OptionsT object (called when the model is built)."""

    def build():
        opts = options() if callable(options) else options
        b = ModelBuilder()
        x = b.input("x", shape, dtype, *(qin or Q[dtype]))
        od = out_dtype or dtype
        b.output(b.op(kind, [x], out=b.tensor("y", shape, od, *(qout or qin or Q[od])), options=opts))
        return b

    return build


def binary(kind, sa, sb, dtype, qa=None, qb=None, qout=None, options=None, out_dtype=None, const_b=None):
    """Two inputs (the second a constant when const_b holds its values), output of the broadcast shape."""

    def build():
        b = ModelBuilder()
        out_shape = list(np.broadcast_shapes(tuple(sa), tuple(sb)))
        x = b.input("a", sa, dtype, *(qa or Q[dtype]))
        if const_b is not None:
            y = b.const("b", np.resize(np.asarray(const_b), sb).astype(np.dtype(dtype)), dtype, *(qb or Q[dtype]))
        else:
            y = b.input("b", sb, dtype, *(qb or Q[dtype]))
        od = out_dtype or dtype
        opts = options() if callable(options) else options
        b.output(b.op(kind, [x, y], out=b.tensor("y", out_shape, od, *(qout or Q[od])), options=opts))
        return b

    return build


def float_layer(kind, in_shape, oc, k=3, stride=1, padding="SAME", seed=0):
    """A float32 CONV_2D / DEPTHWISE_CONV_2D (depth multiplier oc // ic) / FULLY_CONNECTED with random weights."""

    def build():
        rng = np.random.default_rng(seed)
        b = ModelBuilder()
        x = b.input("x", in_shape, "float32")
        if kind == "FULLY_CONNECTED":
            w = b.const("w", rng.uniform(-1, 1, (oc, in_shape[-1])).astype(np.float32), "float32")
            out_shape, opts = [in_shape[0], oc], {}
        else:
            n, h, wd, ic = in_shape
            fshape = (oc, k, k, ic) if kind == "CONV_2D" else (1, k, k, oc)
            w = b.const("w", rng.uniform(-1, 1, fshape).astype(np.float32), "float32")
            oh, ow = (
                (-(-h // stride), -(-wd // stride))
                if padding == "SAME"
                else ((h - k) // stride + 1, (wd - k) // stride + 1)
            )
            out_shape = [n, oh, ow, oc]
            opts = {"padding": 0 if padding == "SAME" else 1, "strideH": stride, "strideW": stride}
            if kind == "DEPTHWISE_CONV_2D":
                opts["depthMultiplier"] = oc // ic
        bias = b.const("b", rng.uniform(-1, 1, oc).astype(np.float32), "float32")
        b.output(b.op(kind, [x, w, bias], out=b.tensor("y", out_shape, "float32"), options=opts))
        return b

    return build


def pool(kind, in_shape, dtype, k, stride, padding="VALID", q=None):
    def build():
        b = ModelBuilder()
        n, h, w, c = in_shape
        oh, ow = (
            (-(-h // stride), -(-w // stride)) if padding == "SAME" else ((h - k) // stride + 1, (w - k) // stride + 1)
        )
        x = b.input("x", in_shape, dtype, *(q or Q[dtype]))
        opts = {
            "padding": 0 if padding == "SAME" else 1,
            "strideH": stride,
            "strideW": stride,
            "filterHeight": k,
            "filterWidth": k,
        }
        b.output(b.op(kind, [x], out=b.tensor("y", [n, oh, ow, c], dtype, *(q or Q[dtype])), options=opts))
        return b

    return build


def reduce_op(kind, in_shape, axes, dtype, keep=False, qin=None, qout=None):
    def build():
        b = ModelBuilder()
        x = b.input("x", in_shape, dtype, *(qin or Q[dtype]))
        ax = b.const("axes", np.array(axes, np.int32), "int32")
        norm = [a % len(in_shape) for a in axes]
        out_shape = (
            [1 if i in norm else d for i, d in enumerate(in_shape)]
            if keep
            else [d for i, d in enumerate(in_shape) if i not in norm]
        )
        b.output(
            b.op(
                kind,
                [x, ax],
                out=b.tensor("y", out_shape, dtype, *(qout or qin or Q[dtype])),
                options={"keepDims": keep},
            )
        )
        return b

    return build


def with_consts(
    kind, in_shape, dtype, consts, out_shape, options=None, q=None, qout=None, out_dtype=None, const_first=False
):
    """One operator on one run-time input plus constant operands (axes, shapes, begin/end...) given as arrays;
    options: a dict or a function returning the *OptionsT object."""

    def build():
        b = ModelBuilder()
        x = b.input("x", in_shape, dtype, *(q or Q[dtype]))
        cs = [b.const(f"c{i}", np.asarray(v), str(np.asarray(v).dtype)) for i, v in enumerate(consts)]
        od = out_dtype or dtype
        opts = options() if callable(options) else options
        ins = cs + [x] if const_first else [x] + cs
        b.output(b.op(kind, ins, out=b.tensor("y", out_shape, od, *(qout or q or Q[od])), options=opts))
        return b

    return build


def schema_options(name, **fields):
    """A builder for TFLite's *OptionsT object `name` with the given fields, made when the model is built."""

    def make():
        from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

        o = getattr(fb, name)()
        for k, v in fields.items():
            setattr(o, k, v)
        return o

    return make
