"""Small PyTorch models exported with both torch.onnx.export exporters (tests/models/make_torch_exports.py: GRU and
bidirectional LSTM keyword spotters, PixelShuffle, GroupNorm, a ViT patch embedding with `expand(1, -1, -1)` and
LayerNorm, a one-layer transformer encoder), once more with torch's default settings (`torch_*_default.onnx`, the
weights in the side file `torch_*_default.onnx.data` that torch.onnx.export writes by default), and their QDQ forms from
onnxruntime's static quantizer (make_torch_qdq.py). The float exports against onnxruntime are
//tests/models:torch_exports (host, Cortex-M4, Cortex-M55: testgen's tolerance); here the QDQ forms' default int8
path, in one host program (compiler/host_batch.py).

The QDQ exports on the default int8 path are compared in output
quantization steps with onnxruntime running the QDQ graph as written (graph optimizations off), bounded per model
below; with `--qdq_exact` they are equal on every output, which //tests/models:torch_exports_qdq checks on the host,
the Cortex-M4 and the Cortex-M55."""

import glob
import os

import numpy as np

from compiler import host_batch
from compiler.driver import compile_model

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models")
_ALL = sorted(os.path.basename(p) for p in glob.glob(os.path.join(MODELS, "torch_*.onnx")))
FLOAT = [n for n in _ALL if not n.endswith("_qdq.onnx")]
QDQ = [n for n in _ALL if n.endswith("_qdq.onnx")]
CASES = 3


def _session(path: str):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(path, opts)


def _compare(names: list, check, cases: int = CASES, uniform: bool = False) -> None:
    """Compiles every model of `names`, runs `cases` seeded inputs (normal, or uniform in [-1, 1] as the Bazel
    tests' cases) through one host program and through onnxruntime, and calls check(got, want, label) per output and
    case."""
    jobs, sessions = [], []
    for k, name in enumerate(names):
        path = os.path.join(MODELS, name)
        sess = _session(path)
        inp = sess.get_inputs()[0]
        rng = np.random.default_rng(len(name))
        size = (cases,) + tuple(inp.shape)
        xs = (rng.uniform(-1, 1, size) if uniform else rng.normal(size=size)).astype(np.float32)
        jobs.append((compile_model(path, f"m{k}"), [[x] for x in xs]))
        sessions.append((sess, inp.name, xs))
    results = host_batch.run_many(jobs, threads=2)
    for name, got, (sess, inp, xs) in zip(names, results, sessions):
        assert not isinstance(got, Exception), f"{name}: {got}"
        for i, x in enumerate(xs):
            for o, (have, want) in enumerate(zip(got[i], sess.run(None, {inp: x}))):
                check(np.asarray(have).reshape(want.shape), want, f"{name} case {i} output {o}")


def test_the_exports_are_committed():
    import onnx

    assert len(FLOAT) == 18, FLOAT
    assert [n[: -len("_qdq.onnx")] + ".onnx" for n in QDQ] == FLOAT, QDQ
    # The default exports keep their larger weights in the side file, as torch writes them (the compiler reads them
    # from there); the QDQ forms are self-contained.
    for name in _ALL:
        path = os.path.join(MODELS, name)
        m = onnx.load(path, load_external_data=False)
        external = [t.name for t in m.graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL]
        if name.endswith("_default.onnx"):
            assert external and os.path.exists(path + ".data"), name
        else:
            assert not external, name


# The default int8 path against onnxruntime, in output quantization steps: (largest, share of outputs over one step).
# The int8 kernels requantize as TFLite Micro does, two roundings where onnxruntime rounds once (at most one step per
# node, docs/quantize.md); the convolution / recurrent models stay within that step at the output. The ViT patch
# embedding and the transformer encoder end in LayerNormalization, which divides by each row's spread, so a one-step
# difference of its input can move its output by more than a step (measured at the output over these seeded
# inputs, not traced per node): at most 3 steps (ViT) and 4 (encoder), on under 1 % of the outputs. --qdq_exact
# removes the difference (//tests/models:torch_exports_qdq).
_INT8_BOUND = {"vit_patch": (3, 0.01), "tiny_encoder": (4, 0.01)}


def test_qdq_exports_default_int8_path_bounded():
    steps = {}

    def check(got, want, label):
        name = label.split(" ")[0]
        scale = _output_scale(name)
        steps.setdefault(name, []).append(np.round(np.abs(got - want) / scale).astype(np.int64).reshape(-1))

    _compare(QDQ, check, cases=10, uniform=True)
    for name, per_case in steps.items():
        d = np.concatenate(per_case)
        arch = name[len("torch_") :].rsplit("_", 2)[0]
        most, share = _INT8_BOUND.get(arch, (1, 0.0))
        assert d.max() <= most and np.mean(d > 1) <= share, (name, np.bincount(d))


def _output_scale(name: str) -> float:
    """The scale of the DequantizeLinear the model's output comes from (directly, or through DepthToSpace)."""
    import onnx
    from onnx import numpy_helper

    m = onnx.load(os.path.join(MODELS, name))
    producer = {o: n for n in m.graph.node for o in n.output}
    node = producer[m.graph.output[0].name]
    while node.op_type != "DequantizeLinear":
        node = producer[node.input[0]]
    return float(next(numpy_helper.to_array(t) for t in m.graph.initializer if t.name == node.input[1]))


def test_qdq_exports_keep_their_quantized_layers():
    """The QDQ forms are what the quantizer leaves: quantized activations around the convolutions and matrix products
    (int8 for the dynamo and default exports, uint8 for the TorchScript ones) and the normalizations' parameters as
    DequantizeLinear of constants (what onnx_dq_const.py reads)."""
    import onnx

    for name in QDQ:
        m = onnx.load(os.path.join(MODELS, name))
        inits = {t.name: t for t in m.graph.initializer}
        q = [n for n in m.graph.node if n.op_type == "QuantizeLinear"]
        assert q, name
        zp = inits[q[0].input[2]]
        want = onnx.TensorProto.UINT8 if "_script_" in name else onnx.TensorProto.INT8
        assert zp.data_type == want, name
        if "groupnorm" in name:
            norm = next(n for n in m.graph.node if n.op_type == "InstanceNormalization")
            producers = {o: n.op_type for n in m.graph.node for o in n.output}
            assert producers.get(norm.input[1]) == "DequantizeLinear", name
