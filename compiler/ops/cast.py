"""CAST lowering (from the ONNX frontend, and TFLite's CAST): integer element-type conversion with an added offset,
out = wrap(in + Offset), between int8, uint8, int16, int32, uint32 and bool, from any of them to float32 and from
float32 to them (truncating), and float32 to float32 (a copy, which TFLite Micro runs) (TFLite Micro's audio front-end
casts its uint32 energies to int32 and back, and its int16 features to float32).

The ONNX frontend uses it at the model boundary for uint8 data (uint8 quantized data is int8 data shifted by
-128 with the zero point shifted alike: the same real values) and around integer arithmetic (int8/uint8 values
are widened to int32, computed with wrap-around, and narrowed back, which is numpy's / ONNX's result).
"""

from ..errors import UnsupportedError
from ._base import OpLowering, register
from .common.checks import require_inputs, require_same_shape

TYPE_CODES = {"int8": 0, "uint8": 1, "int32": 2, "bool": 3, "int16": 4, "uint32": 5}
# float32: an integer's value as output, truncated toward zero as input, copied to float32.
FLOAT_CODE = 6


@register
class Cast(OpLowering):
    builtins = ("CAST",)
    elementwise = True
    dtypes = tuple(TYPE_CODES) + ("float32",)
    header = "aot/kernels/cast.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 1)
        inp, out = op.input(0), op.output
        if inp.dtype not in TYPE_CODES and not (inp.dtype == "float32" and out.dtype in self.dtypes):
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input '{inp.name}' has type {inp.dtype} and output "
                f"'{out.name}' {out.dtype}; CAST converts between {', '.join(TYPE_CODES)} and float32 (float32 to an "
                "integer truncates toward zero), and float32 to float32."
            )
        require_same_shape(op, inp, out)

    def prepare(self, op):
        op.params = dict(
            size=op.output.num_elements,
            offset=int(op.options.get("Offset", 0)),
            src=TYPE_CODES.get(op.input(0).dtype, FLOAT_CODE),
            dst=TYPE_CODES.get(op.output.dtype, FLOAT_CODE),
        )
        op.kernel = "aot_cast"

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(op.kernel, [ctx.ptr(op.input(0)), p["src"], ctx.ptr(op.output), p["dst"], p["size"], p["offset"]])
        ]
