"""Generates the small ONNX CNNs of the ONNX frontend's tests: `onnx_cnn_float.onnx` (float32, numpy weights,
with a BatchNormalization to fold, a depthwise and a 1x1 convolution, pooling and a Gemm head) and
`onnx_cnn_qdq.onnx`, the same network statically quantized by onnxruntime in QDQ form (uint8 activations, the
quantizer's default, and per-channel int8 weights).  The oracle runs it with onnxruntime's graph optimizations
off, i.e. the QDQ graph as written: its fused x86 QLinearConv kernels can saturate intermediate sums.

    python tests/models/make_onnx_cnn.py [--out_dir tests/models]

Deterministic: fixed seeds for weights and calibration data.
"""

import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

INPUT_SHAPE = (1, 3, 16, 16)


def _init(name, arr):
    return numpy_helper.from_array(np.asarray(arr, np.float32), name)


def make_float_model() -> onnx.ModelProto:
    rng = np.random.default_rng(7)

    def w(*shape):
        fan_in = int(np.prod(shape[1:]))
        return rng.normal(0.0, 1.0 / np.sqrt(fan_in), size=shape)

    inits = [
        _init("c1_w", w(8, 3, 3, 3)),
        _init("c1_b", rng.normal(0, 0.1, 8)),
        _init("bn_scale", rng.uniform(0.5, 1.5, 8)),
        _init("bn_bias", rng.normal(0, 0.1, 8)),
        _init("bn_mean", rng.normal(0, 0.1, 8)),
        _init("bn_var", rng.uniform(0.5, 1.5, 8)),
        _init("dw_w", w(8, 1, 3, 3)),
        _init("dw_b", rng.normal(0, 0.1, 8)),
        _init("pw_w", w(16, 8, 1, 1)),
        _init("pw_b", rng.normal(0, 0.1, 16)),
        _init("fc_w", w(10, 16)),
        _init("fc_b", rng.normal(0, 0.1, 10)),
    ]
    nodes = [
        helper.make_node("Conv", ["input", "c1_w", "c1_b"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        helper.make_node("BatchNormalization", ["c1", "bn_scale", "bn_bias", "bn_mean", "bn_var"], ["bn1"], name="bn1"),
        helper.make_node("Relu", ["bn1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2], name="pool1"),
        helper.make_node("Conv", ["p1", "dw_w", "dw_b"], ["dw"], pads=[1, 1, 1, 1], group=8, name="dwconv"),
        helper.make_node("Relu", ["dw"], ["r2"], name="relu2"),
        helper.make_node("Conv", ["r2", "pw_w", "pw_b"], ["pw"], name="pwconv"),
        helper.make_node("Relu", ["pw"], ["r3"], name="relu3"),
        helper.make_node("GlobalAveragePool", ["r3"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
        helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], transB=1, name="fc"),
    ]
    graph = helper.make_graph(
        nodes,
        "onnx_cnn",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, list(INPUT_SHAPE))],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="aot_rules")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def quantize_qdq(float_path: str, out_path: str) -> None:
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Reader(CalibrationDataReader):
        def __init__(self):
            rng = np.random.default_rng(11)
            self.data = iter([{"input": rng.uniform(-1, 1, INPUT_SHAPE).astype(np.float32)} for _ in range(32)])

        def get_next(self):
            return next(self.data, None)

    from onnxruntime.quantization.shape_inference import quant_pre_process

    # onnxruntime's recommended pre-processing folds the BatchNormalization into the convolution first.
    pre_path = out_path + ".pre.onnx"
    try:
        quant_pre_process(float_path, pre_path, skip_symbolic_shape=True)
        quantize_static(
            pre_path,
            out_path,
            Reader(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
        )
    finally:
        if os.path.exists(pre_path):
            os.remove(pre_path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out_dir", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    float_path = os.path.join(args.out_dir, "onnx_cnn_float.onnx")
    onnx.save(make_float_model(), float_path)
    quantize_qdq(float_path, os.path.join(args.out_dir, "onnx_cnn_qdq.onnx"))
    print(float_path, os.path.join(args.out_dir, "onnx_cnn_qdq.onnx"))


if __name__ == "__main__":
    main()
