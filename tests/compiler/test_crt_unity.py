"""The CRT as one translation unit (a unity build): it compiles warning-free and models stay bit-exact (issue 29).

A unity build (one .c that #includes every CRT source, as some safety and IDE build systems do) puts every kernel
in one translation unit: file-local names must not clash, template macros must be undefined after use, and the
compiler sees every access of an object across kernels, so type punning through incompatible pointers would no
longer be hidden behind a translation-unit boundary. Here the CRT is built that way with the host compiler and the
tests' flags (-O2 -Wall -Wextra -Werror) and a few models, compiled for the Cortex-M4 (DSP layouts) and the
Cortex-M55 (Helium layouts, portable fallbacks on the host), are compared with TFLite Micro.
"""

import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from compiler import hostbuild  # noqa: E402
from compiler.oracle import tflm_available  # noqa: E402
from conftest import model_or_generated  # noqa: E402
from test_dsp_kernels import _check  # noqa: E402

needs_tflm = pytest.mark.skipif(not tflm_available(), reason="tflite_micro is not installed")


@pytest.fixture(scope="module")
def unity_object(tmp_path_factory):
    """The whole CRT compiled as one translation unit; the object file."""
    d = tmp_path_factory.mktemp("unity")
    unity = d / "aot_crt_unity.c"
    sources = hostbuild.crt_sources()
    unity.write_text("".join(f'#include "{src}"\n' for src in sources))
    obj = d / "aot_crt_unity.o"
    include = os.path.join(hostbuild.crt_dir(), "include")
    kernels = os.path.join(hostbuild.crt_dir(), "src", "kernels")
    cmd = [hostbuild.compiler_command()] + hostbuild.CFLAGS + ["-I", include, "-I", kernels, "-c", str(unity)]
    proc = subprocess.run(cmd + ["-o", str(obj)], capture_output=True, text=True)
    assert proc.returncode == 0, f"unity build of the CRT ({len(sources)} files) failed:\n{proc.stderr[:4000]}"
    return str(obj)


def test_unity_build_holds_every_kernel(unity_object):
    # The unity object defines what the separate objects do: every external symbol of the CRT.
    nm = subprocess.run(["nm", "--defined-only", "-g", unity_object], capture_output=True, text=True, check=True)
    symbols = {line.split()[-1] for line in nm.stdout.splitlines() if line.strip()}
    assert "aot_conv2d_s8" in symbols and "aot_fully_connected_s8_dsp" in symbols, sorted(symbols)[:20]
    assert all(s.startswith("aot_") for s in symbols), [s for s in symbols if not s.startswith("aot_")]


@needs_tflm
@pytest.mark.parametrize(
    "name,target",
    [
        ("kws_ref_model", "cortex-m4"),
        ("kws_ref_model", "cortex-m55"),
        ("pretrainedResnet_quant", "cortex-m4"),
        ("ad01_int8", "cortex-m55"),
    ],
)
def test_model_bit_exact_with_unity_crt(tmp_path, monkeypatch, unity_object, name, target):
    monkeypatch.setattr(hostbuild, "crt_objects", lambda prebuilt=True: [unity_object])
    _check(tmp_path, model_or_generated(name), count=2, target=target)
