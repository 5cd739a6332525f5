"""Generates `deep_qdq_resnet.onnx`: a deep QDQ network as onnxruntime's quantizer leaves it, to measure how far the
int8 kernels drift from onnxruntime's unoptimized QDQ graph over depth (issue 26, item 5).

52 float 3x3 convolutions (4 channels, 8x8, He-initialized, seeded) with a residual Add and a Relu after every
second one, quantized by `onnxruntime.quantization.quantize_static` (QDQ format, int8 activations, per-channel int8
weights) on 8 seeded calibration inputs.

    python tests/models/make_deep_qdq.py [--out_dir tests/compiler/data]

The model lives in tests/compiler/data, not tests/models: it is read by one test, and tests/models' every model is
compiled for every core by the golden-digest test.

Only numpy, onnx and onnxruntime (the pinned oracles) are needed; the same versions write the same model.
tests/compiler/test_onnx_frontend.py::test_deep_qdq_drift_is_tflite_double_rounding reads it.
"""

import argparse
import os
import tempfile

import numpy as np

LAYERS, CHANNELS, SIZE = 52, 4, 8


def float_model(seed: int = 0):
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    nodes, inits = [], []
    x = res = "input"
    for i in range(LAYERS):
        w = (rng.normal(size=(CHANNELS, CHANNELS, 3, 3)) * np.sqrt(2.0 / (9 * CHANNELS))).astype(np.float32)
        b = (rng.normal(size=(CHANNELS,)) * 0.05).astype(np.float32)
        inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
        nodes.append(helper.make_node("Conv", [x, f"w{i}", f"b{i}"], [f"c{i}"], pads=[1, 1, 1, 1]))
        y = f"c{i}"
        if i % 2 == 1:
            nodes.append(helper.make_node("Add", [y, res], [f"a{i}"]))
            y = f"a{i}"
        nodes.append(helper.make_node("Relu", [y], [f"r{i}"]))
        x = f"r{i}"
        if i % 2 == 1:
            res = x
    shape = [1, CHANNELS, SIZE, SIZE]
    graph = helper.make_graph(
        nodes,
        "deep_qdq",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, shape)],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    return model


def export(path: str) -> None:
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class _Calibration(CalibrationDataReader):
        def __init__(self):
            rng = np.random.default_rng(1)
            shape = (1, CHANNELS, SIZE, SIZE)
            self._it = iter([{"input": rng.normal(size=shape).astype(np.float32)} for _ in range(8)])

        def get_next(self):
            return next(self._it, None)

    with tempfile.TemporaryDirectory() as tmp:
        fp = os.path.join(tmp, "float.onnx")
        onnx.save(float_model(), fp)
        quantize_static(
            fp,
            path,
            _Calibration(),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
        )


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--out_dir", default=os.path.join(here, "..", "compiler", "data"))
    args = p.parse_args()
    export(os.path.join(args.out_dir, "deep_qdq_resnet.onnx"))


if __name__ == "__main__":
    main()
