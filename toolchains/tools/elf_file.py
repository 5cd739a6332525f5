"""Minimal reader of little-endian ELF32 files (what arm-none-eabi-ld links): sections and sized symbols.

Parsing the headers directly keeps the size report free of binutils and of their output formats.
"""

import struct
from dataclasses import dataclass

SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 0x1, 0x2, 0x4
SHT_NOBITS = 8
_SHT_SYMTAB = 2


@dataclass(frozen=True)
class Symbol:
    name: str
    size: int
    kind: str  # "text", "rodata", "data" (flash and RAM) or "bss"
    address: int = 0

    @property
    def in_flash(self) -> bool:
        return self.kind != "bss"

    @property
    def in_ram(self) -> bool:
        return self.kind in ("data", "bss")


def _section_headers(data: bytes):
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ValueError("not a little-endian ELF32 file")
    (shoff,) = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2E)
    return [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)], shstrndx


def _cstr(data: bytes, off: int) -> str:
    return data[off : data.index(b"\0", off)].decode(errors="replace")


def section_kind(sh_type: int, sh_flags: int) -> str:
    if sh_flags & SHF_EXECINSTR:
        return "text"
    if sh_flags & SHF_WRITE:
        return "bss" if sh_type == SHT_NOBITS else "data"
    return "rodata"


def read_sections(data: bytes):
    """Yields (name, type, flags, size) of every section."""
    headers, shstrndx = _section_headers(data)
    strtab_off = headers[shstrndx][4]
    for name_off, sh_type, sh_flags, _addr, _off, size, *_ in headers:
        yield _cstr(data, strtab_off + name_off), sh_type, sh_flags, size


@dataclass(frozen=True)
class Section:
    name: str
    address: int  # where it runs (VMA)
    load: int  # where its bytes are stored in the image (LMA; = address unless copied at reset)
    size: int
    nobits: bool


def read_alloc_sections(data: bytes):
    """Every allocated, non-empty section with its run and load address (from the PT_LOAD program headers)."""
    (phoff,) = struct.unpack_from("<I", data, 0x1C)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x2A)
    segments = [struct.unpack_from("<IIIIIIII", data, phoff + i * phentsize) for i in range(phnum)]
    headers, shstrndx = _section_headers(data)
    strtab_off = headers[shstrndx][4]
    for name_off, sh_type, sh_flags, addr, _off, size, *_ in headers:
        if not sh_flags & SHF_ALLOC or size == 0:
            continue
        load = addr
        for p_type, _p_off, vaddr, paddr, filesz, _memsz, *_ in segments:
            if p_type == 1 and sh_type != SHT_NOBITS and vaddr <= addr < vaddr + max(filesz, 1):
                load = paddr + (addr - vaddr)
                break
        yield Section(_cstr(data, strtab_off + name_off), addr, load, size, sh_type == SHT_NOBITS)


def read_symbols(data: bytes):
    """Yields a Symbol for every sized symbol in an allocated section (aliases included: see unique_symbols)."""
    headers, _ = _section_headers(data)
    for h in headers:
        if h[1] != _SHT_SYMTAB:
            continue
        strtab_off = headers[h[6]][4]
        for i in range(h[5] // 16):
            st_name, value, st_size, _info, _other, st_shndx = struct.unpack_from("<IIIBBH", data, h[4] + i * 16)
            if st_size == 0 or st_shndx == 0 or st_shndx >= len(headers):
                continue
            sec = headers[st_shndx]
            if not sec[2] & SHF_ALLOC:
                continue
            # Thumb function addresses carry bit 0; clear it so aliases compare equal.
            yield Symbol(_cstr(data, strtab_off + st_name), st_size, section_kind(sec[1], sec[2]), value & ~1)


def unique_symbols(symbols):
    """One symbol per byte range: aliases (memcpy and __aeabi_memcpy) and entry points inside another function
    (libgcc's float routines) share bytes; the first symbol at the lowest address keeps them."""
    end = -1
    for sym in sorted(symbols, key=lambda s: (s.address, -s.size, s.name.startswith("_"), s.name)):
        if sym.address >= end:
            end = sym.address + sym.size
            yield sym


def read_marker_symbols(data: bytes, prefix: str) -> dict:
    """name -> value of every symbol (sized or not: linker-script symbols have no size) whose name starts with
    `prefix`."""
    headers, _ = _section_headers(data)
    out = {}
    for h in headers:
        if h[1] != _SHT_SYMTAB:
            continue
        strtab_off = headers[h[6]][4]
        for i in range(h[5] // 16):
            st_name, value, *_ = struct.unpack_from("<IIIBBH", data, h[4] + i * 16)
            name = _cstr(data, strtab_off + st_name)
            if name.startswith(prefix):
                out[name] = value
    return out
