"""The ARG_MAX / ARG_MIN kernels, keyed by the int32 output: int8 inputs reduced over their last axis take the
word (SSUB8 + SEL) or vector kernels, everything else the portable walker over (outer, size, inner)."""

from ..common.kernel import Kernel, use


def _last_s8(op, p, a):
    return p["in_dtype"] == "int8" and p["inner"] == 1


def _emit_last(op, ctx) -> list:
    p = op.params
    return [ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["outer"], p["size"], p["is_max"]])]


def _portable_setup(op, p, a):
    if p["in_dtype"] == "float32":
        use(op, PORTABLE_F32)
    return None


# Called by the lowering with (outer, size, inner).
PORTABLE_F32 = Kernel("aot_arg_minmax_f32", "portable")

TABLE = {
    (kind, "int32"): (
        Kernel("aot_arg_minmax_s8_last_mve", "mve", serves=_last_s8, emit=_emit_last),
        Kernel(
            "aot_arg_minmax_s8_last_dsp",
            "dsp",
            when=lambda op, p, a: f"axis of {p['size']} < 4 values (one word)" if p["size"] < 4 else None,
            serves=_last_s8,
            emit=_emit_last,
        ),
        Kernel("aot_arg_minmax_s8", "portable", _portable_setup),
    )
    for kind in ("ARG_MAX", "ARG_MIN")
}
