#!/bin/sh
# An aot_model_test's QEMU run with its stack held to the static bound: runs the firmware through the QEMU runner,
# then compares each `aot_stack: PREFIX_run peak=N` line the guest printed (the deepest stack of any run, measured
# with the board's stack probe, compiler/commands/testgen_cmd.py) with the bound the firmware's size report computed
# for that function from the linked code (`PREFIX_run BYTES` lines, toolchains/tools/elf_size.py). Fails, with both
# figures, if a run used more than its bound, if the bound is only a lower bound (an indirect call or recursion), or
# if a model with a bound printed no peak. The QEMU run is the test's only one: the check reads its output.
# usage: stack_peak_check.sh BOUNDS RUNNER MACHINE ELF TIMEOUT_SECONDS [qemu args...]
set -u
bounds=$1
shift
out=${TEST_TMPDIR:-${TMPDIR:-/tmp}}/aot_stack_peak.$$.log
"$@" >"$out" 2>&1
rc=$?
cat "$out"
if [ $rc -ne 0 ]; then
  rm -f "$out"
  exit $rc
fi
awk -v bounds_file="$bounds" '
  BEGIN {
    while ((getline line < bounds_file) > 0) {
      n = split(line, f, " ")
      if (n >= 2) { kind[f[1]] = f[2]; text[f[1]] = line; order[++models] = f[1] }
    }
    bad = 0
  }
  /^aot_stack: / {
    sub(/\r$/, "")
    fn = $2
    peak = $3
    sub(/^peak=/, "", peak)
    seen[fn] = 1
    if (!(fn in kind)) { print "aot_stack: " fn ": no static bound in " bounds_file; bad = 1; next }
    if (peak !~ /^[0-9]+$/) { print "aot_stack: " fn ": stack not measured (" $0 "), bound " kind[fn]; next }
    if (kind[fn] == "none") { print "aot_stack: " fn ": the size report has no static stack bound (" text[fn] ")"; bad = 1; next }
    if (kind[fn] == "unbounded") {
      print "aot_stack: " fn ": the static stack bound is a lower bound only (" text[fn] "); the run used " peak " B"
      bad = 1
      next
    }
    if (peak + 0 > kind[fn] + 0) {
      print "aot_stack: " fn ": the run used " peak " B of stack, more than its static bound of " kind[fn] " B (the size report names the deepest path): the stack analysis misses a frame or a call"
      bad = 1
    } else {
      print "aot_stack: " fn ": measured " peak " B <= static bound " kind[fn] " B"
    }
  }
  END {
    for (i = 1; i <= models; i++) {
      if (!(order[i] in seen)) { print "aot_stack: " order[i] ": the firmware printed no stack peak (built without AOT_STACK_PROBE?)"; bad = 1 }
    }
    exit bad
  }
' "$out"
rc=$?
rm -f "$out"
exit $rc
