"""The documentation holds together: the README stays a page that links every doc page, keeps the two commands and
the demo's output, and no relative link or #anchor in README.md, CONTRIBUTING.md or docs/ points nowhere."""

import glob
import os
import re
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def _pages():
    docs = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
    return ["README.md", "CONTRIBUTING.md"] + docs


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped (but - and _), spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(text: str) -> set:
    out, in_code = set(), False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            out.add(_slug(line.lstrip("#")))
    return out


def _links(text: str):
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code:
            yield from _LINK.findall(line)


def test_readme_is_a_page():
    lines = _read("README.md").splitlines()
    assert len(lines) < 200, f"README.md has {len(lines)} lines; the guide belongs in docs/"


def test_readme_keeps_the_two_commands_and_the_demo_output():
    text = _read("README.md")
    assert "## The two commands" in text
    assert "./bazelw run //examples/multi_model:demo     # main job:" in text
    assert "tools/test_all.sh                             # all tests:" in text
    assert "aot_rules multi-model demo on mps2-an386 (Cortex-M4F): 5 model libraries, one image" in text
    assert "all models match the reference bit for bit" in text


def test_readme_links_every_doc_page():
    linked = {os.path.normpath(t.split("#")[0]) for t in _links(_read("README.md"))}
    pages = [p for p in _pages() if p != "README.md"]
    assert len(pages) >= 15, pages
    missing = [p for p in pages if os.path.normpath(p) not in linked]
    assert not missing, f"README.md does not link {missing}"


@pytest.mark.parametrize("page", _pages())
def test_links_resolve(page):
    text = _read(page)
    broken = []
    for target in _links(text):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        rel = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        full = os.path.join(ROOT, rel)
        if not os.path.exists(full):
            broken.append(f"{target} (no file {rel})")
        elif anchor and rel.endswith(".md") and anchor not in _anchors(_read(rel)):
            broken.append(f"{target} (no heading #{anchor} in {rel})")
    assert not broken, f"{page}: broken links: {broken}"


if __name__ == "__main__":
    sys.exit(pytest.main([os.path.abspath(__file__), "-q", "-p", "no:cacheprovider", "-rs"]))
