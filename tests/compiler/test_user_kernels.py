"""User kernels (compiler/user_kernels.py, crt/include/aot/user_kernel.h): a CUSTOM operator run by a C function of
the test, which checks every field of the parameter block it receives against the model (expectations written by
this file from the model's own tensors, not by the compiler); built-in operators offloaded to user functions and
compared bit for bit with TFLite Micro; <prefix>_init() only when a hook asks for it, running before it refused
with AOT_ERR_NOT_INITIALIZED; a user kernel's failure reaching the caller with the failing operator's index; the
generated code of models without user kernels unchanged; bad mappings refused in one paragraph."""

import os
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ACT, ModelBuilder  # noqa: E402
from test_ops_tflite import needs_tflm  # noqa: E402

from compiler.cli import main as aotc_main  # noqa: E402
from compiler.driver import compile_model, write_files  # noqa: E402
from compiler.errors import CompileError, UnsupportedError  # noqa: E402
from compiler.hostbuild import build_executable  # noqa: E402
from compiler.oracle import tflm_outputs  # noqa: E402
from compiler.user_kernels import UserKernelOptions, parse_spec  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _opts(custom=(), offload=()):
    return UserKernelOptions(
        tuple(parse_spec(s, "--custom_op", True) for s in custom),
        tuple(parse_spec(s, "--offload", False) for s in offload),
    )


def _fc_model(rng, in_n, out_n, custom_op=True, options=None, name="MyOp"):
    """x -> FULLY_CONNECTED -> h [-> CUSTOM:MyOp(h, const c) -> y]; weights drawn over the whole int8 range."""
    b = ModelBuilder()
    x = b.input("x", [1, in_n], "int8", scale=0.05, zero_point=-3)
    w = b.const("w", rng.integers(-128, 128, (out_n, in_n)).astype(np.int8), "int8", scale=0.02, zero_point=0)
    bias = b.const("bias", rng.integers(-5000, 5000, out_n).astype(np.int32), "int32", scale=0.001, zero_point=0)
    h = b.op("FULLY_CONNECTED", [x, w, bias], out=b.tensor("h", [1, out_n], "int8", 0.1, 4))
    if not custom_op:
        b.output(h)
        return b
    c = b.const("c", rng.integers(-128, 128, out_n).astype(np.int8), "int8", scale=0.5, zero_point=1)
    y = b.tensor("y", [1, out_n], "int8", 0.25, -7)
    b.op(f"CUSTOM:{name}", [h, None, c], out=y, options=options if options is not None else {"k": 3, "s": "x"})
    b.output(y)
    return b


def _c_array(values, ctype="int32_t"):
    return "{" + ", ".join(str(int(v)) for v in values) + "}"


