"""SVDF lowering (int8 with an int16 or int8 state, and float32): a stateful op.

Input 4 is a TFLite variable tensor, the activation state [batches, memory_size * num_filters], which the kernel
updates in place and which lives in the model's state buffer (planner/state_plan.py), so it persists from one run
to the next as in TFLite Micro. The kernel keeps its rows as rings (one int32 position of its own in the state
buffer) instead of moving the whole state one step per run; the integer kernels keep it slot-major and take the
time weights transposed to match ([memory][filters], aot/kernels/svdf.h). The integer arithmetic follows TFLite Micro's
reference kernel: the projection is
rescaled into the state's quantization by input_scale * feature_scale / state_scale and the sum of time products
into the output's by state_scale * time_scale / output_scale, both products formed in float32 as it does; the state
and the time weights share one element type; the fused activation applies only to float32 (TFLite Micro's integer
kernel ignores it, and so do we, to stay bit-exact).
"""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..quant_math import quantize_multiplier
from ._base import OpLowering, register
from .common.dsp_layout import fits_int32, interleave_row_groups, raw_word_rows
from .common.checks import activation_range_f32, fused_activation, require_const, require_quant

SHAPE_STRUCT = "aot_svdf_shape"
SHAPE_FIELDS = ("batches", "input_size", "num_filters", "rank", "memory_size")
S8_STRUCT = "aot_svdf_s8_params"
S8_FIELDS = ("state_zero_point", "output_zero_point", "feature_mult", "feature_shift", "output_mult", "output_shift")


def _scalar_scale(t) -> np.float32:
    return np.float32(t.quant.scale[0])


