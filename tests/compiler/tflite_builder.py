"""Tiny .tflite model builder for tests (no TensorFlow needed).

Builds single-subgraph TFLite (schema version 3) flatbuffers with the object
API that ships in the tflite_micro wheel, so tests can make exactly the op,
shapes and quantization parameters they want to exercise:

    from tflite_builder import ModelBuilder

    b = ModelBuilder()
    x = b.input("x", [1, 8, 8, 3], "int8", scale=0.05, zero_point=-3)
    c = b.const("c", np.ones([3], np.int8), "int8", scale=0.02, zero_point=0)
    y = b.op("MUL", [x, c], out=b.tensor("y", [1, 8, 8, 3], "int8", 0.1, 4),
             options={"fusedActivationFunction": ACT["RELU"]})
    b.output(y)
    data = b.build()                    # bytes of the .tflite file
    b.save(path)                        # or write it straight to a file

- input/const/tensor return a Tensor handle (index, name, shape, dtype).
- op(kind, inputs, out=..., options=...) appends an operator and returns its
  output handle (or the list, if `out` is a list).  `None` in `inputs` is an
  omitted optional input (index -1).  `options` is either a schema *OptionsT
  object or a dict of its attribute names (camelCase, as in the schema's
  Python object API); the options table type for the op comes from
  _OPTIONS_FOR_OP or from the *OptionsT class name.  kind "CUSTOM:<name>" makes a CUSTOM operator of that
  custom code; its `options` dict is written as a FlexBuffer map (as TFLite Micro's signal operators read it).
- Quantization: scale/zero_point may be scalars (per tensor) or sequences
  (per axis, with `quantized_dimension`).  Float tensors get none.
- `b.signature = "serving_default"` adds a SignatureDef naming the inputs and outputs (ai-edge-quantizer needs one).
- Constants get their own buffer; buffer 0 stays empty as the schema requires.
- More subgraphs (CALL_ONCE's init, IF's branches, WHILE's cond/body): `sg = b.subgraph()` is a builder of its own
  tensors, operators, inputs and outputs (subgraph index sg.index, in creation order after the main one, 0),
  sharing the model's buffers and operator codes.  Resource tensors (VAR_HANDLE's output) have dtype "resource".
"""

from dataclasses import dataclass

import flatbuffers
import numpy as np
from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

ACT = {"NONE": 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3, "TANH": 4, "SIGN_BIT": 5}

_TYPES = {
    "float32": (fb.TensorType.FLOAT32, np.float32),
    "float16": (fb.TensorType.FLOAT16, np.float16),
    "int8": (fb.TensorType.INT8, np.int8),
    "uint8": (fb.TensorType.UINT8, np.uint8),
    "int16": (fb.TensorType.INT16, np.int16),
    "int32": (fb.TensorType.INT32, np.int32),
    "uint32": (fb.TensorType.UINT32, np.uint32),
    "uint64": (fb.TensorType.UINT64, np.uint64),
    "int64": (fb.TensorType.INT64, np.int64),
    "bool": (fb.TensorType.BOOL, np.bool_),
    "resource": (fb.TensorType.RESOURCE, np.int32),
}

# Builtin op name -> options table name, where it is not "<CamelCaseOp>Options".
_OPTIONS_FOR_OP = {
    "ADD": "AddOptions",
    "SUB": "SubOptions",
    "MUL": "MulOptions",
    "DIV": "DivOptions",
    "CONCATENATION": "ConcatenationOptions",
    "PAD": "PadOptions",
    "PADV2": "PadV2Options",
    "MEAN": "ReducerOptions",
    "SUM": "ReducerOptions",
    "REDUCE_MAX": "ReducerOptions",
    "REDUCE_MIN": "ReducerOptions",
    "REDUCE_PROD": "ReducerOptions",
    "REDUCE_ANY": "ReducerOptions",
    "REDUCE_ALL": "ReducerOptions",
    "QUANTIZE": "QuantizeOptions",
    "DEQUANTIZE": "DequantizeOptions",
    "HARD_SWISH": "HardSwishOptions",
    "SOFTMAX": "SoftmaxOptions",
    "RESHAPE": "ReshapeOptions",
    "FULLY_CONNECTED": "FullyConnectedOptions",
    "CONV_2D": "Conv2DOptions",
    "DEPTHWISE_CONV_2D": "DepthwiseConv2DOptions",
    "AVERAGE_POOL_2D": "Pool2DOptions",
    "L2_POOL_2D": "Pool2DOptions",
    "MAX_POOL_2D": "Pool2DOptions",
    "TRANSPOSE_CONV": "TransposeConvOptions",
    "SVDF": "SVDFOptions",
    "UNIDIRECTIONAL_SEQUENCE_LSTM": "UnidirectionalSequenceLSTMOptions",
}


