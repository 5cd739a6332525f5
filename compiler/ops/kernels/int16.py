"""The int16x8 CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV and DEPTHWISE_CONV_2D kernels: SMLAD entry points on the
DSP cores (their filter reordered in quads, ops/common/int16.py dsp_quad_order) where one int32 sum is exact, the
portable kernels (int32 or int64 accumulation, params["acc16"]) everywhere.  All are called by their lowerings with
the same arguments (the filter as acc16_filter gives it)."""

from ..common.int16 import dsp_quad_order
from ..common.kernel import Kernel


def _dsp_when(op, p, a):
    if p["acc16"] == "wide":
        return (
            "the int64 accumulator needs the wide form (|bias| + 32768 * sum|w| >= 2^31 for some channel; the "
            "SMLAD kernels keep one int32 sum)"
        )
    return None


def _dsp_setup(op, p, a):
    p["dsp_filter"] = dsp_quad_order(op.input(1).data, a.in_c)
    return None


def _pair(stem: str) -> tuple:
    return (Kernel(f"{stem}_s16_dsp", "dsp", _dsp_setup, when=_dsp_when), Kernel(f"{stem}_s16", "portable"))


TABLE = {
    ("CONV_2D", "int16"): _pair("aot_conv2d"),
    ("FULLY_CONNECTED", "int16"): _pair("aot_fully_connected"),
    ("TRANSPOSE_CONV", "int16"): _pair("aot_transpose_conv"),
    ("DEPTHWISE_CONV_2D", "int16"): (Kernel("aot_depthwise_conv2d_s16", "portable"),),
}
