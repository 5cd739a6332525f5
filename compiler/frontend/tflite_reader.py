"""TFLite flatbuffer -> IR.

Only structure is read here (tensors, quantization, constant data, operator
list and raw options); whether an op/dtype is supported is decided by the op
lowering modules.  Every failure of the flatbuffer bindings on malformed
input is converted into a CompileError so the CLI never shows a traceback.
"""

import os

import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator

from .. import limits
from ..errors import CompileError
from ..ir import Graph, Operator, QuantParams, Tensor
from .tflite_hybrid import check_not_hybrid
from .tflite_options import decode_builtin_options
from .tflite_custom_options import decode_custom_options
from .tflite_subgraphs import Subgraph, inline_subgraphs
from .tflite_unsupported import check_not_float16_weights, check_not_sparse

_OP_NAMES = {
    value: name for name, value in vars(BuiltinOperator).items() if not name.startswith("_") and isinstance(value, int)
}

# TFLite TensorType enum -> IR dtype name (None: not representable at all).
_TENSOR_TYPES = {
    0: "float32",
    1: "float16",
    2: "int32",
    3: "uint8",
    4: "int64",
    5: None,
    6: "bool",
    7: "int16",
    8: None,
    9: "int8",
    10: "float64",
    12: "uint64",
    15: "uint32",
}
_RESOURCE = 13
_TYPE_NAMES = {
    0: "FLOAT32",
    1: "FLOAT16",
    2: "INT32",
    3: "UINT8",
    4: "INT64",
    5: "STRING",
    6: "BOOL",
    7: "INT16",
    8: "COMPLEX64",
    9: "INT8",
    10: "FLOAT64",
    11: "COMPLEX128",
    12: "UINT64",
    13: "RESOURCE",
    14: "VARIANT",
    15: "UINT32",
    16: "UINT16",
    17: "INT4",
}


def _decode_name(raw) -> str:
    if raw is None:
        return ""
    if isinstance(raw, bytes):
        return raw.decode("utf-8", errors="replace")
    return str(raw)


def load_tflite(path: str, input_shapes: dict = None) -> Graph:
    """Read and parse a .tflite file; `input_shapes` ({name: [dims]}, `--input_shape`) sets the size of inputs whose
    signature has -1s (tflite_input_shape.py)."""
    try:
        limits.check_model_bytes(os.path.basename(path), os.path.getsize(path))
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CompileError(f"Cannot read model file '{path}': {e.strerror or e}.") from None
    return read_tflite(data, os.path.basename(path), input_shapes)


def read_tflite(data: bytes, source_name: str = "model", input_shapes: dict = None) -> Graph:
    if len(data) < 8 or data[4:8] != b"TFL3":
        raise CompileError(
            f"'{source_name}' is not a TFLite flatbuffer (expected the 'TFL3' file "
            f"identifier at byte 4; the file has {len(data)} bytes). Only .tflite "
            "models (TFLite schema version 3) are supported."
        )
    at = _Cursor()
    try:
        graph = _parse(data, source_name, at)
        if input_shapes:
            from .tflite_input_shape import apply_input_shapes

            apply_input_shapes(graph, input_shapes, _input_signatures(data))
        return graph
    except (CompileError, MemoryError):
        raise  # a MemoryError is the compiler's bug (a missing limit), not the file's
    except Exception as e:  # malformed/truncated flatbuffers fail in many ways
        raise CompileError(
            f"'{source_name}' could not be parsed as a TFLite flatbuffer: {at.what} is "
            f"truncated or corrupt ({type(e).__name__}: {e}). Only complete .tflite "
            "models (TFLite schema version 3) are supported."
        ) from None


def _input_signatures(data: bytes) -> dict:
    """{input name: shape signature} of the main subgraph's inputs (the stored shape where none is given)."""
    sg = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0)
    out = {}
    for i in sg.InputsAsNumpy():
        t = sg.Tensors(int(i))
        sig = t.ShapeSignatureAsNumpy() if t.ShapeSignatureLength() else t.ShapeAsNumpy()
        out[_decode_name(t.Name()) or f"tensor_{int(i)}"] = [int(d) for d in sig]
    return out


class _Cursor:
    """What the reader is looking at, so that a flatbuffer the bindings cannot walk is reported by its part."""

    what = "the model's root table"


