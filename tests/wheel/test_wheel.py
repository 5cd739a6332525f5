"""The `aot-rules` wheel as a user without Bazel or the checkout gets it: built from this checkout (leaving no
build/ or *.egg-info behind), installed into a fresh venv, and run from an empty directory with no AOT_*
variables: `aotc compile`, `aotc run` and `aotc testgen` on a TFLite and an ONNX model, the testgen program built
against the CRT that `aotc crt` writes and run. Also: the import package is `aot_compiler` (no top-level
`compiler`), every command has its own --help, and `bench` (checkout-only) is not offered.

CI runs offline, so the fresh venv gets the wheel's dependencies (numpy, onnx, tflite, the oracles, ...) from this
checkout's .venv through a path entry instead of the package index; the wheel itself is installed by that venv's
pip (`pip --python <fresh venv> install --no-deps --no-index`, so the fresh venv needs no pip of its own) and the
test asserts that `aot_compiler` and its CRT load from the fresh venv. The CRT that `aotc crt` writes is compiled
once into an archive that both test programs link.

Run: .venv/bin/python -m pytest tests/wheel -q   (tools/test_all.sh runs it; ~2 min, mostly the C runtime build).
"""

import glob
import os
import subprocess
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TFLITE_MODEL = os.path.join(REPO, "e2e", "tiny_mobilenet_int8.tflite")


def _run(cmd, cwd, env, check=True):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise AssertionError(f"{cmd} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    return r


def _onnx_model(path):
    """A small float Conv + Relu + Flatten + Gemm network with a symbolic batch dimension."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(3)
    inits = [
        numpy_helper.from_array(rng.normal(0, 0.5, (4, 3, 3, 3)).astype(np.float32), "w"),
        numpy_helper.from_array(rng.normal(0, 0.1, (4,)).astype(np.float32), "b"),
        numpy_helper.from_array(rng.normal(0, 0.2, (4 * 6 * 6, 5)).astype(np.float32), "fc_w"),
        numpy_helper.from_array(rng.normal(0, 0.1, (5,)).astype(np.float32), "fc_b"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Flatten", ["r"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "wheel_test",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 5])],
        inits,
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), path)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(aotc path, environment, work directory) of a fresh venv with the wheel built from this checkout."""
    tmp = tmp_path_factory.mktemp("wheel")
    before = {p for p in os.listdir(REPO) if p == "build" or p.endswith(".egg-info")}
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            REPO,
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp / "dist"),
        ],
        cwd=str(tmp),
        env=dict(os.environ),
    )
    after = {p for p in os.listdir(REPO) if p == "build" or p.endswith(".egg-info")}
    assert after == before, f"building the wheel left {sorted(after - before)} in the checkout"
    (wheel,) = glob.glob(str(tmp / "dist" / "aot_rules-*.whl"))

    venv = tmp / "venv"
    # Without pip of its own (ensurepip costs ~5 s of CPU): this venv's pip installs the wheel into it.
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=str(tmp), env=dict(os.environ))
    python = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AOT_", "PYTHON"))}
    _run(
        [sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", wheel],
        cwd=str(tmp),
        env=env,
    )
    site = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], str(tmp), env)
    # The dependencies, from this checkout's venv (appended to sys.path, so the wheel's own files come first;
    # a plain path entry does not run that venv's .pth files, so its editable install stays out).
    with open(os.path.join(site.stdout.strip(), "aot_wheel_test_deps.pth"), "w") as f:
        f.write(sysconfig.get_paths()["purelib"] + "\n")
    work = tmp / "work"
    work.mkdir()
    return str(venv / "bin" / "aotc"), python, env, str(work)


def test_import_package_is_aot_compiler_from_the_venv(installed):
    _, python, env, work = installed
    out = _run(
        [
            python,
            "-c",
            "import aot_compiler, aot_compiler.hostbuild as h; print(aot_compiler.__file__); print(h.crt_dir())",
        ],
        work,
        env,
    ).stdout.split()
    venv = os.path.dirname(os.path.dirname(python))
    assert out[0].startswith(venv) and out[1].startswith(venv), out
    assert os.path.isfile(os.path.join(out[1], "include", "aot", "errors.h"))
    r = _run([python, "-c", "import compiler"], work, env, check=False)
    assert r.returncode != 0, "the wheel installs a top-level package named `compiler`"


