#!/bin/sh
# Runs a Cortex-M firmware under qemu-system-arm with semihosting and exits with the guest's exit code; the
# first UART of the machine goes to stdout (boards with `semihosting = False` print there).
# usage: qemu_run.sh MACHINE ELF TIMEOUT_SECONDS [extra qemu arguments...]
# Set AOT_QEMU to use another qemu-system-arm binary.
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 MACHINE ELF TIMEOUT_SECONDS [qemu args...]" >&2
  exit 2
fi
machine=$1
elf=$2
timeout_s=$3
shift 3
qemu=${AOT_QEMU:-qemu-system-arm}
if ! command -v "$qemu" >/dev/null 2>&1 && [ ! -x "$qemu" ]; then
  echo "aot_qemu: $qemu not found; install Debian's qemu-system-arm (./bazelw installs it)" >&2
  exit 2
fi
if [ ! -f "$elf" ]; then
  echo "aot_qemu: firmware $elf does not exist" >&2
  exit 2
fi
timeout -k 5 "$timeout_s" "$qemu" -M "$machine" -nographic -monitor none -serial stdio \
  -semihosting-config enable=on,target=native -kernel "$elf" "$@" </dev/null
rc=$?
case $rc in
  0) ;;
  124|137) echo "aot_qemu: TIMEOUT: $elf did not exit within ${timeout_s}s on $machine" >&2 ;;
  134) echo "aot_qemu: $elf FAULTED on $machine (exit code 134; the fault is named above)" >&2 ;;
  *) echo "aot_qemu: $elf exited with code $rc on $machine" >&2 ;;
esac
exit $rc
