"""UNIDIRECTIONAL_SEQUENCE_LSTM lowering: float32, and TFLite Micro's integer form (int8 activations and weights,
int32 biases, int16 gates and cell state). A stateful op.

Supported is what TFLite Micro's kernel runs: the standard LSTM with an input gate, no peephole, projection or layer
normalization, tanh as the cell activation. Inputs 18 (hidden state) and 19 (cell state) are variable tensors: they
live in the model's state buffer and carry over from one run to the next, as in TFLite Micro. The compiler packs the
four gates' weights in gate order (input, forget, cell, output) so the kernel takes three weight arrays; in the
integer form each gate's rows are stored in the raw-weight-word form (common/dsp_layout.raw_word_rows, the bias
adjusted) and in groups of four, interleaved (common/dsp_layout.interleave_row_groups): the same size as in the model.

Integer scales follow TFLite Micro's Prepare: each gate's two products are rescaled to the gate pre-activation scale
2^-12 (Q3.12: the int16 sigmoid/tanh input), gate outputs are Q0.15 (2^-15), the cell state keeps its own scale (its
log2 rounded sets the tanh input shift) and the hidden state its int8 scale and zero point.
"""

import math

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..quant_math import quantize_multiplier
from ._base import OpLowering, register
from .common.dsp_layout import interleave_row_groups, raw_word_rows
from .common.checks import ACTIVATIONS, require_const, require_quant

GATE_INPUTS = (1, 2, 3, 4)  # input-to-{input, forget, cell, output} weights
GATE_RECURRENT = (5, 6, 7, 8)  # recurrent-to-{...} weights
GATE_BIASES = (12, 13, 14, 15)
HIDDEN, CELL = 18, 19
ABSENT = (9, 10, 11, 16, 17, 20, 21, 22, 23)  # peephole, projection, layer norm
PRE_ACTIVATION_SCALE = 2.0**-12
GATE_SCALE = 2.0**-15

SHAPE_STRUCT = "aot_lstm_shape"
SHAPE_FIELDS = ("batches", "time_steps", "input_size", "state_size", "time_major")
S8_STRUCT = "aot_lstm_s8_params"
S8_FIELDS = (
    "hidden_zero_point",
    "input_mult",
    "input_shift",
    "recurrent_mult",
    "recurrent_shift",
    "forget_mult",
    "forget_shift",
    "input_gate_mult",
    "input_gate_shift",
    "hidden_mult",
    "hidden_shift",
    "cell_clip",
    "cell_tanh_mult",
    "cell_tanh_shift",
)


def _scale(t) -> float:
    return float(np.float32(t.quant.scale[0]))


def _log2_rounded(scale: float) -> int:
    """TFLite's CheckedLog2 in float32: round(log(x) * (1 / log(2)))."""
    value = np.float32(np.log(np.float32(scale))) * np.float32(1.0 / np.float32(np.log(np.float32(2.0))))
    return int(math.floor(abs(float(value)) + 0.5)) * (1 if value >= 0 else -1)


def _row_sums(packed: np.ndarray, row_length: int) -> np.ndarray:
    return packed.astype(np.int64).reshape(-1, row_length).sum(axis=1)


def _folded(op, values: np.ndarray, what: str) -> np.ndarray:
    """A zero-point-folded constant as int32; one beyond int32 would make the kernel's sums overflow."""
    if values.min() < -(1 << 31) or values.max() >= (1 << 31):
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): the {what} with the zero point folded in exceeds "
            "int32 (biases or zero points at the ends of their range); such a model is not "
            "supported."
        )
    return values.astype(np.int32)


