#!/usr/bin/env bash
# Runs every test of aot_rules (README command 2; .ci/run calls it):
#   1. `bazel test //...`: compiler pytest, host C tests and QEMU tests on all six boards, in one invocation;
#   2. the consumer workspace e2e/, which uses the rules exactly as an outside user would;
#   3. budget fixtures that must fail `bazel build` with a message naming budget, figure and contributors;
#   4. the archive path of the ARM toolchain (file:// tarball + sha256, and a wrong sha256).
# It sets itself up first (tools/setup.sh) and ends with a "N passed, N failed" line over the three suites.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
"$root/tools/setup.sh" || exit 1
passed=0
failed=0
suite() {  # suite NAME COMMAND...
  echo "=== $1"
  if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "=== $1 FAILED"; fi
}
suite "bazel test //..." bazel test //...
if [ -f "$root/e2e/WORKSPACE" ]; then
  suite "e2e consumer workspace" bash -c "cd '$root/e2e' && bazel test //... && bazel shutdown"
fi
suite "budgets fail the build" "$root/tests/budgets/run_test.sh"
suite "ARM toolchain from a file:// archive" "$root/tests/toolchain_archive/run_test.sh"
echo "test_all: suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
