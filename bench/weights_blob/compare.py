"""Instructions per inference with the weights in a blob against in the code (`bazel run //bench/weights_blob:compare`,
bench/weights_blob/BUILD.bazel): each firmware runs one counted inference of the same model on the same reference
case (and checks its outputs); the blob firmware reads its constants from a blob QEMU writes apart from the image.
Prints a markdown table; exit code 1 if the blob costs more than 2 % (the figure docs/weights-blob.md quotes)."""

import argparse
import sys

from toolchains.tools import qemu_count

MACHINES = {"mps2-an386": "mps2-an386", "mps3-an547": "mps3-an547"}


def main(argv) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--run", action="append", default=[], help="BOARD|CORE|c or b|BLOB|ADDRESS")
    args = ap.parse_args(argv)
    counts = {}
    for spec in args.run:
        board, short, kind, blob, addr = spec.split("|")
        elf = f"bench/weights_blob/fw_k{kind}{short}.elf"  # in the runfiles (BUILD.bazel's data)
        run = qemu_count.count(elf, MACHINES[board], args.plugin, loads=[(blob, addr)] if blob else ())
        if run.exit_code != 0:
            print(f"{board} {kind}: the firmware failed ({run.exit_code}): {run.output.strip()}")
            return 1
        counts[(board, short, kind)] = run.instructions
    print("| board | core | weights in the code | weights in a blob | blob / code |")
    print("|---|---|---:|---:|---:|")
    worst = 0.0
    for board, short, kind in sorted(counts):
        if kind != "c":
            continue
        const, blob = counts[(board, short, "c")], counts[(board, short, "b")]
        ratio = blob / const
        worst = max(worst, ratio)
        print(f"| {board} | {short} | {const:,} | {blob:,} | {ratio:.4f} ({(ratio - 1) * 100:+.2f} %) |")
    return 0 if worst <= 1.02 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
