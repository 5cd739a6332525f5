#!/usr/bin/env bash
# Exercises the archive path of arm_gnu_toolchain for real: packs the local toolchain into a tarball, serves it
# with a file:// URL and its sha256 to a fresh workspace that builds and runs a firmware under QEMU, then checks
# that the same workspace with a wrong sha256 fails the build with a clear message. Run by tools/test_all.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${AOT_TEST_TMP:-$(mktemp -d)}
mkdir -p "$work"
top=arm-gnu-toolchain-12.2.rel1-local-arm-none-eabi
archive="$work/$top.tar.gz"
echo "toolchain_archive: packing the local toolchain into $archive"
"$here/pack_local_toolchain.sh" "$archive" "$top"
sha=$(sha256sum "$archive" | cut -d' ' -f1)

make_ws() {  # make_ws DIR SHA256
  mkdir -p "$1"
  sed -e "s|%AOT_RULES%|$root|; s|%SHA256%|$2|; s|%STRIP_PREFIX%|$top|; s|%URL%|file://$archive|" \
    "$here/workspace/WORKSPACE.tpl" > "$1/WORKSPACE"
  cp "$here/workspace/BUILD.tpl" "$1/BUILD.bazel"
  cp "$here/workspace/hello.c" "$root/.bazelrc" "$1/"
}

status=0
make_ws "$work/ws" "$sha"
if (cd "$work/ws" && bazel test //... 2>&1 | tail -n 4); then
  echo "toolchain_archive: PASS: firmware built from the file:// archive (sha256 $sha) ran under QEMU"
else
  echo "toolchain_archive: FAIL: the archive toolchain did not build and run the firmware" >&2
  status=1
fi

# The same workspace with a wrong sha256, in the same Bazel server (a second workspace cost a server start and
# its own load): the changed attribute makes Bazel fetch the archive again, and the checksum must fail it.
bad=0000000000000000000000000000000000000000000000000000000000000000
make_ws "$work/ws" "$bad"
if out=$(cd "$work/ws" && bazel build //:hello 2>&1); then
  echo "toolchain_archive: FAIL: a wrong sha256 was accepted" >&2
  status=1
elif grep -q "could not fetch the arm-none-eabi toolchain archive" <<<"$out" && grep -q "$bad" <<<"$out"; then
  echo "toolchain_archive: PASS: a wrong sha256 fails with: $(grep -m1 'Error in fail: aot_rules' <<<"$out" | sed 's/.*Error in fail: //')"
else
  echo "toolchain_archive: FAIL: a wrong sha256 failed without the expected message:" >&2
  echo "$out" | tail -n 20 >&2
  status=1
fi
(cd "$work/ws" && bazel shutdown >/dev/null 2>&1) || true
[ -n "${AOT_TEST_TMP:-}" ] || rm -rf "$work"
exit $status
