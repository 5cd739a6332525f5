"""ADD lowering with broadcasting (int8, float32).

int8 uses TFLite's scheme: both inputs are shifted left by 20 bits, scaled
to twice the larger input scale, summed, then requantized to the output.
"""

import numpy as np

from ..quant_math import quantize_multiplier_smaller_than_one
from ._base import OpLowering, register
from ._common import (activation_range_f32, activation_range_int8, broadcast_4d,
                      fused_activation, require_inputs, require_quant, require_same_dtype)

_LEFT_SHIFT = 20


@register
class Add(OpLowering):
    builtins = ("ADD",)
    elementwise = True
    header = "aot/kernels/add.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        a, b, out = op.input(0), op.input(1), op.output
        dtype = require_same_dtype(op, a, b, out)
        fused_activation(op)
        broadcast_4d(op, a.shape, b.shape, out.shape)
        if dtype == "int8":
            for t, what in ((a, "first input"), (b, "second input"), (out, "output")):
                require_quant(op, t, what)

    def prepare(self, op):
        a, b, out = op.input(0), op.input(1), op.output
        dims, sa, sb = broadcast_4d(op, a.shape, b.shape, out.shape)
        act = fused_activation(op)
        p = dict(dims=np.array(dims, np.int32), sa=np.array(sa, np.int32),
                 sb=np.array(sb, np.int32))
        if out.dtype == "int8":
            s1, z1 = a.quant.scalar()
            s2, z2 = b.quant.scalar()
            so, zo = out.quant.scalar()
            twice_max = 2.0 * float(max(np.float32(s1), np.float32(s2)))
            m1, sh1 = quantize_multiplier_smaller_than_one(s1 / twice_max)
            m2, sh2 = quantize_multiplier_smaller_than_one(s2 / twice_max)
            mo, sho = quantize_multiplier_smaller_than_one(
                twice_max / (float(1 << _LEFT_SHIFT) * so))
            p.update(off1=-z1, m1=m1, sh1=sh1, off2=-z2, m2=m2, sh2=sh2, left=_LEFT_SHIFT,
                     mo=mo, sho=sho, out_off=zo, act=activation_range_int8(act, so, zo))
            op.kernel = "aot_add_s8"
        else:
            p.update(act=activation_range_f32(act))
            op.kernel = "aot_add_f32"
        op.params = p

    def emit(self, op, ctx):
        p = op.params
        args = [ctx.ptr(op.input(0)), ctx.ptr(op.input(1)), ctx.ptr(op.output),
                ctx.param(f"op{op.index}_dims", p["dims"], "int32_t"),
                ctx.param(f"op{op.index}_strides1", p["sa"], "int32_t"),
                ctx.param(f"op{op.index}_strides2", p["sb"], "int32_t")]
        if op.kernel == "aot_add_s8":
            args += [p["off1"], p["m1"], p["sh1"], p["off2"], p["m2"], p["sh2"], p["left"],
                     p["mo"], p["sho"], p["out_off"], p["act"][0], p["act"][1]]
        else:
            args += [ctx.f32(p["act"][0]), ctx.f32(p["act"][1])]
        return [ctx.call(op.kernel, args)]
