"""User-facing compile errors.

Everything that is the model's fault (bad file, unsupported op, dtype, shape,
missing quantization) raises CompileError.  The CLI turns it into one readable
paragraph and exit code 2; anything else is a bug and keeps its traceback.
"""

import re

# Names quoted in messages come from the model file: a corrupt one can be kilobytes of binary. Longer quoted names
# are shortened, control characters shown as '?', so the message stays one readable paragraph.
# A quote only opens after a non-word character and only closes before one, so the text *between* two short quoted
# names ("Model 'kws' is over ... 'conv'") is never taken for one long name.
_LONG_QUOTED = re.compile(r"(?<!\w)'([^']{%d,})'(?!\w)" % 81)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ufffd]")
_LONG_WORD = re.compile(r"\S{121,}")
_MAX_MESSAGE = 2000  # the longest real paragraph, an unsupported custom operator's, is about 1,800


def _readable(message: str) -> str:
    text = " ".join(str(message).split())
    text = _LONG_QUOTED.sub(lambda m: f"'{m.group(1)[:60]}...' ({len(m.group(1))} characters)", text)
    text = _CONTROL.sub("?", text)
    text = _LONG_WORD.sub(lambda m: m.group(0)[:60] + "...", text)  # e.g. a long name with a quote in it
    if len(text) > _MAX_MESSAGE:
        text = text[: _MAX_MESSAGE // 2 - 4] + " [...] " + text[-(_MAX_MESSAGE // 2 - 3) :]
    return text


class CompileError(Exception):
    """A problem with the input model or arguments, reported as one paragraph."""

    def __init__(self, message: str):
        # Collapse whitespace so the message is always a single paragraph.
        super().__init__(_readable(message))


class UnsupportedError(CompileError):
    """The model uses an op, dtype or attribute this compiler does not support."""
