"""Validate model I/O and run every lowering's check()."""

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import ACTIVATION_DTYPES, INTERMEDIATE_ONLY_DTYPES

# Operator options that count something (window sizes, steps, multipliers): a model file can hold any int32 there,
# and 0 or a negative value would divide by zero or loop backwards in the shape arithmetic.
_POSITIVE_OPTIONS = (
    "StrideW",
    "StrideH",
    "DilationWFactor",
    "DilationHFactor",
    "FilterWidth",
    "FilterHeight",
    "DepthMultiplier",
)
_MAX_OPTION = 1 << 16


def _check_structure(op) -> None:
    """What every operator must satisfy before its lowering looks at it."""
    lo, hi = op.lowering.num_outputs
    if not lo <= len(op.outputs) <= hi or any(t is None for t in op.outputs):
        raise CompileError(
            f"Operator {op.index} ({op.kind}) has {len(op.outputs)} outputs; {op.kind} has "
            f"{lo if lo == hi else f'{lo} to {hi}'}. The model file is malformed."
        )
    for t in op.outputs:
        if t.is_const or t.is_input:
            raise CompileError(
                f"Operator {op.index} ({op.kind}) writes tensor '{t.name}', which is a "
                f"{'constant' if t.is_const else 'model input'}. The model file is malformed."
            )
    for name in _POSITIVE_OPTIONS:
        if name in op.options:
            value = op.options[name]
            if not isinstance(value, int) or not 1 <= value <= _MAX_OPTION:
                raise CompileError(
                    f"Operator {op.index} ({op.kind}) has option {name} = {value}; it must be an integer from 1 "
                    f"to {_MAX_OPTION}. The model file is malformed."
                )


def _check_state_input(graph, op, pos: int, t) -> None:
    """A variable tensor is state: only an operator that updates it in place (SVDF, LSTM) may read it, and no
    operator may write it as an output or expose it as model I/O. A resource variable is read and assigned by
    several operators (lowerings with `shares_state`), which then are its only users."""
    if pos not in op.lowering.state_inputs:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}) reads variable tensor '{t.name}' as its input {pos}; variable "
            "(stateful) tensors are supported only as the state inputs of SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM "
            "and as resource variables (READ_VARIABLE / ASSIGN_VARIABLE)."
        )
    shared = all(getattr(graph.ops[c].lowering, "shares_state", False) for c in t.consumers)
    types = ("int8", "int16", "float32", "int32") if shared else ("int8", "int16", "float32")
    if t.is_input or t.is_output or t.producer is not None or t.dtype not in types:
        what = (
            "a model input"
            if t.is_input
            else "a model output"
            if t.is_output
            else f"written by operator {t.producer}"
            if t.producer is not None
            else f"of type {t.dtype}"
        )
        raise UnsupportedError(
            f"Variable tensor '{t.name}' (state of operator {op.index}, {op.kind}) is {what}; state tensors must "
            "be int8, int16 or float32, private to the model and updated only by the operator that owns them."
        )
    if len([c for c in t.consumers]) != 1 and not shared:
        raise UnsupportedError(
            f"Variable tensor '{t.name}' is the state of operators {t.consumers}; each state tensor must belong to "
            "one operator."
        )


def check_graph(graph) -> None:
    for kind, tensors in (("input", graph.inputs), ("output", graph.outputs)):
        for t in tensors:
            if t.dtype not in ACTIVATION_DTYPES:
                raise UnsupportedError(
                    f"Model {kind} tensor '{t.name}' has element type {t.dtype}; model inputs "
                    f"and outputs must be one of: {', '.join(ACTIVATION_DTYPES)}."
                )
            raw_cast = (
                kind == "output" and t.quant is None and t.producer is not None and graph.ops[t.producer].kind == "CAST"
            )  # raw int8 data, as the audio front-end's features
            if t.dtype == "int8" and (t.quant is None or t.quant.per_channel) and not raw_cast:
                raise UnsupportedError(
                    f"Model {kind} tensor '{t.name}' is int8 but has "
                    f"{'no' if t.quant is None else 'per-channel'} quantization parameters; "
                    "int8 model inputs/outputs need one scale and zero point."
                )
            if t.dtype == "int16" and t.quant is not None and t.quant.per_channel:
                raise UnsupportedError(
                    f"Model {kind} tensor '{t.name}' is int16 with per-channel quantization parameters; "
                    "int16 model inputs/outputs need one scale (and zero point 0) or none."
                )
    for t in graph.inputs:
        if t.is_output:
            raise UnsupportedError(
                f"Tensor '{t.name}' is both a model input and a model output; pass-through models are not supported."
            )
        if t.is_const:
            raise UnsupportedError(f"Model input '{t.name}' is a constant tensor.")
    written = {}
    for op in graph.ops:
        _check_structure(op)
        for t in op.outputs:
            if t.index in written:
                raise CompileError(
                    f"Tensor '{t.name}' is written by operators {written[t.index]} and {op.index}; every tensor "
                    "must have one producer. The model file is malformed."
                )
            written[t.index] = op.index
        for pos, t in enumerate(op.inputs):
            if t is not None and t.is_variable:
                _check_state_input(graph, op, pos, t)
                continue
            if t is not None and t.producer is not None and t.producer >= op.index:
                raise CompileError(
                    f"Operator {op.index} ({op.kind}) reads tensor '{t.name}' before operator {t.producer} "
                    "writes it; operators must be stored in execution order. The model file is malformed."
                )
            if t is not None and not t.is_const and not t.is_input and t.producer is None:
                if getattr(op.lowering, "scratch_inputs", False) and t.consumers == [op.index]:
                    # A user kernel's working memory the model declares as a tensor nobody writes (the scratch
                    # areas of a Vela-compiled ethos-u operator): planned in the workspace for this operator only.
                    continue
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}) reads tensor '{t.name}' which is neither "
                    "a constant, a model input nor produced by an earlier operator. The model file is "
                    "malformed."
                )
        for t in op.outputs:
            if t.dtype not in ACTIVATION_DTYPES + INTERMEDIATE_ONLY_DTYPES:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}) produces tensor '{t.name}' of type "
                    f"{t.dtype}; supported activation types are: {', '.join(ACTIVATION_DTYPES)}."
                )
        op.lowering.check(op)
    for t in graph.outputs:
        if t.producer is None:
            raise UnsupportedError(f"Model output '{t.name}' is not produced by any operator.")
