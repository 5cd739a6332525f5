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

import numpy as np
import pytest

from compiler.driver import compile_model, write_files
from compiler.hostbuild import build_executable
from compiler.user_kernels import UserKernelOptions, parse_spec


def _field_model(name):
    root = os.environ.get("AOT_FIELD_MODELS_DIR") or (os.path.join(os.environ["AOT_MODELS_DIR"], "field")
                                                     if os.environ.get("AOT_MODELS_DIR") else
                                                     os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                                  "shared", "models", "field"))
    path = os.path.join(root, "tflm", name + ".tflite")
    if not os.path.isfile(path):
        pytest.skip(f"field model {name}.tflite not found under {root} (set AOT_FIELD_MODELS_DIR): the Ethos-U "
                    "hand-off test needs it")
    return path


def _expectations(path):
    """What the driver must receive, straight from the flatbuffer."""
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb
    data = open(path, "rb").read()
    m = fb.Model.GetRootAsModel(data, 0)
    sg = m.Subgraphs(0)
    op = sg.Operators(0)
    code = m.OperatorCodes(op.OpcodeIndex())
    assert code.CustomCode() == b"ethos-u" and sg.OperatorsLength() == 1
    ins = list(op.InputsAsNumpy())
    outs = list(op.OutputsAsNumpy())

    def nbytes(i):
        t = sg.Tensors(i)
        size = {fb.TensorType.UINT8: 1, fb.TensorType.INT8: 1}[t.Type()]
        return int(np.prod(t.ShapeAsNumpy())) * size

    def buffer(i):
        b = m.Buffers(sg.Tensors(i).Buffer())
        if b.Offset() > 1:   # large models keep buffers after the flatbuffer
            return data[b.Offset():b.Offset() + b.Size()]
        return b.DataAsNumpy().tobytes()

    offsets = None
    for k in range(m.MetadataLength()):
        md = m.Metadata(k)
        if md.Name() == b"OfflineMemoryAllocation":
            words = np.frombuffer(m.Buffers(md.Buffer()).DataAsNumpy().tobytes(), "<i4")
            offsets = [int(w) for w in words[3:]]
    assert offsets is not None, "Vela writes an OfflineMemoryAllocation"
    return {"cms": buffer(ins[0]), "flash": buffer(ins[1]), "options": op.CustomOptionsAsNumpy().tobytes(),
            "bases": ins[1:] + outs, "sizes": [nbytes(i) for i in ins[1:] + outs],
            "offsets": [offsets[i] for i in ins[1:] + outs], "in_size": nbytes(ins[4]),
            "out_size": nbytes(outs[0])}


def _array(name, raw):
    body = ",".join(str(b) for b in raw)
    return f"static const uint8_t {name}[{len(raw)}] = {{{body}}};"


def _expect_header(e):
    return "\n".join([
        "#include <stdint.h>",
        _array("expect_cms", e["cms"]),
        _array("expect_flash", e["flash"]),
        _array("expect_options", e["options"]),
        f"#define EXPECT_NUM_BASES {len(e['bases'])}",
        "static const int32_t expect_sizes[] = {" + ", ".join(map(str, e["sizes"])) + "};",
        # -1: not in the arena (the weights, in flash).
        "static const int32_t expect_offsets[] = {" + ", ".join(map(str, e["offsets"])) + "};",
        f"#define EXPECT_IN_SIZE {e['in_size']}",
        f"#define EXPECT_OUT_SIZE {e['out_size']}", ""])


