"""Reads a board-library firmware (tests/board_library:demo_<board>, or a model test's image) and checks its
placement against the chip's memory map as the vendor documents it (the maps below are written from the datasheets,
independently of //boards:BUILD.bazel, so a wrong origin or length there fails here): every allocated section runs
inside one memory of the chip and is stored (its load address) in a non-volatile one; the vector table starts the
code memory; the models' weights, the workspace and the stack lie wholly in the memories the board places them in;
and the image links the bare start-up (`semihosting = False`), not rdimon.

usage: map_test.py BOARD ELF
"""

import sys
import unittest

from toolchains.tools.elf_file import read_alloc_sections, read_marker_symbols

K, M = 1024, 1024 * 1024

# board -> memories (name, origin, length, non-volatile: holds the image) and where the board puts things.
DATASHEET = {
    # ST RM0385 section 2.2.2 / Figure 1: STM32F74x/75x.
    "stm32f746": {
        "memories": [
            ("ITCMRAM", 0x00000000, 16 * K, False),
            ("FLASH", 0x08000000, 1 * M, True),
            ("DTCM", 0x20000000, 64 * K, False),
            ("SRAM1", 0x20010000, 240 * K, False),
            ("SRAM2", 0x2004C000, 16 * K, False),
        ],
        "code": "FLASH",
        "weights": "FLASH",
        "workspace": "DTCM",
        "stack": "SRAM1",
    },
    # ST RM0433 section 2.3.2: STM32H742/743/753.
    "stm32h743": {
        "memories": [
            ("ITCM", 0x00000000, 64 * K, False),
            ("FLASH", 0x08000000, 2 * M, True),
            ("DTCM", 0x20000000, 128 * K, False),
            ("AXI_SRAM", 0x24000000, 512 * K, False),
            ("SRAM1", 0x30000000, 128 * K, False),
            ("SRAM2", 0x30020000, 128 * K, False),
            ("SRAM3", 0x30040000, 32 * K, False),
            ("SRAM4", 0x38000000, 64 * K, False),
        ],
        "code": "FLASH",
        "weights": "FLASH",
        "workspace": "DTCM",
        "stack": "AXI_SRAM",
    },
    # Nordic nRF52840 Product Specification v1.7, section 4.2.
    "nrf52840": {
        "memories": [("FLASH", 0x00000000, 1 * M, True), ("RAM", 0x20000000, 256 * K, False)],
        "code": "FLASH",
        "weights": "FLASH",
        "workspace": "RAM",
        "stack": "RAM",
    },
    # RP2040 Datasheet section 2.2 (XIP window of the Pico's 2 MB flash; the first 256 bytes are boot2).
    "rp2040": {
        "memories": [
            ("BOOT2", 0x10000000, 256, True),
            ("XIP", 0x10000100, 2 * M - 256, True),
            ("SRAM", 0x20000000, 264 * K, False),
        ],
        "code": "XIP",
        "weights": "XIP",
        "workspace": "SRAM",
        "stack": "SRAM",
        "empty": ["BOOT2"],
    },
    # RP2350 Datasheet section 2.2 (the Pico 2's 4 MB flash).
    "rp2350": {
        "memories": [
            ("XIP", 0x10000000, 4 * M, True),
            ("SRAM", 0x20000000, 512 * K, False),
            ("SCRATCH_X", 0x20080000, 4 * K, False),
            ("SCRATCH_Y", 0x20081000, 4 * K, False),
        ],
        "code": "XIP",
        "weights": "XIP",
        "workspace": "SRAM",
        "stack": "SRAM",
    },
    # NXP IMXRT1060RM chapter 2 and FlexRAM default split; FlexSPI boot header (FCB, IVT) before 0x60002000.
    "imxrt1060": {
        "memories": [
            ("ITCM", 0x00000000, 128 * K, False),
            ("DTCM", 0x20000000, 128 * K, False),
            ("OCRAM2", 0x20200000, 512 * K, False),
            ("OCRAM", 0x20280000, 256 * K, False),
            ("FLEXSPI_BOOT_HEADER", 0x60000000, 0x2000, True),
            ("FLEXSPI", 0x60002000, 8 * M - 0x2000, True),
        ],
        "code": "FLEXSPI",
        "weights": "FLEXSPI",
        "workspace": "DTCM",
        "stack": "OCRAM2",
        "empty": ["FLEXSPI_BOOT_HEADER"],
    },
    # Arm Corstone-300 (SSE-300) Cortex-M55 memory map, non-secure aliases.
    "corstone300": {
        "memories": [
            ("ITCM", 0x00000000, 512 * K, True),
            ("DTCM", 0x20000000, 512 * K, False),
            ("SRAM", 0x21000000, 2 * M, False),
            ("DDR", 0x60000000, 256 * M, True),
        ],
        "code": "ITCM",
        "weights": "DDR",
        "workspace": "SRAM",
        "stack": "DTCM",
    },
    # ST RM0090 section 2.3 and DS8626 Figure 18: STM32F405 (QEMU netduinoplus2).
    "netduinoplus2": {
        "memories": [
            ("FLASH", 0x08000000, 1 * M, True),
            ("CCM", 0x10000000, 64 * K, False),
            ("SRAM1", 0x20000000, 112 * K, False),
            ("SRAM2", 0x2001C000, 16 * K, False),
        ],
        "code": "FLASH",
        "weights": "FLASH",
        "workspace": "SRAM1",
        "stack": "SRAM1",
    },
    # ST RM0041 section 3.3.1 and DS6517 Figure 7: STM32F100RB (QEMU stm32vldiscovery); the image is a model test.
    "stm32vldiscovery": {
        "memories": [("FLASH", 0x08000000, 128 * K, True), ("SRAM", 0x20000000, 8 * K, False)],
        "code": "FLASH",
        "weights": "FLASH",
        "workspace": "SRAM",
        "stack": "SRAM",
    },
}

