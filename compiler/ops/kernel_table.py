"""The kernel table: which kernel runs each int8/int16 CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and
TRANSPOSE_CONV layer (and RESIZE, ARG_MAX / ARG_MIN, the int8 element-wise binary ops, the table lookups of int8 unary
ops), decided in one place (the TVM "strategy" idea).

For each (op kind, dtype) the table lists candidate kernels, best first, each tagged with the core family that has
it (mve: Helium, Cortex-M55; dsp: the DSP extension; specialized: shape-specialized bodies, Cortex-M0/M3;
portable: every core).  A target has an ordered tuple of families (FAMILIES).  `select` walks the candidates of
the target's families in order; each candidate has
  - `serves`: whether the layer is of the form the kernel is written for at all (e.g. one input channel for the
    GEMM form of a depthwise layer); a kernel that does not serve a layer is skipped silently;
  - `when`: a structural condition, None when it holds, else a short reason ("K < 4", "grouped convolution");
  - `setup`: computes the kernel's weight layout and constants into op.params and returns None, or the reason it
    cannot (a quantization reason, e.g. the zero point does not fold into an int32 bias).
The first candidate whose three steps pass sets op.kernel.  A layer whose kernel is not of the best family its
core has for that op (the first family with a candidate serving the layer) is a fallback: op.kernel_reason says
why the better family's kernels refused it, and op.kernel_reason_numeric whether that was because of the layer's
quantization parameters (which `strict_kernels` refuses) rather than its structure.

Options that change the choice (which layer kinds are specialized, strictness) are a KernelOptions value passed
down from the compile command (graph.kernel_options -> op.kernel_options), never module state.
"""

from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..targets import TARGETS, has_dsp, has_mve, packs_weights, specializes
from ._lut_s8 import LUT_KINDS


def _families(target: str) -> tuple:
    """The core families a target has, best first (compiler/targets.py says which core has which extension)."""
    have = (("mve", has_mve(target)), ("dsp", has_dsp(target)), ("specialized", specializes(target)))
    return tuple(f for f, ok in have if ok) + ("portable",)


# Core families per target, best first.
FAMILIES = {t: _families(t) for t in TARGETS}

# --specialize: the layer kinds made shape-specialized functions on the Cortex-M0/M3 (README "Shape-specialized
# layers" says what each earns).
SPECIALIZE_KINDS = ("conv", "depthwise", "fc")
# One more --specialize word: convolutions and fully connected layers store two output channels per 32-bit weight
# word (ops/_packed.py: about 40 % fewer instructions, weights twice the bytes).  On by default; an explicit list
# without it keeps the int8 weights.
PACKED = "packed"


def parse_specialize(spec) -> frozenset:
    """--specialize: a comma-separated subset of SPECIALIZE_KINDS and PACKED, "none", or None for all of them."""
    kinds = (
        SPECIALIZE_KINDS + (PACKED,)
        if spec is None
        else [k.strip() for k in spec.split(",") if k.strip() and k.strip() != "none"]
    )
    bad = [k for k in kinds if k not in SPECIALIZE_KINDS + (PACKED,)]
    if bad:
        raise CompileError(
            f"--specialize: unknown layer kind '{bad[0]}'; use a comma-separated subset of "
            f"{', '.join(SPECIALIZE_KINDS + (PACKED,))}, or none."
        )
    return frozenset(kinds)


@dataclass(frozen=True)
class KernelOptions:
    """Compile options of kernel selection: the layer kinds specialized on the M0/M3 (--specialize) and whether a
    layer that leaves its core's best kernels because of its quantization parameters fails the build
    (--strict_kernels)."""

    specialize: frozenset = frozenset(SPECIALIZE_KINDS + (PACKED,))
    strict: bool = False

    @property
    def pack(self) -> bool:
        return PACKED in self.specialize


DEFAULT_OPTIONS = KernelOptions()


def options_from_flags(flags) -> KernelOptions:
    """The KernelOptions of the command line (--specialize, --strict_kernels)."""
    return KernelOptions(
        specialize=parse_specialize(getattr(flags, "specialize", None)),
        strict=bool(getattr(flags, "strict_kernels", False)),
    )


