"""The timing model's classifier on known encodings: instructions assembled by arm-none-eabi-as, classified by
cycle_classify (the plugin's own cycle_model.c), checked against the class and cycles the model's tables give them
(cycle_model.c's header comment: Cortex-M4 TRM table 3-1 and its load/store pipelining rules; the M55's dual-beat
MVE execution with overlap of vector instructions of different groups and the low-overhead-loop cache)."""

import argparse
import os
import subprocess
import sys
import tempfile
import unittest

ARGS = None


def encodings(asm: str, march: str) -> list:
    """The instructions of `asm` as cycle_classify arguments ('4770', 'f8d10004'), in order."""
    with tempfile.TemporaryDirectory(prefix="aot-cycles-") as tmp:
        src, obj, raw = (os.path.join(tmp, n) for n in ("a.s", "a.o", "a.bin"))
        with open(src, "w") as f:
            f.write(".syntax unified\n.thumb\n" + asm.strip() + "\n")
        subprocess.run(["arm-none-eabi-as", f"-march={march}", "-mfloat-abi=hard", src, "-o", obj], check=True)
        subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", "-j", ".text", obj, raw], check=True)
        with open(raw, "rb") as f:
            data = f.read()
    out, i = [], 0
    while i < len(data):
        hw1 = data[i] | data[i + 1] << 8
        if hw1 >> 11 in (0x1D, 0x1E, 0x1F):  # a 32-bit Thumb-2 instruction
            out.append(f"{hw1:04x}{data[i + 2] | data[i + 3] << 8:04x}")
            i += 4
        else:
            out.append(f"{hw1:04x}")
            i += 2
    return out


def classify(core: str, asm: str, march: str) -> list:
    """[(class, cycles in straight-line code, extra cycles when taken)] of the instructions of `asm`."""
    args = encodings(asm, march)
    lines = subprocess.run([ARGS.classify, core, *args], check=True, capture_output=True, text=True).stdout
    return [(cls, int(c), int(t)) for _, cls, c, t in (line.split() for line in lines.splitlines())]


M4 = "armv7e-m+fp"
M55 = "armv8.1-m.main+mve.fp+fp.dp"


class CortexM4(unittest.TestCase):
    def check(self, asm, expected):
        self.assertEqual(classify("cortex-m4", asm, M4), expected, asm)

    def test_loads_pipeline_unless_the_address_depends_on_the_load(self):
        self.check(
            "ldr r0, [r1]\nldr r2, [r3, #4]\nldrb r4, [r5], #1\nstr r6, [r7, r1]",
            [("ldr", 2, 0), ("ldr", 1, 0), ("ldr", 1, 0), ("str_reg", 1, 0)],
        )
        self.check("ldr r0, [r1]\nldr r2, [r0]\nldr.w r3, [r2, r4]", [("ldr", 2, 0), ("ldr", 2, 0), ("ldr", 2, 0)])
        self.check(
            "add r0, r0, #1\nstr r0, [r1, #8]\nstr r0, [r1, r2]\nldr r0, [pc, #8]",
            [("alu", 1, 0), ("str", 1, 0), ("str_reg", 2, 0), ("ldr_lit", 2, 0)],
        )

    def test_multiple_and_dual_transfers(self):
        self.check(
            "ldrd r0, r1, [r2], #8\nstrd r0, r1, [r3]\nldm r0!, {r1-r4}\npush {r4-r7, lr}\npop {r4, pc}",
            [("ldrd", 3, 0), ("strd", 3, 0), ("ldm", 5, 0), ("stm", 6, 0), ("ldm", 5, 0)],
        )

    def test_multiplies_dsp_and_divide(self):
        self.check(
            "mul r0, r1, r2\nmla r0, r1, r2, r3\nsmlad r0, r1, r2, r0\nsmlal r0, r1, r2, r3\nsxtb16 r0, r1\n"
            "sadd16 r0, r1, r2\nssat r0, #8, r1\nsdiv r0, r1, r2\nudiv r0, r1, r2",
            [
                ("mul", 1, 0),
                ("mul", 1, 0),
                ("mul", 1, 0),
                ("mull", 1, 0),
                ("alu", 1, 0),
                ("dsp", 1, 0),
                ("alu", 1, 0),
                ("div", 7, 0),
                ("div", 7, 0),
            ],
        )

    def test_branches_taken_pay_the_refill(self):
        self.check(
            "1: b 1b\nbl 1b\nbx lr\nbne 1b\nbeq.w 1b\ncbz r0, 2f\nnop\n2: tbb [r0, r1]\nit eq\nmoveq r0, r1",
            [
                ("br", 3, 0),
                ("br", 3, 0),
                ("br_ind", 3, 0),
                ("br_cond", 1, 2),
                ("br_cond", 1, 2),
                ("br_cond", 1, 2),
                ("nop", 1, 0),
                ("tbb", 5, 0),
                ("it", 1, 0),
                ("alu", 1, 0),
            ],
        )

    def test_fpu(self):
        self.check(
            "vadd.f32 s0, s1, s2\nvfma.f32 s0, s1, s2\nvmla.f32 s0, s1, s2\nvdiv.f32 s0, s1, s2\n"
            "vsqrt.f32 s0, s1\nvldr s0, [r0]\nvstr s0, [r0]\nvldmia r0!, {s0-s3}\nvmov r0, s0\nvcvt.s32.f32 s0, s0",
            [
                ("fp_alu", 1, 0),
                ("fp_mac", 3, 0),
                ("fp_mac", 3, 0),
                ("fp_div", 14, 0),
                ("fp_div", 14, 0),
                ("fp_ld", 2, 0),
                ("fp_st", 2, 0),
                ("fp_ldm", 5, 0),
                ("fp_mov", 1, 0),
                ("fp_alu", 1, 0),
            ],
        )