def _buffer_bytes(model, data: bytes, index: int, tensor: str) -> bytes:
    if index == 0:
        return b""  # buffer 0 is the schema's empty sentinel: not a constant
    if not 0 < index < model.BuffersLength():
        raise CompileError(
            f"{tensor} refers to buffer {index}, but the model has {model.BuffersLength()} buffers (0 to "
            f"{model.BuffersLength() - 1}). The model file is malformed."
        )
    buf = model.Buffers(index)
    if buf is None:
        return b""
    offset, size = buf.Offset(), buf.Size()
    if offset > 1:  # large-model layout: payload appended after the flatbuffer
        if offset + size > len(data):
            raise CompileError(
                f"{tensor} has its data in buffer {index} at file offset {offset} ({size} bytes), past the end of "
                f"the {len(data)}-byte file. The model file is truncated or malformed."
            )
        return data[offset : offset + size]
    if buf.DataLength() == 0:
        return b""
    return buf.DataAsNumpy().tobytes()


def _parse(data: bytes, source_name: str, at: _Cursor) -> Graph:
    model = tflite.Model.GetRootAsModel(data, 0)
    version = model.Version()
    if version != 3:
        raise CompileError(f"'{source_name}' uses TFLite schema version {version}; only version 3 is supported.")
    if model.SubgraphsLength() < 1:
        raise CompileError(f"'{source_name}' has no subgraph; a TFLite model has its main graph as subgraph 0.")
    # Every subgraph's tensors go into one list (a subgraph's tensor i gets index base + i), so that the operators
    # of a CALL_ONCE init subgraph can be placed into the main graph (tflite_subgraphs.py).
    tensors, subgraphs, resources = [], [], set()
    if model.SubgraphsLength() > limits.active().max_ops:
        raise CompileError(
            f"'{source_name}' declares {model.SubgraphsLength()} subgraphs; the limit is "
            f"{limits.active().max_ops} (one per operator)."
        )
    n_ops = 0
    for k in range(model.SubgraphsLength()):
        sg = model.Subgraphs(k)
        where = f" of subgraph {k}" if k else ""
        n_ops += sg.OperatorsLength()
        limits.check_counts(source_name, n_ops, len(tensors) + sg.TensorsLength())
        base = len(tensors)
        for ti in range(sg.TensorsLength()):
            at.what = f"the table of tensor {ti}{where}"
            t = sg.Tensors(ti)
            if t.Type() == _RESOURCE:
                # VAR_HANDLE's handle: resolved to the variable it names at compile time, never data.
                resources.add(base + ti)
                tensors.append(
                    Tensor(
                        index=base + ti, name=_decode_name(t.Name()) or f"tensor_{base + ti}", shape=(), dtype="int32"
                    )
                )
                continue
            parsed = _parse_tensor(model, data, t, base + ti)
            tensors.append(parsed)
        at.what = f"the input/output list{where}"
        ins = [base + int(i) for i in sg.InputsAsNumpy()] if sg.InputsLength() else []
        outs = [base + int(i) for i in sg.OutputsAsNumpy()] if sg.OutputsLength() else []
        for i in ins + outs:
            if i < base or i >= len(tensors):
                raise CompileError(
                    f"Model input/output refers to missing tensor index {i - base}."
                    if not k
                    else f"Subgraph {k} input/output refers to missing tensor index {i - base}."
                )
        if k == 0:
            if not ins or not outs:
                raise CompileError("The model declares no inputs or no outputs; both are required.")
            for i in ins:
                tensors[i].is_input = True
            for i in outs:
                tensors[i].is_output = True
        subgraphs.append(Subgraph(k, ins, outs, _parse_ops(model, sg, tensors, base, where, at)))
    limits.check_weights(source_name, sum(t.data.nbytes for t in tensors if t.data is not None))

    input_ids, output_ids = subgraphs[0].inputs, subgraphs[0].outputs
    ops = inline_subgraphs(subgraphs, tensors, resources)

    graph = Graph(
        name=_decode_name(model.Subgraphs(0).Name()) or "main",
        tensors=tensors,
        ops=ops,
        inputs=[tensors[i] for i in input_ids],
        outputs=[tensors[i] for i in output_ids],
        description=_decode_name(model.Description()),
    )
    graph.link()
    _check_shapes(graph)
    check_not_float16_weights(graph)
    check_not_hybrid(graph)
    at.what = "the model's metadata"
    # Vela's plan covers the main subgraph, whose tensors come first.
    _read_offline_offsets(model, data, tensors[: model.Subgraphs(0).TensorsLength()])
    return graph