def options_of(op) -> KernelOptions:
    return getattr(op, "kernel_options", None) or DEFAULT_OPTIONS


@dataclass(frozen=True)
class Kernel:
    name: str  # op.kernel once chosen
    family: str  # mve / dsp / specialized / portable
    setup: Callable  # (op, p, a) -> None, or the (quantization) reason it cannot run the layer
    when: Callable = None  # (op, p, a) -> None, or the structural reason it cannot
    serves: Callable = None  # (op, p, a) -> bool: the layer has the form this kernel is written for


@dataclass
class Layer:
    """What a candidate's checks and set-up read besides op and op.params: the weights one row per output
    channel ([C, K] int8), the model's int32 bias per channel, the input zero point, the GEMM's input channels."""

    rows: object = None
    bias: object = None
    in_zp: int = 0
    in_c: int = 0
    extra: dict = field(default_factory=dict)


# --- the candidates' conditions and set-ups (the kernels' own layout code stays next to their lowerings) --------


def _grouped(op, p, a):
    return "grouped convolution" if p["kd"] != p["ic"] else None


def _dsp_gemm_shape(op, p, a):
    oc, k = a.rows.shape
    if k < 4:
        # The kernel reads a channel's K % 4 leftover weights as the word ending after them: a whole quad first.
        return f"K = {k} < 4 taps per output"
    if (oc * k) % 4:
        return f"out_c * K = {oc * k} is not a multiple of 4 (the weights are read as words)"
    return None


def _conv_dsp_when(op, p, a):
    return _grouped(op, p, a) or _dsp_gemm_shape(op, p, a)


def _fold_reason():
    return "folding the input zero point into the bias overflows int32"


def _mve_conv(op, p, a):
    from ._mve_layout import prepare_mve_conv

    return None if prepare_mve_conv(op, p, a.rows, a.bias, a.in_zp) else _fold_reason()


def _mve_depthwise(op, p, a):
    from ._mve_layout import prepare_mve_depthwise

    return None if prepare_mve_depthwise(op, p, a.rows, a.bias, a.in_zp) else _fold_reason()


def _mve_depthwise_plane(op, p, a):
    from ._mve_layout import prepare_mve_depthwise_plane

    return None if prepare_mve_depthwise_plane(op, p, a.rows, a.bias, a.in_zp) else _fold_reason()


def _mve_plane_when(op, p, a):
    from ._mve_layout import plane_when

    return plane_when(op, p)


def _dsp_gemm(op, p, a):
    from ._conv_common import prepare_dsp_gemm

    return prepare_dsp_gemm(op, p, a.rows, a.bias, a.in_zp, a.in_c)


def _dw_dsp_when(op, p, a):
    if (p["kh"], p["kw"]) != (3, 3):
        return f"{p['kh']}x{p['kw']} filter (the DSP depthwise kernels take 3x3)"
    if (p["dh"], p["dw"]) != (1, 1):
        return f"dilation {p['dh']}x{p['dw']}"
    if p["mult_depth"] != 1:
        return f"depth multiplier {p['mult_depth']}"
    return None


def _dw_dsp(op, p, a):
    from .depthwise_conv_2d import prepare_dsp_3x3

    return prepare_dsp_3x3(op, p, a.rows, a.bias, a.in_zp)


def _fc_mve(op, p, a):
    from ._mve_layout import mve_gemm_params

    m = mve_gemm_params(op, a.rows, a.bias, a.in_zp, p["mult"], p["shift"])
    if m is None:
        return _fold_reason()
    p.update(m)
    op.kernel = "aot_fully_connected_s8_mve"
    return None


# The expanded input row of aot_fully_connected_s8_dsp costs 2 * depth bytes of scratch: past 2 KiB (e.g. a
# 4000-deep layer with a few outputs) the RAM is worth more than the speed.
FC_DSP_MAX_SCRATCH = 2048


def _fc_dsp_when(op, p, a):
    if p["depth"] % 4:
        return f"depth {p['depth']} is not a multiple of 4"
    if 2 * p["depth"] > FC_DSP_MAX_SCRATCH:
        return f"scratch would exceed 2 KiB (2 x depth {p['depth']} bytes)"
    return None


