"""Format-agnostic byte mutations for the frontend fuzzer: flips, interesting integers, truncation, splicing.

They know nothing about the file format, so they reach what structure-aware mutations cannot: broken offsets,
vtables and length prefixes of a flatbuffer (or of a protobuf, once the ONNX frontend is fuzzed). Every function
takes and returns bytes and draws all its randomness from the `random.Random` it is given, so a run is
reproducible from its seed.
"""

import struct

# Integers that sit on the edges of the checks a parser makes (sign, 16/32-bit limits, "one past", zero).
INTERESTING_32 = (
    0,
    1,
    2,
    3,
    4,
    7,
    8,
    16,
    64,
    127,
    128,
    255,
    256,
    1023,
    4096,
    32767,
    32768,
    65535,
    65536,
    0x7FFFFFFF,
    0x80000000,
    0xFFFFFFFF,
    0xFFFFFFFE,
    0x40000000,
    0x10000000,
)


def flip_bits(rng, data: bytes) -> bytes:
    d = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(d))
        d[i] ^= 1 << rng.randrange(8)
    return bytes(d)


def random_bytes(rng, data: bytes) -> bytes:
    d = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        d[rng.randrange(len(d))] = rng.randrange(256)
    return bytes(d)


def interesting_int(rng, data: bytes) -> bytes:
    """Overwrite an aligned 32-bit word (offsets, lengths, shape entries) with an edge value."""
    d = bytearray(data)
    if len(d) < 8:
        return bytes(d)
    i = rng.randrange(0, len(d) - 4) & ~3
    v = rng.choice(INTERESTING_32)
    if rng.random() < 0.3:
        v = (struct.unpack_from("<I", d, i)[0] + rng.choice((-1, 1, -4, 4, 16, -16))) & 0xFFFFFFFF
    struct.pack_into("<I", d, i, v)
    return bytes(d)


def truncate(rng, data: bytes) -> bytes:
    return data[: rng.randrange(0, len(data))] if data else data


def delete_chunk(rng, data: bytes) -> bytes:
    if len(data) < 16:
        return data
    i = rng.randrange(len(data))
    n = rng.randint(1, min(64, len(data) - i))
    return data[:i] + data[i + n :]


def duplicate_chunk(rng, data: bytes) -> bytes:
    if len(data) < 16:
        return data
    i = rng.randrange(len(data))
    n = rng.randint(1, min(64, len(data) - i))
    j = rng.randrange(len(data))
    return data[:j] + data[i : i + n] + data[j:]


def splice(rng, data: bytes, other: bytes) -> bytes:
    """Head of one input, tail of another: offsets of one file now point into the other's tables."""
    if not data or not other:
        return data
    return data[: rng.randrange(len(data))] + other[rng.randrange(len(other)) :]


MUTATORS = (flip_bits, random_bytes, interesting_int, interesting_int, truncate, delete_chunk, duplicate_chunk)


def mutate_bytes(rng, data: bytes, other: bytes = b"") -> bytes:
    """One random byte-level mutation (splicing with `other` when given)."""
    if other and rng.random() < 0.1:
        return splice(rng, data, other)
    if not data:
        return data
    return rng.choice(MUTATORS)(rng, data)