def conv_options(kind: str, padding: str, stride, act: int, dilation, ic: int, oc: int) -> dict:
    """The builtin options of a CONV_2D / DEPTHWISE_CONV_2D with these strides, padding, fused activation and
    dilations (a depthwise one's multiplier is oc / ic)."""
    opts = {
        "padding": padding,
        "strideH": stride[0],
        "strideW": stride[1],
        "fusedActivationFunction": act,
        "dilationHFactor": dilation[0],
        "dilationWFactor": dilation[1],
    }
    if kind == "DEPTHWISE_CONV_2D":
        opts["depthMultiplier"] = oc // ic
    return opts


@dataclass(frozen=True)
class Tensor:
    index: int
    name: str
    shape: tuple
    dtype: str


class ModelBuilder:
    def __init__(self, description: str = "tflite_builder test model"):
        self._tensors = []  # fb.TensorT
        self._handles = []  # Tensor
        self._buffers = [fb.BufferT()]  # buffer 0: the empty sentinel
        self._ops = []  # fb.OperatorT
        self._opcodes = {}  # builtin name -> opcode index
        self._opcode_list = []
        self._inputs, self._outputs = [], []
        self._description = description
        # Model metadata, name -> bytes (e.g. TFLite Micro's "OfflineMemoryAllocation" as Vela writes it).
        self.metadata = {}
        # A SignatureDef over the main subgraph's inputs and outputs (by tensor name) under this key, as the TFLite
        # converter writes one ("serving_default"); None: no signature (what TFLite Micro needs).
        self.signature = None
        self._subgraphs = []  # further ModelBuilders sharing buffers and operator codes (subgraph 1, 2, ...)
        self.index = 0

    # --- tensors -------------------------------------------------------------
    def tensor(
        self, name: str, shape, dtype: str, scale=None, zero_point=None, quantized_dimension: int = 0, data=None
    ) -> Tensor:
        """An activation tensor (or a constant, if data is given)."""
        if dtype not in _TYPES:
            raise ValueError(f"unknown dtype {dtype}")
        t = fb.TensorT()
        t.name = name
        t.shape = [int(d) for d in shape]
        t.type = _TYPES[dtype][0]
        t.buffer = 0
        if scale is not None:
            q = fb.QuantizationParametersT()
            scales = np.atleast_1d(np.asarray(scale, np.float32))
            zps = np.atleast_1d(np.asarray(0 if zero_point is None else zero_point, np.int64))
            if len(zps) == 1 and len(scales) > 1:
                zps = np.repeat(zps, len(scales))
            q.scale = [float(s) for s in scales]
            q.zeroPoint = [int(z) for z in zps]
            q.quantizedDimension = int(quantized_dimension)
            t.quantization = q
        if data is not None:
            arr = np.asarray(data, dtype=_TYPES[dtype][1]).reshape(t.shape)
            buf = fb.BufferT()
            buf.data = list(arr.astype(arr.dtype.newbyteorder("<")).tobytes())
            self._buffers.append(buf)
            t.buffer = len(self._buffers) - 1
        self._tensors.append(t)
        h = Tensor(len(self._tensors) - 1, name, tuple(t.shape), dtype)
        self._handles.append(h)
        return h

    def input(self, name: str, shape, dtype: str, scale=None, zero_point=None) -> Tensor:
        h = self.tensor(name, shape, dtype, scale, zero_point)
        self._inputs.append(h.index)
        return h

    def const(self, name: str, data, dtype: str, scale=None, zero_point=None, quantized_dimension: int = 0) -> Tensor:
        arr = np.asarray(data)
        return self.tensor(name, arr.shape, dtype, scale, zero_point, quantized_dimension, data=arr)

    def variable(self, name: str, shape, dtype: str, scale=None, zero_point=None) -> Tensor:
        """A variable tensor (is_variable): state an operator updates in place and keeps between invocations."""
        h = self.tensor(name, shape, dtype, scale, zero_point)
        self._tensors[h.index].isVariable = True
        return h

    def output(self, *handles: Tensor) -> None:
        for h in handles:
            self._outputs.append(h.index)

    # --- operators -----------------------------------------------------------
    def _opcode(self, kind: str) -> int:
        if kind not in self._opcodes:
            custom = kind.startswith("CUSTOM:")
            code = fb.BuiltinOperator.CUSTOM if custom else getattr(fb.BuiltinOperator, kind)
            oc = fb.OperatorCodeT()
            if custom:
                oc.customCode = kind[len("CUSTOM:") :]
            oc.builtinCode = code
            # Codes above 127 only fit the new field; the old one saturates.
            oc.deprecatedBuiltinCode = min(code, fb.BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES)
            oc.version = 1
            self._opcodes[kind] = len(self._opcode_list)
            self._opcode_list.append(oc)
        return self._opcodes[kind]

    def op(self, kind: str, inputs, out, options=None):
        o = fb.OperatorT()
        o.opcodeIndex = self._opcode(kind)
        o.inputs = [-1 if t is None else t.index for t in inputs]
        outs = out if isinstance(out, (list, tuple)) else [out]
        o.outputs = [t.index for t in outs]
        if kind.startswith("CUSTOM:"):
            from flatbuffers import flexbuffers

            o.customOptions = list(flexbuffers.Dumps(dict(options or {})))
        elif options is not None:
            if isinstance(options, dict):
                table = _OPTIONS_FOR_OP.get(kind)
                if table is None:
                    raise ValueError(f"no default options table for {kind}; pass an *OptionsT")
                obj = getattr(fb, table + "T")()
                for k, v in options.items():
                    if not hasattr(obj, k):
                        raise ValueError(f"{table} has no field {k}")
                    setattr(obj, k, v)
            else:
                obj = options
                table = type(obj).__name__[:-1]
            o.builtinOptionsType = getattr(fb.BuiltinOptions, table)
            o.builtinOptions = obj
        elif kind in _OPTIONS_FOR_OP:
            # TFLM reads some options unconditionally; give every op its (default) table.
            table = _OPTIONS_FOR_OP[kind]
            o.builtinOptionsType = getattr(fb.BuiltinOptions, table)
            o.builtinOptions = getattr(fb, table + "T")()
        self._ops.append(o)
        return out

    # --- subgraphs -------------------------------------------------------------
    def subgraph(self) -> "ModelBuilder":
        """A further subgraph of this model (index 1, 2, ... in creation order)."""
        sub = ModelBuilder(self._description)
        sub._buffers, sub._opcodes, sub._opcode_list = self._buffers, self._opcodes, self._opcode_list
        self._subgraphs.append(sub)
        sub.index = len(self._subgraphs)
        return sub

    def _subgraph_t(self, name):
        sg = fb.SubGraphT()
        sg.tensors = self._tensors
        sg.inputs = list(self._inputs)
        sg.outputs = list(self._outputs)
        sg.operators = self._ops
        sg.name = name
        return sg

    # --- serialization -------------------------------------------------------
    def build(self) -> bytes:
        m = fb.ModelT()
        m.version = 3
        m.operatorCodes = self._opcode_list
        m.subgraphs = [self._subgraph_t("main")] + [s._subgraph_t(f"subgraph{s.index}") for s in self._subgraphs]
        m.buffers = self._buffers
        m.description = self._description
        if self.metadata:
            m.metadata = []
            for name, raw in self.metadata.items():
                buf = fb.BufferT()
                buf.data = list(raw)
                m.buffers = m.buffers + [buf]
                md = fb.MetadataT()
                md.name = name
                md.buffer = len(m.buffers) - 1
                m.metadata.append(md)
        if self.signature:
            sig = fb.SignatureDefT()
            sig.signatureKey = self.signature
            sig.subgraphIndex = 0
            sig.inputs, sig.outputs = [], []
            for indices, into in ((self._inputs, sig.inputs), (self._outputs, sig.outputs)):
                for i in indices:
                    tm = fb.TensorMapT()
                    tm.name, tm.tensorIndex = self._tensors[i].name, i
                    into.append(tm)
            m.signatureDefs = [sig]
        b = flatbuffers.Builder(1024)
        b.Finish(m.Pack(b), file_identifier=b"TFL3")
        return bytes(b.Output())

    def save(self, path) -> str:
        with open(path, "wb") as f:
            f.write(self.build())
        return str(path)