def _fc_dsp(op, p, a):
    from .fully_connected import prepare_fc_dsp

    return prepare_fc_dsp(op, p)


def _specialize_when(kind):
    def when(op, p, a):
        if kind not in options_of(op).specialize:
            return f"--specialize leaves out {kind}"
        if kind == "conv":
            return _grouped(op, p, a)
        if kind == "fc":
            from ._specialize import FC_MAX_DEPTH

            packs = packs_weights(getattr(op, "target", "host")) and options_of(op).pack
            if p["depth"] > FC_MAX_DEPTH and not packs:
                return f"depth {p['depth']} > {FC_MAX_DEPTH} (load immediate range)"
        # Deeper ones with packed weights: refused in the set-up if the zero point cannot be folded after all.
        return None

    return when


def _specialize_setup(kind):
    def setup(op, p, a):
        from . import _specialize as s
        from . import _packed

        t = s.requant_tables(p, a.rows, a.bias, a.in_zp)
        filt = op.input(1).data
        # Packed weights (two channels per SMLAL) need the zero point folded into the bias: every tap value is then
        # an int8 value, which is what their exactness bound assumes.
        packed = t["in_off"] == 0 and options_of(op).pack and packs_weights(getattr(op, "target", "host"))
        conv_like = kind == "conv" or (kind == "depthwise" and p["ic"] == 1)
        if packed and conv_like and _packed.lane_bound(a.rows):
            in_c = p["ic"] if kind == "conv" else 1
            args = [
                "in",
                p["n"],
                p["ih"],
                p["iw"],
                in_c,
                "w",
                p["kh"],
                p["kw"],
                "bias",
                "out",
                p["oh"],
                p["ow"],
                a.rows.shape[0],
                p["sh"],
                p["sw"],
                p["dh"],
                p["dw"],
                p["pad_t"],
                p["pad_l"],
                t["fill"],
            ] + s.requant_args(p, t)
            s.specialize(op, p, "aot_conv2d_s8_packed_body", args, _packed.pack(a.rows), t)
            return None
        if packed and kind == "fc":
            chunk = p["depth"] if _packed.lane_bound(a.rows) else _packed.PACK_SAFE_RUN
            args = ["in", p["batches"], p["depth"], "w", "bias", "out", p["units"], chunk] + s.requant_args(p, t)
            s.specialize(op, p, "aot_fully_connected_s8_packed_body", args, _packed.pack(a.rows), t)
            return None
        if kind == "fc" and p["depth"] > s.FC_MAX_DEPTH:
            return (
                f"depth {p['depth']} > {s.FC_MAX_DEPTH} (load immediate range) and the input zero point cannot "
                "be folded into the bias (packed weights need it)"
            )
        if kind == "conv":
            args = [
                "in",
                p["n"],
                p["ih"],
                p["iw"],
                p["ic"],
                "w",
                p["kh"],
                p["kw"],
                "bias",
                "out",
                p["oh"],
                p["ow"],
                p["oc"],
                p["sh"],
                p["sw"],
                p["dh"],
                p["dw"],
                p["pad_t"],
                p["pad_l"],
                t["in_off"],
                t["fill"],
            ] + s.requant_args(p, t)
            s.specialize(op, p, "aot_conv2d_s8_body", args, filt, t)
        elif kind == "depthwise":
            # peel: border rows and columns unrolled one by one (no run-time tap checks), for small filters only:
            # a 10x8 filter's unrolled border windows cost tens of KB.
            args = (
                [
                    "in",
                    p["n"],
                    p["ih"],
                    p["iw"],
                    p["ic"],
                    "w",
                    p["kh"],
                    p["kw"],
                    p["mult_depth"],
                    "bias",
                    "out",
                    p["oh"],
                    p["ow"],
                    p["sh"],
                    p["sw"],
                    p["dh"],
                    p["dw"],
                    p["pad_t"],
                    p["pad_l"],
                    t["in_off"],
                    t["fill"],
                ]
                + s.requant_args(p, t)
                + [int(p["kh"] * p["kw"] <= s.PEEL_MAX_TAPS)]
            )
            s.specialize(op, p, "aot_depthwise_conv2d_s8_body", args, filt, t)
        else:
            args = ["in", p["batches"], p["depth"], "w", "bias", "out", p["units"], t["in_off"]] + s.requant_args(p, t)
            s.specialize(op, p, "aot_fully_connected_s8_body", args, filt, t)
        return None

    return setup


