"""Codegen naming: prefixes are validated, model strings become unique C identifiers and harmless comments."""

import pytest

from compiler.codegen.cnames import (
    C_KEYWORDS,
    sanitize_comment,
    sanitize_identifier,
    unique_identifiers,
    validate_prefix,
)
from compiler.errors import CompileError


@pytest.mark.parametrize("prefix", ["kws", "KWS2", "model_a", "a" * 64])
def test_valid_prefixes(prefix):
    assert validate_prefix(prefix) == prefix


@pytest.mark.parametrize("prefix", ["", "2kws", "kws-b", "aot_x", "AOT_x", "k ws", "a" * 65, "é"])
def test_invalid_prefixes(prefix):
    with pytest.raises(CompileError, match="--prefix"):
        validate_prefix(prefix)


@pytest.mark.parametrize(
    "name,expected",
    [
        ("serving_default_input_1:0", "serving_default_input_1_0"),
        ("StatefulPartitionedCall:0", "statefulpartitionedcall_0"),
        ("1st", "t_1st"),
        ("int", "int_t"),
        ("workspace", "workspace_t"),
        ("state", "state_t"),  # <PREFIX>_STATE_SIZE marks stateful models
        ("*/ evil /*", "evil"),
        ("", "fallback"),
        ("___", "fallback"),
    ],
)
def test_sanitize_identifier(name, expected):
    assert sanitize_identifier(name, "fallback") == expected


def test_identifiers_are_valid_c_and_short():
    for name in ["a" * 500, "x\ny", "ünïcode", "??/", "a b\tc"]:
        s = sanitize_identifier(name, "f")
        assert s.isidentifier() and s.isascii() and len(s) <= 40 and s not in C_KEYWORDS


def test_unique_identifiers_deduplicate_deterministically():
    names = ["in:0", "in/0", "IN_0", "in_0_2"]
    out = unique_identifiers(names, ["a", "b", "c", "d"])
    assert out == ["in_0", "in_0_2", "in_0_3", "in_0_2_2"]
    assert len(set(out)) == len(out)


@pytest.mark.parametrize("text", ["a */ b", "/* x", "tri??/graph", "new\nline", "back\\slash", "ctrl\x00\x1b"])
def test_sanitize_comment_cannot_escape_a_comment(text):
    s = sanitize_comment(text)
    assert "*/" not in s and "/*" not in s and "??" not in s and "\\" not in s
    assert s.isprintable() and s.isascii() and "\n" not in s
