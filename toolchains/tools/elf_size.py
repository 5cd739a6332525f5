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

FLAGS = flags.FLAGS
flags.DEFINE_string("elf", None, "Linked ELF file.", required=True)
flags.DEFINE_string("name", "", "Name shown in the report.")
flags.DEFINE_string("board", "", "Board name shown in the report.")
flags.DEFINE_integer("flash_bytes", 0, "Flash size of the board.")
flags.DEFINE_integer("ram_bytes", 0, "RAM size of the board.")
flags.DEFINE_string("json_out", None, "Where to write the JSON report.")
flags.DEFINE_string("text_out", None, "Where to write the human-readable report.")

_SHF_WRITE, _SHF_ALLOC, _SHF_EXECINSTR = 0x1, 0x2, 0x4
_SHT_NOBITS = 8


def read_sections(data: bytes):
    """Yields (name, type, flags, size) of every section of a little-endian ELF32 file."""
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ValueError("not a little-endian ELF32 file")
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2E)
    headers = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    strtab_off = headers[shstrndx][4]
    for name_off, sh_type, sh_flags, _addr, _off, size, *_ in headers:
        end = data.index(b"\0", strtab_off + name_off)
        yield data[strtab_off + name_off:end].decode(), sh_type, sh_flags, size


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


if __name__ == "__main__":
    app.run(main)