def _dsp16_when(op, p, a):
    if p["acc16"] == "wide":
        return (
            "the int64 accumulator needs the wide form (|bias| + 32768 * sum|w| >= 2^31 for some channel; the "
            "SMLAD kernels keep one int32 sum)"
        )
    return None


def _dsp16(name):
    def setup(op, p, a):
        from ._int16 import dsp_quad_order

        p["dsp_filter"] = dsp_quad_order(op.input(1).data, a.in_c)
        op.kernel = name
        return None

    return setup


def _portable(name):
    def setup(op, p, a):
        op.kernel = name
        return None

    return setup


def _tconv_fast(name):
    """int8 TRANSPOSE_CONV on SMLAD / VMLADAVA: the products are of the stored int8 values; the input offset enters
    per (output channel, tap) as in_off * (the tap's weight sum), wrapped to int32 like the accumulator."""

    def setup(op, p, a):
        sums = op.input(1).data.astype(np.int64).reshape(p["oc"], p["kh"] * p["kw"], p["ic"]).sum(axis=2)
        wrapped = (p["in_off"] * sums + (1 << 31)) % (1 << 32) - (1 << 31)
        p["tap_bias"] = wrapped.astype(np.int32).reshape(-1)
        p["table_bytes"] = p["tap_bias"].nbytes
        op.kernel = name
        return None

    return setup


def _arg_last_s8(op, p, a):
    return p["in_dtype"] == "int8" and p["inner"] == 1


def _arg_dsp_when(op, p, a):
    return f"axis of {p['size']} < 4 values (one word)" if p["size"] < 4 else None


def _arg_portable(op, p, a):
    op.kernel = "aot_arg_minmax_f32" if p["in_dtype"] == "float32" else "aot_arg_minmax_s8"
    return None


def _ic1(op, p, a):
    return p["ic"] == 1


def _ic_many(op, p, a):
    return p["ic"] != 1


# int8 unary ops as 256-entry tables (ops/_lut_s8.py): below this many elements the op keeps its own arithmetic
# kernel, as the table's 256 bytes of flash would outweigh the instructions saved.
LUT_MIN_SIZE = 32


def _lut_when(op, p, a):
    n = p["size"]
    return f"{n} elements, fewer than {LUT_MIN_SIZE} (the 256-byte table is not worth it)" if n < LUT_MIN_SIZE else None


def _lut(name):
    def setup(op, p, a):
        from ._lut_s8 import table_of

        if p["own_kernel"] != "aot_lut_s8":  # ELU's own kernel is already its table
            p["table"] = table_of(p["own_kernel"], p)
        p["table_bytes"] = int(p["table"].nbytes)
        op.kernel = name
        return None

    return setup


def _own_kernel(op, p, a):
    if "table" in p:
        p["table_bytes"] = int(p["table"].nbytes)
    op.kernel = p["own_kernel"]
    return None


# int8 ADD / SUB / MUL / SQUARED_DIFFERENCE (their lowerings put the short arithmetic's fields, or None, in
# p["short"] and the row form of the operands' broadcast, or None, in p["rows"]).
def _short_exact(name):
    def setup(op, p, a):
        if p["short"] is None:
            return "the short arithmetic is not exact for these scales (ops/_*_s8_fast.py)"
        op.kernel = name
        return None

    return setup


def _rows_when(op, p, a):
    return None if p["rows"] is not None else "operands broadcast along more than one run of dimensions"


def _same_shape(op, p, a):
    return p["rows"] is not None and p["rows"]["rows"] == 1 and p["rows"]["mode"] == 0


