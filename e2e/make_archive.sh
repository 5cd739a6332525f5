#!/usr/bin/env bash
# Packs this aot_rules checkout as README.md's quick-start tells a user to: runs the README's shell block (`git
# archive --prefix=aot_rules/ -o aot_rules.tar.gz HEAD`, `sha256sum aot_rules.tar.gz`) in the checkout, as written,
# except that with uncommitted changes to tracked files `HEAD` is a stash commit holding them. Moves the archive to
# e2e/.archive/, writes e2e/aot_rules_archive.bzl with its file:// URL and the sha256 the block printed (what
# e2e/WORKSPACE hands to http_archive), and copies the README's WORKSPACE, .bazelrc and BUILD lines into e2e/
# (quickstart.py). tools/test_all.sh runs it before e2e.
set -euo pipefail
e2e=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$e2e/.." && pwd)
python3 "$e2e/quickstart.py" write
commands=$(python3 "$e2e/quickstart.py" archive_commands)
rev=$(cd "$root" && git stash create 2>/dev/null || true)
[ -z "$rev" ] || commands=${commands//HEAD/$rev}
mkdir -p "$e2e/.archive"
archive="$e2e/.archive/aot_rules.tar.gz"
printed=$(cd "$root" && rm -f aot_rules.tar.gz && bash -euo pipefail -c "$commands" && mv aot_rules.tar.gz "$archive")
sha=$(awk '$2 == "aot_rules.tar.gz" { print $1 }' <<<"$printed")
[ ${#sha} -eq 64 ] || { echo "make_archive: the README's commands printed no sha256 of aot_rules.tar.gz: $printed" >&2; exit 1; }
cat > "$e2e/aot_rules_archive.bzl" <<BZL
"""Written by e2e/make_archive.sh: where the aot_rules release archive under test is."""

AOT_RULES_URL = "file://$archive"
AOT_RULES_SHA256 = "$sha"
BZL
echo "make_archive: $archive ($(du -k "$archive" | cut -f1) KiB, sha256 $sha)"