class CortexM55(unittest.TestCase):
    def check(self, asm, expected):
        self.assertEqual(classify("cortex-m55", asm, M55), expected, asm)

    def test_dual_beat_vector_instructions_overlap_across_groups(self):
        # load, MAC (overlaps the load), MAC (same group: no overlap), load (overlaps), store (memory again: no)
        self.check(
            "vldrb.s8 q0, [r0], #16\nvmladava.s8 r2, q0, q1\nvmladava.s8 r4, q0, q2\nvldrw.u32 q1, [r1]\n"
            "vstrb.8 q0, [r2]\nvqrdmulh.s32 q0, q0, r3\nvrshl.s32 q0, r4\nvadd.i32 q0, q0, r5\nadds r0, #1\n"
            "vmax.s32 q0, q0, q3",
            [
                ("mve_ld", 2, 0),
                ("mve_mac", 1, 0),
                ("mve_mac", 2, 0),
                ("mve_ld", 1, 0),
                ("mve_st", 2, 0),
                ("mve_mac", 1, 0),
                ("mve_alu", 1, 0),
                ("mve_alu", 2, 0),
                ("alu", 1, 0),
                ("mve_alu", 2, 0),
            ],
        )

    def test_low_overhead_loops_and_predication(self):
        self.check(
            "1: dlstp.8 lr, r3\nvctp.8 r2\nvpst\nvldrbt.u8 q0, [r1]\nletp lr, 1b\nwls lr, r2, 2f\nnop\n2: le lr, 1b",
            [
                ("lob_start", 1, 0),
                ("lob_other", 1, 0),
                ("mve_pred", 1, 0),
                ("mve_ld", 2, 0),
                ("lob_end", 1, -1),
                ("lob_start", 1, 2),
                ("nop", 1, 0),
                ("lob_end", 1, -1),
            ],
        )

    def test_gather_lanes_and_float_vectors(self):
        self.check(
            "vldrb.u8 q0, [r1, q2]\nvmov.32 r0, q1[2]\nvfma.f32 q0, q1, q2\nvdup.32 q1, r0\nldr r0, [r1]\nldr r2, [r3]",
            [
                ("mve_gather", 4, 0),
                ("mve_lane", 1, 0),
                ("mve_fp", 2, 0),
                ("mve_alu", 1, 0),
                ("ldr", 1, 0),
                ("ldr", 1, 0),
            ],
        )

    def test_unknown_encodings_are_reported_as_unknown(self):
        # An Advanced SIMD (Neon) element load: not an M-profile instruction.
        out = subprocess.run([ARGS.classify, "cortex-m55", "f920070f"], check=True, capture_output=True, text=True)
        self.assertEqual(out.stdout.split()[1:], ["unknown", "1", "0"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--classify", required=True, help="the cycle_classify binary")
    ARGS, rest = parser.parse_known_args()
    ARGS.classify = os.path.abspath(ARGS.classify)
    unittest.main(argv=[sys.argv[0]] + rest)