def _add_sub_s8(prefix):
    return (
        Kernel(f"{prefix}_s8_rows_mve", "mve", _short_exact(f"{prefix}_s8_rows_mve"), when=_rows_when),
        Kernel(f"{prefix}_s8_elementwise", "portable", _short_exact(f"{prefix}_s8_elementwise"), serves=_same_shape),
        Kernel(f"{prefix}_s8_rows", "portable", _short_exact(f"{prefix}_s8_rows"), when=_rows_when),
        Kernel(f"{prefix}_s8", "portable", _portable(f"{prefix}_s8")),
    )


def _same_shape_inputs(op, p, a):
    return op.input(0).num_elements == op.input(1).num_elements == op.output.num_elements


# (op kind, dtype) -> candidates, best first.  A family with no candidate for the op has no kernel of its own
# for it (e.g. int8 RESIZE_BILINEAR on the DSP extension: the portable kernel).
TABLE = {
    ("CONV_2D", "int8"): (
        Kernel("aot_conv2d_s8_mve", "mve", _mve_conv, when=_grouped),
        Kernel("aot_conv2d_s8_dsp", "dsp", _dsp_gemm, when=_conv_dsp_when),
        Kernel("aot_conv2d_s8_body", "specialized", _specialize_setup("conv"), when=_specialize_when("conv")),
        Kernel("aot_conv2d_s8", "portable", _portable("aot_conv2d_s8")),
    ),
    ("DEPTHWISE_CONV_2D", "int8"): (
        # One input channel: every output channel is an ordinary convolution of it (filter as [oc, kh * kw]).
        Kernel("aot_conv2d_s8_mve", "mve", _mve_conv, serves=_ic1),
        Kernel("aot_depthwise_conv2d_s8_mve_plane", "mve", _mve_depthwise_plane, serves=_ic_many, when=_mve_plane_when),
        Kernel(
            "aot_depthwise_conv2d_s8_mve",
            "mve",
            _mve_depthwise,
            serves=_ic_many,
            when=lambda op, p, a: f"depth multiplier {p['mult_depth']}" if p["mult_depth"] != 1 else None,
        ),
        Kernel("aot_conv2d_s8_dsp", "dsp", _dsp_gemm, serves=_ic1, when=_dsp_gemm_shape),
        Kernel("aot_depthwise_conv2d_s8_dsp", "dsp", _dw_dsp, serves=_ic_many, when=_dw_dsp_when),
        Kernel(
            "aot_depthwise_conv2d_s8_body",
            "specialized",
            _specialize_setup("depthwise"),
            when=_specialize_when("depthwise"),
        ),
        Kernel("aot_depthwise_conv2d_s8", "portable", _portable("aot_depthwise_conv2d_s8")),
    ),
    ("FULLY_CONNECTED", "int8"): (
        Kernel("aot_fully_connected_s8_mve", "mve", _fc_mve),
        Kernel("aot_fully_connected_s8_dsp", "dsp", _fc_dsp, when=_fc_dsp_when),
        Kernel("aot_fully_connected_s8_body", "specialized", _specialize_setup("fc"), when=_specialize_when("fc")),
        Kernel("aot_fully_connected_s8", "portable", _portable("aot_fully_connected_s8")),
    ),
    ("AVERAGE_POOL_2D", "int8"): (
        Kernel("aot_avg_pool_s8_mve", "mve", _portable("aot_avg_pool_s8_mve")),
        Kernel("aot_avg_pool_s8", "portable", _portable("aot_avg_pool_s8")),
    ),
    # Gathered per output pixel (no accumulator scratch); four output channels per pass over a tap's inputs.
    ("TRANSPOSE_CONV", "int8"): (
        Kernel("aot_transpose_conv_s8_mve", "mve", _tconv_fast("aot_transpose_conv_s8_mve")),
        Kernel("aot_transpose_conv_s8_dsp", "dsp", _tconv_fast("aot_transpose_conv_s8_dsp")),
        Kernel("aot_transpose_conv_s8", "portable", _portable("aot_transpose_conv_s8")),
    ),
    ("CONV_2D", "int16"): (
        Kernel("aot_conv2d_s16_dsp", "dsp", _dsp16("aot_conv2d_s16_dsp"), when=_dsp16_when),
        Kernel("aot_conv2d_s16", "portable", _portable("aot_conv2d_s16")),
    ),
    ("FULLY_CONNECTED", "int16"): (
        Kernel("aot_fully_connected_s16_dsp", "dsp", _dsp16("aot_fully_connected_s16_dsp"), when=_dsp16_when),
        Kernel("aot_fully_connected_s16", "portable", _portable("aot_fully_connected_s16")),
    ),
    ("TRANSPOSE_CONV", "int16"): (
        Kernel("aot_transpose_conv_s16_dsp", "dsp", _dsp16("aot_transpose_conv_s16_dsp"), when=_dsp16_when),
        Kernel("aot_transpose_conv_s16", "portable", _portable("aot_transpose_conv_s16")),
    ),
    ("DEPTHWISE_CONV_2D", "int16"): (
        Kernel("aot_depthwise_conv2d_s16", "portable", _portable("aot_depthwise_conv2d_s16")),
    ),
    # 32-bit sums; Helium blends four channels per vector.  The DSP extension has no kernel of its own: the products
    # of two weights need 21 bits, beyond SMLAD's 16-bit lanes (aot/kernels/resize_bilinear.h).
    ("RESIZE_BILINEAR", "int8"): (
        Kernel("aot_resize_bilinear_s8_mve", "mve", _portable("aot_resize_bilinear_s8_mve")),
        Kernel("aot_resize_bilinear_s8", "portable", _portable("aot_resize_bilinear_s8")),
    ),
    # Copies only (word moves, repeated rows copied whole): the same kernel on every core and type.
    **{
        ("RESIZE_NEAREST_NEIGHBOR", dt): (Kernel("aot_resize_nearest", "portable", _portable("aot_resize_nearest")),)
        for dt in ("int8", "int16", "float32")
    },
    # Keyed by the int32 output; the fast kernels serve int8 inputs reduced over their last axis.
    **{
        (kind, "int32"): (
            Kernel("aot_arg_minmax_s8_last_mve", "mve", _portable("aot_arg_minmax_s8_last_mve"), serves=_arg_last_s8),
            Kernel(
                "aot_arg_minmax_s8_last_dsp",
                "dsp",
                _portable("aot_arg_minmax_s8_last_dsp"),
                when=_arg_dsp_when,
                serves=_arg_last_s8,
            ),
            Kernel("aot_arg_minmax_s8", "portable", _arg_portable),
        )
        for kind in ("ARG_MAX", "ARG_MIN")
    },
    # int8 unary ops: their whole function as a 256-entry table (ops/_lut_s8.py), looked up 16 per gather on Helium,
    # 4 per word on the DSP cores, bytewise elsewhere; the op's own kernel for tensors too small for a table.
    **{
        (kind, "int8"): (
            Kernel("aot_lut_s8_mve", "mve", _lut("aot_lut_s8_mve"), when=_lut_when),
            Kernel("aot_lut_s8_word", "dsp", _lut("aot_lut_s8_word"), when=_lut_when),
            Kernel("aot_lut_s8", "portable", _lut("aot_lut_s8"), when=_lut_when),
            Kernel("own arithmetic kernel", "portable", _own_kernel),
        )
        for kind in LUT_KINDS
    },
    # Same-shape operands and the common broadcasts (a row repeated, one value per row) in one row loop; any other
    # broadcast, or scales the short arithmetic is not exact for, take the 4-D walker.
    ("ADD", "int8"): _add_sub_s8("aot_add"),
    ("SUB", "int8"): _add_sub_s8("aot_sub"),
    # The short requantization (ops/_mul_s8_fast.py) in the row form: SMMLAR on the DSP cores, VRMULH on Helium.
    ("MUL", "int8"): (
        Kernel("aot_mul_s8_rows_mve", "mve", _short_exact("aot_mul_s8_rows_mve"), when=_rows_when),
        Kernel("aot_mul_s8_rows", "dsp", _short_exact("aot_mul_s8_rows"), when=_rows_when),
        Kernel("aot_mul_s8", "portable", _portable("aot_mul_s8")),
    ),
    ("SQUARED_DIFFERENCE", "int8"): (
        Kernel(
            "aot_squared_difference_s8_rows_mve",
            "mve",
            _short_exact("aot_squared_difference_s8_rows_mve"),
            when=_rows_when,
        ),
        Kernel(
            "aot_squared_difference_s8_rows", "dsp", _short_exact("aot_squared_difference_s8_rows"), when=_rows_when
        ),
        Kernel("aot_squared_difference_s8", "portable", _portable("aot_squared_difference_s8")),
    ),
    # Same-shape int8 MAXIMUM / MINIMUM: whole words (SSUB8 + SEL) or vectors (VMAX / VMIN); broadcasts walk.
    **{
        (kind, "int8"): (
            Kernel("aot_minmax_s8_flat_mve", "mve", _portable("aot_minmax_s8_flat_mve"), serves=_same_shape_inputs),
            Kernel("aot_minmax_s8_flat_dsp", "dsp", _portable("aot_minmax_s8_flat_dsp"), serves=_same_shape_inputs),
            Kernel("aot_minmax_s8", "portable", _portable("aot_minmax_s8")),
        )
        for kind in ("MAXIMUM", "MINIMUM")
    },
}


