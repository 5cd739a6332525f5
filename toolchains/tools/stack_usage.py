"""The stack analysis of linked code, for the firmware rules' tools: it lives in the compiler package
(compiler/report/stack_usage.py) so that `aotc report --target` can bound a model's stack before any firmware exists."""

from compiler.report.stack_usage import (  # noqa: F401 (re-exported)
    Frame,
    StackEstimate,
    deepest_path,
    disassemble,
    estimate,
    parse_disassembly,
)
