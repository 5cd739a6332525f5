#!/usr/bin/env bash
# Packs the locally installed arm-none-eabi GCC (Debian layout) into a relocatable archive that looks like an
# official Arm GNU Toolchain release, restricted to the Cortex-M4 hard-float multilib to stay small.
# usage: pack_local_toolchain.sh OUT.tar.gz TOP_DIR_NAME
set -euo pipefail
out=$1
top=$2
prefix=${AOT_LOCAL_TOOLCHAIN_PREFIX:-/usr}
gcc_lib="$prefix/lib/gcc/arm-none-eabi/12.2.1"
tool_lib="$prefix/lib/arm-none-eabi"
multilib=thumb/v7e-m+fp/hard
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
t="$stage/$top"
mkdir -p "$t/bin" "$t/lib/gcc/arm-none-eabi/12.2.1/$multilib" "$t/lib/arm-none-eabi/lib/$multilib"
for tool in addr2line ar as cpp gcc gcov ld nm objcopy objdump readelf size strip; do
  cp "$prefix/bin/arm-none-eabi-$tool" "$t/bin/"
done
(cd "$gcc_lib" && cp -a cc1 collect2 lto-wrapper liblto_plugin.so* include include-fixed "$t/lib/gcc/arm-none-eabi/12.2.1/")
cp -a "$gcc_lib/$multilib/." "$t/lib/gcc/arm-none-eabi/12.2.1/$multilib/"
cp -a "$tool_lib/bin" "$t/lib/arm-none-eabi/"
cp -aL "$tool_lib/include" "$t/lib/arm-none-eabi/include"   # Debian: a link to /usr/include/newlib
cp -a "$tool_lib"/lib/*.specs "$t/lib/arm-none-eabi/lib/"
(cd "$tool_lib/lib/$multilib" && cp -a crt0.o rdimon-crt0.o libc.a libg.a libm.a librdimon.a libnosys.a \
  "$t/lib/arm-none-eabi/lib/$multilib/")
# Fast compression: the archive path and its sha256 are under test, not the ratio (-6 cost ~3 s more of CPU).
tar -C "$stage" -cf - "$top" | gzip -1 >"$out"
