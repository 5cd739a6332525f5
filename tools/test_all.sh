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
#   6. format and lint of every source kind (tools/lint.sh: buildifier, ruff, clang-format);
#   7. the MISRA C:2012 report of the CRT and generated code (tools/misra.py, docs/misra.md).
# It sets itself up first (tools/setup.sh, which may use the package registries). Then, when it can (root, or
# unprivileged user namespaces), it runs the suites inside a fresh network namespace with nothing but loopback:
# any download attempted by a build or test fails there, which proves that none is made.
# It ends with a "N passed, N failed" line over the suites.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

if [ -z "${AOT_IN_NETNS:-}" ]; then
  # e2e consumes the ruleset as a release archive, whose hermetic Python venv comes from the package registry:
  # pack it and fetch e2e's repositories here, where the registry is reachable (the suites below are not). When
  # Bazel is installed already this runs beside tools/setup.sh (both mostly wait on pip and the JVM).
  e2e_fetch() {
    "$root/e2e/make_archive.sh" && (cd "$root/e2e" && bazel build --nobuild //... >/dev/null 2>&1 && bazel shutdown) \
      || { echo "test_all: cannot fetch e2e's repositories (the aot_rules archive and its hermetic Python)" >&2; return 1; }
  }
  fetch_pid=
  if [ -f "$root/e2e/WORKSPACE" ] && command -v bazel >/dev/null 2>&1; then
    e2e_fetch &
    fetch_pid=$!
  fi
  "$root/tools/setup.sh" || exit 1
  if [ -n "$fetch_pid" ]; then
    wait "$fetch_pid" || exit 1
  elif [ -f "$root/e2e/WORKSPACE" ]; then
    e2e_fetch || exit 1
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
started=$SECONDS
logs=$(mktemp -d)
suite() {  # suite NAME COMMAND...
  echo "=== $1"
  local start=$SECONDS
  if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "=== $1 FAILED"; fi
  echo "=== $1: $((SECONDS - start)) s"
}
# A lane runs its suites one after the other into a log and records each result; `report` prints the logs in
# order and counts the results (the lanes run at the same time, so their output would interleave).
lane() {  # lane NAME then (suite title, command string) pairs
  local name=$1 n=0
  shift
  while [ $# -ge 2 ]; do
    n=$((n + 1))
    local start=$SECONDS
    if bash -c "$2" >"$logs/$name.$n.log" 2>&1; then echo pass >"$logs/$name.$n.rc"; else echo FAILED >"$logs/$name.$n.rc"; fi
    echo "$1|$((SECONDS - start))" >"$logs/$name.$n.title"
    shift 2
  done
}
report() {  # report LANE...
  local name n f title secs
  for name in "$@"; do
    n=1
    while [ -f "$logs/$name.$n.title" ]; do
      f="$logs/$name.$n"
      IFS='|' read -r title secs <"$f.title"
      echo "=== $title"
      cat "$f.log"
      if [ "$(cat "$f.rc")" = pass ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "=== $title FAILED"; fi
      echo "=== $title: $secs s"
      n=$((n + 1))
    done
  done
}
suite "format and lint (buildifier, ruff, clang-format)" "$root/tools/lint.sh"
# The suites that do not use this workspace's Bazel server (cppcheck, CMake, pip, and the workspaces and clones of
# their own: e2e, the toolchain archive, the remote cache) run in two lanes beside `bazel test //...`, in the CPU its
# analysis phase and its serial stretches leave idle; their output is printed after it.
lane_start=$SECONDS
lane tools \
  "MISRA C:2012 report (cppcheck; every finding has a deviation record)" "'$root/.venv/bin/python' '$root/tools/misra.py'" \
  "CMake: two models with aotc, ctest under QEMU" "'$root/tests/cmake/run_test.sh'" \
  "the aot-rules wheel in a fresh venv" "'$root/.venv/bin/python' -m pytest -q -p no:cacheprovider '$root/tests/wheel'" &
tools_pid=$!
e2e=(); [ -f "$root/e2e/WORKSPACE" ] && e2e=("e2e consumer workspace"
  "cd '$root/e2e' && bazel test //... && ./check_region_budget.sh && ./own_toolchain/run_test.sh && ./check_toolchain_resolution.sh; rc=\$?; bazel shutdown; exit \$rc")
lane workspaces \
  "ARM toolchain from a file:// archive" "'$root/tests/toolchain_archive/run_test.sh'" \
  "remote cache shared by two clones" "'$root/tests/remote_cache/run_test.sh'" \
  "${e2e[@]}" &
workspaces_pid=$!
suite "bazel test //..." bazel test --config=ci //...
# Bazel's trace of that command (what ran, for how long), before the suites' bazel commands replace it.
cp "$(bazel info output_base 2>/dev/null)/command.profile.gz" /tmp/aot_rules-bazel-test.profile.gz 2>/dev/null &&
  echo "test_all: the trace of bazel test is /tmp/aot_rules-bazel-test.profile.gz (bazel analyze-profile reads it)"
# This workspace's own server again: the budget fixtures must fail `bazel build`.
lane bazel "budgets fail the build" "'$root/tests/budgets/run_test.sh'"
wait "$tools_pid" "$workspaces_pid"
report bazel tools workspaces
echo "test_all: the lanes of suites took $((SECONDS - lane_start)) s together, bazel test //... included"
rm -rf "$logs"
# Leave no server behind inside the namespace: the next bazel command starts a fresh one.
[ -z "${AOT_IN_NETNS:-}" ] || bazel shutdown >/dev/null 2>&1 || true
echo "test_all: the suites took $((SECONDS - started)) s"
echo "test_all: suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
