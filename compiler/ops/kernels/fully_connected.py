"""The int8 FULLY_CONNECTED kernels: Helium (four output rows per VMLADAVA pass), the DSP extension (8-row
interleaved raw weight words, the input row expanded to int16 lane pairs in scratch), the specialized bodies of the
Cortex-M0/M3 (kernels/specialized.py) and the portable kernel."""

import numpy as np

from ...codegen.fc_chain import record_step
from ..common.dsp_layout import as_words, fits_int32, interleave_rows, raw_word_rows
from ..common.kernel import Kernel
from ..common.mve_layout import mve_all_right, mve_gemm_params
from ..common.short_requant import exact_requant, short_requant
from . import specialized


def _mve_setup(op, p, a):
    m = mve_gemm_params(op, a.rows, a.bias, a.in_zp, p["mult"], p["shift"])
    if m is None:
        return "folding the input zero point into the bias overflows int32"
    p.update(m)
    return None


def _emit_mve(op, ctx) -> list:
    p = op.params
    args = [
        ctx.ptr(op.input(0)),
        p["batches"],
        p["depth"],
        ctx.weight(f"op{op.index}_weights", p["mve_weights"], "int8_t"),
        ctx.weight(f"op{op.index}_bias", p["mve_bias"], "int32_t"),
        ctx.ptr(op.output),
        p["units"],
        p["out_off"],
        ctx.param(f"op{op.index}_mult", p["mve_mult"], "int32_t"),
        ctx.param(f"op{op.index}_shift", p["mve_shift"], "int32_t"),
        p["stride"],
        p["act"][0],
        p["act"][1],
    ]
    return [ctx.call(_mve_entry(op), args)]


def _mve_entry(op) -> str:
    """aot_fully_connected_s8_mve_row for a layer of one batch row whose shifts are all right shifts (its own unit:
    an image of such layers does not link the general requantization and the row pairs), else
    aot_fully_connected_s8_mve."""
    p = op.params
    if p["batches"] == 1 and mve_all_right(p["mve_shift"], p["mve_mult"]):
        return "aot_fully_connected_s8_mve_row"
    return op.kernel


MVE = Kernel("aot_fully_connected_s8_mve", "mve", _mve_setup, emit=_emit_mve, entry=_mve_entry)


# The expanded input row of aot_fully_connected_s8_dsp costs 2 * depth bytes of scratch: past 2 KiB (e.g. a
# 4000-deep layer with a few outputs) the RAM is worth more than the speed.
FC_DSP_MAX_SCRATCH = 2048


def _dsp_when(op, p, a):
    if p["depth"] == 0:
        return "depth 0"
    if p["depth"] % 4:
        return f"depth {p['depth']} is not a multiple of 4"
    if 2 * p["depth"] > FC_DSP_MAX_SCRATCH:
        return f"scratch would exceed 2 KiB (2 x depth {p['depth']} bytes)"
    return None


def _dsp_setup(op, p, a):
    """8-row interleaved raw-word weights for aot_fully_connected_s8_dsp (depth a multiple of 4 and within the
    scratch limit: _dsp_when); None, or why the layer's numbers keep it off the kernel."""
    rows = op.input(1).data.reshape(p["units"], p["depth"])
    if p["in_off"] != 0:
        return "folding the input zero point into the bias overflows int32"
    short = short_requant(p["bias"], rows, p["mult"], p["shift"], p["out_off"], p["act"])
    exact = short is None
    if exact:
        short = exact_requant(p["bias"], rows, p["mult"], p["shift"], p["out_off"], p["act"])
    bias, mult, radd = short
    stored, adj = raw_word_rows(rows)
    bias = bias.astype(np.int64) + adj
    if not fits_int32(bias):
        return "the bias with the raw-weight-word adjustment overflows int32"
    # Constant rows get their own constants even in a per-tensor layer: one entry only when all agree.
    stride = 0 if np.all(mult == mult[0]) and np.all(radd == radd[0]) else 1
    p.update(
        dsp_weights=as_words(interleave_rows(stored, 8)),
        dsp_bias=bias.astype(np.int32),
        mult=mult[:1] if stride == 0 else mult,
        radd=radd[:1] if stride == 0 else radd,
        stride=stride,
        dsp_exact=exact,
    )
    return None


def _dsp_entry(op) -> str:
    return op.kernel + ("_exact" if op.params.get("dsp_exact") else "")


def _emit_dsp(op, ctx) -> list:
    p = op.params
    filt = ctx.weight(f"op{op.index}_weights", p["dsp_weights"], "int32_t")
    bias = ctx.weight(f"op{op.index}_bias", p["dsp_bias"], "int32_t")
    mult = ctx.param(f"op{op.index}_mult", p["mult"], "int32_t")
    radd = ctx.param(f"op{op.index}_radd", p["radd"], "int32_t")
    args = [
        ctx.ptr(op.input(0)),
        p["batches"],
        p["depth"],
        filt,
        bias,
        ctx.ptr(op.output),
        p["units"],
        mult,
        radd,
        p["stride"],
        p["act"][0],
        p["act"][1],
        ctx.scratch(op, "int32_t"),
    ]
    # A run of such layers may become one call over a table (codegen/fc_chain.py, after every op is emitted).
    record_step(op, ctx, filt, bias, mult, radd)
    return [ctx.call(_dsp_entry(op), args)]


DSP = Kernel(
    "aot_fully_connected_s8_dsp",
    "dsp",
    _dsp_setup,
    when=_dsp_when,
    emit=_emit_dsp,
    # The input row expanded to int16 lane pairs.
    scratch=lambda op: 2 * op.params["depth"],
    entry=_dsp_entry,
)

# Called by the lowering with the layer's own arguments.
PORTABLE = Kernel("aot_fully_connected_s8", "portable")

TABLE = {("FULLY_CONNECTED", "int8"): (MVE, DSP, specialized.FC, PORTABLE)}
