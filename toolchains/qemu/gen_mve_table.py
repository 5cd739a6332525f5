"""Writes cycle_mve_table.inc, the timing model's table of MVE (Helium) encodings, from GNU as.

Every MVE instruction form the model prices (SPEC: its class, then assembler templates) is assembled by
arm-none-eabi-as with random registers, sizes and immediates; the bits that stay the same across a form's variants
are its mask and value. The forms are then merged where that keeps every sample classified as its own class, and
written most specific first (the plugin takes the first match). Deterministic (fixed seed) for a given binutils.
Vector loads and stores are not in it: cycle_model.c decodes their space (LDC/STC-like, coprocessors 14 and 15) by
hand, and cycle_model_test checks it.

    python3 toolchains/qemu/gen_mve_table.py    # rewrites toolchains/qemu/cycle_mve_table.inc
"""

import os
import random
import subprocess
import tempfile

random.seed(1)
Q = [f"q{i}" for i in range(8)]
R = [f"r{i}" for i in range(13)]
RE = [f"r{i}" for i in range(0, 13, 2)]
RO = [f"r{i}" for i in range(1, 13, 2)]
# class: assembler templates ({q} {r} a register, {re}/{ro} even/odd, {su} s or u, {sz} a size, {i..} immediates)
SPEC = {
    "mve_mac": [
        "vmladav{a}{x}.s{s16} {re}, {q}, {q}",
        "vmladav{a}.{su}8 {re}, {q}, {q}",
        "vmladav{a}.{su}32 {re}, {q}, {q}",
        "vmlav{a}.{su}8 {re}, {q}, {q}",
        "vmlav{a}.{su}16 {re}, {q}, {q}",
        "vmlav{a}.{su}32 {re}, {q}, {q}",
        "vmlsdav{a}{x}.s8 {re}, {q}, {q}",
        "vmlsdav{a}{x}.s16 {re}, {q}, {q}",
        "vmlaldav{a}{x}.s16 {re}, {ro}, {q}, {q}",
        "vmlaldav{a}.{su}32 {re}, {ro}, {q}, {q}",
        "vmlalv{a}.{su}16 {re}, {ro}, {q}, {q}",
        "vrmlaldavh{a}.{su}32 {re}, {ro}, {q}, {q}",
        "vmla.{su}{sz} {q}, {q}, {r}",
        "vmlas.{su}{sz} {q}, {q}, {r}",
        "vmul.i{sz} {q}, {q}, {q}",
        "vmul.i{sz} {q}, {q}, {r}",
        "vqdmulh.s{sz} {q}, {q}, {q}",
        "vqdmulh.s{sz} {q}, {q}, {r}",
        "vqrdmulh.s{sz} {q}, {q}, {q}",
        "vqrdmulh.s{sz} {q}, {q}, {r}",
        "vmulh.{su}{sz} {q}, {q}, {q}",
        "vrmulh.{su}{sz} {q}, {q}, {q}",
        "vmullb.{su}{sz16} {q}, {q}, {q}",
        "vmullt.{su}{sz16} {q}, {q}, {q}",
        "vqdmladh.s{sz} {q}, {q}, {q}",
        "vqrdmladh.s{sz} {q}, {q}, {q}",
    ],
    "mve_fp": [
        "vfma.f32 {q}, {q}, {q}",
        "vfms.f32 {q}, {q}, {q}",
        "vadd.f32 {q}, {q}, {q}",
        "vsub.f32 {q}, {q}, {q}",
        "vmul.f32 {q}, {q}, {q}",
        "vmul.f32 {q}, {q}, {r}",
        "vadd.f32 {q}, {q}, {r}",
        "vfma.f32 {q}, {q}, {r}",
        "vmaxnm.f32 {q}, {q}, {q}",
        "vminnm.f32 {q}, {q}, {q}",
        "vabs.f32 {q}, {q}",
        "vneg.f32 {q}, {q}",
        "vcvt.f32.s32 {q}, {q}",
        "vcvt.s32.f32 {q}, {q}",
        "vfmas.f32 {q}, {q}, {r}",
        "vsub.f32 {q}, {q}, {r}",
        "vfma.f16 {q}, {q}, {q}",
        "vadd.f16 {q}, {q}, {q}",
        "vmul.f16 {q}, {q}, {q}",
    ],
    "mve_alu": [
        "vadd.i{sz} {q}, {q}, {q}",
        "vadd.i{sz} {q}, {q}, {r}",
        "vsub.i{sz} {q}, {q}, {q}",
        "vsub.i{sz} {q}, {q}, {r}",
        "vqadd.{su}{sz} {q}, {q}, {q}",
        "vqadd.{su}{sz} {q}, {q}, {r}",
        "vqsub.{su}{sz} {q}, {q}, {q}",
        "vqsub.{su}{sz} {q}, {q}, {r}",
        "vhadd.{su}{sz} {q}, {q}, {q}",
        "vrhadd.{su}{sz} {q}, {q}, {q}",
        "vhsub.{su}{sz} {q}, {q}, {q}",
        "vmax.{su}{sz} {q}, {q}, {q}",
        "vmin.{su}{sz} {q}, {q}, {q}",
        "vabd.{su}{sz} {q}, {q}, {q}",
        "vmaxv.{su}{sz} {r}, {q}",
        "vminv.{su}{sz} {r}, {q}",
        "vaddv{a}.{su}{sz} {re}, {q}",
        "vaddlv{a}.{su}32 {re}, {ro}, {q}",
        "vshl.{su}{sz} {q}, {q}, {q}",
        "vshl.{su}{sz} {q}, {r}",
        "vrshl.{su}{sz} {q}, {q}, {q}",
        "vrshl.{su}{sz} {q}, {r}",
        "vqshl.{su}{sz} {q}, {r}",
        "vqrshl.{su}{sz} {q}, {r}",
        "vqrshl.{su}{sz} {q}, {q}, {q}",
        "vshr.{su}32 {q}, {q}, #{i31}",
        "vshr.{su}16 {q}, {q}, #{i15}",
        "vshr.{su}8 {q}, {q}, #{i7}",
        "vrshr.{su}32 {q}, {q}, #{i31}",
        "vrshr.{su}8 {q}, {q}, #{i7}",
        "vshl.i32 {q}, {q}, #{i31}",
        "vshl.i8 {q}, {q}, #{i7}",
        "vqshrnb.{su}32 {q}, {q}, #{i15}",
        "vqrshrnb.{su}32 {q}, {q}, #{i15}",
        "vqshrnt.{su}16 {q}, {q}, #{i7}",
        "vqrshrnt.{su}16 {q}, {q}, #{i7}",
        "vshrnb.i32 {q}, {q}, #{i15}",
        "vrshrnb.i16 {q}, {q}, #{i7}",
        "vshllb.{su}8 {q}, {q}, #{i7}",
        "vshllt.{su}8 {q}, {q}, #{i7}",
        "vshllb.{su}16 {q}, {q}, #{i15}",
        "vshllt.{su}16 {q}, {q}, #{i15}",
        "vmovlb.{su}{sz16} {q}, {q}",
        "vmovlt.{su}{sz16} {q}, {q}",
        "vmovnb.i{n32} {q}, {q}",
        "vmovnt.i{n32} {q}, {q}",
        "vqmovnb.{su}{n32} {q}, {q}",
        "vqmovnt.{su}{n32} {q}, {q}",
        "vqmovunb.s{n32} {q}, {q}",
        "vqmovunt.s{n32} {q}, {q}",
        "vand {q}, {q}, {q}",
        "vorr {q}, {q}, {q}",
        "veor {q}, {q}, {q}",
        "vbic {q}, {q}, {q}",
        "vorn {q}, {q}, {q}",
        "vmvn {q}, {q}",
        "vmov {q}, {q}",
        "vmov.i32 {q}, #{i255}",
        "vmov.i8 {q}, #{i255}",
        "vmov.i16 {q}, #{i255}",
        "vmvn.i32 {q}, #{i255}",
        "vbic.i32 {q}, #{i255}",
        "vorr.i32 {q}, #{i255}",
        "vdup.{sz} {q}, {r}",
        "vabs.s{sz} {q}, {q}",
        "vneg.s{sz} {q}, {q}",
        "vqabs.s{sz} {q}, {q}",
        "vqneg.s{sz} {q}, {q}",
        "vclz.i{sz} {q}, {q}",
        "vrev64.{sz} {q}, {q}",
        "vrev32.8 {q}, {q}",
        "vrev16.8 {q}, {q}",
        "vpsel {q}, {q}, {q}",
        "vcmp.s{sz} {scond}, {q}, {q}",
        "vcmp.i{sz} {icond}, {q}, {q}",
        "vcmp.s{sz} {scond}, {q}, {r}",
        "vcmp.u{sz} {ucond}, {q}, {q}",
        "vcmp.u{sz} {ucond}, {q}, {r}",
        "vcmp.i{sz} {icond}, {q}, {r}",
        "vcmp.f32 {scond}, {q}, {q}",
        "vcmp.f32 {scond}, {q}, {r}",
        "vidup.u{sz} {q}, {re}, #{step}",
        "vddup.u{sz} {q}, {re}, #{step}",
        "vqshl.{su}{sz} {q}, {q}, #{i7}",
        "vqshlu.s{sz} {q}, {q}, #{i7}",
        "vqrshrunb.s32 {q}, {q}, #{i15}",
        "vqshrunt.s16 {q}, {q}, #{i7}",
        "vmaxa.s{sz} {q}, {q}",
        "vmina.s{sz} {q}, {q}",
        "vmaxav.s{sz} {r}, {q}",
        "vminav.s{sz} {r}, {q}",
        "vadc.i32 {q}, {q}, {q}",
        "vsbc.i32 {q}, {q}, {q}",
        "vhcadd.s{sz} {q}, {q}, {q}, #90",
        "vcadd.i{sz} {q}, {q}, {q}, #90",
        "vbrsr.{sz} {q}, {q}, {r}",
        "vshlc {q}, {r}, #{i31}",
        "vsli.32 {q}, {q}, #{i31}",
        "vsri.32 {q}, {q}, #{i31}",
        "vcls.s{sz} {q}, {q}",
        "vpt.s{sz} gt, {q}, {q}",
        "vpt.i{sz} eq, {q}, {r}",
        "vptt.s{sz} ge, {q}, {q}",
        "vpte.u{sz} hi, {q}, {q}",
    ],
    "mve_lane": [
        "vmov.32 {q}[{l4}], {r}",
        "vmov.32 {r}, {q}[{l4}]",
        "vmov.u8 {r}, {q}[{l16}]",
        "vmov.s16 {r}, {q}[{l8}]",
        "vmov.8 {q}[{l16}], {r}",
        "vmov {r}, {r}, {q}[2], {q}[0]",
        "vmov {q}[2], {q}[0], {r}, {r}",
    ],
    "mve_pred": [
        "vpst",
        "vpstt",
        "vpste",
        "vpsttt",
        "vpstte",
        "vpstet",
        "vpstee",
        "vpstttt",
        "vpsttte",
        "vpsttet",
        "vpsttee",
        "vpstett",
        "vpstete",
        "vpsteet",
        "vpsteee",
    ],
}


