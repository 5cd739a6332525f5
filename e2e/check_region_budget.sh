#!/bin/bash
# A region budget the image cannot meet must fail `bazel build`, naming the region, the figure and the
# contributors. Run from e2e/ by tools/test_all.sh (a build failure cannot be a test target of the same build).
set -u
cd "$(dirname "$0")"
out=$(bazel build //:dtcm_too_small 2>&1)
if [ $? -eq 0 ]; then
  echo "FAIL: //:dtcm_too_small built although its DTCM budget is 512 B" >&2
  exit 1
fi
for want in "region DTCM holds" "over its budget of 512 B" "the region is 65536 B" \
            "Contributors: workspace buffer test_workspace" "my_model_test's workspace"; do
  if ! grep -qF "$want" <<<"$out"; then
    echo "FAIL: the build failed without saying: $want" >&2
    echo "$out" >&2
    exit 1
  fi
done
# Bazel's own lines around it name the budget check, with no sandbox hint and no "elf_size failed".
for noise in "Use --sandbox_debug" "elf_size failed"; do
  if grep -qF -- "$noise" <<<"$out"; then
    echo "FAIL: the budget error carries Bazel's '$noise' line" >&2
    echo "$out" >&2
    exit 1
  fi
done
echo "PASS: the over-budget region fails the build: $(grep -F 'region DTCM holds' <<<"$out")"
