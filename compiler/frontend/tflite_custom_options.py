"""Custom options of TFLite CUSTOM operators, decoded into a plain dict at compile time.

A CUSTOM operator carries its parameters as raw bytes (`custom_options`).  TFLite Micro's signal operators
(SignalWindow, SignalRfft, ...) write them as a FlexBuffer map, which the flatbuffers package can read; the
lowerings (ops/signal_*.py) then turn the values they need into compile-time constants, so nothing of the
FlexBuffer reaches the generated C.  Options that are not a FlexBuffer map stay available as raw bytes.
"""

from flatbuffers import flexbuffers

from ..errors import CompileError


def decode_custom_options(op) -> dict:
    """{"custom": {name: value}} for a FlexBuffer map (empty if there are no options), plus the raw bytes under
    "custom_bytes"; the map is None when the bytes are not one."""
    raw = op.CustomOptionsAsNumpy().tobytes() if op.CustomOptionsLength() else b""
    if not raw:
        return {"custom": {}, "custom_bytes": raw}
    try:
        value = flexbuffers.Loads(raw)
    except Exception:  # noqa: BLE001 -- any decoding failure means "not a FlexBuffer"; lowerings refuse it
        value = None
    return {"custom": value if isinstance(value, dict) else None, "custom_bytes": raw}


def custom_option(op, name: str, kinds=(int,)):
    """One named value of a CUSTOM operator's FlexBuffer options, or a CompileError naming op and field."""
    opts = op.options.get("custom")
    value = None if opts is None else opts.get(name)
    # bool is an int subclass in Python: a flag is no integer parameter, and the reverse.
    if value is None or not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise CompileError(
            f"Operator {op.index} ({op.kind}) has no valid custom option '{name}' (its custom options must be a "
            f"FlexBuffer map holding '{name}' as {' or '.join(k.__name__ for k in kinds)}, as TFLite Micro's "
            "signal library writes them). The model file is malformed."
        )
    return value
