"""The image report of the README quick-start's firmware (its board: an STM32F746's map on QEMU mps2-an500) shows the
placement: the model's weights in FLASH, its workspace in DTCM, its I/O buffers in SRAM, each region within its
length."""

import json
import sys
import unittest

REPORT = next(a for a in sys.argv[1:] if a.endswith(".size.json"))
del sys.argv[1:]


class PlacementTest(unittest.TestCase):
    def setUp(self):
        with open(REPORT) as f:
            self.report = json.load(f)

    def test_kinds_in_their_regions(self):
        placed = self.report["placed"]
        self.assertEqual(placed["weights"]["region"], "FLASH")
        self.assertTrue(all(s.startswith("my_model_test_") for s in placed["weights"]["symbols"]), placed["weights"])
        self.assertEqual(placed["workspace"]["region"], "DTCM")
        self.assertIn("test_workspace", placed["workspace"]["symbols"])
        self.assertEqual(placed["io"]["region"], "SRAM")
        self.assertGreater(placed["weights"]["bytes"], 0)

    def test_regions_report(self):
        rows = {r["name"]: r for r in self.report["regions"]}
        self.assertEqual(set(rows), {"FLASH", "DTCM", "SRAM"})
        self.assertEqual(rows["DTCM"]["holds"], ["workspace"])
        self.assertEqual((rows["DTCM"]["origin"], rows["DTCM"]["length"]), (0x20000000, 64 * 1024))
        self.assertGreaterEqual(rows["DTCM"]["used"], self.report["placed"]["workspace"]["bytes"])
        for row in rows.values():
            self.assertLessEqual(row["used"], row["length"], row)


if __name__ == "__main__":
    unittest.main()
