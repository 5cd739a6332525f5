"""The int8 element-wise binary kernels: ADD / SUB / MUL / SQUARED_DIFFERENCE in their short exact arithmetic
(ops/common/*_s8_fast.py) over same-shape operands or the common broadcasts (a row repeated, one value per row:
params["rows"], ops/common/checks.rows_form), and same-shape MAXIMUM / MINIMUM in words or vectors.  Any other
broadcast, or scales the short arithmetic is not exact for, take the op's generic 4-D walker, which its lowering
calls."""

from ..common import add_s8_fast, mul_s8_fast, sqd_s8_fast
from ..common.kernel import Kernel


def _short_exact(op, p, a):
    if p["short"] is None:
        # (The reason text is part of the manifest; its old path name is kept so the reports stay byte-identical.)
        return "the short arithmetic is not exact for these scales (compiler/ops/common/*_s8_fast.py)"
    return None


def _rows_when(op, p, a):
    return None if p["rows"] is not None else "operands broadcast along more than one run of dimensions"


def _same_shape(op, p, a):
    return p["rows"] is not None and p["rows"]["rows"] == 1 and p["rows"]["mode"] == 0


def _rows_call(struct):
    """emit of a row kernel: the operands, the row form and the short arithmetic's parameter struct."""

    def emit(op, ctx):
        r, params = op.params["rows"], struct(op, ctx)
        args = [ctx.ptr(op.input(0)), ctx.ptr(op.input(1)), ctx.ptr(op.output)]
        return [ctx.call(op.kernel, args + [r["rows"], r["cols"], r["step1"], r["step2"], r["mode"], params])]

    return emit


def _add_struct(op, ctx):
    return add_s8_fast.short_add_struct(ctx, f"op{op.index}_params", op.params["short"])


def _mul_struct(op, ctx):
    f = mul_s8_fast
    return ctx.param_struct(f"op{op.index}_params", "aot_mul_s8_params", f.FIELDS, f.values(op.params["short"]))


def _sqd_struct(op, ctx):
    f = sqd_s8_fast
    return ctx.param_struct(
        f"op{op.index}_sqd", "aot_squared_difference_s8_params", f.FIELDS, f.values(op.params["short"])
    )


def _emit_flat_add(op, ctx):
    params = _add_struct(op, ctx)
    args = [ctx.ptr(op.input(0)), ctx.ptr(op.input(1)), ctx.ptr(op.output), op.output.num_elements]
    return [ctx.call(op.kernel, args + [params])]


def _add_sub(prefix: str) -> tuple:
    rows = _rows_call(_add_struct)
    return (
        Kernel(f"{prefix}_s8_rows_mve", "mve", _short_exact, when=_rows_when, emit=rows),
        Kernel(f"{prefix}_s8_elementwise", "portable", _short_exact, serves=_same_shape, emit=_emit_flat_add),
        Kernel(f"{prefix}_s8_rows", "portable", _short_exact, when=_rows_when, emit=rows),
        Kernel(f"{prefix}_s8", "portable"),
    )


def _same_shape_inputs(op, p, a):
    return op.input(0).num_elements == op.input(1).num_elements == op.output.num_elements


def _emit_minmax_flat(op, ctx):
    args = [op.params["code"], ctx.ptr(op.input(0)), ctx.ptr(op.input(1)), ctx.ptr(op.output)]
    return [ctx.call(op.kernel, args + [op.output.num_elements])]


TABLE = {
    ("ADD", "int8"): _add_sub("aot_add"),
    ("SUB", "int8"): _add_sub("aot_sub"),
    # The short requantization (ops/common/mul_s8_fast.py) in the row form: SMMLAR on the DSP cores, VRMULH on
    # Helium.
    ("MUL", "int8"): (
        Kernel("aot_mul_s8_rows_mve", "mve", _short_exact, when=_rows_when, emit=_rows_call(_mul_struct)),
        Kernel("aot_mul_s8_rows", "dsp", _short_exact, when=_rows_when, emit=_rows_call(_mul_struct)),
        Kernel("aot_mul_s8", "portable"),
    ),
    ("SQUARED_DIFFERENCE", "int8"): (
        Kernel(
            "aot_squared_difference_s8_rows_mve", "mve", _short_exact, when=_rows_when, emit=_rows_call(_sqd_struct)
        ),
        Kernel("aot_squared_difference_s8_rows", "dsp", _short_exact, when=_rows_when, emit=_rows_call(_sqd_struct)),
        Kernel("aot_squared_difference_s8", "portable"),
    ),
    # Same-shape int8 MAXIMUM / MINIMUM: whole words (SSUB8 + SEL) or vectors (VMAX / VMIN); broadcasts walk.
    **{
        (kind, "int8"): (
            Kernel("aot_minmax_s8_flat_mve", "mve", serves=_same_shape_inputs, emit=_emit_minmax_flat),
            Kernel("aot_minmax_s8_flat_dsp", "dsp", serves=_same_shape_inputs, emit=_emit_minmax_flat),
            Kernel("aot_minmax_s8", "portable"),
        )
        for kind in ("MAXIMUM", "MINIMUM")
    },
}
