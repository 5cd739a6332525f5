"""ADD lowering with broadcasting (int8, int16, float32).

int8 and int16 use TFLite's scheme: both inputs are shifted left by 20 bits
(15 for int16), scaled to twice the larger input scale, summed, then
requantized to the output (int16 always with the generic kernel, as TFLite
Micro's int16 ADD takes its general path).
When the short arithmetic of crt/src/kernels/add_s8_elem.h is proved
exact for the op's scales (common/add_s8_fast.py) and the operands broadcast as
one row loop (common/checks.rows_form: same shapes, a row repeated, one value per
row), the kernel table (kernel_table.py) picks a kernel of that form:
aot_add_s8_rows_mve on Helium, aot_add_s8_elementwise (same shapes) or
aot_add_s8_rows elsewhere; otherwise the generic 4-D walker aot_add_s8.  The same parameter block is what a
convolution takes when passes/fuse_residual_add.py folds an ADD into it.
"""

from .common import add_s8_fast as _add_s8_fast
from ._base import OpLowering, register
from .common.kernel import own_emit
from .kernel_table import Layer, select
from .common.checks import (
    activation_range_f32,
    activation_range_quantized,
    broadcast_4d,
    broadcast_args,
    broadcast_params,
    rows_form,
    fused_activation,
    require_inputs,
    require_quant,
    require_same_dtype,
)


@register
class Add(OpLowering):
    builtins = ("ADD",)
    dtypes = ("int8", "int16", "float32")
    elementwise = True
    header = "aot/kernels/add.h"
    # (generic int8, same-shape int8, float32, generic int16) kernels; SUB reuses everything with the second
    # input subtracted.  The int8 row kernels are named in the kernel table.
    kernels = ("aot_add_s8", "aot_add_s8_elementwise", "aot_add_f32", "aot_add_s16")
    subtract = False
    _LEFT_SHIFT = {"int8": _add_s8_fast.LEFT_SHIFT, "int16": 15}

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        a, b, out = op.input(0), op.input(1), op.output
        dtype = require_same_dtype(op, a, b, out)
        fused_activation(op)
        broadcast_4d(op, a.shape, b.shape, out.shape)
        if dtype != "float32":
            for t, what in ((a, "first input"), (b, "second input"), (out, "output")):
                require_quant(op, t, what)

    def prepare(self, op):
        a, b, out = op.input(0), op.input(1), op.output
        act = fused_activation(op)
        p = broadcast_params(op)
        generic, flat, f32, generic16 = self.kernels
        if out.dtype != "float32":
            s1, z1 = a.quant.scalar()
            s2, z2 = b.quant.scalar()
            so, zo = out.quant.scalar()
            left = self._LEFT_SHIFT[out.dtype]
            tp = _add_s8_fast.tflite_params(s1, s2, so, left)
            p.update(
                off1=-z1,
                m1=tp["m1"],
                sh1=tp["sh1"],
                off2=-z2,
                m2=tp["m2"],
                sh2=tp["sh2"],
                left=left,
                mo=tp["mo"],
                sho=tp["sho"],
                out_off=zo,
                act=activation_range_quantized(act, so, zo, out.dtype),
            )
            if out.dtype == "int16":
                p["short"] = None
                op.kernel = generic16
            else:
                # None when the short form is not exact for these scales: the op (and any fusion) keeps the generic.
                p["short"] = _add_s8_fast.short_params(s1, z1, s2, z2, so, zo, p["act"], self.subtract)
                p["rows"] = rows_form(p)
                select(op, p, Layer())
                return
        else:
            p.update(act=activation_range_f32(act))
            op.kernel = f32
        op.params = p

    def emit(self, op, ctx):
        emit = own_emit(op)
        if emit is not None:
            return emit(op, ctx)  # the row and same-shape int8 kernels (ops/kernels/elementwise.py)
        p = op.params
        args = broadcast_args(op, ctx, p)
        if op.output.dtype != "float32":
            args += [
                p["off1"],
                p["m1"],
                p["sh1"],
                p["off2"],
                p["m2"],
                p["sh2"],
                p["left"],
                p["mo"],
                p["sho"],
                p["out_off"],
                p["act"][0],
                p["act"][1],
            ]
        else:
            args += [ctx.f32(p["act"][0]), ctx.f32(p["act"][1])]
        return [ctx.call(op.kernel, args)]
