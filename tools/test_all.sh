#!/usr/bin/env bash
# Runs every test of aot_rules (README command 2; .ci/run calls it):
#   1. `bazel test //...`: compiler pytest, host C tests (plain and ASan/UBSan), QEMU tests on all six boards, the
#      multi-model demo, hygiene tests, in one invocation;
#   2. the consumer workspace e2e/, which uses the rules exactly as an outside user would: an http_archive of this
#      checkout's `git archive` (e2e/make_archive.sh), the compiler in the hermetic venv from requirements_lock.txt;
#   3. budget fixtures that must fail `bazel build` with a message naming budget, figure and contributors;
#   4. the archive path of the ARM toolchain (file:// tarball + sha256, and a wrong sha256);
#   5. a real HTTP remote cache (nginx WebDAV on loopback) shared by two clones at different paths: 0 actions run
#      in the second;
#   6. format and lint of every source kind (tools/lint.sh: buildifier, ruff, clang-format).
# It sets itself up first (tools/setup.sh, which may use the package registries). Then, when it can (root, or
# unprivileged user namespaces), it runs the suites inside a fresh network namespace with nothing but loopback:
# any download attempted by a build or test fails there, which proves that none is made.
# It ends with a "N passed, N failed" line over the suites.
#
# Suite 1 (and 3 after it, on the same Bazel server) runs in the foreground; 2, 4, 5 and 6, which have output bases
# (or no Bazel) of their own, run beside it at a lower CPU priority: they fill the cores when the main build leaves
# them idle (server start-ups, analysis, repository set-up, QEMU, a lone long test at the end) instead of adding
# their own start-ups and cold builds after it. Each suite's output is printed whole when it ends, with its time.
# e2e's repositories are fetched the same way, beside the suites (outside the network namespace: the only step that
# needs the registry), and the e2e suite waits for them.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

if [ -z "${AOT_IN_NETNS:-}" ]; then
  "$root/tools/setup.sh" || exit 1
  if [ -f "$root/e2e/WORKSPACE" ]; then
    # e2e consumes the ruleset as a release archive, whose hermetic Python venv comes from the package registry:
    # pack it and fetch e2e's repositories here, where the registry is reachable (the suites below are not), in the
    # background: the e2e suite waits for AOT_E2E_FETCH/rc.
    "$root/e2e/make_archive.sh" || exit 1
    AOT_E2E_FETCH=$(mktemp -d /tmp/aot_e2e_fetch.XXXXXX)
    export AOT_E2E_FETCH
    (
      cd "$root/e2e" && nice -n 5 bazel build --nobuild //... >"$AOT_E2E_FETCH/log" 2>&1
      rc=$?
      bazel shutdown >/dev/null 2>&1
      echo "$rc" >"$AOT_E2E_FETCH/rc"
    ) &
  fi
  echo "test_all: set-up took $SECONDS s"
  if [ -z "${AOT_ALLOW_NETWORK:-}" ] && unshare -n true 2>/dev/null; then
    # A Bazel server started outside the namespace cannot be reached from inside it (and vice versa).
    bazel shutdown >/dev/null 2>&1 || true
    echo "test_all: running the suites in a network namespace with only loopback (no network reachable)"
    AOT_IN_NETNS=1 unshare -n sh -c 'ip link set lo up 2>/dev/null || true; exec "$0"' "$0"
    exit $?
  fi
  echo "test_all: cannot create a network namespace here; running with the machine's network"
fi

passed=0
failed=0
logs=$(mktemp -d /tmp/aot_test_all.XXXXXX)
started=$SECONDS
suite() {  # suite NAME COMMAND...: runs it now
  echo "=== $1"
  local start=$SECONDS
  if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "=== $1 FAILED"; fi
  echo "=== $1: $((SECONDS - start)) s"
}
background=()
suite_beside() {  # suite_beside NAME COMMAND...: starts it at a lower CPU priority; report_beside prints it
  local n=${#background[@]}
  background+=("$1")
  (
    start=$SECONDS
    renice -n 5 -p "$BASHPID" >/dev/null 2>&1 || true  # what it starts (Bazel servers, actions) inherits it
    "${@:2}" >"$logs/$n.log" 2>&1
    echo "$? $((SECONDS - start))" >"$logs/$n.rc"
  ) &
}
report_beside() {  # waits for the suites started by suite_beside and prints each one's output, verdict and time
  wait
  local n
  for n in "${!background[@]}"; do
    local name=${background[$n]} rc seconds
    read -r rc seconds <"$logs/$n.rc"
    echo "=== $name (beside the main build)"
    cat "$logs/$n.log"
    if [ "$rc" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "=== $name FAILED"; fi
    echo "=== $name: $seconds s"
  done
}
e2e_suite() {
  if [ -n "${AOT_E2E_FETCH:-}" ]; then
    local waited=0
    while [ ! -f "$AOT_E2E_FETCH/rc" ] && [ "$waited" -lt 1800 ]; do
      sleep 1
      waited=$((waited + 1))
    done
    if [ "$(cat "$AOT_E2E_FETCH/rc" 2>/dev/null || echo 1)" -ne 0 ]; then
      echo "test_all: cannot fetch e2e's repositories (the aot_rules archive and its hermetic Python):" >&2
      tail -n 20 "$AOT_E2E_FETCH/log" >&2
      return 1
    fi
  fi
  cd "$root/e2e" && bazel test //... && ./check_region_budget.sh && ./own_toolchain/run_test.sh
  local rc=$?
  bazel shutdown
  return $rc
}
suite_beside "format and lint (buildifier, ruff, clang-format)" "$root/tools/lint.sh"
if [ -f "$root/e2e/WORKSPACE" ]; then
  suite_beside "e2e consumer workspace" e2e_suite
fi
suite_beside "ARM toolchain from a file:// archive" "$root/tests/toolchain_archive/run_test.sh"
suite_beside "remote cache shared by two clones" "$root/tests/remote_cache/run_test.sh"
suite "bazel test //..." bazel test //...
suite "budgets fail the build" "$root/tests/budgets/run_test.sh"
report_beside
rm -rf "$logs" "${AOT_E2E_FETCH:-/nonexistent}"
# Leave no server behind inside the namespace: the next bazel command starts a fresh one.
[ -z "${AOT_IN_NETNS:-}" ] || bazel shutdown >/dev/null 2>&1 || true
echo "test_all: the suites took $((SECONDS - started)) s"
echo "test_all: suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
