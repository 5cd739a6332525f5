"""RAM an application needs for the same model (as compiled for mps2-an386, the DSP kernels' scratch included) with
separate I/O buffers and with its I/O inside the workspace: the manifests of both firmwares' models."""

import json
import sys
import unittest

MANIFESTS = [a for a in sys.argv[1:] if a.endswith(".json")]
del sys.argv[1:]


def load(prefix):
    with open(next(m for m in MANIFESTS if m.endswith(f"/{prefix}.json"))) as f:
        return json.load(f)


class RamTest(unittest.TestCase):
    def test_less_ram_inside(self):
        separate, inside = load("vision_separate_io"), load("vision_io_in_ws")
        io_bytes = sum(e["bytes"] for e in separate["inputs"] + separate["outputs"])
        total_separate = separate["workspace"]["size"] + io_bytes
        total_inside = inside["workspace"]["size"]
        print(
            f"RAM for the model: separate I/O {separate['workspace']['size']} + {io_bytes} = {total_separate} B; "
            f"I/O in the workspace {total_inside} B"
        )
        self.assertLess(total_inside, total_separate)
        self.assertEqual(inside["io_in_workspace"]["total_ram_separate_io"], total_separate)
        self.assertEqual(inside["io_in_workspace"]["saved"], total_separate - total_inside)


if __name__ == "__main__":
    unittest.main()