def fill(t):
    """One variant of template t: every placeholder replaced by a random choice."""
    out = t

    def pick(pool):
        return random.choice(pool)

    rep = {
        "{a}": lambda: random.choice(["", "a"]),
        "{x}": lambda: random.choice(["", "x"]),
        "{su}": lambda: random.choice("su"),
        "{sz}": lambda: random.choice(["8", "16", "32"]),
        "{sz16}": lambda: random.choice(["8", "16"]),
        "{n32}": lambda: random.choice(["16", "32"]),
        "{s16}": lambda: "16",
        "{i31}": lambda: str(random.randint(1, 31)),
        "{i15}": lambda: str(random.randint(1, 15)),
        "{i7}": lambda: str(random.randint(1, 7)),
        "{b7}": lambda: str(random.randint(0, 127)),
        "{i7x2}": lambda: str(2 * random.randint(0, 127)),
        "{i7x4}": lambda: str(4 * random.randint(0, 127)),
        "{i255}": lambda: str(random.choice([0, 1, 7, 255, 128])),
        "{scond}": lambda: random.choice(["eq", "ne", "ge", "lt", "gt", "le"]),
        "{ucond}": lambda: random.choice(["eq", "ne", "cs", "hi"]),
        "{icond}": lambda: random.choice(["eq", "ne"]),
        "{step}": lambda: random.choice(["1", "2", "4", "8"]),
        "{l4}": lambda: str(random.randint(0, 3)),
        "{l8}": lambda: str(random.randint(0, 7)),
        "{l16}": lambda: str(random.randint(0, 15)),
        "{q}": lambda: pick(Q),
        "{r}": lambda: pick(R),
        "{re}": lambda: pick(RE),
        "{ro}": lambda: pick(RO),
    }
    qa, qb = random.sample(Q, 2)
    qp = random.choice([0, 2, 4, 6])
    q4 = random.choice([0, 4])
    out = (
        out.replace("{qa}", qa)
        .replace("{qb}", qb)
        .replace("{{{qp}}}", "{" + f"q{qp}, q{qp + 1}" + "}")
        .replace("{{{q4}}}", "{" + ",".join(f"q{q4 + i}" for i in range(4)) + "}")
    )
    while "{" in out and any(k in out for k in rep):
        for k, f in rep.items():
            if k in out:
                out = out.replace(k, f(), 1)
    return out


