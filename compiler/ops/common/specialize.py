"""Shape-specialized int8 convolution, depthwise and fully connected layers for cores without the DSP extension.

On Cortex-M0/M3 (targets.specializes) these layers do not call the CRT kernels with run-time shapes: the
generated model holds one `static` function per distinct layer shape, named with the model's prefix, that calls
the kernel's inline body (crt/include/aot/kernels/*_s8_inline.h) with every shape, stride, padding, zero point,
requantization form and loop bound written as a literal, so GCC constant-propagates the body, unrolls its short
constant loops and drops the branches that cannot happen.  Layers of the same shape and quantization constants
share one function (weights, bias and requantization tables are its pointer arguments).

Which layers get a body is decided in ops/kernel_table.py (--specialize is its KernelOptions.specialize).

The input zero point is folded into the bias whenever the result fits in int32 (taps outside the image then
count as the zero point, pad_fill); the short requantization form is used only where short_requant proves it
exact, as for the DSP kernels.  Identical per-channel requantization parameters collapse to one (quant_step 0).
"""

import numpy as np

from ...passes.fold_zero_point import fold_input_offset
from .add_s8_fast import short_add_struct
from .short_requant import short_requant

# Kernel body -> (header, short name used in the function's name).
BODIES = {
    "aot_conv2d_s8_body": ("aot/kernels/conv2d_s8_inline.h", "conv"),
    "aot_depthwise_conv2d_s8_body": ("aot/kernels/depthwise_conv2d_s8_inline.h", "dw"),
    "aot_fully_connected_s8_body": ("aot/kernels/fully_connected_s8_inline.h", "fc"),
    # Two output channels per weight word (ops/common/packed.py), where the packed sums are proven exact.
    "aot_conv2d_s8_packed_body": ("aot/kernels/conv2d_s8_packed_inline.h", "pconv"),
    "aot_fully_connected_s8_packed_body": ("aot/kernels/fully_connected_s8_packed_inline.h", "pfc"),
    # Two output pixels per input word (ops/common/packed.py's xpair_*), int8 weights, scratch for the pair's taps.
    "aot_conv2d_s8_xpair_body": ("aot/kernels/conv2d_s8_xpair_inline.h", "xconv"),
}
# Bodies whose weights are packed int32 words, and of those the ones taking a fused residual ADD (its two pointer
# parameters `res` and `add`, literal 0 when the layer has none).
PACKED = ("aot_conv2d_s8_packed_body", "aot_fully_connected_s8_packed_body")
RESIDUAL = ("aot_conv2d_s8_packed_body", "aot_conv2d_s8_xpair_body")
# Bodies taking a scratch pointer `xs` (int32_t words) last.
SCRATCH = ("aot_conv2d_s8_xpair_body",)
# The pointer parameters of every specialized function, in order.
POINTERS = ("in", "out", "w", "bias", "mult", "second")
# Fully connected layers deeper than this keep the CRT kernel: the body reads four weight rows `depth` apart, and
# with a literal depth past 4095 / 3 those offsets no longer fit the Thumb-2 load immediate, so the specialized
# loop gets slower than the run-time one (micro_speech's 4000-deep layer: +6 % instructions).
FC_MAX_DEPTH = 4095 // 3
# Depthwise layers with at most this many filter taps unroll their border pixels (the body's `peel`).
PEEL_MAX_TAPS = 9
_SIGNATURE = (
    "const int8_t* in, int8_t* out, const {wtype}* w, const int32_t* bias, const int32_t* mult, const int32_t* second"
)
_RES_SIGNATURE = ", const int8_t* res, const struct aot_add_s8_params* add"


def requant_tables(p: dict, rows: np.ndarray, bias_arr: np.ndarray, in_zp: int) -> dict:
    """Bias, input offset, pad fill and requantization tables for a layer whose weights per output channel are
    `rows` [oc, K] and whose model bias is bias_arr; p holds mult, shift (per channel or one) and out_off."""
    try:
        bias, in_off, fill = fold_input_offset(rows, bias_arr, -int(in_zp)), 0, int(in_zp)
    except OverflowError:
        bias, in_off, fill = bias_arr, -int(in_zp), 0  # exact unfolded form: taps outside add nothing
    short = short_requant(bias, rows, p["mult"], p["shift"], p["out_off"], p["act"]) if in_off == 0 else None
    if short is not None:
        bias, mult, second = short
    else:
        mult, second = np.asarray(p["mult"], np.int32), np.asarray(p["shift"], np.int32)
    step = 1
    if np.all(mult == mult[0]) and np.all(second == second[0]):
        mult, second, step = mult[:1], second[:1], 0
    return dict(
        bias=np.asarray(bias, np.int32),
        in_off=in_off,
        fill=fill,
        short=short is not None,
        mult=mult,
        second=np.asarray(second, np.int32),
        step=step,
    )