BOARD, ELF = sys.argv[1], sys.argv[2]
del sys.argv[1:]


def memory_of(memories, start, size):
    """The memory holding [start, start + size), or None."""
    for name, origin, length, _ in memories:
        if origin <= start and start + size <= origin + length:
            return name
    return None


class BoardMapTest(unittest.TestCase):
    def setUp(self):
        with open(ELF, "rb") as f:
            self.data = f.read()
        self.map = DATASHEET[BOARD]
        self.memories = self.map["memories"]
        self.nonvolatile = {name for name, _, _, nv in self.memories if nv}
        self.sections = list(read_alloc_sections(self.data))
        self.marks = read_marker_symbols(self.data, "__")

    def test_every_section_runs_in_a_memory_and_is_stored_in_flash(self):
        self.assertTrue(self.sections)
        for s in self.sections:
            runs = memory_of(self.memories, s.address, s.size)
            self.assertIsNotNone(runs, f"{s.name} [{s.address:#x}, +{s.size}) is outside every memory of {BOARD}")
            self.assertNotIn(runs, self.map.get("empty", []), f"{s.name} overwrites {runs}")
            if not s.nobits:
                stored = memory_of(self.memories, s.load, s.size)
                self.assertIn(stored, self.nonvolatile, f"{s.name} is stored at {s.load:#x} ({stored}): lost at reset")

    def test_vectors_start_the_code_memory(self):
        vectors = [s for s in self.sections if s.name == ".vectors"]
        self.assertEqual(len(vectors), 1)
        origin = {name: o for name, o, _, _ in self.memories}[self.map["code"]]
        self.assertEqual(vectors[0].address, origin)

    def test_links_without_semihosting(self):
        # `semihosting = False`: newlib's system calls are the bare start-up's stubs, not rdimon's.
        self.assertNotIn(b"initialise_monitor_handles", self.data)
        self.assertIn(b"aot_putchar", self.data)

    def _span(self, kind):
        start, end = self.marks[f"__aot_{kind}_start"], self.marks[f"__aot_{kind}_end"]
        self.assertGreater(end, start, f"no {kind} in the image")
        return memory_of(self.memories, start, end - start)

    def test_weights_workspace_and_stack_where_the_board_places_them(self):
        self.assertEqual(self._span("weights"), self.map["weights"])
        self.assertEqual(self._span("workspace"), self.map["workspace"])
        bottom, top = self.marks["__stack_bottom"], self.marks["__stack_top"]
        self.assertEqual(memory_of(self.memories, bottom, top - bottom), self.map["stack"])


if __name__ == "__main__":
    unittest.main()
