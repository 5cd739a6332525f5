"""aot_model_library's `optimize` reaches `aotc compile`: the reports of the Cortex-M4 builds of float_gemm.tflite
(argv: the speed build's report files, "--", the size build's) list the FPU's GEMM kernels for the default and only
the portable float kernels for optimize = "size"."""

import json
import sys

FAST = ("aot_conv2d_f32_gemm", "aot_depthwise_conv2d_f32_vec", "aot_fully_connected_f32_gemm")
PORTABLE = {"aot_conv2d_f32", "aot_depthwise_conv2d_f32", "aot_fully_connected_f32"}


def kernels(paths: list) -> list:
    (path,) = [p for p in paths if p.endswith(".json")]
    with open(path) as f:
        return [op["kernel"] or "" for op in json.load(f)["ops"]]


def main(argv: list) -> int:
    cut = argv.index("--")
    speed, size = kernels(argv[:cut]), kernels(argv[cut + 1 :])
    assert any(k in FAST for k in speed), speed
    assert not any(k in FAST for k in size), size
    assert PORTABLE <= set(size), size
    print("speed:", sorted(set(speed)), "size:", sorted(set(size)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
