"""The image report of the multi-model demo firmware attributes flash and RAM to each model, the CRT and the rest.

Checks against facts known independently of the report: each model's constants equal (or exceed, by I/O tables)
the weight bytes its compiler manifest declares, its workspace equals the manifest's, every `_run` has a positive
stack figure with a path that starts at the runner, and the owners add up to the section totals.
"""

import json
import os
import sys
import unittest

# argv (demo.bzl): the demo's package, then its model prefixes.
_PACKAGE, _MODELS = "examples/multi_model", ["ad", "ic", "kws", "kws_b", "speech"]


def _runfile(rel):
    return os.path.join(os.environ["TEST_SRCDIR"], os.environ.get("TEST_WORKSPACE", "aot_rules"), rel)


class DemoReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(_runfile(f"{_PACKAGE}/demo_fw.size.json")) as f:
            cls.report = json.load(f)
        cls.owners = {o["name"]: o for o in cls.report["owners"]}

    def test_every_model_has_a_row(self):
        for prefix in _MODELS:
            self.assertIn(prefix, self.owners)
        self.assertIn("CRT (aot_*)", self.owners)

    def test_model_figures_match_their_manifests(self):
        for prefix in _MODELS:
            with open(_runfile(f"{_PACKAGE}/{prefix}.json")) as f:
                manifest = json.load(f)
            row = self.owners[prefix]
            self.assertEqual(row["workspace"], manifest["workspace"]["size"], prefix)
            self.assertGreaterEqual(row["constants"], manifest["weight_bytes"], prefix)
            self.assertGreater(row["code"], 0, prefix)
            self.assertGreater(row["run_stack"], 0, prefix)
            self.assertTrue(row["run_stack_path"][0].startswith(prefix + "_run "), row["run_stack_path"])
            self.assertNotIn("run_stack_note", row, "generated runners make no indirect or recursive calls")

    def test_same_model_twice_costs_the_same(self):
        a, b = self.owners["kws"], self.owners["kws_b"]
        self.assertEqual(
            (a["code"], a["constants"], a["workspace"], a["run_stack"]),
            (b["code"], b["constants"], b["workspace"], b["run_stack"]),
        )

    def test_owners_add_up_to_sections(self):
        total_code = sum(o["code"] for o in self.owners.values())
        total_const = sum(o["constants"] for o in self.owners.values())
        # Symbols cover the sections except alignment padding and unnamed literal data.
        self.assertLessEqual(total_code, self.report["text"])
        self.assertGreater(total_code, 0.9 * self.report["text"])
        self.assertLessEqual(total_const, self.report["rodata"])
        self.assertGreater(total_const, 0.9 * self.report["rodata"])


if __name__ == "__main__":
    if len(sys.argv) > 2:
        _PACKAGE, _MODELS = sys.argv[1], sys.argv[2:]
    sys.exit(unittest.main(argv=sys.argv[:1]))
