"""The committed rule and CLI reference (docs/reference/) equals what tools/gen_reference.py makes from the code.

A rule's or attribute's `doc =`, a macro's docstring or a flag's help changed without rerunning the generator fails
here, naming the page and the first differing line.
"""

import difflib
import importlib.util
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _generator():
    spec = importlib.util.spec_from_file_location("gen_reference", os.path.join(ROOT, "tools", "gen_reference.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


@pytest.mark.parametrize("page", sorted(GEN.pages(ROOT)))
def test_committed_reference_is_generated(page):
    want = GEN.pages(ROOT)[page]
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        have = f.read()
    diff = list(difflib.unified_diff(have.splitlines(), want.splitlines(), "committed", "generated", lineterm=""))
    assert not diff, f"{page} is out of date: run `python tools/gen_reference.py`.\n" + "\n".join(diff[:40])


def test_every_public_rule_is_documented():
    """Every symbol defs.bzl exports has a section, and each macro argument or rule attribute a description."""
    text = GEN.pages(ROOT)[GEN.RULES_MD]
    with open(os.path.join(ROOT, "aot_rules", "defs.bzl"), encoding="utf-8") as f:
        exported = [line.split(" = ")[0] for line in f if " = _" in line and not line.startswith((" ", "#"))]
    assert len(exported) >= 12, exported
    for name in exported:
        assert f"### `{name}`" in text, f"defs.bzl exports {name}, which the rule reference does not document"
    undocumented = [line for line in text.splitlines() if line.startswith("| `") and line.rstrip().endswith("|  |")]
    assert not undocumented, "rows without a description (add a doc string):\n" + "\n".join(undocumented)


def test_every_flag_is_documented():
    text = GEN.pages(ROOT)[GEN.CLI_MD]
    sys.path.insert(0, ROOT)
    try:
        from compiler import cli
    finally:
        sys.path.remove(ROOT)
    names = {cli.FLAGS[key].name for key in cli.FLAGS}
    for name in names:
        assert f"| `--{name}` |" in text, f"flag --{name} missing from the CLI reference"


def test_the_parser_reads_doc_strings_as_written(tmp_path):
    """A rule's doc, a concatenated attribute doc, a default and a macro's Args land in the page as written."""
    (tmp_path / "aot_rules" / "private").mkdir(parents=True)
    (tmp_path / "aot_rules" / "defs.bzl").write_text(
        '"""Public."""\nload("//aot_rules/private:x.bzl", _r = "r", _m = "m", _P = "P")\nr = _r\nm = _m\nP = _P\n'
    )
    (tmp_path / "aot_rules" / "private" / "x.bzl").write_text(
        'P = provider(doc = "A provider.", fields = {"f": "int: a field."})\n'
        "def _impl(ctx):\n    pass\n"
        'r = rule(implementation = _impl, doc = "Rule doc.", attrs = {\n'
        '    "size": attr.int(default = 3, doc = "Bytes " + "of it."),\n'
        '    "_private": attr.label(doc = "hidden"),\n'
        "})\n"
        'def m(name, mode = "fast", **kwargs):\n'
        '    """Macro doc.\n\n    Args:\n      name: the name.\n      mode: how, one of\n        "fast" or "slow".\n'
        '      **kwargs: passed on.\n    """\n'
        "    r(name = name, **kwargs)\n"
    )
    (tmp_path / "aot_rules" / "repositories.bzl").write_text('"""Set-up."""\ndef setup():\n    """Sets up."""\n')
    (tmp_path / "aot_rules" / "extensions.bzl").write_text('"""Ext."""\n')
    text = GEN.render_rules(str(tmp_path))
    assert "Rule doc." in text
    assert "| `size` | int | `3` | Bytes of it. |" in text
    assert "_private" not in text
    assert '| `mode` | `"fast"` | how, one of "fast" or "slow". |' in text
    assert "| `f` | int: a field. |" in text
    assert "Further attributes" in text  # size reaches the rule through **kwargs
    assert "### `setup`" in text


if __name__ == "__main__":
    sys.exit(pytest.main([os.path.abspath(__file__), "-q", "-p", "no:cacheprovider", "-rs"]))