def specialize(op, p: dict, body: str, args: list, weights: np.ndarray, t: dict) -> None:
    """Record the specialized call: `args` is the body's argument list, literals and POINTERS names."""
    p["spec"] = dict(body=body, args=args, weights=weights, tables=t)
    op.kernel = body


def requant_args(p: dict, t: dict) -> list:
    """The body arguments from output_offset to act_max (shared order of the three bodies).  The short form
    holds the output offset in its add table, so its literal is 0 and layers differing only there share."""
    return [
        0 if t["short"] else p["out_off"],
        "AOT_REQUANT_SHORT" if t["short"] else "AOT_REQUANT_EXACT",
        "mult",
        "second",
        t["step"],
        p["act"][0],
        p["act"][1],
    ]


def scratch(op) -> int:
    """Workspace bytes of the specialized call: the input-pair body's words, one per tap of a window; none of its
    own where the planner put them inside the layer's output and input (xpair_split)."""
    p = op.params["spec"]
    if p["body"] not in SCRATCH or "scratch_split" in op.params:
        return 0
    return 4 * int(p["weights"].shape[1])


# A split pointwise layer's pairs take the input's first bytes as scratch from this pixel on (4 * in_c bytes: the
# first four pixels' inputs, dead once they are packed).
XPAIR_LATE_PIXEL = 4


def _xpair_tail(op) -> int:
    """Offset in the output of a split layer's early scratch: its last 4 * in_c bytes (8-aligned down)."""
    shape = [int(d) for d in op.output.shape]
    return (shape[1] * shape[2] * shape[3] - 4 * int(op.params["spec"]["weights"].shape[1])) // 8 * 8


def xpair_split(op):
    """XPAIR_LATE_PIXEL where a packed-input layer can run with no scratch of its own (Kernel.split): a pointwise
    layer of one batch without a fused ADD (whose output may overwrite the residual), its first pairs' scratch in the
    output's last bytes (which only pixels from XPAIR_LATE_PIXEL on write, the later pairs' scratch being the input's
    first bytes, which only the first pixels read); else None.  The planner asks only where the scratch sets the
    model's peak and the input dies with the layer (planner/plan.py)."""
    p = op.params
    spec = p.get("spec")
    if spec is None or spec["body"] not in SCRATCH or "residual" in p or p.get("n") != 1:
        return None
    pointwise = p["kh"] == p["kw"] == p["sh"] == p["sw"] == 1 and p["pad_t"] == p["pad_l"] == 0
    if not pointwise or (p["oh"], p["ow"]) != (p["ih"], p["iw"]):
        return None
    if p["oh"] * p["ow"] < 2 * XPAIR_LATE_PIXEL or _xpair_tail(op) < XPAIR_LATE_PIXEL * int(op.output.shape[3]):
        return None
    return XPAIR_LATE_PIXEL


def header(op) -> list:
    return [BODIES[op.params["spec"]["body"]][0]]