def candidates(kind: str, dtype: str, target: str) -> list:
    """The table's candidates for an op on `target`, in the order they are tried."""
    fams = FAMILIES.get(target, ("portable",))
    table = TABLE[(kind, dtype)]
    return [k for f in fams for k in table if k.family == f]


def select(op, p: dict, layer: Layer) -> str:
    """Choose op's kernel from the table (sets op.kernel, the layout in p, op.kernel_reason and
    op.kernel_reason_numeric) and return its name."""
    op.params = p
    best_family, reasons, numeric = None, [], False
    for k in candidates(op.kind, op.output.dtype, getattr(op, "target", "host")):
        if k.serves is not None and not k.serves(op, p, layer):
            continue
        if best_family is None:
            best_family = k.family
        why = k.when(op, p, layer) if k.when is not None else None
        if why is None:
            why = k.setup(op, p, layer)
            numeric = numeric or (why is not None and k.family == best_family)
        if why is None:
            fell = k.family != best_family
            op.kernel_reason = "; ".join(reasons) if fell else None
            op.kernel_reason_numeric = fell and numeric
            return op.kernel
        if k.family == best_family:
            reasons.append(f"{k.name}: {why}")
    raise AssertionError(f"no portable kernel for {op.kind} {op.output.dtype}")


def entry_point(op) -> Optional[str]:
    """The function a layer's code actually calls (the exact / short / unrolled variants of a kernel), or the
    specialized body with its requantization form, for reports."""
    k, p = op.kernel, op.params or {}
    if k is None:
        return None
    if "spec" in p:
        return f"{k}[{'short' if p['spec']['tables']['short'] else 'exact'} requant]"
    if "residual" in p:
        return k  # its *_add form; reports append "+add"
    if k == "aot_conv2d_s8_dsp":
        from ._conv_common import dsp_gemm_entry

        in_c = 1 if op.kind == "DEPTHWISE_CONV_2D" else p["ic"]
        return dsp_gemm_entry(p, in_c, op.output.shape[3])
    if k in ("aot_depthwise_conv2d_s8_dsp", "aot_fully_connected_s8_dsp") and p.get("dsp_exact"):
        return k + "_exact"
    return k


def check_strict(graph) -> None:
    """strict_kernels: refuse a model in which a layer leaves its core's best kernels because of its quantization
    parameters (structural fallbacks stay allowed and are listed in the report)."""
    if not getattr(graph, "kernel_options", DEFAULT_OPTIONS).strict:
        return
    bad = [op for op in graph.ops if getattr(op, "kernel_reason_numeric", False)]
    if bad:
        layers = "; ".join(f"operator {op.index} ({op.kind}) runs {op.kernel} because {op.kernel_reason}" for op in bad)
        raise UnsupportedError(
            f"strict_kernels: {len(bad)} layer(s) for {graph.target} leave the best kernels of the core because of "
            f"their quantization parameters: {layers}. Re-quantize these layers, or build without strict_kernels."
        )