def _read_offline_offsets(model, data: bytes, tensors: list) -> None:
    """TFLite Micro's "OfflineMemoryAllocation" metadata (written by Vela): [version, subgraph, count, one arena
    offset per tensor, -1 for none]. Kept on each tensor as `offline_offset`; only user kernels use it
    (ops/_user_kernel.py: a Vela command stream addresses its feature maps at these offsets)."""
    for i in range(model.MetadataLength()):
        md = model.Metadata(i)
        if md.Name() != b"OfflineMemoryAllocation" or md.Buffer() >= model.BuffersLength():
            continue
        try:
            raw = _buffer_bytes(model, data, md.Buffer(), "the OfflineMemoryAllocation metadata")
        except CompileError:
            return  # a broken plan is ignored (only user kernels read it), not a broken model
        if len(raw) % 4:
            return
        words = np.frombuffer(raw, "<i4")
        if len(words) < 3 or words[2] != len(tensors) or len(words) != 3 + len(tensors):
            return
        for t, off in zip(tensors, words[3:]):
            if off >= 0:
                t.offline_offset = int(off)


def _parse_ops(model, sg, tensors: list, base: int, where: str, at: _Cursor) -> list:
    """The operators of one subgraph, reading the tensors base + i of its tensor i."""
    ops = []
    for oi in range(sg.OperatorsLength()):
        at.what = f"the table of operator {oi}{where}"
        op = sg.Operators(oi)
        code_index = op.OpcodeIndex()
        if code_index >= model.OperatorCodesLength():
            raise CompileError(f"Operator {oi}{where} refers to missing operator code {code_index}.")
        oc = model.OperatorCodes(code_index)
        code = max(oc.BuiltinCode(), oc.DeprecatedBuiltinCode())
        if code == BuiltinOperator.CUSTOM:
            kind = "CUSTOM:" + _decode_name(oc.CustomCode())
        else:
            kind = _OP_NAMES.get(code, f"BUILTIN_{code}")
        ins = [int(i) for i in op.InputsAsNumpy()] if op.InputsLength() else []
        outs = [int(i) for i in op.OutputsAsNumpy()] if op.OutputsLength() else []
        for i in ins + outs:
            if i >= len(tensors) - base or i < -1:
                raise CompileError(f"Operator {oi}{where} ({kind}) refers to missing tensor {i}.")
        ins = [base + i if i >= 0 else -1 for i in ins]
        outs = [base + i if i >= 0 else -1 for i in outs]
        for pos, i in enumerate(outs):
            # Checked here, before any operator order or producer analysis, so the message names the real defect.
            if i < 0 or tensors[i].is_const or tensors[i].is_input:
                what = (
                    "no tensor (-1)"
                    if i < 0
                    else f"tensor {i} '{tensors[i].name}', which is "
                    + ("a constant" if tensors[i].is_const else "a model input")
                )
                raise CompileError(
                    f"Operator {oi}{where} ({kind}) output {pos} is {what}; an operator must write "
                    "a tensor of its own. The model file is malformed."
                )
        at.what = f"the options table of operator {oi}{where} ({kind})"
        ops.append(
            Operator(
                index=oi,
                kind=kind,
                inputs=[tensors[i] if i >= 0 else None for i in ins],
                outputs=[tensors[i] for i in outs],
                options=decode_builtin_options(op) if not kind.startswith("CUSTOM:") else decode_custom_options(op),
            )
        )
    return ops


def _is_empty_reshape_target(op, pos: int, t) -> bool:
    """RESHAPE's constant shape operand with no elements (converters write it in IF branches): TFLite Micro then
    takes the output tensor's stored shape, and so do we (the RESHAPE lowering never reads that operand)."""
    return op.kind == "RESHAPE" and pos == 1 and tuple(t.shape) == (0,) and not t.is_input and t.producer is None


def _check_shapes(graph: Graph) -> None:
    dropped = False
    for op in graph.ops:
        for pos, t in enumerate(op.inputs):
            if t is not None and _is_empty_reshape_target(op, pos, t):
                op.inputs[pos], dropped = None, True
    if dropped:
        graph.link()
    used = {t.index: t for t in graph.inputs + graph.outputs}
    for op in graph.ops:
        for t in op.inputs + op.outputs:
            if t is not None:
                used[t.index] = t
    for i in sorted(used):
        t = used[i]
        if any(d <= 0 for d in t.shape):
            raise CompileError(
                f"Tensor {t.index} '{t.name}' has a dynamic or unknown shape {list(t.shape)}: "
                "every dimension but the batch (compiled at the size the model stores) must be a positive "
                "constant. Re-export the model with a fixed input shape."
            )


_ZERO_POINT_RANGE = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767)}


