"""Weights as an updatable blob (`aotc compile --weights blob`): the model's constants leave the C for
`<prefix>_weights.bin`, which the application binds at run time with `<prefix>_bind_weights(blob, size)`.

Everything a kernel reads as data goes into the blob: the weights and biases, and every parameter table derived
from the quantization (per-channel multipliers and shifts, folded biases, lookup tables, parameter structs), so
a retrained model of the same architecture brings its own.  What stays in the code (shapes, kernel choice, scalar
zero points and activation ranges, the blob's offsets) is the architecture: its hash is the SHA-256 of the
generated header and runner with comments removed, so two models share a hash exactly when their code is the same
and the one firmware is right for both.  <prefix>_bind_weights refuses a blob of another hash
(crt/include/aot/weights_blob.h has the layout and the checks, aot/errors.h the codes).
"""

import hashlib
import re
import struct
import zlib

import numpy as np

MAGIC = 0x57544F41  # "AOTW" little-endian
FORMAT_VERSION = 1
HEADER_SIZE = 32
HASH_SIZE = 16
ALIGN = 16
# Bumped whenever a kernel reads a constant in another layout for the same generated call: the hash then changes
# even though the generated code does not.
LAYOUT_VERSION = 1

_NP = {
    "int8_t": "<i1",
    "uint8_t": "<u1",
    "int16_t": "<i2",
    "uint16_t": "<u2",
    "int32_t": "<i4",
    "uint32_t": "<u4",
    "float": "<f4",
}


def blob_pointer(prefix: str) -> str:
    return f"{prefix}_weights_blob"


def blob_ref(prefix: str, ctype: str, offset: int) -> str:
    """A typed pointer to the constant at `offset` of the bound blob (no copy: the kernels read the blob)."""
    base = f"({blob_pointer(prefix)} + {offset}u)"
    if ctype in ("int8_t", "uint8_t"):
        return f"((const {ctype}*){base})"
    # Through void*, as the workspace views (codegen/emit_context._view): every entry is 16-byte aligned in a
    # blob that _bind_weights checked is 16-byte aligned.
    return f"((const {ctype}*)(const void*){base})"


class BlobLayout:
    """The payload, in the order the constants are created; each entry 16-byte aligned."""

    def __init__(self):
        self.parts = []  # (offset from the blob's start, bytes)
        self.end = HEADER_SIZE

    def add(self, data: bytes) -> int:
        offset = (self.end + ALIGN - 1) // ALIGN * ALIGN
        self.parts.append((offset, data))
        self.end = offset + max(len(data), 1)
        return offset

    def add_array(self, ctype: str, values) -> int:
        return self.add(np.ascontiguousarray(np.asarray(values).astype(_NP[ctype]).reshape(-1)).tobytes())

    def add_int32s(self, values) -> int:
        return self.add(struct.pack(f"<{len(values)}i", *values))

    @property
    def size(self) -> int:
        return (self.end + ALIGN - 1) // ALIGN * ALIGN

    def payload(self) -> bytes:
        out = bytearray(self.size - HEADER_SIZE)
        for offset, data in self.parts:
            out[offset - HEADER_SIZE : offset - HEADER_SIZE + len(data)] = data
        return bytes(out)


def _code_only(text: str) -> str:
    # Comments carry the model's file and tensor names, which may differ between two trainings of one architecture.
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.rstrip() for line in text.split("\n") if line.strip())


def arch_hash(header: str, runner: str) -> bytes:
    h = hashlib.sha256(f"aot weights blob layout {LAYOUT_VERSION}\n".encode())
    for text in (header, runner):
        h.update(_code_only(text).encode())
        h.update(b"\0")
    return h.digest()[:HASH_SIZE]


HASH_PLACEHOLDER = b"\0" * HASH_SIZE


def blob_bytes(layout: BlobLayout, hash16: bytes) -> bytes:
    payload = layout.payload()
    header = struct.pack("<II16sII", MAGIC, FORMAT_VERSION, hash16, layout.size, zlib.crc32(payload) & 0xFFFFFFFF)
    return header + payload


def hash_initializer(hash16: bytes) -> str:
    return ", ".join(f"0x{b:02x}u" for b in hash16)


def render_bind(prefix: str, hash16: bytes) -> list:
    """The runner's blob pointer, architecture hash and <prefix>_bind_weights()."""
    P, ptr = prefix.upper(), blob_pointer(prefix)
    return [
        "/* The architecture this code was generated for (codegen/weights_blob.py); a blob must carry the same. */",
        f"static const uint8_t {prefix}_arch_hash[AOT_WEIGHTS_BLOB_HASH_SIZE] = {{{hash_initializer(hash16)}}};",
        "",
        f"static const uint8_t* {ptr} = NULL;",
        "",
        f"int32_t {prefix}_bind_weights(const void* blob, size_t size)",
        "{",
        "    int32_t rc;",
        f"    {ptr} = NULL;",
        # Alignment first (a NULL blob passes it and aot_weights_blob_check refuses it with AOT_ERR_NULL_ARG);
        # aot_is_aligned (aot/align.h) holds the pointer-to-integer conversion, so the generated code makes none.
        f"    if (!aot_is_aligned(blob, {P}_WEIGHTS_BLOB_ALIGN)) {{",
        "        rc = AOT_ERR_BLOB_ALIGN;",
        "    } else {",
        f"        rc = aot_weights_blob_check(blob, size, {prefix}_arch_hash, {P}_WEIGHTS_BLOB_SIZE);",
        "    }",
        "    if (rc == AOT_OK) {",
        f"        {ptr} = (const uint8_t*)blob;",
        "    }",
        "    return rc;",
        "}",
        "",
    ]


def render_header_api(prefix: str, blob_size: int) -> list:
    P = prefix.upper()
    return [
        f"/* Weights blob: {prefix}_run() reads its constants from the blob bound last, without copying them.",
        f" * {prefix}_bind_weights() checks a blob ({prefix}_weights.bin or one made by aot_weights_blob / aotc blob",
        " * for a model of the same architecture) and binds it; it must stay in place and unchanged while bound.",
        " * Returns AOT_OK, or AOT_ERR_NULL_ARG / AOT_ERR_BLOB_ALIGN (not 16-byte aligned) / AOT_ERR_BLOB_TRUNCATED",
        " * / AOT_ERR_BLOB_MAGIC / AOT_ERR_BLOB_VERSION / AOT_ERR_BLOB_ARCH / AOT_ERR_BLOB_CRC (aot/errors.h),",
        f" * and then unbinds: {prefix}_run() returns AOT_ERR_WEIGHTS_UNBOUND until a bind succeeds. */",
        f"#define {P}_WEIGHTS_BLOB_SIZE {blob_size}u",
        f"#define {P}_WEIGHTS_BLOB_ALIGN 16u",
        f"int32_t {prefix}_bind_weights(const void* blob, size_t size);",
        "",
    ]
