"""Generates `onnx_external.onnx` + `onnx_external.onnx.data`: a small float32 network (Conv, Relu, Flatten, Gemm)
whose weights live in the side file, as torch.onnx.export's default (dynamo) exporter writes them. The compiler
reads the side file from beside the model (compiler/frontend/onnx_external.py); the Bazel test gives it to
aot_model_test as `model_data`.

    python tests/models/make_onnx_external.py [--out_dir tests/models]

Deterministic: fixed seed.
"""

import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

NAME = "onnx_external"


def make_model() -> onnx.ModelProto:
    rng = np.random.default_rng(26)
    w = rng.normal(0, 0.3, (8, 2, 3, 3)).astype(np.float32)
    b = rng.normal(0, 0.1, (8,)).astype(np.float32)
    fc = rng.normal(0, 0.1, (8 * 6 * 6, 5)).astype(np.float32)
    fb = rng.normal(0, 0.1, (5,)).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[0, 0, 0, 0]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Flatten", ["r"], ["f"]),
        helper.make_node("Gemm", ["f", "fc", "fb"], ["y"]),
    ]
    g = helper.make_graph(
        nodes,
        NAME,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 5])],
        [numpy_helper.from_array(a, n) for n, a in (("w", w), ("b", b), ("fc", fc), ("fb", fb))],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def save_external(model: onnx.ModelProto, path: str) -> None:
    """Saves with every initializer of 64 bytes or more in `<file>.data` beside `path`."""
    data = os.path.basename(path) + ".data"
    if os.path.exists(os.path.join(os.path.dirname(path), data)):
        os.remove(os.path.join(os.path.dirname(path), data))  # onnx appends to an existing data file
    onnx.save_model(model, path, save_as_external_data=True, location=data, size_threshold=64)
    os.chmod(os.path.join(os.path.dirname(path), data), 0o644)  # onnx creates it owner-only


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out_dir", default=os.path.dirname(os.path.abspath(__file__)))
    args = p.parse_args()
    save_external(make_model(), os.path.join(args.out_dir, NAME + ".onnx"))


if __name__ == "__main__":
    main()