def test_help_names_onnx_and_no_bench(installed):
    aotc, _, env, work = installed
    out = _run([aotc, "--help"], work, env).stdout
    for want in (".onnx", "--dim", "--freeze_input", "--io_in_workspace", "crt --out_dir"):
        assert want in out, want
    assert "bench" not in out
    r = _run([aotc, "bench"], work, env, check=False)
    assert r.returncode == 2 and "unknown command 'bench'" in r.stderr


_CC = os.environ.get("CC", "cc")


def _crt_archive(aotc, env, work):
    """(crt dir, static archive): the CRT that `aotc crt` writes, compiled once for every test program here."""
    crt = os.path.join(work, "crt")
    archive = os.path.join(work, "libaot_crt.a")
    if not os.path.isfile(archive):
        _run([aotc, "crt", "--out_dir", crt], work, env)
        srcs = sorted(glob.glob(os.path.join(crt, "src", "**", "*.c"), recursive=True))
        objs = [os.path.join(work, "crt_obj", f"{i}.o") for i in range(len(srcs))]
        os.makedirs(os.path.join(work, "crt_obj"))
        flags = ["-std=c99", "-O1", "-I", os.path.join(crt, "include"), "-c"]
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            list(pool.map(lambda so: _run([_CC] + flags + [so[0], "-o", so[1]], work, env), zip(srcs, objs)))
        _run(["ar", "rcs", archive] + objs, work, env)
    return crt, archive


def _check_program(aotc, env, work, model, prefix, extra):
    out = os.path.join(work, prefix)
    _run([aotc, "compile", model, "--prefix", prefix, "--out_dir", out, "--target", "cortex-m4"] + extra, work, env)
    assert os.path.isfile(os.path.join(out, prefix + "_weights.c"))
    _run([aotc, "testgen", model, "--prefix", prefix, "--out_dir", out, "--count", "2"] + extra, work, env)
    crt, archive = _crt_archive(aotc, env, work)
    exe = os.path.join(out, "test")
    # The test program for this machine: the model compiled for the host, with testgen's cases.
    host = os.path.join(out, "host")
    _run([aotc, "compile", model, "--prefix", prefix, "--out_dir", host] + extra, work, env)
    srcs = [os.path.join(host, prefix + ".c"), os.path.join(host, prefix + "_weights.c")]
    srcs += [os.path.join(out, prefix + "_test.c")]
    cmd = [_CC, "-std=c99", "-O1", "-I", os.path.join(crt, "include"), "-I", host, "-o", exe]
    _run(cmd + srcs + [archive, "-lm"], work, env)
    r = _run([exe], work, env, check=False)
    assert r.returncode == 0, f"{prefix}_test failed:\n{r.stdout}\n{r.stderr}"


def test_tflite_compile_run_testgen(installed):
    aotc, _, env, work = installed
    if not os.path.isfile(TFLITE_MODEL):
        pytest.skip(f"{TFLITE_MODEL} is missing")
    inputs = os.path.join(work, "tiny_in.npz")
    info = _run([aotc, "info", TFLITE_MODEL], work, env).stdout
    assert "CONV_2D" in info
    _check_program(aotc, env, work, TFLITE_MODEL, "tiny", [])
    # run: the input's name and shape from the generated header's report.
    import json

    report = json.load(open(os.path.join(work, "tiny", "tiny.json")))
    (inp,) = report["inputs"]
    np.savez(inputs, **{inp["name"]: np.zeros(inp["shape"], dtype=np.int8)})
    _run([aotc, "run", TFLITE_MODEL, "--inputs", inputs, "--outputs", os.path.join(work, "tiny_out.npz")], work, env)
    assert np.load(os.path.join(work, "tiny_out.npz")).files


def test_onnx_compile_run_testgen(installed):
    aotc, _, env, work = installed
    model = os.path.join(work, "net.onnx")
    _onnx_model(model)
    _check_program(aotc, env, work, model, "net", ["--dim", "batch=1"])
    inputs = os.path.join(work, "net_in.npz")
    np.savez(inputs, x=np.linspace(-1, 1, 3 * 8 * 8, dtype=np.float32).reshape(1, 3, 8, 8))
    outputs = os.path.join(work, "net_out.npz")
    _run([aotc, "run", model, "--dim", "batch=1", "--inputs", inputs, "--outputs", outputs], work, env)
    import onnxruntime as ort

    expect = ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, dict(np.load(inputs)))[0]
    np.testing.assert_allclose(np.load(outputs)["y"], expect, rtol=1e-4, atol=1e-4)
