"""One operator-conformance case: a small generated TFLite model and what it exercises.

Case modules (`tests/conformance/cases_<family>.py`, one per operator family) each define `cases()` returning a
list of Case; the runner (`tests/conformance/op_conformance.py`) discovers every such module, compiles each case,
runs it on the host against the `tflite-micro` interpreter and prints the operator x type coverage table.
"""

from dataclasses import dataclass, field
from typing import Callable, Optional


@dataclass(frozen=True)
class Case:
    op: str  # the TFLite builtin under test, e.g. "RESIZE_BILINEAR"
    dtype: str  # activation type the case covers: float32, int8, int16, int32, bool, uint8
    name: str  # unique within the op, says what is varied ("broadcast_4d", "zp_at_limits")
    build: Callable[[], object]  # returns a tests/compiler/tflite_builder.ModelBuilder
    float_range: tuple = (-1.0, 1.0)
    # A case that must be refused (TFLite Micro rejects it too, or the ABI forbids it, e.g. int64 outputs): the
    # expected error substring; it then counts as conformant. Cases we merely do not support yet leave this None
    # and show as "refused" (not covered) in the table.
    refused: Optional[str] = None
    # Inputs to run in addition to the random ones (list of per-input arrays), e.g. boundary values.
    extra_inputs: tuple = field(default_factory=tuple)
    qemu_sample: bool = False  # also run in the QEMU sample
    # Run only extra_inputs (no random inputs): operators whose inputs must be valid (shapes, ids).
    only_extra: bool = False
    # Where TFLite Micro's output is undefined (its kernel reads uninitialized memory): outputs -> outputs with those
    # values set to what we define (e.g. SPACE_TO_BATCH_ND's padding).
    fix_reference: Optional[Callable] = None
