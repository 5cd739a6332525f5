#!/usr/bin/env bash
# The CMake path end to end: configures examples/cmake with the arm-none-eabi toolchain file and this checkout's
# `aotc` (the .venv of tools/setup.sh, as `pip install aot-rules` would put it on PATH), builds the two-model
# firmware (CRT from `aotc crt`, models from `aotc compile`, cases from `aotc refdata`) and runs ctest, which runs
# it under QEMU mps2-an386 and needs the bit-exact line. Run by tools/test_all.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(mktemp -d "${TMPDIR:-/tmp}/aot-cmake.XXXXXX")
trap 'rm -rf "$build"' EXIT
PATH="$root/.venv/bin:$PATH" cmake -S "$root/examples/cmake" -B "$build" \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/arm-none-eabi-cortex-m4.cmake" -DCMAKE_BUILD_TYPE=Release >/dev/null
PATH="$root/.venv/bin:$PATH" cmake --build "$build" -j 2 >/dev/null
(cd "$build" && ctest --output-on-failure)