@register
class Svdf(OpLowering):
    builtins = ("SVDF",)
    header = "aot/kernels/svdf.h"
    state_inputs = (4,)

    def state_bytes(self, op):
        return 4  # the ring position of the state rows (aot/kernels/svdf.h)

    def _fail(self, op, what: str):
        raise CompileError(f"Operator {op.index} ({op.kind}): {what}")

    def check(self, op):
        super().check(op)
        if len(op.inputs) != 5 or any(op.input(i) is None for i in range(5)):
            # TFLite Micro's kernel reads the bias unconditionally (its float path crashes without one), so a
            # model without a bias has no reference behaviour to match.
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) has inputs {[t is not None for t in op.inputs]} (present or "
                "not); SVDF is supported with all 5: input, weights_feature, weights_time, bias and the activation "
                "state (TFLite Micro requires the bias too)."
            )
        inp, wf, wt, bias, state = (op.input(i) for i in range(5))
        out = op.output
        for t, what in ((wf, "weights_feature"), (wt, "weights_time")):
            require_const(op, t, what)
        require_const(op, bias, "bias")
        if not state.is_variable:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): the activation state '{state.name}' is not a "
                "variable tensor; SVDF's state must be one (it persists between runs)."
            )
        rank = op.options.get("Rank", 0)
        if len(inp.shape) != 2 or len(wf.shape) != 2 or len(wt.shape) != 2 or len(out.shape) != 2:
            self._fail(op, "input, weights_feature, weights_time and output must be 2-D.")
        batches, input_size = inp.shape
        filters, memory = wt.shape
        if not isinstance(rank, int) or rank < 1 or filters % rank:
            self._fail(op, f"rank {rank} must be a positive divisor of the {filters} filters.")
        units = filters // rank
        want = {
            "weights_feature": (wf.shape, (filters, input_size)),
            "output": (out.shape, (batches, units)),
            "activation state": (state.shape, (batches, memory * filters)),
        }
        want["bias"] = (bias.shape, (units,))
        for what, (got, exp) in want.items():
            if tuple(got) != exp:
                self._fail(
                    op,
                    f"{what} has shape {list(got)}; with input {list(inp.shape)}, weights_time "
                    f"{list(wt.shape)} and rank {rank} it must be {list(exp)}.",
                )
        if inp.dtype == "float32":
            types = [t.dtype for t in (wf, wt, bias, state, out)]
            if any(d != "float32" for d in types):
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): a float32 SVDF needs every tensor in float32 (got {types})."
                )
            fused_activation(op)
            return
        if inp.dtype != "int8" or wf.dtype != "int8" or out.dtype != "int8":
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input {inp.dtype}, weights_feature {wf.dtype}, "
                f"output {out.dtype}; SVDF is supported in float32 and with int8 input, "
                "weights_feature and output (as TFLite Micro)."
            )
        if wt.dtype not in ("int8", "int16") or state.dtype != wt.dtype:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): weights_time is {wt.dtype} and the state "
                f"{state.dtype}; the integer SVDF needs both int16 or both int8."
            )
        if bias.dtype != "int32":
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): the integer SVDF needs an int32 bias (TFLite "
                "Micro's kernel requires it too)."
            )
        for t, what in (
            (inp, "input"),
            (wf, "weights_feature"),
            (wt, "weights_time"),
            (bias, "bias"),
            (state, "activation state"),
            (out, "output"),
        ):
            require_quant(op, t, what)
        expected = float(_scalar_scale(state) * _scalar_scale(wt))
        if abs(float(bias.quant.scale[0]) - expected) >= 1e-5:
            self._fail(
                op,
                f"bias scale {float(bias.quant.scale[0]):.6g} must equal state scale x weights_time "
                f"scale ({expected:.6g}), as TFLite Micro checks.",
            )

    def prepare(self, op):
        inp, wf, wt, bias, state = (op.input(i) for i in range(5))
        batches, input_size = inp.shape
        filters, memory = wt.shape
        p = dict(shape=(batches, input_size, filters, op.options["Rank"], memory))
        if inp.dtype == "float32":
            p.update(act=activation_range_f32(fused_activation(op)), bias=bias.data.astype(np.float32))
            op.kernel = "aot_svdf_f32"
        else:
            # float32 products, as TFLite Micro forms them, widened to double for the multiplier.
            s1 = float(_scalar_scale(inp) * _scalar_scale(wf) / _scalar_scale(state))
            s2 = float(_scalar_scale(state) * _scalar_scale(wt) / _scalar_scale(op.output))
            m1, sh1 = quantize_multiplier(s1)
            m2, sh2 = quantize_multiplier(s2)
            p.update(s8=(int(state.quant.zero_point[0]), int(op.output.quant.zero_point[0]), m1, sh1, m2, sh2))
            # Zero points folded into per-filter constants. The feature sum is signed int32 in the kernel (it must
            # fit); the time sums wrap modulo 2^32 as the reference's do, so their constant may wrap too.
            feature = -int(inp.quant.zero_point[0]) * wf.data.astype(np.int64).sum(axis=1)
            if feature.min() < -(1 << 31) or feature.max() >= (1 << 31):
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): the input zero point times the feature "
                    "weights' row sums exceeds int32; such a model is not supported."
                )
            time = -int(state.quant.zero_point[0]) * wt.data.astype(np.int64).sum(axis=1)
            # Feature rows in the raw-weight-word form (its adjustment joins the constant) and in groups of four,
            # interleaved for the kernel's one-pointer dot products (the same size as in the model).
            stored, adj = raw_word_rows(wf.data.astype(np.int8))
            feature = feature + adj
            if not fits_int32(feature):
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): the input zero point times the feature weights' row sums, "
                    "with the raw weight form's adjustment, exceeds int32; such a model is not supported."
                )
            p.update(
                feature=interleave_row_groups(stored),
                feature_bias=feature.astype(np.int32),
                time_bias=((time + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int32),
            )
            op.kernel = "aot_svdf_s8_s16" if wt.dtype == "int16" else "aot_svdf_s8_s8"
        op.params = p

    def scratch_bytes(self, op):
        if op.input(0).dtype == "float32":
            return 0
        # The input's quads expanded to raw-weight-word operands, two words per quad (used on DSP cores).
        return op.params["shape"][1] // 4 * 2 * 4

    def emit(self, op, ctx):
        p = op.params
        inp, wf, wt, bias, state = (op.input(i) for i in range(5))
        shape = ctx.param_struct(f"op{op.index}_shape", SHAPE_STRUCT, SHAPE_FIELDS, p["shape"])
        if inp.dtype == "float32":
            args = [
                ctx.ptr(inp),
                ctx.weight(f"op{op.index}_feature", wf.data, "float"),
                ctx.weight(f"op{op.index}_time", wt.data, "float"),
                ctx.weight(f"op{op.index}_bias", p["bias"], "float"),
                ctx.ptr(state),
                ctx.op_state(op, "int32_t"),
                ctx.ptr(op.output),
                shape,
                ctx.f32(p["act"][0]),
                ctx.f32(p["act"][1]),
            ]
        else:
            ct = "int16_t" if wt.dtype == "int16" else "int8_t"
            args = [
                ctx.ptr(inp),
                ctx.weight(f"op{op.index}_feature", p["feature"], "int8_t"),
                ctx.param(f"op{op.index}_feature_bias", p["feature_bias"], "int32_t"),
                ctx.weight(f"op{op.index}_time", np.ascontiguousarray(wt.data.T), ct),  # [memory][filters]
                ctx.param(f"op{op.index}_time_bias", p["time_bias"], "int32_t"),
                ctx.weight(f"op{op.index}_bias", bias.data, "int32_t"),
                ctx.ptr(state),
                ctx.op_state(op, "int32_t"),
                ctx.ptr(op.output),
                shape,
                ctx.param_struct(f"op{op.index}_params", S8_STRUCT, S8_FIELDS, p["s8"]),
                ctx.scratch(op, "uint32_t") if self.scratch_bytes(op) else "NULL",
            ]
        return [ctx.call(op.kernel, args)]