def emit(op, ctx) -> list:
    """The call of the layer's specialized function (defined once per distinct argument list)."""
    s = op.params["spec"]
    body, args, t = s["body"], list(s["args"]), s["tables"]
    wtype = "int32_t" if body in PACKED else "int8_t"
    res = op.params.get("residual")
    if body in RESIDUAL:
        args += ["res", "add"] if res is not None else ["NULL", "NULL"]
    split = op.params.get("scratch_split") is not None
    if body in SCRATCH:
        args += ["xs", "xs_late" if split else "NULL"]

    def define(name):
        call = ctx.call(body, args)
        sig = _SIGNATURE.format(wtype=wtype) + (_RES_SIGNATURE if body in RESIDUAL else "")
        sig += ", int32_t* xs" if body in SCRATCH else ""
        sig += ", int32_t* xs_late" if split else ""
        unused = ["    (void)res;", "    (void)add;"] if body in RESIDUAL and res is None else []
        return [f"static void {name}({sig})", "{"] + unused + ["    " + ln for ln in call.split("\n")] + ["}"]

    fn = ctx.function((body, tuple(str(a) for a in args)), BODIES[body][1], define)
    ptrs = [
        ctx.ptr(op.input(0)),
        ctx.ptr(op.output),
        ctx.weight(f"op{op.index}_filter", s["weights"], wtype),
        ctx.weight(f"op{op.index}_bias", t["bias"], "int32_t"),
        ctx.param(f"op{op.index}_mult", t["mult"], "int32_t"),
        ctx.param(f"op{op.index}_{'radd' if t['short'] else 'shift'}", t["second"], "int32_t"),
    ]
    if body in RESIDUAL:
        if res is not None:
            ptrs += [
                ctx.ptr(op.input(res["index"])),
                short_add_struct(ctx, f"op{op.index}_residual_add", res["fields"]),
            ]
        else:
            ptrs += ["NULL", "NULL"]
    if split:
        ptrs += [ctx.scratch_in(op.output, _xpair_tail(op)), ctx.scratch_in(op.input(0), 0)]
    elif body in SCRATCH:
        ptrs += [ctx.scratch(op, "int32_t")]
    return [ctx.call(fn, ptrs)]


# The packed-input convolutions' per-pixel-pair work is one out-of-line CRT routine for windows of at least
# AOT_XPAIR_SHARED_TAPS taps (aot/kernels/conv2d_s8_xpair_inline.h); a call costs about 120 instructions per pair
# of pixels and group of four output channels more than the inlined form.  Where that is a small part of the
# model's work (those groups at most 1 per XPAIR_SHARE_MACS MACs: at about 1.5 instructions a MAC on the M3, under
# 5 %), every such layer shares it (ResNet-8: 0.3 KB instead of 2.2 KB of inlined copies at -Os).
XPAIR_SHARE_MACS = 667
# At -Os the shortest windows that share it are lowered as far as the groups of the layers it newly shares stay at
# most 1 per XPAIR_SHARE_OS_MACS MACs (about 2 % more instructions): MobileNet v1's 64-tap layers (-1.2 KB, +2.1 %
# at -Os; from 32 taps about 4 %, every layer 12 %), none of KWS's (its 40 and 64-tap layers: 1 per 530 MACs).
XPAIR_SHARE_OS_MACS = 3000
# The CRT's default (aot/kernels/conv2d_s8_xpair_inline.h AOT_XPAIR_SHARED_TAPS).
XPAIR_SHARED_TAPS = 128


def xpair_share(graph, macs: int) -> list:
    """The generated model's lines before its kernel headers (macs: the model's): the shared form for every
    packed-input layer; else at -Os (__OPTIMIZE_SIZE__, which the compiler cannot see) a lower window length from
    which layers share it; or nothing."""
    groups, by_taps = 0, {}
    for op in graph.ops:
        spec = op.params.get("spec") if isinstance(getattr(op, "params", None), dict) else None
        if spec is None or spec["body"] not in SCRATCH:
            continue
        shape = [int(d) for d in op.output.shape]
        n = (shape[0] * shape[1] * shape[2] + 1) // 2 * ((shape[3] + 3) // 4)
        groups += n
        taps = int(spec["weights"].shape[1])
        by_taps[taps] = by_taps.get(taps, 0) + n
    if groups == 0:
        return []
    if groups * XPAIR_SHARE_MACS <= macs:
        return ["#define AOT_XPAIR_SHARED_TAPS 1"]
    least, added = XPAIR_SHARED_TAPS, 0
    for taps in sorted((t for t in by_taps if t < XPAIR_SHARED_TAPS), reverse=True):
        added += by_taps[taps]
        if added * XPAIR_SHARE_OS_MACS > macs:
            break
        least = taps
    if least == XPAIR_SHARED_TAPS:
        return []
    return ["#if defined(__OPTIMIZE_SIZE__)", f"#define AOT_XPAIR_SHARED_TAPS {least}", "#endif"]
