"""Reference cases for a model: seeded inputs and the oracle's outputs, shared by `testgen` and `refdata`.

The oracle is the reference interpreter of the model's format (TFLite Micro for .tflite). Inputs are seeded
random values over the full range of the input type, so the same (model, count, seed) always yields the same cases.
"""

import os
from dataclasses import dataclass

from .codegen.io_fields import io_fields
from .driver import load_model
from .oracle import output_tolerances, reference_outputs, random_inputs


@dataclass
class ReferenceCases:
    model_label: str
    fields: list  # IOField per model input/output (C field names as in <prefix>.h)
    cases: list  # per case: list of input arrays (model input order)
    expected: list  # per case: list of output arrays (model output order)
    tolerances: list = None  # per output: (int8 steps, float atol, float rtol); None entries: testgen's defaults


def reference_cases(model: str, count: int, seed: int) -> ReferenceCases:
    graph = load_model(model)
    cases = random_inputs(graph, count, seed)
    expected = reference_outputs(model, graph, cases)
    return ReferenceCases(os.path.basename(model), io_fields(graph), cases, expected, output_tolerances(model, graph))
