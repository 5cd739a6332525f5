"""The 256-entry sigmoid table of the int16 sigmoid/tanh helpers (aot/sigmoid_s16.h), computed.

The C copy is crt/src/aot_sigmoid_s16.c.

Entry i is sigmoid(i / 24) in unsigned 0.16 fixed point, lowered by 1/16 of the step squared times the curve's
second derivative so that linear interpolation between entries (what the helpers do) is centred on the curve; the
last entry is the format's maximum. These are the values TFLite Micro's int16 LOGISTIC / TANH and its integer LSTM
interpolate in, so results computed from them are bit-exact with it (tests/compiler/test_lstm.py checks the C
file holds exactly this table, and the LSTM tests check the results against the interpreter).
`python -m compiler.sigmoid_table` prints the table as C initializer rows.
"""

import math

STEP = 1.0 / 24


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def sigmoid_table() -> list:
    out = []
    for i in range(255):
        s = _sigmoid(i * STEP)
        second_derivative = s * (1 - s) * (1 - 2 * s)
        out.append(min(65535, round(65536 * (s - STEP * STEP / 16 * second_derivative))))
    return out + [65535]


def c_rows(per_row: int = 12) -> list:
    t = sigmoid_table()
    return ["    " + ", ".join(str(v) for v in t[i : i + per_row]) + "," for i in range(0, len(t), per_row)]


if __name__ == "__main__":
    print("\n".join(c_rows()))
