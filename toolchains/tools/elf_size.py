"""Size report of a linked firmware ELF: text, rodata, data, bss and stack bytes, flash and RAM totals.

Reads the ELF32 section headers directly (no binutils needed), classifying allocated sections by their flags:
executable → text, writable with contents → data (counted in flash and RAM), writable without contents → bss,
read-only → rodata (model weights live here). The `.heap` and `.stack` reservations of the aot_rules linker script
are reported separately.
"""

import json
import struct
import sys

from absl import app, flags

from compiler.budgets import parse_bytes
from compiler.errors import CompileError

FLAGS = flags.FLAGS
flags.DEFINE_string("elf", None, "Linked ELF file.", required=True)
flags.DEFINE_string("name", "", "Name shown in the report.")
flags.DEFINE_string("board", "", "Board name shown in the report.")
flags.DEFINE_integer("flash_bytes", 0, "Flash size of the board.")
flags.DEFINE_integer("ram_bytes", 0, "RAM size of the board.")
flags.DEFINE_string("json_out", None, "Where to write the JSON report.")
flags.DEFINE_string("text_out", None, "Where to write the human-readable report.")
flags.DEFINE_string("flash_budget", "", "Fail if flash_total exceeds this (e.g. 256K).")
flags.DEFINE_string("ram_budget", "", "Fail if ram_total exceeds this (e.g. 64K).")

_SHF_WRITE, _SHF_ALLOC, _SHF_EXECINSTR = 0x1, 0x2, 0x4
_SHT_NOBITS = 8
_SHT_SYMTAB = 2


def _section_headers(data: bytes):
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ValueError("not a little-endian ELF32 file")
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2E)
    return [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)], shstrndx


def _cstr(data: bytes, off: int) -> str:
    return data[off:data.index(b"\0", off)].decode(errors="replace")


def read_sections(data: bytes):
    """Yields (name, type, flags, size) of every section of a little-endian ELF32 file."""
    headers, shstrndx = _section_headers(data)
    strtab_off = headers[shstrndx][4]
    for name_off, sh_type, sh_flags, _addr, _off, size, *_ in headers:
        yield _cstr(data, strtab_off + name_off), sh_type, sh_flags, size


def read_symbols(data: bytes):
    """Yields (name, size, region) of every sized symbol; region is "flash", "ram" or "both" (.data)."""
    headers, _ = _section_headers(data)
    for h in headers:
        if h[1] != _SHT_SYMTAB:
            continue
        strtab_off = headers[h[6]][4]
        for i in range(h[5] // 16):
            st_name, _value, st_size, _info, _other, st_shndx = struct.unpack_from("<IIIBBH", data, h[4] + i * 16)
            if st_size == 0 or st_shndx == 0 or st_shndx >= len(headers):
                continue
            sec = headers[st_shndx]
            if not sec[2] & _SHF_ALLOC:
                continue
            if sec[2] & _SHF_WRITE:
                region = "ram" if sec[1] == _SHT_NOBITS else "both"
            else:
                region = "flash"
            yield _cstr(data, strtab_off + st_name), st_size, region


def budget_problems(report, symbols, flash_budget: str, ram_budget: str):
    """One message per exceeded budget, naming the budget, the figure and the three largest contributors."""
    problems = []
    for key, budget_text, region in (("flash_total", flash_budget, "flash"), ("ram_total", ram_budget, "ram")):
        if not budget_text:
            continue
        budget = parse_bytes(budget_text, f"{region}_budget")
        if report[key] <= budget:
            continue
        items = [(size, name) for name, size, where in symbols if where in (region, "both")]
        if region == "ram" and report["stack"]:
            items.append((report["stack"], "the stack reservation"))
        top = sorted(items, key=lambda x: (-x[0], x[1]))[:3]
        problems.append(
            f"{report['name']} is over its {region}_budget of {budget} B ({budget_text}): {key} is {report[key]} B. "
            f"Largest contributors: " + "; ".join(f"{name} ({size} B)" for size, name in top) + ".")
    return problems


def classify(sections):
    """Sums section sizes into the report's categories."""
    totals = {"text": 0, "rodata": 0, "data": 0, "bss": 0, "heap": 0, "stack": 0}
    for name, sh_type, sh_flags, size in sections:
        if not sh_flags & _SHF_ALLOC:
            continue
        if name in (".heap", ".stack"):
            totals[name[1:]] += size
        elif sh_flags & _SHF_EXECINSTR:
            totals["text"] += size
        elif sh_flags & _SHF_WRITE:
            totals["bss" if sh_type == _SHT_NOBITS else "data"] += size
        else:
            totals["rodata"] += size
    totals["flash_total"] = totals["text"] + totals["rodata"] + totals["data"]
    totals["ram_total"] = totals["data"] + totals["bss"] + totals["stack"]
    return totals


def render(report):
    """The human-readable table."""
    lines = [f"{report['name']} on {report['board']}"]
    for key in ("text", "rodata", "data", "bss", "stack", "heap"):
        lines.append(f"  {key:<12}{report[key]:>10} B")
    for key, cap in (("flash_total", "flash_bytes"), ("ram_total", "ram_bytes")):
        pct = f"  ({100.0 * report[key] / report[cap]:.1f} % of {report[cap]} B)" if report[cap] else ""
        lines.append(f"  {key:<12}{report[key]:>10} B{pct}")
    lines.append("  (flash = text + rodata + data load image; RAM = data + bss + stack; heap = rest of RAM)")
    return "\n".join(lines) + "\n"


def main(argv):
    del argv
    with open(FLAGS.elf, "rb") as f:
        data = f.read()
    try:
        report = classify(read_sections(data))
    except (ValueError, struct.error, IndexError) as e:
        sys.exit(f"elf_size: {FLAGS.elf}: {e}")
    report.update(name=FLAGS.name, board=FLAGS.board, flash_bytes=FLAGS.flash_bytes, ram_bytes=FLAGS.ram_bytes)
    if FLAGS.json_out:
        with open(FLAGS.json_out, "w") as f:
            json.dump(report, f, indent=2, sort_keys=True)
            f.write("\n")
    text = render(report)
    if FLAGS.text_out:
        with open(FLAGS.text_out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    try:
        problems = budget_problems(report, list(read_symbols(data)), FLAGS.flash_budget, FLAGS.ram_budget)
    except CompileError as e:
        sys.exit(f"aot_firmware: {e}")
    if problems:
        # The report is an output of every firmware build, so an exceeded budget fails `bazel build`.
        sys.exit("aot_firmware: " + "\n".join(problems))


if __name__ == "__main__":
    app.run(main)
