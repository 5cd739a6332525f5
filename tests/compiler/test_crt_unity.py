"""The CRT as one translation unit (a unity build): it compiles warning-free and models stay bit-exact (issue 29).

A unity build (one .c that #includes every CRT source, as some safety and IDE build systems do) puts every kernel
in one translation unit: file-local names must not clash, template macros must be undefined after use, and the
compiler sees every access of an object across kernels, so type punning through incompatible pointers would no
longer be hidden behind a translation-unit boundary. Here the CRT is built that way with the host compiler and the
tests' flags (-O2 -Wall -Wextra -Werror) and two models, KWS compiled for the Cortex-M4 (DSP layouts) and ad01 for
the Cortex-M55 (Helium layouts, portable fallbacks on the host), are compared with TFLite Micro. The same file is
checked with arm-none-eabi-gcc for the Cortex-M4 and the Cortex-M55, whose DSP and Helium code the host does not
compile (syntax and warnings only: cheap, and the name clashes are what it can find).
"""

import os
import shutil
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


# The cores whose feature macros select other code than the host's: the DSP extension and Helium.
ARM_CORES = {
    "cortex-m4": ["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"],
    "cortex-m55": ["-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard"],
}


def _unity_source(directory) -> str:
    unity = directory / "aot_crt_unity.c"
    unity.write_text("".join(f'#include "{src}"\n' for src in hostbuild.crt_sources()))
    return str(unity)


def _includes():
    return [
        "-I",
        os.path.join(hostbuild.crt_dir(), "include"),
        "-I",
        os.path.join(hostbuild.crt_dir(), "src", "kernels"),
    ]


@pytest.fixture(scope="module")
def unity_object(tmp_path_factory):
    """The whole CRT compiled as one translation unit; the object file."""
    d = tmp_path_factory.mktemp("unity")
    obj = d / "aot_crt_unity.o"
    cmd = [hostbuild.compiler_command()] + hostbuild.CFLAGS + _includes() + ["-c", _unity_source(d), "-o", str(obj)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, f"unity build of the CRT failed:\n{proc.stderr[:4000]}"
    return str(obj)


@pytest.mark.parametrize("core", sorted(ARM_CORES))
def test_unity_build_compiles_for_core(tmp_path, core):
    gcc = shutil.which("arm-none-eabi-gcc")
    if gcc is None:
        pytest.skip("arm-none-eabi-gcc not installed (tools/setup.sh installs it)")
    cmd = [gcc] + ARM_CORES[core] + hostbuild.CFLAGS + _includes() + ["-fsyntax-only", _unity_source(tmp_path)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, f"unity build of the CRT for the {core} failed:\n{proc.stderr[:4000]}"


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
        ("ad01_int8", "cortex-m55"),
    ],
)
def test_model_bit_exact_with_unity_crt(tmp_path, monkeypatch, unity_object, name, target):
    monkeypatch.setattr(hostbuild, "crt_objects", lambda prebuilt=True: [unity_object])
    _check(tmp_path, model_or_generated(name), count=2, target=target)
