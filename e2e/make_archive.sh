#!/usr/bin/env bash
# Packs this aot_rules checkout as a release archive would be (`git archive` of the tracked files, uncommitted
# changes to them included) into e2e/.archive/aot_rules.tar.gz and writes e2e/aot_rules_archive.bzl with its
# file:// URL and sha256, which e2e/WORKSPACE hands to http_archive. tools/test_all.sh runs it before e2e.
set -euo pipefail
e2e=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$e2e/.." && pwd)
mkdir -p "$e2e/.archive"
# A stash commit holds the working tree's changes to tracked files; with none, HEAD.
rev=$(cd "$root" && git stash create 2>/dev/null || true)
rev=${rev:-HEAD}
archive="$e2e/.archive/aot_rules.tar.gz"
(cd "$root" && git archive --format=tar --prefix=aot_rules/ "$rev") | gzip -n > "$archive"
sha=$(sha256sum "$archive" | cut -d' ' -f1)
cat > "$e2e/aot_rules_archive.bzl" <<BZL
"""Written by e2e/make_archive.sh: where the aot_rules release archive under test is."""

AOT_RULES_URL = "file://$archive"
AOT_RULES_SHA256 = "$sha"
BZL
echo "make_archive: $archive ($(du -k "$archive" | cut -f1) KiB, sha256 $sha)"
