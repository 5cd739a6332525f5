"""Placement from BUILD: the image report of //tests/boards:placed_kws_m7_tcm_fw (board m7_tcm) shows the weights in
EXTFLASH, the workspace in DTCM and the I/O buffers in SRAM; the region budget check names region, figure and
contributors; and the linker-script pieces (regions.py) account for every region."""

import json
import sys
import unittest

from toolchains.tools.elf_file import Section, Symbol
from toolchains.tools.regions import (
    Region,
    contributors,
    region_budget_problems,
    region_rows,
    total_capacity,
    usage,
)

REPORT = next(a for a in sys.argv[1:] if a.endswith(".size.json"))
del sys.argv[1:]


class ImageReportTest(unittest.TestCase):
    def setUp(self):
        with open(REPORT) as f:
            self.report = json.load(f)

    def test_placed_where_the_board_says(self):
        placed = self.report["placed"]
        self.assertEqual(placed["weights"]["region"], "EXTFLASH")
        self.assertTrue(placed["weights"]["symbols"])
        self.assertTrue(all(s.startswith("placed_kws_") for s in placed["weights"]["symbols"]))
        self.assertEqual(
            placed["workspace"],
            {"region": "DTCM", "bytes": placed["workspace"]["bytes"], "symbols": ["test_workspace"]},
        )
        self.assertEqual(placed["io"]["region"], "SRAM")

    def test_region_rows(self):
        rows = {r["name"]: r for r in self.report["regions"]}
        self.assertEqual(rows["EXTFLASH"]["holds"], ["weights"])
        self.assertEqual(rows["DTCM"]["holds"], ["workspace"])
        self.assertEqual(rows["SRAM"]["holds"], ["state", "io"])
        self.assertGreaterEqual(rows["EXTFLASH"]["used"], self.report["placed"]["weights"]["bytes"])
        self.assertEqual(rows["DTCM"]["used"], self.report["placed"]["workspace"]["bytes"])

    def test_totals_are_shares_of_the_regions_that_hold_them(self):
        # RAM is DTCM (the workspace) + SRAM (data, bss, stack): ram_total over both, not over SRAM alone.
        r = self.report
        self.assertEqual((r["flash_regions"], r["flash_bytes"]), (["FLASH", "EXTFLASH"], 1024 * 1024 + 3 * 1024 * 1024))
        self.assertEqual((r["ram_regions"], r["ram_bytes"]), (["DTCM", "SRAM"], 64 * 1024 + 1024 * 1024))
        self.assertGreater(r["ram_total"], {row["name"]: row for row in r["regions"]}["SRAM"]["used"])


class RegionBudgetTest(unittest.TestCase):
    """The arithmetic on a synthetic image: a .data load image counts where it is stored, the heap nowhere."""

    regions = [
        Region("FLASH", 0, 0x1000, "rx"),
        Region("DTCM", 0x2000, 0x100, "rw"),
        Region("RAM", 0x3000, 0x1000, "rw"),
    ]
    sections = [
        Section(".text", 0, 0, 0x200, False),
        Section(".data", 0x3000, 0x200, 0x10, False),
        Section(".aot_DTCM", 0x2000, 0x2000, 0x90, True),
        Section(".heap", 0x3010, 0x3010, 0x800, True),
    ]
    symbols = [Symbol("ws_a", 0x80, "bss", 0x2000), Symbol("kws_w0", 0x10, "bss", 0x2080)]
    markers = {"__aot_workspace_start": 0x2000, "__aot_workspace_end": 0x2080}
    placement = {"weights": "FLASH", "workspace": "DTCM", "state": "RAM", "io": "RAM"}

    def test_usage(self):
        self.assertEqual(usage(self.regions, self.sections), {"FLASH": 0x210, "DTCM": 0x90, "RAM": 0x10})

    def test_over_budget_message(self):
        rows = region_rows(self.regions, usage(self.regions, self.sections), {"DTCM": 100}, self.placement)
        models = {"kws": {"workspace": {"size": 128}}}
        problems = region_budget_problems(
            "//x:fw",
            self.regions,
            rows,
            self.symbols,
            self.sections,
            self.markers,
            models,
            self.placement,
            {"DTCM": "100"},
        )
        self.assertEqual(
            problems,
            [
                "//x:fw: region DTCM holds 144 B, over its budget of 100 B (100; the region is 256 B). Contributors: "
                "workspace buffer ws_a (128 B); kws_w0 (16 B). Placed here by the models' plans: kws's workspace 128 B."
            ],
        )

    def test_total_capacity_counts_the_regions_in_use(self):
        rows = region_rows(self.regions, {"FLASH": 0x210, "DTCM": 0x90, "RAM": 0}, {}, self.placement)
        self.assertEqual(total_capacity(rows, writable=False), (["FLASH"], 0x1000))
        self.assertEqual(total_capacity(rows, writable=True), (["DTCM"], 0x100))
        rows = region_rows(self.regions, {"FLASH": 0x210, "DTCM": 0x90, "RAM": 0x10}, {}, self.placement)
        self.assertEqual(total_capacity(rows, writable=True), (["DTCM", "RAM"], 0x1100))

    def test_contributors_name_models(self):
        got = contributors(
            self.regions[0],
            [Symbol("kws_w0", 8, "rodata", 0x10), Symbol("kws_w1", 8, "rodata", 0x18)],
            [],
            {"__aot_weights_start": 0x10, "__aot_weights_end": 0x20},
            {"kws": {}},
            self.placement,
        )
        self.assertEqual(got, [(16, "weights of kws")])


if __name__ == "__main__":
    unittest.main()
