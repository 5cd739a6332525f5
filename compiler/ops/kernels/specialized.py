"""The shape-specialized int8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED bodies of the Cortex-M0/M3
(ops/common/specialize.py): one `static` function per distinct layer shape in the generated code, calling the
kernel's inline body with literal shapes; on the M3 with packed weights where their sums are proven exact
(ops/common/packed.py)."""

from ...targets import packs_weights
from ..common import packed as _packed
from ..common import specialize as s
from ..common.kernel import Kernel, options_of


# Filter rows shorter than this (input channels x filter width) take packed inputs (see _setup).
XPAIR_ROW_TAPS = 16


def _grouped(op, p, a):
    return "grouped convolution" if p["kd"] != p["ic"] else None


def _when(kind):
    def when(op, p, a):
        if kind not in options_of(op).specialize:
            return f"--specialize leaves out {kind}"
        if kind == "conv":
            return _grouped(op, p, a)
        if kind == "fc":
            packs = packs_weights(getattr(op, "target", "host")) and options_of(op).pack
            if p["depth"] > s.FC_MAX_DEPTH and not packs:
                return f"depth {p['depth']} > {s.FC_MAX_DEPTH} (load immediate range)"
        # Deeper ones with packed weights: refused in the set-up if the zero point cannot be folded after all.
        return None

    return when


def _conv_args(p, t, in_c, out_c, in_off):
    """The conv bodies' literal arguments up to the pad fill (in_off None: the packed body, which has none)."""
    args = ["in", p["n"], p["ih"], p["iw"], in_c, "w", p["kh"], p["kw"], "bias", "out", p["oh"], p["ow"], out_c]
    args += [p["sh"], p["sw"], p["dh"], p["dw"], p["pad_t"], p["pad_l"]]
    return args + ([] if in_off is None else [in_off]) + [t["fill"]]


def _setup(kind):
    def setup(op, p, a):
        t = s.requant_tables(p, a.rows, a.bias, a.in_zp)
        filt = op.input(1).data
        # Packed weights (two channels per SMLAL) need the zero point folded into the bias: every tap value is then
        # an int8 value, which is what their exactness bound assumes.
        packed = t["in_off"] == 0 and options_of(op).pack and packs_weights(getattr(op, "target", "host"))
        conv_like = kind == "conv" or (kind == "depthwise" and p["ic"] == 1)
        # Packed inputs (two pixels per SMLAL, int8 weights): the same zero-point condition; runs of at most
        # PACK_SAFE_RUN taps where the whole depth does not meet the lane bound.  Every convolution with `xpair`;
        # with packed weights on, where packed inputs are also the faster form (bench/README.md, "Plain builds"):
        # the 1x1 layers, and those whose filter rows are short (the packed form runs one tap loop per filter row
        # and pixel: a stem's few input channels) unless a large window's gathering (two windows per pair, tap by
        # tap at the borders) is shared by few output channels (micro_speech's 10x8 filter, 8 channels: +21 %);
        # the packed form keeps ResNet-8's 3x3 layers (3 % faster).
        in_c = (p["ic"] if kind == "conv" else 1) if conv_like else 0
        short_rows = conv_like and in_c * p["kw"] < XPAIR_ROW_TAPS
        xpair = options_of(op).xpair or (
            packed
            and conv_like
            and (p["kh"] * p["kw"] == 1 or (short_rows and (p["kh"] * p["kw"] <= 9 or a.rows.shape[0] >= 16)))
        )
        if t["in_off"] == 0 and xpair and packs_weights(getattr(op, "target", "host")) and conv_like:
            args = _conv_args(p, t, in_c, a.rows.shape[0], None)
            args += [_packed.xpair_chunk(a.rows)] + s.requant_args(p, t)
            s.specialize(op, p, "aot_conv2d_s8_xpair_body", args, _packed.xpair_weights(a.rows), t)
            return None
        if packed and conv_like and _packed.lane_bound(a.rows):
            in_c = p["ic"] if kind == "conv" else 1
            args = _conv_args(p, t, in_c, a.rows.shape[0], None) + s.requant_args(p, t)
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
            args = _conv_args(p, t, p["ic"], p["oc"], t["in_off"]) + s.requant_args(p, t)
            s.specialize(op, p, "aot_conv2d_s8_body", args, filt, t)
        elif kind == "depthwise":
            # peel: border rows and columns unrolled one by one (no run-time tap checks), for small filters only:
            # a 10x8 filter's unrolled border windows cost tens of KB.
            args = ["in", p["n"], p["ih"], p["iw"], p["ic"], "w", p["kh"], p["kw"], p["mult_depth"], "bias", "out"]
            args += [p["oh"], p["ow"], p["sh"], p["sw"], p["dh"], p["dw"], p["pad_t"], p["pad_l"]]
            # Bit 1: the inside pixels two by two on packed inputs (one SMLAL for both pixels' taps), on the M3
            # with packed weights or xpair on, where every tap value is an int8 value (zero point in the bias) and
            # a window of at most PACK_SAFE_RUN taps keeps pixel 0's sum inside its lane for any weights.
            dw_pair = (
                t["in_off"] == 0
                and p["mult_depth"] == 1
                and p["kh"] * p["kw"] <= _packed.PACK_SAFE_RUN
                and packs_weights(getattr(op, "target", "host"))
                and (options_of(op).pack or options_of(op).xpair)
            )
            peel = int(p["kh"] * p["kw"] <= s.PEEL_MAX_TAPS) | (2 if dw_pair else 0)
            args += [t["in_off"], t["fill"]] + s.requant_args(p, t) + [peel]
            s.specialize(op, p, "aot_depthwise_conv2d_s8_body", args, filt, t)
        else:
            args = ["in", p["batches"], p["depth"], "w", "bias", "out", p["units"], t["in_off"]] + s.requant_args(p, t)
            s.specialize(op, p, "aot_fully_connected_s8_body", args, filt, t)
        return None

    return setup


def _kernel(name, kind):
    return Kernel(
        name,
        "specialized",
        _setup(kind),
        when=_when(kind),
        emit=s.emit,
        headers=s.header,
        scratch=s.scratch,
        # The packed convolution body takes a fused residual ADD (its `res` and `add` parameters).
        residual=lambda op: op.params["spec"]["body"] in s.RESIDUAL,
        split=s.xpair_split,
    )


CONV = _kernel("aot_conv2d_s8_body", "conv")
DEPTHWISE = _kernel("aot_depthwise_conv2d_s8_body", "depthwise")
FC = _kernel("aot_fully_connected_s8_body", "fc")
