"""ADD_N: the inputs (one shape) summed in order, as TFLite Micro does. float32 by one pass of the shared binary
kernel per extra input (the first adds inputs 0 and 1 into the output, later passes add into it); int8 (inputs
sharing one quantization) in an int32 scratch accumulator, one call per input (aot/kernels/add_n.h), with TFLite
Micro's arithmetic including its start value."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..quant_math import quantize_multiplier
from ._base import OpLowering, register
from .common.checks import require_quant, require_same_quant
from .binary_int import CODES, FLT_MAX


@register
class AddN(OpLowering):
    builtins = ("ADD_N",)
    dtypes = ("float32", "int8")
    header = "aot/kernels/binary.h"

    def check(self, op):
        super().check(op)
        out = op.output
        if len(op.inputs) < 2:
            raise CompileError(
                f"Operator {op.index} (ADD_N) has {len(op.inputs)} input; ADD_N takes at least two "
                "(as in TFLite Micro)."
            )
        if any(t is None or t.dtype != out.dtype or tuple(t.shape) != tuple(out.shape) for t in op.inputs):
            raise CompileError(
                f"Operator {op.index} (ADD_N): every input must be {out.dtype} of the output's shape {list(out.shape)}."
            )
        if out.dtype == "int8":
            for i, t in enumerate(op.inputs):
                require_same_quant(
                    op,
                    t,
                    op.input(0),
                    f"input {i}",
                    "input 0",
                    "TFLite Micro's int8 ADD_N takes inputs of one scale and zero point.",
                )
            require_quant(op, out, "output")
            self._q(op)

    @staticmethod
    def _q(op):
        (si, zi), (so, zo) = op.input(0).quant.scalar(), op.output.quant.scalar()
        si, so = float(np.float32(si)), float(np.float32(so))
        twice = 2 * si
        mi, shi = quantize_multiplier(si / twice)
        real_out = twice / ((1 << 20) * so)
        if not 0 < real_out < 1:
            raise UnsupportedError(
                f"Operator {op.index} (ADD_N): the output scale {so:.9g} is too small for the "
                "input scale (TFLite's int8 ADD_N needs 2 s_in / (2^20 s_out) below one)."
            )
        mo, sho = quantize_multiplier(real_out)
        return -zi, mi, shi, mo, sho, zo

    def scratch_bytes(self, op):
        return 4 * op.output.num_elements if op.output.dtype == "int8" else 0

    def headers(self, op):
        return ["aot/kernels/add_n.h" if op.output.dtype == "int8" else self.header]

    def prepare(self, op):
        if op.output.dtype == "int8":
            op.kernel = "aot_add_n_s8"
            op.params = dict(size=op.output.num_elements, q=self._q(op))
            return
        op.kernel = "aot_binary_f32"
        op.params = dict(
            dims=np.array([1, 1, 1, op.output.num_elements], np.int32), st=np.array([0, 0, 0, 1], np.int32)
        )

    def emit(self, op, ctx):
        p = op.params
        if op.output.dtype == "int8":
            off, mi, shi, mo, sho, zo = p["q"]
            acc = ctx.scratch(op, "int32_t")
            return (
                [ctx.call("aot_add_n_s8_begin", [acc, p["size"], off, mi, shi])]
                + [ctx.call("aot_add_n_s8_add", [ctx.ptr(t), acc, p["size"], off, mi, shi]) for t in op.inputs]
                + [ctx.call("aot_add_n_s8_end", [acc, ctx.ptr(op.output), p["size"], mo, sho, zo])]
            )
        dims = ctx.param(f"op{op.index}_dims", p["dims"], "int32_t")
        st = ctx.param(f"op{op.index}_strides", p["st"], "int32_t")
        out = ctx.ptr(op.output)
        lines = [
            ctx.call(
                "aot_binary_f32",
                [
                    CODES["ADD"],
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.input(1)),
                    out,
                    dims,
                    st,
                    st,
                    ctx.f32(-FLT_MAX),
                    ctx.f32(FLT_MAX),
                ],
            )
        ]
        for t in op.inputs[2:]:
            lines.append(
                ctx.call(
                    "aot_binary_f32",
                    [CODES["ADD"], out, ctx.ptr(t), out, dims, st, st, ctx.f32(-FLT_MAX), ctx.f32(FLT_MAX)],
                )
            )
        return lines
