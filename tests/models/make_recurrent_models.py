"""Generates the small recurrent models committed next to this script, for on-target bit-exact tests of the
stateful kernels (BUILD.bazel: recurrent_*_test on the host, a DSP core and a core without DSP or FPU):

- lstm_float.tflite: UNIDIRECTIONAL_SEQUENCE_LSTM in float32, time-major, 2 batches, cell clipping;
- lstm_int8_extremes.tflite: the integer LSTM with a hidden-state zero point of 127, a 2^-15 cell scale (the
  right-shifted tanh input) with clipping, 2 batches, batch-major;
- lstm_int8_ragged_state.tflite: the integer LSTM with whole quads of inputs (16) but a state of 10 (two gate rows
  per gate outside the groups of four; the recurrent products over a partial quad), hidden zero point -128, a
  non-power-of-two cell scale, 3 batches, time-major: the DSP kernel's word-aligned path with its single rows
  beside the general one;
- lstm_int8_ragged_input.tflite: the converse, 13 inputs (a partial quad, unaligned weight rows) and a state of 12,
  hidden zero point 127, cell scale 2^-9 with clipping;
- svdf_int16_state.tflite: int8 SVDF with an int16 state, rank 2;
- svdf_float.tflite: float32 SVDF with RELU6;
- svdf_int8_extremes.tflite: int8 SVDF with an int8 state, rank 1 (the kernel's four-filter groups and rank-1
  outputs, then two single filters), an input size and a memory that are odd, a feature rescaling above one (a left
  shift), an input zero point of -128 and a state zero point of 100 (the newest step wraps).

The builders are the compiler tests' own (tests/compiler/test_lstm.py, test_stateful.py), no TensorFlow needed.
Regenerate with
    .venv/bin/python tests/models/make_recurrent_models.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from test_lstm import lstm_model  # noqa: E402
from test_stateful import svdf_model  # noqa: E402

MODELS = {
    "lstm_float": lambda: lstm_model("float32", batches=2, steps=5, time_major=True, clip=0.4)[0],
    "lstm_int8_extremes": lambda: lstm_model(
        "int8",
        batches=2,
        steps=6,
        input_size=12,
        state=8,
        hidden_q=(0.004, 127),
        in_q=(0.05, -128),
        weight_scale=0.03,
        cell_scale=2.0**-15,
        clip=0.5,
    )[0],
    "lstm_int8_ragged_state": lambda: lstm_model(
        "int8",
        batches=3,
        steps=5,
        input_size=16,
        state=10,
        time_major=True,
        hidden_q=(0.03, -128),
        in_q=(0.007, 127),
        weight_scale=0.05,
        cell_scale=0.00061,
        seed=11,
    )[0],
    "lstm_int8_ragged_input": lambda: lstm_model(
        "int8",
        batches=1,
        steps=7,
        input_size=13,
        state=12,
        hidden_q=(0.0021, 127),
        in_q=(0.09, -128),
        weight_scale=0.002,
        cell_scale=2.0**-9,
        clip=20.0,
        seed=12,
    )[0],
    "svdf_int16_state": lambda: svdf_model(
        "int8", "int16", batches=1, input_size=24, filters=8, rank=2, memory=6, state_q=(0.004, 0), out_q=(0.5, 5)
    ),
    "svdf_int8_extremes": lambda: svdf_model(
        "int8",
        "int8",
        batches=2,
        input_size=13,
        filters=10,
        rank=1,
        memory=7,
        in_q=(0.5, -128),
        feature_scale=0.5,
        state_q=(0.02, 100),
        time_scale=0.01,
        out_q=(0.1, -20),
    ),
    "svdf_float": lambda: svdf_model("float32", batches=1, input_size=12, filters=6, rank=3, memory=4, act="RELU6"),
}


def main():
    for name, make in MODELS.items():
        path = make().save(os.path.join(HERE, name + ".tflite"))
        print(path)


if __name__ == "__main__":
    main()
