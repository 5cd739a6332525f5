"""MIRROR_PAD (TFLite): REFLECT (the edge not repeated) or SYMMETRIC (the edge repeated) padding on the PAD_MODE
kernel, float32, int8 and int16 (values only repeat, so any quantization works when input and output share it)."""

from ..errors import UnsupportedError
from ._base import register
from .common.checks import require_same_quant
from .pad_mode import PadMode

_MODES = {0: 0, 1: 3}  # TFLite MirrorPadMode -> AOT_PAD_REFLECT / AOT_PAD_SYMMETRIC


@register
class MirrorPad(PadMode):
    builtins = ("MIRROR_PAD",)
    dtypes = ("float32", "int8", "int16")

    def check(self, op):
        mode = int(op.options.get("Mode", 0))
        if mode not in _MODES:
            raise UnsupportedError(
                f"Operator {op.index} (MIRROR_PAD): mode {mode}; REFLECT (0) and SYMMETRIC (1) are supported."
            )
        op.options = dict(op.options, Mode="reflect")  # PadMode's checks; the kernel mode is set in prepare
        try:
            super().check(op)
        finally:
            op.options["Mode"] = mode
        if op.input(0).dtype in ("int8", "int16"):
            require_same_quant(
                op,
                op.input(0),
                op.output,
                "input",
                "output",
                "MIRROR_PAD repeats stored values: input and output need one quantization.",
            )
        pads = self._pads(op)
        limit = 1 if mode == 0 else 0
        for d, (b, a) in zip(op.input(0).shape, pads):
            if max(b, a) > int(d) - limit:
                raise UnsupportedError(
                    f"Operator {op.index} (MIRROR_PAD): padding {[int(b), int(a)]} of a dimension "
                    f"of size {int(d)}; {'REFLECT' if mode == 0 else 'SYMMETRIC'} allows at most "
                    f"{int(d) - limit}."
                )

    def prepare(self, op):
        mode = int(op.options["Mode"])
        op.options = dict(op.options, Mode="reflect")
        super().prepare(op)
        op.options["Mode"] = mode
        op.params["mode"] = _MODES[mode]
