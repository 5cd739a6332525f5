"""User-facing compile errors.

Everything that is the model's fault (bad file, unsupported op, dtype, shape,
missing quantization) raises CompileError.  The CLI turns it into one readable
paragraph and exit code 2; anything else is a bug and keeps its traceback.
"""


class CompileError(Exception):
    """A problem with the input model or arguments, reported as one paragraph."""

    def __init__(self, message: str):
        # Collapse whitespace so the message is always a single paragraph.
        super().__init__(" ".join(str(message).split()))


class UnsupportedError(CompileError):
    """The model uses an op, dtype or attribute this compiler does not support."""