# A user kernel for CUSTOM:MyOp: y = h - c (saturated to int8); it first checks everything it was handed against
# EXPECT_* (written from the model by the test) and returns a distinct code for each mismatch. It fails with
# -1234 when h[0] == 127, so the test can drive a failure.
MYOP_C = r"""
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "aot/errors.h"
#include "aot/user_kernel.h"
#include "expect.h"

int32_t my_op_init_calls = 0;

static int32_t check_tensor(const struct aot_uk_tensor* t, int32_t type, int32_t rank, const int32_t* dims,
                            int32_t bytes, int32_t is_const, float scale, int32_t zp)
{
    int32_t i;
    if (t->type != type || t->rank != rank || t->bytes != bytes || t->is_const != is_const) return -2001;
    for (i = 0; i < rank; ++i) if (t->dims[i] != dims[i]) return -2002;
    if (type == AOT_UK_NONE) return (t->scales == NULL && t->quant_count == 0) ? 0 : -2003;
    if (t->quant_count != 1 || t->scales[0] != scale || t->zero_points[0] != zp) return -2004;
    return 0;
}

static int32_t check_params(const struct aot_uk_params* p)
{
    static const uint8_t opts[] = EXPECT_OPTIONS;
    static const int32_t hdims[] = EXPECT_H_DIMS;
    static const int32_t cdata[] = EXPECT_C_DATA;
    int32_t rc, i;
    const int8_t* c;
    if (p->op_index != EXPECT_OP || p->num_inputs != 3 || p->num_outputs != 1) return -2010;
    if (p->options_size != (int32_t)sizeof(opts) || memcmp(p->options, opts, sizeof(opts)) != 0) return -2011;
    if (p->scratch_size != EXPECT_SCRATCH) return -2012;
    rc = check_tensor(&p->inputs[0], AOT_UK_INT8, 2, hdims, EXPECT_N, 0, 0.1f, 4);
    if (rc) return rc;
    rc = check_tensor(&p->inputs[1], AOT_UK_NONE, 0, hdims, 0, 0, 0.0f, 0);
    if (rc) return rc;
    rc = check_tensor(&p->inputs[2], AOT_UK_INT8, 1, hdims + 1, EXPECT_N, 1, 0.5f, 1);
    if (rc) return rc;
    rc = check_tensor(&p->outputs[0], AOT_UK_INT8, 2, hdims, EXPECT_N, 0, 0.25f, -7);
    if (rc) return rc;
    if (p->const_inputs[0] != NULL || p->const_inputs[1] != NULL) return -2013;
    c = (const int8_t*)p->const_inputs[2];
    for (i = 0; i < EXPECT_N; ++i) if (c[i] != cdata[i]) return -2014;
    return 0;
}

int32_t my_op_init(const struct aot_uk_params* params)
{
    my_op_init_calls++;
    return check_params(params);
}

int32_t my_op(const struct aot_uk_params* params, const void* const* inputs, void* const* outputs, void* scratch)
{
    const int8_t* h = aot_uk_in_s8(inputs, 0);
    const int8_t* c = aot_uk_in_s8(inputs, 2);
    int8_t* y = aot_uk_out_s8(outputs, 0);
    int32_t* acc = (int32_t*)scratch;
    int32_t i, rc = check_params(params);
    if (rc) return rc;
    if (inputs[1] != NULL || (EXPECT_SCRATCH > 0 && ((uintptr_t)scratch & 7u) != 0u)) return -2020;
    if (EXPECT_SCRATCH == 0 && scratch != NULL) return -2021;
    if (c != params->const_inputs[2]) return -2022;
    if (h[0] == 127) return -1234;
    for (i = 0; i < EXPECT_N; ++i) {
        int32_t v = (int32_t)h[i] - (int32_t)c[i];
        if (EXPECT_SCRATCH >= 4 * EXPECT_N) { acc[i] = v; v = acc[i]; }
        y[i] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
    }
    return AOT_OK;
}
"""

# Runs the model: argv[1] = inputs file (cases of x), argv[2] = outputs file; prints the status protocol.
MAIN_C = r"""
#include <stdio.h>
#include <stdint.h>
#include "aot/errors.h"
#include "m.h"

extern int32_t my_op_init_calls;
static uint8_t ws[M_WORKSPACE_SIZE] __attribute__((aligned(16)));

int main(int argc, char** argv)
{
    int8_t x[M_X_SIZE], y[M_Y_SIZE];
    struct m_inputs in = {x};
    struct m_outputs out = {y};
    FILE* fi = fopen(argv[1], "rb");
    FILE* fo = fopen(argv[2], "wb");
    int32_t rc;
    (void)argc;
#ifdef HAS_INIT
    rc = m_run(&in, &out, ws);
    printf("before_init %d\n", (int)rc);
    rc = m_init();
    printf("init %d failed %d calls %d\n", (int)rc, (int)m_failed_op(), (int)my_op_init_calls);
#endif
    while (fread(x, 1, sizeof x, fi) == sizeof x) {
        rc = m_run(&in, &out, ws);
        printf("run %d failed %d\n", (int)rc, (int)m_failed_op());
        fwrite(y, 1, sizeof y, fo);
    }
    fclose(fi);
    fclose(fo);
    return 0;
}
"""


