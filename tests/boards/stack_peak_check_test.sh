#!/bin/sh
# aot_rules/private/stack_peak_check.sh without QEMU: a fake runner prints what a model test's firmware prints, and
# the check must pass a peak within its bound and fail, naming both figures, a peak over it, a lower-bound-only
# bound, a model with no printed peak and a failing run.
set -u
check=$1
tmp=${TEST_TMPDIR:-/tmp}
fails=0

# expect RC PATTERN BOUNDS_TEXT GUEST_OUTPUT [GUEST_EXIT]
expect() {
  want_rc=$1 pattern=$2
  printf '%s' "$3" >"$tmp/bounds"
  printf '#!/bin/sh\nprintf "%%s" "%s"\nexit %s\n' "$4" "${5:-0}" >"$tmp/runner"
  chmod +x "$tmp/runner"
  out=$("$check" "$tmp/bounds" "$tmp/runner" machine fw.elf 10 2>&1)
  rc=$?
  if [ "$rc" -ne "$want_rc" ] || ! printf '%s' "$out" | grep -q -- "$pattern"; then
    echo "FAIL: want exit $want_rc and '$pattern'; got exit $rc:"
    echo "$out"
    fails=$((fails + 1))
  fi
}

ok_out='aot_stack: kws_run peak=516
kws: 10 of 10 cases match the reference
'
expect 0 "kws_run: measured 516 B <= static bound 516 B" "kws_run 516
" "$ok_out"
expect 1 "kws_run: the run used 516 B of stack, more than its static bound of 512 B" "kws_run 512
" "$ok_out"
expect 1 "lower bound only (kws_run unbounded 300 indirect call in aot_x)" "kws_run unbounded 300 indirect call in aot_x
" "$ok_out"
expect 1 "kws_run: the size report has no static stack bound" "kws_run none
" "$ok_out"
expect 1 "ad01_run: the firmware printed no stack peak" "ad01_run 700
kws_run 516
" "$ok_out"
expect 0 "kws_run: stack not measured" "kws_run 516
" "aot_stack: kws_run peak=unmeasured (no probe)
"
# A failing run fails with its own exit code, whatever the stack.
expect 3 "kws: 10 of 10" "kws_run 516
" "$ok_out" 3
# Two models, each against its own bound (a batch firmware).
expect 1 "b_run: the run used 90 B" "a_run 100
b_run 80
" "aot_stack: a_run peak=100
aot_stack: b_run peak=90
"
if [ "$fails" -ne 0 ]; then
  echo "$fails case(s) failed"
  exit 1
fi
echo "stack_peak_check.sh: every case as expected"
