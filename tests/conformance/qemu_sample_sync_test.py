"""The committed QEMU sample (tests/conformance/qemu_sample/*.tflite) is exactly what the cases marked qemu_sample
build today: regenerate with `python tests/conformance/op_conformance.py --write_qemu_sample
tests/conformance/qemu_sample` when a case changes."""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import op_conformance  # noqa: E402


def main() -> int:
    committed_dir = os.path.join(HERE, "qemu_sample")
    committed = sorted(f for f in os.listdir(committed_dir) if f.endswith(".tflite"))
    with tempfile.TemporaryDirectory() as tmp:
        fresh = sorted(os.path.basename(p) for p in op_conformance.write_qemu_sample(tmp))
        if fresh != committed:
            print(f"qemu_sample: committed {committed}, the cases give {fresh}; regenerate it")
            return 1
        for fn in fresh:
            with open(os.path.join(tmp, fn), "rb") as a, open(os.path.join(committed_dir, fn), "rb") as b:
                if a.read() != b.read():
                    print(f"qemu_sample/{fn} differs from what its case builds; regenerate it")
                    return 1
    print(f"qemu_sample: {len(fresh)} models in sync with their cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
