#!/usr/bin/env bash
# Format and lint checks of every source kind (tools/test_all.sh runs it as a suite; `tools/lint.sh --fix` rewrites
# the files in place):
#   - Starlark (BUILD, .bzl, WORKSPACE, MODULE.bazel): buildifier 8.2.1, format and lint;
#   - Python: ruff (configuration in pyproject.toml), lint and format;
#   - C: clang-format (configuration in .clang-format) over crt/, tests, examples, bench and toolchains.
# The tools come from the registries: buildifier from npm (@bazel/buildifier ships its binaries in the package)
# into .tools/, ruff from PyPI into .venv (requirements.txt), clang-format from Debian (tools/setup.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
fix=0
[ "${1:-}" = "--fix" ] && fix=1

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) bin=buildifier-linux_amd64 ;;
  Linux-aarch64) bin=buildifier-linux_arm64 ;;
  Darwin-arm64) bin=buildifier-darwin_arm64 ;;
  Darwin-x86_64) bin=buildifier-darwin_amd64 ;;
  *) echo "lint: no buildifier binary for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
buildifier="$root/.tools/node_modules/@bazel/buildifier/$bin"
[ -e "$buildifier" ] || "$root/tools/setup.sh" >/dev/null
chmod +x "$buildifier"
ruff="$root/.venv/bin/ruff"

# Warnings off, with the reason: native-py / native-sh-* / native-cc-*: Bazel 4.2.3 has no rules_python or rules_shell
# offline, and its rules_cc
# shim exports no CcInfo / cc_common (both are the built-ins there); print: the skip messages for absent shared
# models are deliberate; bzl-visibility: tests load the private rule files they test; function-docstring-*: private
# helpers are described in prose (the public macros and rules document every argument); unnamed-macro: the
# WORKSPACE set-up functions and the demo's target-set macros declare fixed names by design.
warnings="-native-py,-native-cc-info,-native-cc-common,-print,-bzl-visibility,-function-docstring-args"
warnings="$warnings,-function-docstring-return,-function-docstring-header,-unnamed-macro,-native-sh-test"
warnings="$warnings,-native-sh-binary"
# The offline shims forward to the native rules on purpose (third_party/shims/README.md).
starlark=$(git ls-files 'BUILD' '*/BUILD' '*.bazel' '*.bzl' 'WORKSPACE' '*/WORKSPACE' | grep -v '^third_party/shims/')
c_files=$(git ls-files '*.c' '*.h' | grep -vE '^(tests/models/generated|examples/.*/generated)/' || true)
status=0
if [ "$fix" -eq 1 ]; then
  "$buildifier" --lint=fix --warnings="$warnings" $starlark
  "$ruff" check --fix --quiet . || true
  "$ruff" format --quiet .
  clang-format -i $c_files
fi
step() {  # step NAME COMMAND...
  if "${@:2}"; then echo "lint: $1: ok"; else echo "lint: $1: FAILED (tools/lint.sh --fix rewrites what it can)"; status=1; fi
}
step "buildifier (format + lint)" "$buildifier" --mode=check --lint=warn --warnings="$warnings" $starlark
step "ruff check" "$ruff" check --quiet .
step "ruff format" "$ruff" format --check --quiet .
step "clang-format" clang-format --dry-run --Werror $c_files
exit $status
