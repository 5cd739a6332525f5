"""int8 unary ops as 256-entry tables (ops/common/lut_s8.py): their whole function looked up 16 per gather on
Helium, 4 per word on the DSP cores, bytewise elsewhere; the op's own arithmetic kernel for tensors too small for a
table."""

from ..common.kernel import Kernel, use
from ..common.lut_s8 import LUT_HEADER, LUT_KINDS, emit_table, table_of

# Below this many elements the op keeps its own arithmetic kernel, as the table's 256 bytes of flash would outweigh
# the instructions saved.
LUT_MIN_SIZE = 32


def _when(op, p, a):
    n = p["size"]
    return f"{n} elements, fewer than {LUT_MIN_SIZE} (the 256-byte table is not worth it)" if n < LUT_MIN_SIZE else None


def _setup(op, p, a):
    if "table" not in p:  # ELU's own kernel is already its table
        p["table"] = table_of(p["own_kernel"], p)
    p["table_bytes"] = int(p["table"].nbytes)
    return None


def _table_kernel(name: str, family: str) -> Kernel:
    return Kernel(name, family, _setup, when=_when, emit=emit_table, headers=lambda op: [LUT_HEADER])


MVE = _table_kernel("aot_lut_s8_mve", "mve")
WORD = _table_kernel("aot_lut_s8_word", "dsp")
BYTES = _table_kernel("aot_lut_s8", "portable")


def _own_setup(op, p, a):
    if "table" in p:  # ELU: its own kernel is the bytewise table
        p["table_bytes"] = int(p["table"].nbytes)
        use(op, BYTES)
        return None
    op.kernel = p["own_kernel"]
    return None


# The op's own arithmetic kernel (named by its lowering in params["own_kernel"], emitted by the lowering).
OWN = Kernel("own arithmetic kernel", "portable", _own_setup)

TABLE = {(kind, "int8"): (MVE, WORD, BYTES, OWN) for kind in LUT_KINDS}
