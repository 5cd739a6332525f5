"""Formatting of C literals and constant arrays (deterministic text)."""

import numpy as np

from ..errors import CompileError

INT32_MIN = -(1 << 31)


def int_literal(v) -> str:
    v = int(v)
    if v == INT32_MIN:
        return "(-2147483647 - 1)"  # -2147483648 would be a wider type in C
    return str(v)


class NonFiniteConstant(CompileError):
    """A NaN or infinity where the C needs a float literal. Raised while an operator is emitted; the driver names
    the operator (its weights or attributes hold the value)."""


def float_literal(v) -> str:
    f = np.float32(v)
    if not np.isfinite(f):
        raise NonFiniteConstant(f"the float constant {float(f)} is not finite")
    s = np.format_float_scientific(f, unique=True, trim="0", exp_digits=2)
    return s + "f"


def _float_items(flat: np.ndarray) -> list:
    """float_literal of every element, in one pass: the finiteness check is vectorized and each element is already
    a float32 scalar (large float models have ~10^6 weights; this is most of their code generation time)."""
    f32 = np.asarray(flat, dtype=np.float32)
    bad = ~np.isfinite(f32)
    if bad.any():
        float_literal(f32[bad][0])  # raises NonFiniteConstant with the value
    fmt = np.format_float_scientific
    return [fmt(v, unique=True, trim="0", exp_digits=2) + "f" for v in f32]


def literal(v, ctype: str) -> str:
    return float_literal(v) if ctype == "float" else int_literal(v)


def array_body(values: np.ndarray, ctype: str, per_line: int = None) -> list:
    flat = np.asarray(values).reshape(-1)
    if per_line is None:
        per_line = {"float": 6, "int32_t": 8}.get(ctype, 16)
    if ctype == "float":
        items = _float_items(flat)
    else:
        items = [int_literal(v) for v in flat.tolist()]
    lines = []
    for i in range(0, len(items), per_line):
        lines.append("    " + ", ".join(items[i : i + per_line]) + ",")
    if lines:
        lines[-1] = lines[-1][:-1]
    return lines


def array_definition(qualifiers: str, ctype: str, symbol: str, values: np.ndarray, attributes: str = "") -> list:
    n = max(int(np.asarray(values).size), 1)
    body = array_body(values, ctype) if np.asarray(values).size else ["    0"]
    attributes = f" {attributes}" if attributes else ""
    return [f"{qualifiers}{ctype} {symbol}[{n}]{attributes} = {{"] + body + ["};"]
