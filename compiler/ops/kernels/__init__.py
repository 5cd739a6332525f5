"""The kernels the kernel table (ops/kernel_table.py) hands out, one module per op family.

Each module defines its Kernel values (ops/common/kernel.py: what decides whether the kernel runs a layer, how it
is set up, and what running it takes: scratch, headers, the C call) and a TABLE {(op kind, dtype): candidates, best
first} that the kernel table merges.  Adding a kernel means adding its Kernel value and listing it there; the op's
lowering does not change.  These modules import ops/common only, never a lowering or the table.
"""