# The driver glue's test double: builds base_addrs / base_addrs_size exactly as TFLite Micro's ethos-u kernel does
# (inputs 1.. then outputs, at most 8) and checks them; returns a distinct code per failed check.
DOUBLE_C = r"""
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "aot/errors.h"
#include "aot/user_kernel.h"
#include "expect.h"

const uint8_t* double_ws = NULL;        /* the application's workspace and its size, set by main */
uint32_t double_ws_size = 0;
const int8_t* double_app_input = NULL;  /* the application's input buffer */
int32_t double_init_calls = 0, double_invoke_calls = 0;

static int32_t in_ws(uintptr_t a, int32_t n)
{
    return a >= (uintptr_t)double_ws && a + (uintptr_t)n <= (uintptr_t)double_ws + double_ws_size;
}

static int32_t check_common(const struct aot_uk_params* p)
{
    int32_t i;
    if (p->num_inputs != 5 || p->num_outputs != 1) return -2001;
    if (p->options_size != (int32_t)sizeof expect_options || memcmp(p->options, expect_options, sizeof expect_options))
        return -2002;
    if (p->inputs[0].bytes != (int32_t)sizeof expect_cms || !p->inputs[0].is_const) return -2003;
    for (i = 1; i < 5; ++i) if (p->inputs[i].bytes != expect_sizes[i - 1]) return -2004;
    if (p->outputs[0].bytes != expect_sizes[4]) return -2005;
    if (!p->inputs[1].is_const || p->inputs[2].is_const || p->inputs[3].is_const || p->inputs[4].is_const)
        return -2006;
    return 0;
}

int32_t ethosu_init(const struct aot_uk_params* p)
{
    const uint8_t* cms = (const uint8_t*)p->const_inputs[0];
    const uint8_t* flash = (const uint8_t*)p->const_inputs[1];
    int32_t rc = check_common(p);
    double_init_calls++;
    if (rc) return rc;
    /* The command stream and the weights: byte for byte, 16-byte aligned (the NPU reads them by DMA). */
    if (memcmp(cms, expect_cms, sizeof expect_cms) != 0) return -2010;
    if (memcmp(flash, expect_flash, sizeof expect_flash) != 0) return -2011;
    if (((uintptr_t)cms & 15u) || ((uintptr_t)flash & 15u)) return -2012;
    if (p->const_inputs[2] != NULL || p->const_inputs[4] != NULL) return -2013;
    return AOT_OK;
}

int32_t ethosu_invoke(const struct aot_uk_params* p, const void* const* inputs, void* const* outputs, void* scratch)
{
    uintptr_t base_addrs[8];
    int32_t base_addrs_size[8];
    int32_t n = 0, i, rc = check_common(p);
    const uint8_t* cms = (const uint8_t*)inputs[0];
    int8_t* out;
    double_invoke_calls++;
    if (rc) return rc;
    if (scratch != NULL) return -2020;
    if (cms != p->const_inputs[0] || memcmp(cms, expect_cms, sizeof expect_cms) != 0) return -2021;
    for (i = 1; i < p->num_inputs; ++i) {
        base_addrs[n] = (uintptr_t)inputs[i];
        base_addrs_size[n++] = p->inputs[i].bytes;
    }
    for (i = 0; i < p->num_outputs; ++i) {
        base_addrs[n] = (uintptr_t)outputs[i];
        base_addrs_size[n++] = p->outputs[i].bytes;
    }
    if (n != EXPECT_NUM_BASES) return -2022;
    for (i = 0; i < n; ++i) {
        if (base_addrs_size[i] != expect_sizes[i]) return -2023;
        if (base_addrs[i] & 15u) return -2024;
        if (expect_offsets[i] < 0) {
            /* not in the arena: the weights, in flash, byte for byte */
            if (in_ws(base_addrs[i], 1) || base_addrs[i] != (uintptr_t)p->const_inputs[i + 1]) return -2025;
            if (memcmp((const void*)base_addrs[i], expect_flash, sizeof expect_flash) != 0) return -2026;
        } else {
            /* in the arena: inside the workspace, at Vela's offset relative to the scratch (base 1) */
            if (!in_ws(base_addrs[i], base_addrs_size[i])) return -2027;
            if ((int32_t)(base_addrs[i] - base_addrs[1]) != expect_offsets[i] - expect_offsets[1]) return -2028;
        }
    }
    /* The input was copied to where the command stream reads it. */
    if (memcmp(inputs[4], double_app_input, EXPECT_IN_SIZE) != 0) return -2029;
    /* Stand-in for the NPU's result: a function of the input the test recomputes. */
    out = (int8_t*)outputs[0];
    for (i = 0; i < EXPECT_OUT_SIZE; ++i) {
        uint32_t h = 2166136261u + (uint32_t)i;
        int32_t k;
        for (k = 0; k < EXPECT_IN_SIZE; ++k) h = (h ^ (uint8_t)double_app_input[k]) * 16777619u;
        out[i] = (int8_t)(h & 0xffu);
    }
    return AOT_OK;
}
"""

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
    e = _expectations(path)
    opts = UserKernelOptions((parse_spec("ethos-u=ethosu_invoke,init=ethosu_init", "--custom_op", True),))
    compiled = compile_model(path, "pd", user_kernels=opts)
    # The scratch, fast scratch, input and output share one block laid out as Vela planned it: the workspace is
    # Vela's arena, no more.
    arena = max(off + size for off, size in zip(e["offsets"], e["sizes"]) if off >= 0)
    assert compiled.manifest["workspace"]["size"] == (arena + 15) // 16 * 16
    gen = tmp_path / "gen"
    write_files(str(gen), compiled.files)
    (tmp_path / "expect.h").write_text(_expect_header(e))
    (tmp_path / "double.c").write_text(DOUBLE_C)
    (tmp_path / "main.c").write_text(MAIN_C)
    exe = tmp_path / "prog"
    build_executable([str(gen / "pd.c"), str(gen / "pd_weights.c"), str(tmp_path / "double.c"),
                      str(tmp_path / "main.c")], [str(gen), str(tmp_path)], str(exe))
    rng = np.random.default_rng(4)
    cases = [np.full(e["in_size"], -128), np.full(e["in_size"], 127)] + \
        [rng.integers(-128, 128, e["in_size"]) for _ in range(3)]
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
