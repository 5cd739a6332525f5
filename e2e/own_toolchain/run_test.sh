#!/usr/bin/env bash
# The user's own toolchain and platform: builds //own_toolchain:app with --platforms=//own_toolchain:product (the
# user's cc_toolchain, startup and linker script; aot_model_library with core = "cortex-m7"), checks that the model
# was generated for the Cortex-M7 on its DSP kernels, and runs the ELF on QEMU mps2-an500 (Cortex-M7), where it
# exits 0 only if every output matches TFLite Micro's. Run from e2e/ by tools/test_all.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bazel build --platforms=//own_toolchain:product //own_toolchain:app //own_toolchain:tiny_m7_report_json
report=$(ls bazel-bin/own_toolchain/tiny_m7.json)
python3 - "$report" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
text = json.dumps(r)
assert r.get("target") == "cortex-m7", f"generated for {r.get('target')!r}, not cortex-m7"
assert "_dsp" in text, "no DSP kernel in the report of a Cortex-M7 model"
print(f"own_toolchain: {sys.argv[1]}: target {r['target']}, DSP kernels chosen")
PY
arm-none-eabi-readelf -h bazel-bin/own_toolchain/app | grep -q "Machine:.*ARM" || { echo "own_toolchain: FAIL: app is not an ARM ELF" >&2; exit 1; }
timeout 60 qemu-system-arm -M mps2-an500 -nographic -monitor none -semihosting-config enable=on,target=native \
  -kernel bazel-bin/own_toolchain/app
echo "own_toolchain: PASS: built with the user's toolchain and platform, bit-exact under QEMU"
