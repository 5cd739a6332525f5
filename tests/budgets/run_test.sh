#!/usr/bin/env bash
# Proves that budgets (and a weights blob of another architecture) fail the build: each fixture of tests/budgets/BUILD.bazel must fail `bazel build` with a
# message naming the budget, the actual figure and its largest contributors. Run from the repository root.
set -uo pipefail
failures=0
expect_failure() {  # expect_failure TARGET PATTERN...
  local target=$1
  shift
  local out
  if out=$(bazel build "$target" 2>&1); then
    echo "FAIL: $target built although it is over budget"
    failures=$((failures + 1))
    return
  fi
  for pattern in "$@"; do
    if ! grep -qE -- "$pattern" <<<"$out"; then
      echo "FAIL: $target: the error does not match '$pattern'. Output:"
      echo "$out" | tail -20
      failures=$((failures + 1))
      return
    fi
  done
  # A budget's failure is its paragraphs: no sandbox hint, no "elf_size failed" (budget_check.sh runs unsandboxed).
  local noises=()
  [[ "$target" != *over_*budget ]] || noises=("Use --sandbox_debug" "elf_size failed")
  for noise in "${noises[@]}"; do
    if grep -qF -- "$noise" <<<"$out"; then
      echo "FAIL: $target: the error carries Bazel's '$noise' line. Output:"
      echo "$out" | tail -20
      failures=$((failures + 1))
      return
    fi
  done
  echo "ok: $target fails: $(grep -oE "(over its|error:|aot_rules:).*" <<<"$out" | head -1 | cut -c1-160)"
}
# The KWS fixtures use kws_ref_model, or the generated DS-CNN of the same architecture without the shared models.
expect_failure //tests/budgets:kws_over_ram_budget "over its ram_budget of 12288 B \(12K\)" \
  "workspace needs 16000 B" "Largest contributors"
expect_failure //tests/budgets:kws_over_flash_budget "over its flash_budget of 20480 B \(20K\)" \
  "Largest contributors: kws_flash_op[0-9]+_filter \([0-9]+ B\)"
if bazel build //tests/budgets:kws_strict_fw >/dev/null 2>&1; then
  echo "ok: //tests/budgets:kws_strict_fw builds with strict_kernels"
else
  echo "FAIL: //tests/budgets:kws_strict_fw does not build with strict_kernels"
  failures=$((failures + 1))
fi
expect_failure //tests/budgets:fold_strict_fw "strict_kernels: 1 layer" \
  "operator 0 \(CONV_2D\) runs aot_conv2d_s8 because aot_conv2d_s8_dsp: folding the input zero point"
expect_failure //tests/budgets:hello_over_budget "over its flash_budget of 4096 B \(4K\): flash_total is [0-9]+ B" \
  "over its ram_budget of 32768 B \(32K\): ram_total is [0-9]+ B" "the stack reservation \(65536 B\)"
expect_failure //tests/budgets:kws_over_region_budget \
  "region DTCM holds [0-9]+ B, over its budget of 8192 B \(8K; the region is 65536 B\)" \
  "Contributors: workspace buffer test_workspace \([0-9]+ B\)" "placed_kws's workspace [0-9]+ B"
expect_failure //tests/budgets:torch_cnn_over_threshold \
  "signal-to-noise ratio against the float model is 45.19 dB for output 'logits' of torch_cnn_float.onnx" \
  "under the threshold of 60 dB \(min_snr_db\)"
# A placed region that overflows: aot_rules' paragraph beside ld's own line.
expect_failure //tests/budgets:dtcm_overflow_fw \
  "aot_rules: region DTCM of board m7_tcm \(65536 B at 0x20000000\) cannot hold the workspace placed in it" \
  "Place it in another region \(aot_firmware placement, or the board's\)" "region .DTCM. overflowed by [0-9]+ bytes"
# A weights blob of another architecture than its library's code (tests/weights_blob).
expect_failure //tests/weights_blob:other_architecture \
  "blob_other_int8.tflite does not have the architecture of blob_a_int8.tflite" \
  "operator 2 \(CONV_2D\): tensor 'pointwise/weights' is int8 \[12, 1, 1, 8\] in blob_other_int8.tflite"
[ "$failures" -eq 0 ] && echo "budget fixtures: all fail as they must"
[ "$failures" -eq 0 ]
