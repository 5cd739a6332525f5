"""The Ethos-U hand-off: person_detect_vela.tflite (one CUSTOM ethos-u operator, from the field corpus) compiled
with a user kernel for it, run on the host against a test double of the driver glue.

No NPU is emulated (QEMU has none): the double checks what the generated code hands over, which is what TFLite
Micro's ethos-u kernel passes to ethosu_invoke_v3: the command stream and its size, the base addresses of the
weights ("flash"), the scratch, the fast scratch, the input and the output with their sizes (at most 8), and the
custom options bytes. Every expected byte and offset is read here from the .tflite with the flatbuffer schema
(not with the compiler's reader) into expect.h: command stream and weights byte for byte, the tensors' sizes, and
Vela's OfflineMemoryAllocation offsets, which must hold between the base addresses (the command stream addresses
the feature maps from the scratch base). The double also checks 16-byte alignment, that every address lies in
flash or in the workspace as it should, that the input bytes were copied to where the plan put them, and it writes
an output the test then finds in the application's output buffer. Skipped when the field corpus is absent."""

import os
import subprocess
import sys

import numpy as np
import pytest

from compiler.driver import compile_model, write_files
from compiler.hostbuild import build_executable
from compiler.user_kernels import UserKernelOptions, parse_spec

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ethos_u")
sys.path.insert(0, HERE)
from ethos_u_expect import expect_header, expectations  # noqa: E402


def _field_model(name):
    root = os.environ.get("AOT_FIELD_MODELS_DIR") or (
        os.path.join(os.environ["AOT_MODELS_DIR"], "field")
        if os.environ.get("AOT_MODELS_DIR")
        else os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "models", "field")
    )
    path = os.path.join(root, "tflm", name + ".tflite")
    if not os.path.isfile(path):
        pytest.skip(
            f"field model {name}.tflite not found under {root} (set AOT_FIELD_MODELS_DIR): the Ethos-U "
            "hand-off test needs it"
        )
    return path


MAIN_C = r"""
#include <stdio.h>
#include <stdint.h>
#include "aot/errors.h"
#include "pd.h"

extern const uint8_t* double_ws;
extern uint32_t double_ws_size;
extern const int8_t* double_app_input;
extern int32_t double_init_calls, double_invoke_calls;
static uint8_t ws[PD_WORKSPACE_SIZE] __attribute__((aligned(16)));

int main(int argc, char** argv)
{
    static int8_t x[PD_INPUT_SIZE];
    int8_t y[PD_MOBILENETV1_PREDICTIONS_RESHAPE_1_SIZE];
    struct pd_inputs in = {x};
    struct pd_outputs out = {y};
    FILE* fi = fopen(argv[1], "rb");
    int32_t rc, i;
    (void)argc;
    double_ws = ws;
    double_ws_size = PD_WORKSPACE_SIZE;
    double_app_input = x;
    printf("before_init %d\n", (int)pd_run(&in, &out, ws));
    rc = pd_init();
    printf("init %d failed %d calls %d\n", (int)rc, (int)pd_failed_op(), (int)double_init_calls);
    while (fread(x, 1, sizeof x, fi) == sizeof x) {
        rc = pd_run(&in, &out, ws);
        printf("run %d failed %d out", (int)rc, (int)pd_failed_op());
        for (i = 0; i < (int32_t)sizeof y; ++i) printf(" %d", (int)y[i]);
        printf("\n");
    }
    fclose(fi);
    return 0;
}
"""


def _npu_standin(x: np.ndarray, n: int) -> list:
    raw = x.astype(np.int8).tobytes()
    out = []
    for i in range(n):
        h = (2166136261 + i) & 0xFFFFFFFF
        for b in raw:
            h = ((h ^ b) * 16777619) & 0xFFFFFFFF
        out.append(int(np.int8(np.uint8(h & 0xFF))))
    return out


def test_ethos_u_hand_off(tmp_path):
    path = _field_model("person_detect_vela")
    e = expectations(path)
    opts = UserKernelOptions((parse_spec("ethos-u=ethosu_invoke,init=ethosu_init", "--custom_op", True),))
    compiled = compile_model(path, "pd", user_kernels=opts)
    # The scratch, fast scratch, input and output share one block laid out as Vela planned it: the workspace is
    # Vela's arena, no more.
    arena = max(off + size for off, size in zip(e["offsets"], e["sizes"]) if off >= 0)
    assert compiled.manifest["workspace"]["size"] == (arena + 15) // 16 * 16
    gen = tmp_path / "gen"
    write_files(str(gen), compiled.files)
    (tmp_path / "expect.h").write_text(expect_header(e))
    (tmp_path / "double.c").write_text(open(os.path.join(HERE, "ethosu_double.c")).read())
    (tmp_path / "main.c").write_text(MAIN_C)
    exe = tmp_path / "prog"
    build_executable(
        [str(gen / "pd.c"), str(gen / "pd_weights.c"), str(tmp_path / "double.c"), str(tmp_path / "main.c")],
        [str(gen), str(tmp_path)],
        str(exe),
    )
    rng = np.random.default_rng(4)
    cases = [np.full(e["in_size"], -128), np.full(e["in_size"], 127)] + [
        rng.integers(-128, 128, e["in_size"]) for _ in range(3)
    ]
    fin = tmp_path / "in.bin"
    fin.write_bytes(b"".join(c.astype(np.int8).tobytes() for c in cases))
    proc = subprocess.run([str(exe), str(fin)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().split("\n")
    assert lines[0] == "before_init -5"
    assert lines[1] == "init 0 failed -1 calls 1", lines[1]
    for c, line in zip(cases, lines[2:]):
        want = " ".join(str(v) for v in _npu_standin(c, e["out_size"]))
        assert line == f"run 0 failed -1 out {want}", line
    assert len(lines) == 2 + len(cases)