def _check_quant(index: int, name: str, dtype: str, shape: tuple, quant: QuantParams) -> None:
    """Quantization parameters the arithmetic can use: finite positive scales, zero points the type can hold,
    per-channel parameters along an existing axis with one entry per channel."""
    bad = [float(x) for x in quant.scale if not (np.isfinite(x) and x > 0)]
    if bad:
        raise CompileError(
            f"Tensor {index} '{name}' has quantization scale {bad[0]}; scales must be positive "
            "finite numbers. The model file is malformed."
        )
    lo, hi = _ZERO_POINT_RANGE.get(dtype, (-(1 << 31), (1 << 31) - 1))
    if any(not lo <= int(z) <= hi for z in quant.zero_point):
        raise CompileError(
            f"Tensor {index} '{name}' ({dtype}) has a zero point outside {lo}..{hi}. The model file is malformed."
        )
    if len(quant.scale) > 1 and not (0 <= quant.axis < len(shape) and shape[quant.axis] == len(quant.scale)):
        raise CompileError(
            f"Tensor {index} '{name}' has {len(quant.scale)} per-channel scales along dimension "
            f"{quant.axis} of shape {list(shape)}; there must be one per channel of an existing "
            "dimension. The model file is malformed."
        )


def _parse_tensor(model, data: bytes, t, index: int) -> Tensor:
    name = _decode_name(t.Name()) or f"tensor_{index}"
    ttype = t.Type()
    dtype = _TENSOR_TYPES.get(ttype)
    if dtype is None:
        raise CompileError(
            f"Tensor {index} '{name}' has element type "
            f"{_TYPE_NAMES.get(ttype, ttype)}, which cannot be compiled. Supported "
            "activation types are INT8 and FLOAT32 (INT32 for biases and shape operands)."
        )
    if t.ShapeLength() > limits.active().max_rank:
        raise CompileError(
            f"Tensor {index} '{name}' has rank {t.ShapeLength()}; at most "
            f"{limits.active().max_rank} dimensions are supported."
        )
    shape = tuple(int(d) for d in t.ShapeAsNumpy()) if t.ShapeLength() else ()
    signature = tuple(int(d) for d in t.ShapeSignatureAsNumpy()) if t.ShapeSignatureLength() else ()
    if len(signature) == len(shape) and any(d < 0 for d in signature[1:]) and not all(d > 0 for d in shape):
        # TFLite Micro never resizes a tensor: it runs every tensor at the shape stored in the model, whatever the
        # signature's -1s say (a dynamic batch, an audio front end exported with [-1, -1]).  So do we.  Only a
        # dynamic dimension with no positive stored size has no static size to compile for.
        shape = signature
    from ..ir.dtypes import DTYPES

    limits.check_tensor(index, name, shape, DTYPES[dtype].size)
    if any(d <= 0 for d in shape):
        # Only an error if an operator or the model I/O actually uses it
        # (checked in _check_shapes); some converters emit placeholder tensors.
        return Tensor(index=index, name=name, shape=shape, dtype=dtype)

    quant = None
    q = t.Quantization()
    if q is not None and q.ScaleLength() > 0:
        scale = q.ScaleAsNumpy().astype(np.float32)
        zp = q.ZeroPointAsNumpy().astype(np.int64) if q.ZeroPointLength() else np.zeros(len(scale), np.int64)
        if len(zp) != len(scale):
            if len(zp) == 1:
                zp = np.full(len(scale), zp[0], np.int64)
            else:
                raise CompileError(
                    f"Tensor {index} '{name}' has {len(scale)} quantization scales but {len(zp)} zero points."
                )
        axis = int(q.QuantizedDimension())
        if len(shape) == 1 and len(scale) == shape[0] > 1:
            # Converter quirk (TFLite Micro's person_detect.tflite: a bias of 8 values declaring dimension 3):
            # one scale per element of a rank-1 tensor can only be along its one dimension, and TFLite Micro
            # never reads the declared dimension of a bias.
            axis = 0
        quant = QuantParams(scale=scale, zero_point=zp, axis=axis)
        _check_quant(index, name, dtype, shape, quant)

    check_not_sparse(index, name, t)
    raw = _buffer_bytes(model, data, t.Buffer(), f"Tensor {index} '{name}'")
    arr = None
    if raw:
        from ..ir.dtypes import DTYPES

        dt = DTYPES[dtype]
        n = 1
        for d in shape:
            n *= d
        if len(raw) != n * dt.size:
            raise CompileError(
                f"Constant tensor {index} '{name}' has {len(raw)} bytes of data but its "
                f"shape {list(shape)} and type {dtype} need {n * dt.size} bytes."
            )
        arr = np.frombuffer(raw, dtype=np.dtype(dt.np).newbyteorder("<")).reshape(shape).copy()
    # A variable tensor's buffer, if any, is ignored as by TFLite Micro (which resets it to zeros / the int8 zero
    # point before the first invocation): it is state, never a constant.
    is_variable = bool(t.IsVariable())
    return Tensor(
        index=index,
        name=name,
        shape=shape,
        dtype=dtype,
        quant=quant,
        data=None if is_variable else arr,
        is_variable=is_variable,
    )
