#!/bin/bash
# A consumer workspace without `build --incompatible_enable_cc_toolchain_resolution` (Bazel before 7) would compile
# its firmware with the host gcc: `bazel build` of an aot_firmware must instead fail at analysis with one paragraph
# naming the .bazelrc line to add. Run from e2e/ by tools/test_all.sh (a build failure cannot be a test target).
set -u
cd "$(dirname "$0")"
out=$(bazel build --nobuild --noincompatible_enable_cc_toolchain_resolution //:tiny_fw 2>&1)
if [ $? -eq 0 ]; then
  echo "FAIL: //:tiny_fw analysed without platform-based C toolchain resolution" >&2
  exit 1
fi
for want in 'aot_firmware(name = "tiny_fw") for board mps2-an500' "not arm-none-eabi" \
            "build --incompatible_enable_cc_toolchain_resolution" "to your workspace's .bazelrc"; do
  if ! grep -qF -- "$want" <<<"$out"; then
    echo "FAIL: the build failed without saying: $want" >&2
    echo "$out" >&2
    exit 1
  fi
done
if grep -qF "invalid register name" <<<"$out"; then
  echo "FAIL: the host compiler ran on the board's startup code" >&2
  exit 1
fi
echo "PASS: without toolchain resolution the firmware fails at analysis naming the .bazelrc line"
