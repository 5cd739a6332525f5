"""tools/misra.py's own parts: the rule categories, the deviation records of docs/misra.md and their matching, the
rule that generated code has no Required/Mandatory finding whatever the records say, and the choice of CRT files per
core view (the cppcheck run itself is the CI suite)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import misra  # noqa: E402


class MisraToolTest(unittest.TestCase):
    def test_categories(self):
        # A few of each kind, and the sizes of the sections MISRA C:2012 defines.
        self.assertEqual(misra.CATEGORY["17.2"], "Required")
        self.assertEqual(misra.CATEGORY["12.1"], "Advisory")
        self.assertEqual(misra.CATEGORY["9.1"], "Mandatory")
        self.assertEqual(misra.CATEGORY["8.13"], "Advisory")
        self.assertEqual(misra.CATEGORY["8.14"], "Required")
        self.assertEqual(misra.CATEGORY["21.13"], "Mandatory")
        self.assertEqual(sum(1 for r in misra.CATEGORY if r.startswith("17.")), 13)

    def test_deviation_records_parse_and_name_known_rules(self):
        rows = misra.read_deviations(os.path.join(misra.ROOT, "docs", "misra.md"))
        self.assertGreater(len(rows), 10)
        for rule, where, why, safe in rows:
            self.assertTrue(rule in misra.CATEGORY or rule[0].isalpha(), rule)
            self.assertTrue(where and why and safe, rule)
        self.assertTrue(misra.covered("12.1", "crt/src/kernels/add_s8.c", rows))
        self.assertFalse(misra.covered("17.2", "crt/src/kernels/add_s8.c", rows))

    def test_generated_code_may_not_break_a_required_rule_even_with_a_record(self):
        rows = [("11.6", "generated/*", "why", "safe"), ("11.6", "crt/*", "why", "safe")]
        found = [
            ("generated/cortex-m4/kws.c", 10, "misra-c2012-11.6"),  # Required: refused though a record matches
            ("generated/cortex-m4/kws.c", 11, "misra-c2012-9.1"),  # Mandatory
            ("generated/cortex-m4/kws.c", 12, "misra-c2012-12.1"),  # Advisory: left to the records
            ("crt/include/aot/align.h", 21, "misra-c2012-11.6"),  # the CRT's Required findings: left to the records
        ]
        self.assertTrue(misra.covered("11.6", found[0][0], rows))
        self.assertEqual(misra.unrecordable(found), found[:2])
        self.assertEqual(misra.generated_records_of_binding_rules(rows), rows[:1])

    def test_docs_record_no_required_rule_for_generated_code(self):
        rows = misra.read_deviations(os.path.join(misra.ROOT, "docs", "misra.md"))
        self.assertEqual(misra.generated_records_of_binding_rules(rows), [])
        self.assertTrue(any(r.startswith("generated/") for _, r, _, _ in rows))

    def test_public_headers_no_crt_source_includes_are_found(self):
        inc = [os.path.join(misra.ROOT, "crt", "include"), os.path.join(misra.ROOT, "crt", "src", "kernels")]
        src = os.path.join(misra.ROOT, "crt", "src")
        sources = [os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs if f.endswith(".c")]
        reached = misra.included_headers(sources, inc)
        aot = os.path.join(misra.ROOT, "crt", "include", "aot")
        self.assertIn(os.path.join(aot, "errors.h"), reached)
        self.assertIn(os.path.join(aot, "kernels", "requant_s8_inline.h"), reached)
        # Only generated code includes these: the report checks them as files of their own.
        self.assertNotIn(os.path.join(aot, "align.h"), reached)
        self.assertNotIn(os.path.join(aot, "user_kernel.h"), reached)

    def test_rule_of(self):
        self.assertEqual(misra.rule_of("misra-c2012-11.3"), "11.3")
        self.assertEqual(misra.rule_of("nullPointer"), "nullPointer")

    def test_core_views_read_the_files_their_macros_change(self):
        inc = [os.path.join(misra.ROOT, "crt", "include"), os.path.join(misra.ROOT, "crt", "src", "kernels")]
        k = os.path.join(misra.ROOT, "crt", "src", "kernels")
        self.assertTrue(misra.uses_feature_macros(os.path.join(k, "conv2d_s8_dsp.c"), inc))
        self.assertFalse(misra.uses_feature_macros(os.path.join(k, "cumsum_f32.c"), inc))

    def test_a_view_skips_the_files_whose_text_an_earlier_view_already_had(self):
        inc = [os.path.join(misra.ROOT, "crt", "include"), os.path.join(misra.ROOT, "crt", "src", "kernels")]
        k = os.path.join(misra.ROOT, "crt", "src", "kernels")
        plain, dsp, mve = (os.path.join(k, f) for f in ("cumsum_f32.c", "conv2d_s8_dsp.c", "conv2d_s8_mve.c"))
        self.assertEqual(misra.feature_macros(plain, inc), set())
        self.assertNotIn("__ARM_FEATURE_MVE", misra.feature_macros(dsp, inc))
        self.assertEqual(misra.feature_macros(mve, inc) & {"__ARM_FEATURE_MVE"}, {"__ARM_FEATURE_MVE"})
        views = misra.view_files([plain, dsp, mve], inc)
        self.assertEqual(views["portable"], [plain, dsp, mve])
        # The DSP view's macros change the DSP kernel; the MVE view's add only __ARM_FEATURE_MVE, which the DSP
        # kernel does not name, so its MVE text is its DSP text.
        self.assertIn(dsp, views["dsp"])
        self.assertNotIn(plain, views["dsp"])
        self.assertEqual(views["mve"], [mve])


if __name__ == "__main__":
    unittest.main()