def _build_and_run(tmp_path, compiled, kernel_sources, expect_h, main_c, cases, defines=()):
    gen = tmp_path / "gen"
    write_files(str(gen), compiled.files)
    srcs = []
    for i, text in enumerate(list(kernel_sources) + [main_c]):
        p = tmp_path / f"src{i}.c"
        p.write_text("".join(f"#define {d}\n" for d in defines) + text)
        srcs.append(str(p))
    (tmp_path / "expect.h").write_text(expect_h)
    exe = tmp_path / "prog"
    build_executable([str(gen / "m.c"), str(gen / "m_weights.c")] + srcs, [str(gen), str(tmp_path)], str(exe))
    fin, fout = tmp_path / "in.bin", tmp_path / "out.bin"
    fin.write_bytes(b"".join(np.asarray(c, np.int8).tobytes() for c in cases))
    proc = subprocess.run([str(exe), str(fin), str(fout)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split("\n"), np.frombuffer(fout.read_bytes(), np.int8)


def _expect_header(b_model_path, n, scratch, op_index=1):
    from compiler.driver import load_model

    g = load_model(str(b_model_path))
    op = g.ops[op_index]
    raw = op.options["custom_bytes"]
    c = op.inputs[2].data.reshape(-1)
    return "\n".join(
        [
            f"#define EXPECT_OPTIONS {_c_array(raw)}",
            f"#define EXPECT_H_DIMS {_c_array([1, n])}",
            f"#define EXPECT_C_DATA {_c_array(c)}",
            f"#define EXPECT_N {n}",
            f"#define EXPECT_OP {op_index}",
            f"#define EXPECT_SCRATCH {scratch}",
            "",
        ]
    )


@needs_tflm
@pytest.mark.parametrize("n,scratch,init", [(8, 64, True), (13, 0, False), (1, 4, True), (40, 0, True)])
def test_custom_op_user_kernel(tmp_path, n, scratch, init):
    rng = np.random.default_rng(n * 31 + scratch)
    in_n = 16 if n != 40 else 3
    b = _fc_model(rng, in_n, n, options={"k": n, "name": "x" * n})
    path = b.save(tmp_path / "m.tflite")
    spec = f"MyOp=my_op,scratch={scratch}" + (",init=my_op_init" if init else "")
    compiled = compile_model(str(path), "m", user_kernels=_opts([spec]))
    header = compiled.files["m.h"]
    assert ("int32_t m_init(void);" in header) == init
    assert "int32_t m_failed_op(void);" in header
    # Extremes first (h[0] == 127 drives the kernel's failure in the last case only).
    cases = [np.full(in_n, -128), np.full(in_n, 127), np.zeros(in_n)] + [
        rng.integers(-128, 128, in_n) for _ in range(6)
    ]
    # The FC part from TFLite Micro (the model cut before the custom op, same weights), then y = h - c.
    b_fc = _fc_model(np.random.default_rng(n * 31 + scratch), in_n, n, custom_op=False)
    h_want = [
        np.asarray(o[0]).reshape(-1)
        for o in tflm_outputs(
            b_fc.save(tmp_path / "fc.tflite"), [[c.astype(np.int8).reshape(1, in_n)] for c in cases], 1
        )
    ]
    keep = [i for i, h in enumerate(h_want) if h[0] != 127]
    fail = [i for i, h in enumerate(h_want) if h[0] == 127]
    lines, got = _build_and_run(
        tmp_path, compiled, [MYOP_C], _expect_header(path, n, scratch), MAIN_C, cases, ["HAS_INIT"] if init else []
    )
    if init:
        assert lines[0] == f"before_init {-5}"
        assert lines[1] == "init 0 failed -1 calls 1"
        lines = lines[2:]
    c = compiled.graph.ops[1].inputs[2].data.reshape(-1).astype(np.int32)
    got = got.reshape(len(cases), n)
    for i in keep:
        assert lines[i] == "run 0 failed -1", lines[i]
        np.testing.assert_array_equal(got[i], np.clip(h_want[i].astype(np.int32) - c, -128, 127))
    for i in fail:
        assert lines[i] == "run -1234 failed 1", lines[i]


@needs_tflm
def test_init_hook_failure_and_failed_op(tmp_path):
    """A hook that finds a mismatch fails <prefix>_init(): the status and operator reach the caller and runs
    stay refused."""
    rng = np.random.default_rng(5)
    path = _fc_model(rng, 4, 6).save(tmp_path / "m.tflite")
    compiled = compile_model(str(path), "m", user_kernels=_opts(["MyOp=my_op,scratch=8,init=my_op_init"]))
    wrong = _expect_header(path, 6, 16)  # the hook expects another scratch size: it must fail with -2012
    lines, _ = _build_and_run(tmp_path, compiled, [MYOP_C], wrong, MAIN_C, [np.zeros(4)], ["HAS_INIT"])
    assert lines[:3] == ["before_init -5", "init -2012 failed 1 calls 1", "run -5 failed 1"]


# Offloaded built-ins: the user function counts its calls and forwards to the CRT's portable kernel, which the
# generated code would have called with the same arguments.
OFFLOAD_C = r"""
#include <stdint.h>
#include "aot/errors.h"
#include "aot/kernels/conv2d.h"
#include "aot/kernels/fully_connected.h"
#include "aot/user_kernel.h"

int32_t npu_calls = 0;
int32_t npu_fail_at = -1;
int32_t npu_init_calls = 0;
int32_t npu_init_ops = 0;

int32_t npu_init(const struct aot_uk_params* params)
{
    npu_init_calls++;
    npu_init_ops += params->op_index;
    return params->num_outputs == 1 ? AOT_OK : -3001;
}

int32_t npu_conv2d(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                   const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t filter_depth,
                   const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c,
                   int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                   int32_t pad_top, int32_t pad_left, int32_t input_offset, int32_t output_offset,
                   const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min, int32_t act_max)
{
    if (npu_calls++ == npu_fail_at) return AOT_ERR_USER_BASE - 7;
    aot_conv2d_s8(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, filter_depth, bias, output,
                  out_h, out_w, out_c, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left,
                  input_offset, output_offset, out_multiplier, out_shift, act_min, act_max);
    return AOT_OK;
}
"""

OFFLOAD_MAIN_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include "aot/errors.h"
#include "m.h"

extern int32_t npu_calls, npu_fail_at, npu_init_calls, npu_init_ops;
static uint8_t ws[M_WORKSPACE_SIZE] __attribute__((aligned(16)));

int main(int argc, char** argv)
{
    int8_t x[M_X_SIZE], y[M_Y_SIZE];
    struct m_inputs in = {x};
    struct m_outputs out = {y};
    FILE* fi = fopen(argv[1], "rb");
    FILE* fo = fopen(argv[2], "wb");
    int32_t rc;
    (void)argc;
    rc = m_init();
    printf("init %d calls %d ops %d\n", (int)rc, (int)npu_init_calls, (int)npu_init_ops);
    while (fread(x, 1, sizeof x, fi) == sizeof x) {
        npu_calls = 0;
        rc = m_run(&in, &out, ws);
        printf("run %d calls %d failed %d\n", (int)rc, (int)npu_calls, (int)m_failed_op());
        fwrite(y, 1, sizeof y, fo);
    }
    npu_calls = 0;
    npu_fail_at = 1;
    rc = m_run(&in, &out, ws);
    printf("fail %d calls %d failed %d\n", (int)rc, (int)npu_calls, (int)m_failed_op());
    fclose(fi);
    fclose(fo);
    return 0;
}
"""


def _conv_net(rng, pad_op_first=False):
    """Three CONV_2D (3x3 same, 1x1 strided, 3x3 valid with RELU) between a DEPTHWISE layer; per-channel weights
    over the whole int8 range."""
    b = ModelBuilder()
    x = b.input("x", [1, 9, 9, 3], "int8", scale=0.04, zero_point=-128)
    cur, shape, cin = x, [9, 9], 3
    layers = [
        ("conv_a", 3, 1, "SAME", 8),
        ("dw", 3, 1, "SAME", 8),
        ("conv_b", 1, 2, "VALID", 5),
        ("conv_c", 3, 1, "VALID", 4),
    ]
    for name, k, s, pad, cout in layers:
        if pad == "SAME":
            oh = (shape[0] + s - 1) // s
        else:
            oh = (shape[0] - k) // s + 1
        scales = rng.uniform(0.002, 0.03, cout)
        if name == "dw":
            w = b.const(
                name + "_w",
                rng.integers(-127, 128, (1, k, k, cout)).astype(np.int8),
                "int8",
                scale=scales,
                zero_point=[0] * cout,
                quantized_dimension=3,
            )
        else:
            w = b.const(
                name + "_w",
                rng.integers(-127, 128, (cout, k, k, cin)).astype(np.int8),
                "int8",
                scale=scales,
                zero_point=[0] * cout,
            )
        bias = b.const(
            name + "_b",
            rng.integers(-3000, 3000, cout).astype(np.int32),
            "int32",
            scale=scales * 0.04,
            zero_point=[0] * cout,
        )
        out = b.tensor(name, [1, oh, oh, cout], "int8", float(rng.uniform(0.05, 0.2)), int(rng.integers(-20, 20)))
        opts = {
            "padding": 0 if pad == "SAME" else 1,
            "strideW": s,
            "strideH": s,
            "fusedActivationFunction": ACT["RELU"] if name == "conv_c" else ACT["NONE"],
        }
        if name == "dw":
            opts["depthMultiplier"] = 1
        cur = b.op("DEPTHWISE_CONV_2D" if name == "dw" else "CONV_2D", [cur, w, bias], out=out, options=opts)
        shape, cin = [oh, oh], cout
    b.output(cur)
    return b


@needs_tflm
@pytest.mark.parametrize("target", ["host", "cortex-m4", "cortex-m55"])
def test_offload_every_conv(tmp_path, target):
    rng = np.random.default_rng(11)
    b = _conv_net(rng)
    path = b.save(tmp_path / "m.tflite")
    compiled = compile_model(
        str(path), "m", target=target, user_kernels=_opts(offload=["CONV_2D=npu_conv2d,init=npu_init"])
    )
    routed = [u["op"] for u in compiled.manifest["user_kernels"]]
    assert routed == [0, 2, 3]
    assert {u["stands_in_for"] for u in compiled.manifest["user_kernels"]} == {"aot_conv2d_s8"}
    c_text = compiled.files["m.c"]
    assert c_text.count("rc = npu_conv2d(") == 3 and "aot_conv2d_s8(" not in c_text
    cases = [np.full((1, 9, 9, 3), -128), np.full((1, 9, 9, 3), 127)] + [
        rng.integers(-128, 128, (1, 9, 9, 3)) for _ in range(4)
    ]
    main_c = (
        OFFLOAD_MAIN_C.replace("M_Y_SIZE", "M_CONV_C_SIZE").replace("{y}", "{.conv_c = y}").replace("{x}", "{.x = x}")
    )
    lines, got = _build_and_run(tmp_path, compiled, [OFFLOAD_C], "", main_c, cases)
    assert lines[0] == "init 0 calls 3 ops 5"
    want = tflm_outputs(str(path), [[c.astype(np.int8)] for c in cases], 1)
    got = got.reshape(len(cases), -1)
    for i, w in enumerate(want):
        assert lines[1 + i] == "run 0 calls 3 failed -1"
        np.testing.assert_array_equal(got[i], np.asarray(w[0]).reshape(-1))
    # The second conv (operator 2) fails: its status and index reach the caller, the third never runs.
    assert lines[1 + len(cases)] == f"fail {-1000 - 7} calls 2 failed 2"


@needs_tflm
def test_offload_by_index_and_name(tmp_path):
    rng = np.random.default_rng(3)
    path = _conv_net(rng).save(tmp_path / "m.tflite")
    by_index = compile_model(str(path), "m", user_kernels=_opts(offload=["#3=npu_conv2d"]))
    assert [u["op"] for u in by_index.manifest["user_kernels"]] == [3]
    assert "m_init" not in by_index.files["m.h"] and "m_failed_op" in by_index.files["m.h"]
    by_name = compile_model(
        str(path), "m", user_kernels=_opts(offload=["name:conv_[ab]=npu_conv2d", "DEPTHWISE_CONV_2D=npu_dw"])
    )
    assert [(u["op"], u["function"]) for u in by_name.manifest["user_kernels"]] == [
        (0, "npu_conv2d"),
        (1, "npu_dw"),
        (2, "npu_conv2d"),
    ]


def test_models_without_user_kernels_unchanged(tmp_path):
    """Mappings that match no operator change nothing: same files byte for byte, no _init/_failed_op."""
    model = os.path.join(REPO, "tests", "models", "kws_ds_cnn_int8.tflite")
    for target in ("host", "cortex-m4"):
        plain = compile_model(model, "kws", target=target)
        mapped = compile_model(
            model, "kws", target=target, user_kernels=_opts(["MyOp=my_op,init=my_init"], ["SVDF=npu_svdf,init=x_init"])
        )
        assert plain.files == mapped.files
        assert "_init" not in plain.files["kws.h"] and "failed_op" not in plain.files["kws.h"]
        assert "user_kernel" not in plain.files["kws.c"] and "user_kernels" not in plain.manifest


def test_unmapped_custom_op_says_how(tmp_path):
    path = _fc_model(np.random.default_rng(0), 4, 4).save(tmp_path / "m.tflite")
    with pytest.raises(UnsupportedError) as e:
        compile_model(str(path), "m", user_kernels=_opts(["OtherOp=f"]))
    msg = str(e.value)
    assert "CUSTOM:MyOp" in msg and "--custom_op MyOp=my_function" in msg and 'custom_ops = {"MyOp"' in msg


@pytest.mark.parametrize(
    "flag,spec,words",
    [
        ("--custom_op", "MyOp", "expected KEY=FUNCTION"),
        ("--custom_op", "MyOp=1fn", "not a C identifier"),
        ("--custom_op", "MyOp=aot_mine", "reserved"),
        ("--custom_op", "MyOp=f,scratch=-1", "scratch must be a byte count"),
        ("--custom_op", "MyOp=f,scratch=99999999999", "scratch must be a byte count"),
        ("--custom_op", "MyOp=f,color=red", "unknown field"),
        ("--offload", "CONV_2D=f,scratch=8", "takes no scratch"),
        ("--offload", "conv=f", "neither an operator type"),
        ("--offload", "#x=f", "operator index"),
    ],
)
def test_bad_mapping_flags(tmp_path, capsys, flag, spec, words):
    path = _fc_model(np.random.default_rng(0), 4, 4).save(tmp_path / "m.tflite")
    rc = aotc_main(["aotc", "compile", str(path), "--prefix", "m", "--out_dir", str(tmp_path / "o"), flag, spec])
    err = capsys.readouterr().err
    assert rc == 2 and words in err and "Traceback" not in err and err.count("\n") == 1


def test_offload_refusals(tmp_path):
    rng = np.random.default_rng(1)
    path = _conv_net(rng).save(tmp_path / "m.tflite")
    # One function cannot stand in for two kernels of different parameter lists.
    with pytest.raises(CompileError, match="different parameter lists"):
        compile_model(str(path), "m", user_kernels=_opts(offload=["CONV_2D=f", "DEPTHWISE_CONV_2D=f"]))
    cpath = _fc_model(rng, 4, 4).save(tmp_path / "c.tflite")
    with pytest.raises(UnsupportedError, match="no built-in kernel to stand in for"):
        compile_model(str(cpath), "m", user_kernels=_opts(offload=["#1=f"]))


def test_cli_compile_with_user_kernels(tmp_path, capsys):
    path = _fc_model(np.random.default_rng(2), 4, 4).save(tmp_path / "m.tflite")
    rc = aotc_main(
        [
            "aotc",
            "compile",
            str(path),
            "--prefix",
            "m",
            "--out_dir",
            str(tmp_path / "o"),
            "--custom_op",
            "MyOp=my_op,scratch=32",
            "--offload",
            "FULLY_CONNECTED=my_fc",
            "--offload",
            "MAX_POOL_2D=unused_pool",
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0 and "no operator of the model matches user kernel mapping 'MAX_POOL_2D=unused_pool'" in out
    text = (tmp_path / "o" / "m.c").read_text()
    assert "rc = my_op(&m_uk1, uk_in, uk_out, (void*)((uint8_t*)(ws + " in text and "rc = my_fc(" in text


def test_custom_op_models_are_the_scripts_output(tmp_path):
    """examples/user_kernels' custom-operator network and its twin are what make_custom_op_models.py writes, and
    ClampFloor really clamps part of the values on seeded inputs (else the example would not exercise it)."""
    sys.path.insert(0, os.path.join(REPO, "tests", "models"))
    import make_custom_op_models

    make_custom_op_models.main(str(tmp_path))
    for name in ("user_custom_int8.tflite", "user_custom_twin_int8.tflite"):
        with open(os.path.join(REPO, "tests", "models", name), "rb") as f:
            assert (tmp_path / name).read_bytes() == f.read(), name
    from compiler.driver import load_model

    g = load_model(str(tmp_path / "user_custom_int8.tflite"))
    floor = int(g.ops[1].inputs[1].data.reshape(-1)[0])
    rng = np.random.default_rng(7)
    xs = [[rng.integers(-128, 128, (1, 32)).astype(np.int8)] for _ in range(16)]
    hs = np.stack(
        [
            np.asarray(o[0]).reshape(-1)
            for o in tflm_outputs(make_custom_op_models.build(False, upto_h=True).save(tmp_path / "h.tflite"), xs, 1)
        ]
    )
    below = float(np.mean(hs < floor))
    assert 0.05 < below < 0.95, f"{below:.0%} of h below the floor {floor}"


# --- tensors nobody writes (an NPU's scratch) and offline-planned offsets, as Vela writes them --------------------

NPU_C = r"""
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "aot/errors.h"
#include "aot/user_kernel.h"
#include "expect.h"

int32_t npu_fn(const struct aot_uk_params* p, const void* const* inputs, void* const* outputs, void* scratch)
{
    const uint8_t* cms = (const uint8_t*)inputs[0];
    uint8_t* scr = (uint8_t*)inputs[1];
    const int8_t* x = (const int8_t*)inputs[2];
    int8_t* y = (int8_t*)outputs[0];
    int32_t i;
    if (scratch != NULL || p->inputs[1].bytes != EXPECT_SCRATCH_BYTES || p->inputs[1].is_const) return -2101;
    if (((uintptr_t)scr & 15u) || ((uintptr_t)cms & 15u)) return -2102;
#if EXPECT_OFFLINE
    if ((const uint8_t*)x - scr != EXPECT_OFF_IN - EXPECT_OFF_SCR) return -2103;
    if ((uint8_t*)y - scr != EXPECT_OFF_OUT - EXPECT_OFF_SCR) return -2104;
#else
    if ((const uint8_t*)x >= scr && (const uint8_t*)x < scr + EXPECT_SCRATCH_BYTES) return -2105;
    if ((uint8_t*)y >= scr && (uint8_t*)y < scr + EXPECT_SCRATCH_BYTES) return -2106;
#endif
    /* The "NPU" stages the input in its scratch first (which may overlap input and output, as Vela plans). */
    {
        int8_t staged[EXPECT_N];
        memcpy(staged, x, EXPECT_N);
        memset(scr, 0xA5, EXPECT_SCRATCH_BYTES);
        for (i = 0; i < EXPECT_N; ++i) y[i] = (int8_t)(staged[i] ^ (int8_t)cms[i % EXPECT_CMS_BYTES]);
    }
    return AOT_OK;
}
"""


def _npu_model(rng, n, scratch_bytes, offsets):
    b = ModelBuilder()
    y = b.tensor("y", [1, n], "int8", 0.1, 0)
    cms = b.const("cms", rng.integers(0, 256, 37).astype(np.uint8), "uint8")
    scr = b.tensor("scratch", [scratch_bytes], "uint8")
    x = b.input("x", [1, n], "int8", scale=0.1, zero_point=0)
    b.op("CUSTOM:fake-npu", [cms, scr, x], out=y, options={"t": 1})
    b.output(y)
    if offsets is not None:
        # Tensor order: y, cms, scratch, x (as created): version 0, subgraph 0, count, one offset per tensor.
        words = [0, 0, 4, offsets["out"], -1, offsets["scr"], offsets["in"]]
        b.metadata["OfflineMemoryAllocation"] = np.asarray(words, "<i4").tobytes()
    return b


@pytest.mark.parametrize(
    "n,scratch_bytes,offsets",
    [
        (16, 256, None),
        (16, 256, {"scr": 0, "in": 0, "out": 0}),  # Vela's shared-SRAM layout: all at the arena base
        (24, 100, {"scr": 48, "in": 0, "out": 160}),  # spread out, the scratch not first
        (5, 64, {"scr": 16, "in": 16 + 64, "out": 0}),
    ],
)
def test_npu_scratch_and_offline_offsets(tmp_path, n, scratch_bytes, offsets):
    rng = np.random.default_rng(n + scratch_bytes)
    path = _npu_model(rng, n, scratch_bytes, offsets).save(tmp_path / "m.tflite")
    compiled = compile_model(str(path), "m", user_kernels=_opts(["fake-npu=npu_fn"]))
    ws = compiled.manifest["workspace"]["size"]
    if offsets is None:
        # The scratch tensor is planned like a tensor (the I/O stay in the application's buffers).
        assert ws == (scratch_bytes + 15) // 16 * 16
        assert "memcpy" not in compiled.files["m.c"]
    else:
        end = max(offsets["scr"] + scratch_bytes, offsets["in"] + n, offsets["out"] + n)
        assert ws == (end + 15) // 16 * 16
        assert compiled.files["m.c"].count("memcpy(") == 2
    cms = compiled.graph.ops[0].inputs[0].data.reshape(-1)
    expect = "\n".join(
        [
            f"#define EXPECT_N {n}",
            f"#define EXPECT_SCRATCH_BYTES {scratch_bytes}",
            f"#define EXPECT_CMS_BYTES {cms.size}",
            f"#define EXPECT_OFFLINE {int(offsets is not None)}",
        ]
        + ([f"#define EXPECT_OFF_{k.upper()} {v}" for k, v in offsets.items()] if offsets else [])
        + [""]
    )
    cases = [np.full(n, -128), np.full(n, 127), rng.integers(-128, 128, n)]
    lines, got = _build_and_run(tmp_path, compiled, [NPU_C], expect, MAIN_C, cases)
    got = got.reshape(len(cases), n)
    for i, c in enumerate(cases):
        assert lines[i] == "run 0 failed -1", lines[i]
        want = (c.astype(np.int8).view(np.uint8) ^ cms[np.arange(n) % cms.size]).view(np.int8)
        np.testing.assert_array_equal(got[i], want)


def test_unwritten_tensor_still_refused_for_builtins(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 4], "int8", scale=0.1, zero_point=0)
    z = b.tensor("z", [1, 4], "int8", 0.1, 0)
    y = b.op("ADD", [x, z], out=b.tensor("y", [1, 4], "int8", 0.1, 0))
    b.output(y)
    with pytest.raises(UnsupportedError, match="neither a constant, a model input nor produced"):
        compile_model(b.save(tmp_path / "m.tflite"), "m")