def encode(line):
    """The 32-bit encoding of one instruction (hw1 << 16 | hw2), or None if GNU as rejects it."""
    with tempfile.TemporaryDirectory() as d:
        src, obj, raw = (os.path.join(d, n) for n in ("a.s", "a.o", "a.bin"))
        with open(src, "w") as f:
            f.write(".syntax unified\n.thumb\n" + line + "\n")
        march = "-march=armv8.1-m.main+mve.fp+fp.dp"
        if subprocess.run(
            ["arm-none-eabi-as", march, "-mfloat-abi=hard", src, "-o", obj], capture_output=True
        ).returncode:
            return None
        subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", "-j", ".text", obj, raw], check=True)
        with open(raw, "rb") as f:
            b = f.read()
    return (b[0] | b[1] << 8) << 16 | (b[2] | b[3] << 8) if len(b) == 4 else None


def order(entries):
    return sorted(set(entries), key=lambda x: (-bin(x[0]).count("1"), x[1]))


def first_match(entries, e):
    return next((c for m, v, c in entries if e & m == v), None)


def main():
    samples, entries = [], []
    for cls, templates in SPEC.items():
        for t in templates:
            encs = [e for e in (encode(fill(t)) for _ in range(24)) if e is not None]
            if not encs:
                raise SystemExit(f"gen_mve_table: GNU as rejects every variant of {t!r}")
            mask = 0xFFFFFFFF
            for e in encs:
                mask &= ~(e ^ encs[0]) & 0xFFFFFFFF
            entries.append((mask, encs[0] & mask, cls))
            samples += [(e, cls) for e in encs]

    def classifies_all(E):
        E = order(E)
        return all(first_match(E, e) == cls for e, cls in samples)

    entries = order(entries)
    assert classifies_all(entries), "two forms of different classes share their fixed bits"
    changed = True
    while changed:  # merge forms of one class that differ in one bit, drop forms another subsumes
        changed = False
        for i, a in enumerate(entries):
            for b in entries[i + 1 :]:
                if a[2] != b[2]:
                    continue
                if (a[1] & b[0]) == b[1] and (a[0] & b[0]) == b[0]:
                    trial = [x for x in entries if x != a]
                elif a[0] == b[0] and bin(a[1] ^ b[1]).count("1") == 1:
                    d = a[1] ^ b[1]
                    trial = [x for x in entries if x not in (a, b)] + [(a[0] & ~d, a[1] & ~d, a[2])]
                else:
                    continue
                if classifies_all(trial):
                    entries, changed = order(trial), True
                    break
            if changed:
                break
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cycle_mve_table.inc")
    with open(out, "w") as f:
        f.write(
            "/* Generated by toolchains/qemu/gen_mve_table.py from GNU as encodings: do not edit. {mask, value,\n"
            " * class} of every MVE instruction form the timing model prices, most specific first; the first match\n"
            " * wins. */\n"
        )
        for m, v, c in entries:
            f.write(f"    {{0x{m:08x}u, 0x{v:08x}u, CY_{c.upper()}}},\n")
    print(f"gen_mve_table: {len(entries)} entries from {len(samples)} encodings -> {out}")


if __name__ == "__main__":
    main()
