"""Generates the QDQ forms of the PyTorch exports (make_torch_exports.py): `torch_<name>_<exporter>_qdq.onnx`, each
float export statically quantized by onnxruntime's quantizer as `aotc quantize` runs it
(compiler/quantize/ort_static.py: onnxruntime's pre-processing, QDQ format, MinMax calibration, symmetric int8 weights
per channel). Activations are int8 for the dynamo exports (the default ones too, whose float weights the quantizer reads
from their side file; the QDQ form is one self-contained file) and uint8, onnxruntime's own default, for the TorchScript
ones, so both of the quantizer's activation types are covered. What the quantizer leaves in float (the LSTM / GRU
layers) stays float between the QDQ pairs; what it quantizes around (Conv, Gemm, MatMul, the normalizations' parameters,
Add, Mul, ...) gets QuantizeLinear / DequantizeLinear pairs.

    python tests/models/make_torch_qdq.py [--out_dir tests/models]

Seeded: the 16 calibration samples of each model are normal random inputs (numpy's default_rng(26)); onnxruntime
1.31.1 (the pinned one) writes the same bytes on every run.
"""

import argparse
import glob
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from compiler.quantize.ort_static import quantize_qdq  # noqa: E402

SAMPLES = 16


def float_exports(models_dir: str) -> list:
    return sorted(p for p in glob.glob(os.path.join(models_dir, "torch_*_*.onnx")) if not p.endswith("_qdq.onnx"))


def quantize_all(models_dir: str, out_dir: str) -> list:
    import onnx

    written = []
    for path in float_exports(models_dir):
        m = onnx.load(path)
        inp = m.graph.input[0]
        shape = [d.dim_value for d in inp.type.tensor_type.shape.dim]
        rng = np.random.default_rng(26)
        samples = [{inp.name: rng.normal(size=shape).astype(np.float32)} for _ in range(SAMPLES)]
        activations = "uint8" if path.endswith("_script.onnx") else "int8"
        out = os.path.join(out_dir, os.path.basename(path)[: -len(".onnx")] + "_qdq.onnx")
        quantize_qdq(path, samples, out, per_channel=True, activations=activations)
        written.append(out)
    return written


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models_dir", default=HERE, help="where the float exports are")
    p.add_argument("--out_dir", default=HERE)
    args = p.parse_args()
    for path in quantize_all(args.models_dir, args.out_dir):
        print(path)


if __name__ == "__main__":
    main()
