"""Derives mobilenet_v1_025_96_near_dead_int8.tflite from mobilenet_v1_025_96_int8.tflite (seeded, no TensorFlow).

Trained networks routinely hold nearly dead output channels: weights so small that the converter's per-channel
filter scale gives an effective scale (input scale * filter scale / output scale) far below 2^-22, i.e. right
shifts past 22 and up to 31, or a multiplier of 0 beyond that.  This script makes about 10 % of the output channels
of every convolution and depthwise layer (at least one per layer of 8 or more channels) such channels: their filter
scale is set so the effective scale is 2^-24.5 .. 2^-40, and their int32 bias is either kept (the channel outputs
its zero point) or re-quantized from the same float bias at the new scale (clipped so the accumulator stays within
int32), which puts it near the int32 limits as a converter does for such channels.  Weights, shapes and every other
parameter are unchanged, so the model costs the same multiply-accumulates as the original: the benchmark compares
the two (`bazel run //bench:bench -- --only=mobilenet_v1`).

    .venv/bin/python tests/models/make_near_dead.py
"""

import os

import flatbuffers
import numpy as np
from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "mobilenet_v1_025_96_int8.tflite")
TARGET = os.path.join(HERE, "mobilenet_v1_025_96_near_dead_int8.tflite")
FRACTION = 0.1
CONV, DEPTHWISE = fb.BuiltinOperator.CONV_2D, fb.BuiltinOperator.DEPTHWISE_CONV_2D


def _set_buffer(model, tensor, values: np.ndarray) -> None:
    model.buffers[tensor.buffer].data = np.frombuffer(values.astype("<i4").tobytes(), np.uint8)


def near_dead(data: bytes, seed: int = 24) -> bytes:
    rng = np.random.default_rng(seed)
    model = fb.ModelT.InitFromPackedBuf(data, 0)
    g = model.subgraphs[0]
    for op in g.operators:
        code = model.operatorCodes[op.opcodeIndex].builtinCode
        if code not in (CONV, DEPTHWISE):
            continue
        inp, filt, bias, out = (g.tensors[i] for i in (op.inputs[0], op.inputs[1], op.inputs[2], op.outputs[0]))
        axis = 0 if code == CONV else 3
        channels = int(filt.shape[axis])
        count = int(round(FRACTION * channels)) if channels >= 8 else 0
        if count == 0:
            continue
        dead = rng.choice(channels, count, replace=False)
        w = np.frombuffer(bytes(model.buffers[filt.buffer].data), np.int8).reshape(filt.shape)
        taps = w.size // channels
        b = np.frombuffer(bytes(model.buffers[bias.buffer].data), "<i4").astype(np.int64).copy()
        in_s, out_s = float(inp.quantization.scale[0]), float(out.quantization.scale[0])
        fscale = np.array(filt.quantization.scale, np.float32)
        bscale = np.array(bias.quantization.scale, np.float32)
        limit = (1 << 31) - 1 - 128 * 127 * taps
        for c in dead:
            eff = 2.0 ** -rng.uniform(24.5, 40.0)
            new_fs = np.float32(eff * out_s / in_s)
            if rng.random() < 0.5:
                float_bias = float(b[c]) * float(bscale[c])
                new_bs = np.float32(in_s) * new_fs
                b[c] = int(np.clip(np.round(float_bias / float(new_bs)), -limit, limit))
                bscale[c] = new_bs
            fscale[c] = new_fs
        filt.quantization.scale = fscale
        bias.quantization.scale = bscale
        _set_buffer(model, bias, b)

    builder = flatbuffers.Builder(1 << 20)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


if __name__ == "__main__":
    with open(SOURCE, "rb") as f:
        out = near_dead(f.read())
    with open(TARGET, "wb") as f:
        f.write(out)
    print(f"wrote {TARGET} ({len(out)} bytes)")
