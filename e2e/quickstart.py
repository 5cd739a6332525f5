"""Copies the README's consumer quick-start into this consumer workspace, so that CI runs it exactly as written.

README.md's section "Using aot_rules from your own repository" has four fenced blocks: the shell commands that pack
a release, then `# WORKSPACE`, `# .bazelrc` and `# quickstart/BUILD.bazel` (each block names its file on its first
line). This script writes e2e/WORKSPACE, e2e/.bazelrc and e2e/quickstart/BUILD.bazel from them: each block verbatim,
with only the two values a user fills in replaced (the sha256 and the archive's URL, which make_archive.sh writes to
aot_rules_archive.bzl), and e2e's own additions around it (its workspace name and toolchain before the WORKSPACE
lines, a test option after the .bazelrc lines, the checks of the quick-start's image in e2e/quickstart/checks.BUILD).
`archive_commands` prints the shell block, which make_archive.sh runs in the checkout.

The written files are committed too; make_archive.sh (run by tools/test_all.sh before e2e) rewrites them, so an
edited README is what CI tests, and `git status` shows the files to commit with it.

usage: quickstart.py write | archive_commands
"""

import pathlib
import re
import sys

E2E = pathlib.Path(__file__).resolve().parent
README = E2E.parent / "README.md"
SECTION = "## Using aot_rules from your own repository"

WORKSPACE_HEAD = """\
# Written by e2e/quickstart.py from README.md's quick-start (edit the README, then run e2e/make_archive.sh): a
# consumer of aot_rules, exactly as the README tells a user. The ruleset comes in as a release archive (http_archive
# of `git archive` output, here a file:// URL and its sha256 that make_archive.sh writes to aot_rules_archive.bzl).
# The compiler's Python is the hermetic venv aot_rules_dependencies() builds from the archive's requirements_lock.txt.
workspace(name = "aot_rules_e2e")

load("//:aot_rules_archive.bzl", "AOT_RULES_SHA256", "AOT_RULES_URL")

# e2e's own: the user's cc toolchain for their own platform (own_toolchain/), used only for //own_toolchain:product
# (its constraint is on no aot_rules board, so being registered first changes nothing for them).
register_toolchains("//own_toolchain:product_toolchain")

"""

BAZELRC_TAIL = """# e2e's own: a failing test prints its log.
test --test_output=errors
"""

BUILD_TAIL_NOTE = """
# ---- e2e's checks of the quick-start's image (e2e/quickstart/checks.BUILD, appended by e2e/quickstart.py) ----
"""


def blocks(text: str) -> list:
    """The fenced blocks of the README's consumer section, in order, as (language, lines)."""
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    section = text[start : end if end >= 0 else len(text)]
    return [(m.group(1), m.group(2)) for m in re.finditer(r"^```(\w*)\n(.*?)^```$", section, re.M | re.S)]


def block(text: str, first_line: str) -> str:
    """The block whose first line is `first_line` (or starts with it, for a comment that goes on)."""
    found = [body for _, body in blocks(text) if body.split("\n", 1)[0].startswith(first_line)]
    if len(found) != 1:
        sys.exit(f"quickstart.py: README.md's section '{SECTION}' has {len(found)} blocks starting '{first_line}'")
    return found[0]


def archive_commands(text: str) -> str:
    """The first block: the shell commands that pack a release and print its sha256."""
    lang, body = blocks(text)[0]
    if lang != "sh" or "git archive" not in body or "sha256sum" not in body:
        sys.exit("quickstart.py: the README's quick-start no longer starts with the `git archive` / `sha256sum` block")
    return body


def fill_in(workspace: str) -> str:
    """The README's WORKSPACE lines with the user's two values replaced by make_archive.sh's."""
    out, n = re.subn(r'sha256 = "[^"]*"', "sha256 = AOT_RULES_SHA256", workspace)
    out, m = re.subn(r"urls = \[[^\]]*\]", "urls = [AOT_RULES_URL]", out)
    if (n, m) != (1, 1):
        sys.exit('quickstart.py: the README\'s WORKSPACE block needs one `sha256 = "..."` and one `urls = [...]`')
    return out


def files(text: str) -> dict:
    """Path (relative to e2e/) -> content of each file written from the README."""
    checks = (E2E / "quickstart" / "checks.BUILD").read_text()
    return {
        "WORKSPACE": WORKSPACE_HEAD + fill_in(block(text, "# WORKSPACE")),
        ".bazelrc": block(text, "# .bazelrc") + BAZELRC_TAIL,
        "quickstart/BUILD.bazel": block(text, "# quickstart/BUILD.bazel") + BUILD_TAIL_NOTE + checks,
    }


def main(argv) -> int:
    text = README.read_text()
    if argv[1:] == ["archive_commands"]:
        sys.stdout.write(archive_commands(text))
        return 0
    if argv[1:] != ["write"]:
        sys.exit(__doc__)
    for rel, content in files(text).items():
        path = E2E / rel
        if not path.exists() or path.read_text() != content:
            path.write_text(content)
            print(f"quickstart.py: wrote e2e/{rel} from README.md (commit it with the README)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