@register
class UnidirectionalSequenceLstm(OpLowering):
    builtins = ("UNIDIRECTIONAL_SEQUENCE_LSTM",)
    header = "aot/kernels/lstm.h"
    state_inputs = (HIDDEN, CELL)

    def _unsupported(self, op, what: str):
        raise UnsupportedError(f"Operator {op.index} ({op.kind}): {what}")

    def check(self, op):
        super().check(op)
        if len(op.inputs) != 24:
            raise CompileError(
                f"Operator {op.index} ({op.kind}) has {len(op.inputs)} inputs; the op has 24 "
                "(unused ones marked -1). The model file is malformed."
            )
        required = (0,) + GATE_INPUTS + GATE_RECURRENT + GATE_BIASES + (HIDDEN, CELL)
        missing = [i for i in required if op.input(i) is None]
        present = [i for i in ABSENT if op.input(i) is not None]
        if missing or present:
            self._unsupported(
                op,
                f"inputs {missing} are missing / {present} are present; supported is the standard "
                "LSTM with an input gate (inputs 0-8, 12-15, 18, 19) and no peephole (9-11), "
                "projection (16, 17) or layer normalization (20-23), as TFLite Micro runs it.",
            )
        for i in GATE_INPUTS + GATE_RECURRENT + GATE_BIASES:
            require_const(op, op.input(i), f"input {i}")
        for i in (HIDDEN, CELL):
            if not op.input(i).is_variable:
                self._unsupported(
                    op,
                    f"the {'hidden' if i == HIDDEN else 'cell'} state '{op.input(i).name}' is not "
                    "a variable tensor; both states must be (they persist between runs).",
                )
        act = op.options.get("FusedActivationFunction", 0)
        if ACTIVATIONS.get(act) != "TANH":
            self._unsupported(
                op,
                f"cell activation {ACTIVATIONS.get(act, act)}; TFLite Micro's LSTM (and this compiler) supports TANH.",
            )
        inp, out = op.input(0), op.output
        if len(inp.shape) != 3 or len(out.shape) != 3:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): input {list(inp.shape)} and output {list(out.shape)} must be 3-D."
            )
        time_major = bool(op.options.get("TimeMajor", False))
        batches = inp.shape[1] if time_major else inp.shape[0]
        hidden, cell = op.input(HIDDEN), op.input(CELL)
        state_size = hidden.shape[-1] if hidden.shape else 0
        want = {f"input {i}": (op.input(i).shape, (state_size, inp.shape[2])) for i in GATE_INPUTS}
        want.update({f"input {i}": (op.input(i).shape, (state_size, state_size)) for i in GATE_RECURRENT})
        want.update({f"input {i}": (op.input(i).shape, (state_size,)) for i in GATE_BIASES})
        want["output"] = (out.shape, (inp.shape[0], inp.shape[1], state_size))
        for what, (got, exp) in want.items():
            if tuple(got) != exp:
                raise CompileError(
                    f"Operator {op.index} ({op.kind}): {what} has shape {list(got)}; with input "
                    f"{list(inp.shape)} and state size {state_size} it must be {list(exp)}."
                )
        for t in (hidden, cell):
            if t.num_elements != batches * state_size:
                raise CompileError(
                    f"Operator {op.index} ({op.kind}): state '{t.name}' has {t.num_elements} "
                    f"elements; it must have batches x state size = {batches * state_size}."
                )
        weights = [op.input(i) for i in GATE_INPUTS + GATE_RECURRENT]
        biases = [op.input(i) for i in GATE_BIASES]
        if inp.dtype == "float32":
            types = {t.dtype for t in weights + biases + [hidden, cell, out]}
            if types != {"float32"}:
                self._unsupported(op, f"a float32 LSTM needs every tensor in float32 (got {sorted(types)}).")
            return
        if not (
            inp.dtype == "int8"
            and hidden.dtype == "int8"
            and out.dtype == "int8"
            and cell.dtype == "int16"
            and all(w.dtype == "int8" for w in weights)
            and all(b.dtype == "int32" for b in biases)
        ):
            self._unsupported(
                op,
                f"input {inp.dtype}, hidden state {hidden.dtype}, cell state {cell.dtype}, weights "
                f"{sorted({w.dtype for w in weights})}, biases {sorted({b.dtype for b in biases})}; "
                "the integer LSTM supported is int8 input, hidden state and output, int8 weights, "
                "int32 biases and an int16 cell state (16-bit activations are not supported yet).",
            )
        for t, what in [(inp, "input"), (hidden, "hidden state"), (cell, "cell state")] + [
            (w, "weights") for w in weights
        ]:
            require_quant(op, t, what)
        for w in weights:
            if int(w.quant.zero_point[0]) != 0:
                self._unsupported(
                    op,
                    f"weights '{w.name}' have zero point {int(w.quant.zero_point[0])}; LSTM "
                    "weights must be symmetric (zero point 0).",
                )
        if int(cell.quant.zero_point[0]) != 0:
            self._unsupported(op, f"the cell state '{cell.name}' has a zero point; it must be symmetric.")

    def prepare(self, op):
        inp, hidden, cell = op.input(0), op.input(HIDDEN), op.input(CELL)
        time_major = bool(op.options.get("TimeMajor", False))
        state_size = op.input(GATE_INPUTS[0]).shape[0]
        shape = (
            inp.shape[1] if time_major else inp.shape[0],
            inp.shape[0] if time_major else inp.shape[1],
            inp.shape[2],
            state_size,
            int(time_major),
        )
        clip = float(op.options.get("CellClip", 0.0))
        p = dict(
            shape=shape,
            w_in=np.concatenate([op.input(i).data.reshape(-1) for i in GATE_INPUTS]),
            w_rec=np.concatenate([op.input(i).data.reshape(-1) for i in GATE_RECURRENT]),
            bias=np.concatenate([op.input(i).data.reshape(-1) for i in GATE_BIASES]),
        )
        if inp.dtype == "float32":
            p["clip"] = clip
            op.kernel = "aot_lstm_f32"
        else:

            def mult(real):
                return quantize_multiplier(real)

            gate_in = [mult(_scale(inp) * _scale(op.input(i)) / PRE_ACTIVATION_SCALE) for i in GATE_INPUTS]
            gate_rec = [mult(_scale(hidden) * _scale(op.input(i)) / PRE_ACTIVATION_SCALE) for i in GATE_RECURRENT]
            cell_scale = _scale(cell)
            forget = mult(GATE_SCALE * cell_scale / cell_scale)
            input_gate = mult(GATE_SCALE * GATE_SCALE / cell_scale)
            hid = mult(GATE_SCALE * GATE_SCALE / _scale(hidden))
            left = 15 + _log2_rounded(cell_scale) - 3
            tanh_mult, tanh_shift = (3, -left) if left < 0 else (3 << left, 0)
            qclip = int(np.trunc(min(max(clip / cell_scale, -32768.0), 32767.0))) if clip > 0 else -1
            hz = int(hidden.quant.zero_point[0])
            p["s8"] = (
                hz,
                tuple(m for m, _ in gate_in),
                tuple(s for _, s in gate_in),
                tuple(m for m, _ in gate_rec),
                tuple(s for _, s in gate_rec),
                *forget,
                *input_gate,
                *hid,
                qclip,
                tanh_mult,
                tanh_shift,
            )
            # Zero points folded into per-row constants: the kernel's products are plain dot products. Each
            # gate's rows are then stored in the raw-weight-word form (its bias adjustment added) and in groups of
            # four, interleaved, for the kernel's one-pointer dot products (the same size).
            bias = p["bias"].astype(np.int64) - int(inp.quant.zero_point[0]) * _row_sums(p["w_in"], inp.shape[2])
            rec_bias = -hz * _row_sums(p["w_rec"], state_size)
            w_in, w_rec = [], []
            for g in range(4):
                rows = slice(g * state_size, (g + 1) * state_size)
                stored, adj = raw_word_rows(p["w_in"].reshape(4 * state_size, -1)[rows])
                bias[rows] += adj
                w_in.append(interleave_row_groups(stored))
                stored, adj = raw_word_rows(p["w_rec"].reshape(4 * state_size, -1)[rows])
                rec_bias[rows] += adj
                w_rec.append(interleave_row_groups(stored))
            p["bias"] = _folded(op, bias, "gate biases")
            p["rec_bias"] = _folded(op, rec_bias, "recurrent offsets")
            p["w_in"], p["w_rec"] = np.concatenate(w_in), np.concatenate(w_rec)
            op.kernel = "aot_lstm_s8"
        op.params = p

    def scratch_bytes(self, op):
        if op.input(0).dtype == "float32":
            return 5 * op.params["shape"][3] * 4
        state = op.params["shape"][3]
        # The four gates (int16, padded to a multiple of 4 bytes), both products of every gate row (int32), the
        # longer of the input and hidden vectors expanded to raw-weight-word operands (2 words per quad; DSP cores).
        longer = max(op.params["shape"][2], state) // 4
        return 4 * ((state + 1) // 2 * 2) * 2 + 2 * 4 * state * 4 + 2 * longer * 4

    def emit(self, op, ctx):
        p = op.params
        i = op.index
        shape = ctx.param_struct(f"op{i}_shape", SHAPE_STRUCT, SHAPE_FIELDS, p["shape"])
        hidden, cell = ctx.ptr(op.input(HIDDEN)), ctx.ptr(op.input(CELL))
        if op.input(0).dtype == "float32":
            args = [
                ctx.ptr(op.input(0)),
                ctx.weight(f"op{i}_input_weights", p["w_in"], "float"),
                ctx.weight(f"op{i}_recurrent_weights", p["w_rec"], "float"),
                ctx.weight(f"op{i}_bias", p["bias"], "float"),
                hidden,
                cell,
                ctx.ptr(op.output),
                shape,
                ctx.f32(p["clip"]),
                ctx.scratch(op, "float"),
            ]
        else:
            w_in = ctx.weight(f"op{i}_input_weights", p["w_in"], "int8_t")
            w_rec = ctx.weight(f"op{i}_recurrent_weights", p["w_rec"], "int8_t")
            # The DSP kernel reads these int8 rows as words by LDRD (lstm_s8.c): aligned by their declaration
            # (16 bytes, as a weights blob aligns every array), not by the luck of the linker's placement.
            ctx.align_const(w_in)
            ctx.align_const(w_rec)
            args = [
                ctx.ptr(op.input(0)),
                w_in,
                w_rec,
                ctx.weight(f"op{i}_bias", p["bias"], "int32_t"),
                ctx.param(f"op{i}_recurrent_bias", p["rec_bias"], "int32_t"),
                hidden,
                cell,
                ctx.ptr(op.output),
                shape,
                ctx.param_struct(f"op{i}_params", S8_STRUCT, S8_FIELDS, p["s8"]),
                ctx.scratch(op, "int16_t"),
            ]
        return [ctx.call(op.kernel, args)]
