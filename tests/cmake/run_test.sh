#!/usr/bin/env bash
# The CMake path end to end: configures examples/cmake with the arm-none-eabi toolchain file and this checkout's
# `aotc` (the .venv of tools/setup.sh, as `pip install aot-rules` would put it on PATH), builds the two-model
# firmware (CRT from `aotc crt`, models from `aotc compile`, cases from `aotc refdata`) and runs ctest, which runs
# it under QEMU mps2-an386 and needs the bit-exact line; then checks the Zephyr module layout (zephyr/). Run by
# tools/test_all.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(mktemp -d "${TMPDIR:-/tmp}/aot-cmake.XXXXXX")
trap 'rm -rf "$build"' EXIT
PATH="$root/.venv/bin:$PATH" cmake -S "$root/examples/cmake" -B "$build" \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/arm-none-eabi-cortex-m4.cmake" -DCMAKE_BUILD_TYPE=Release >/dev/null
PATH="$root/.venv/bin:$PATH" cmake --build "$build" -j 2 >/dev/null
(cd "$build" && ctest --output-on-failure)
# The Zephyr module layout: zephyr/module.yml has only keys of Zephyr's module schema, and its build.cmake directory
# and kconfig file exist, the Kconfig declaring the symbol the CMakeLists tests; then that directory is configured
# the way Zephyr adds a module (tests/cmake/zephyr_module: no Zephyr install needed), defining aot_crt with Zephyr's
# flags and aot_model_library for the application.
zcmake=$("$root/.venv/bin/python" - "$root" <<'PY'
import pathlib, sys, yaml
root = pathlib.Path(sys.argv[1])
m = yaml.safe_load((root / "zephyr/module.yml").read_text())
allowed = {"name", "build", "samples", "tests", "boards", "blobs", "security", "package-managers"}
assert set(m) <= allowed and m["name"], f"zephyr/module.yml: keys {sorted(m)}, allowed {sorted(allowed)}"
build = m["build"]
assert set(build) <= {"cmake", "kconfig", "cmake-ext", "kconfig-ext", "sysbuild-cmake", "depends", "settings"}, build
cmake_dir, kconfig = root / build["cmake"], root / build["kconfig"]
assert (cmake_dir / "CMakeLists.txt").is_file(), f"zephyr/module.yml: no {cmake_dir}/CMakeLists.txt"
assert "\nconfig AOT_RULES\n" in kconfig.read_text(), f"{kconfig} does not declare AOT_RULES"
assert "CONFIG_AOT_RULES" in (cmake_dir / "CMakeLists.txt").read_text()
print(cmake_dir)
PY
)
PATH="$root/.venv/bin:$PATH" cmake -S "$root/tests/cmake/zephyr_module" -B "$build/zephyr" \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/arm-none-eabi-cortex-m4.cmake" -DAOT_ZEPHYR_CMAKE_DIR="$zcmake" \
  -DAOT_RULES_ROOT="$root" | grep "aot_rules Zephyr module"
