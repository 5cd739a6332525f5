"""ONNX model -> IR (the same IR, op kinds and NHWC convention as the TFLite frontend).

Steps: load with the `onnx` package; pin symbolic input dimensions (`--dim name=N`); infer static shapes;
fold every node whose inputs are all constants (shape arithmetic, Constant, initializer-only subgraphs) with
the onnx package's reference evaluator; then translate node by node with the converters of
`onnx_ops/` (one module per op family).  Quantized graphs in QDQ form are translated to int8 operators:
a DequantizeLinear output is a view of int8 data, an operator whose inputs are such views and whose
output feeds a QuantizeLinear becomes one int8 IR operator (see onnx_ops/dispatch.py).
"""

import os

import numpy as np
import onnx
from onnx import numpy_helper

from .. import limits
from ..errors import CompileError, UnsupportedError
from ..ir import Graph
from .onnx_ops.builder import Builder
from .onnx_ops.context import array_type_name, elem_type_name
from .onnx_ops.dispatch import convert_node
from .onnx_ops.fold import fold_node, foldable
from .onnx_ops.values import QInfo, Value
from .onnx_external import has_external_data, load_external_data
from .onnx_if import branch_shapes, convert_if
from .onnx_normalize import normalize
from .onnx_validate import check_model
from .onnx_zipmap import lower_zipmap
from .onnx_wire import describe_defect

# ONNX element types a model input may have (IR activation types); other types are refused by name.
_INPUT_TYPES = {
    onnx.TensorProto.FLOAT: "float32",
    onnx.TensorProto.INT8: "int8",
    onnx.TensorProto.UINT8: "uint8",
    onnx.TensorProto.INT32: "int32",
    onnx.TensorProto.BOOL: "bool",
}


# ONNX element types a frozen input may have, as numpy types (any type a constant may have).
_NUMPY_TYPES = {
    onnx.TensorProto.FLOAT: "float32",
    onnx.TensorProto.INT8: "int8",
    onnx.TensorProto.UINT8: "uint8",
    onnx.TensorProto.INT32: "int32",
    onnx.TensorProto.INT64: "int64",
    onnx.TensorProto.BOOL: "bool",
    onnx.TensorProto.INT16: "int16",
}


def load_onnx(path: str, dims: dict = None, frozen: dict = None, input_shapes: dict = None) -> Graph:
    name = os.path.basename(path) or path
    try:
        limits.check_model_bytes(name, os.path.getsize(path))
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CompileError(f"Cannot read model file '{path}': {e.strerror or e}.") from None
    try:
        # Parsed from the bytes read above; external data is read by onnx_external from beside the file only.
        model = onnx.ModelProto.FromString(data)
    except Exception as e:  # protobuf decode errors come in several types
        defect = describe_defect(data)
        what = f": {defect}" if defect else f" ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})"
        raise CompileError(
            f"'{name}' could not be parsed as an ONNX model{what}. The file is truncated or corrupt, "
            "or not an ONNX file; only complete .onnx protobuf files are supported."
        ) from None
    if has_external_data(model):
        load_external_data(model, path, name)
    return read_onnx(model, name, dims or {}, frozen or {}, input_shapes or {})


def _negative_dims_unknown(g) -> None:
    """Some exporters (paddle2onnx) write -1 for a dynamic dimension of a graph input or output, where ONNX has an
    unnamed dimension; onnxruntime reads it so. Read it so too: it is then pinned like any unknown dimension
    (--input_shape), instead of the file being called malformed."""
    for vi in list(g.input) + list(g.output) + list(g.value_info):
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape"):
            for d in vi.type.tensor_type.shape.dim:
                if d.HasField("dim_value") and d.dim_value < 0:
                    d.Clear()


def read_onnx(
    model, source_name: str = "model", dims: dict = None, frozen: dict = None, input_shapes: dict = None
) -> Graph:
    """The IR of an ONNX ModelProto. Graph inputs with an initializer (the exporter's default value) are constants;
    `frozen` ({input name: array}) makes others constants too; `input_shapes` ({input name: [dims]}) pins whole
    input shapes (`--input_shape`), `dims` ({dim_param: N}) named dimensions (`--dim`)."""
    return _Reader(model, source_name, dims or {}, frozen or {}, input_shapes or {}).run()


# The standard opset given to a model made only of ONNX-ML operators (onnx_ml.py rewrites them into standard ones).
_ML_ONLY_OPSET = 17


class _Reader:
    def __init__(self, model, source_name: str, dims: dict, frozen: dict = None, input_shapes: dict = None):
        if not any(o.domain in ("", "ai.onnx") for o in model.opset_import) and all(
            n.domain == "ai.onnx.ml" for n in model.graph.node
        ):
            # A model of ONNX-ML operators only (onnxruntime's logreg_iris.onnx) imports no standard opset: none of
            # its nodes reads one, but the standard operators onnx_ml.py rewrites them into need one.
            model.opset_import.append(onnx.helper.make_opsetid("", _ML_ONLY_OPSET))
        if model.ir_version < 4 and any(n.domain == "ai.onnx.ml" for n in model.graph.node):
            # IR 3 (logreg_iris.onnx again) lists every initializer as a graph input, and ONNX shape inference
            # ignores the others; the constants onnx_ml.py adds are initializers only: read the model as IR 4.
            model.ir_version = 4
        self.model = model
        self.source = source_name
        self.dims = dims
        self.input_shapes = input_shapes or {}
        self.frozen = frozen or {}
        self.builder = Builder()
        self.values = {}
        self.shapes = {}
        self.skip = set()  # node indices already translated as part of another node's group
        self.opset = 1
        for imp in model.opset_import:
            if imp.domain in ("", "ai.onnx"):
                self.opset = int(imp.version)

    # --- public helpers for converters ------------------------------------------------------------------------
    def set_value(self, name: str, value: Value) -> None:
        self.values[name] = value

    def shape_of(self, name: str, ctx=None) -> tuple:
        shape = self.shapes.get(name)
        if shape is None:
            who = f"ONNX node '{ctx.name}' ({ctx.op_type})" if ctx else "The model"
            raise UnsupportedError(
                f"{who}: the shape of '{name}' is not static after shape inference (only "
                "static shapes are supported; pin symbolic input dimensions with --dim NAME=N)."
            )
        return shape

    def consumers(self, name: str) -> list:
        return self._consumers.get(name, [])

    def is_graph_output(self, name: str) -> bool:
        return name in self._output_names

    # --- steps --------------------------------------------------------------------------------------------------
    def run(self) -> Graph:
        _negative_dims_unknown(self.model.graph)
        # skl2onnx's default ZipMap: its sequence-of-maps output becomes the probability tensor (onnx_zipmap.py).
        self.meanings = lower_zipmap(self.model, self.source)
        check_model(self.model, self.source)  # graph structure, constants, attributes, limits (onnx_validate)
        g = self.model.graph
        for imp in self.model.opset_import:
            if imp.domain not in ("", "ai.onnx", "com.microsoft", "ai.onnx.ml") and any(
                n.domain == imp.domain for n in g.node
            ):
                raise UnsupportedError(
                    f"'{self.source}' uses operators of domain '{imp.domain}'; only the "
                    "standard ONNX domain is supported."
                )
        limits.check_counts(self.source, len(g.node), len(g.value_info) + len(g.initializer) + len(g.input))
        init_names = {t.name for t in g.initializer}
        self._freeze_inputs(g, init_names)
        # Pinned input shapes, If nodes with constant conditions inlined, constants folded to a fixpoint.
        frozen = {n: self.values[n].const for n in self.frozen}
        self.model = normalize(self.model, self.source, frozen, self.dims, self.input_shapes)
        g = self.model.graph
        init_names = {t.name for t in g.initializer}
        for t in g.initializer:
            arr = numpy_helper.to_array(t)
            self.values[t.name] = Value(t.name, tuple(arr.shape), str(arr.dtype), const=arr)
        self._output_names = [o.name for o in g.output]
        self._pin_inputs([i for i in g.input if i.name not in init_names and i.name not in self.frozen])
        self._infer_shapes()
        self._consumers = {}
        for idx, node in enumerate(g.node):
            for name in node.input:
                if name:
                    self._consumers.setdefault(name, []).append(idx)
        self.nodes = list(g.node)
        for idx, node in enumerate(self.nodes):
            if idx in self.skip:
                continue
            for name in node.input:
                if name and name not in self.values:
                    raise CompileError(
                        f"ONNX node '{node.name or node.op_type}' ({node.op_type}) reads '{name}', "
                        "which no earlier node, input or initializer defines. The model file is "
                        "malformed (nodes must be in topological order)."
                    )
            if node.op_type == "If" and node.domain in ("", "ai.onnx"):
                convert_if(self, node, self._translate_branch_node)
            elif foldable(self, node):
                fold_node(self, node, idx)
            else:
                convert_node(self, node, idx)
        return self._finish()

    def _translate_branch_node(self, node) -> None:
        """One node of a data-dependent If's branch (onnx_if.py), as the main loop translates one."""
        for name in node.input:
            if name and name not in self.values:
                raise CompileError(
                    f"ONNX node '{node.name or node.op_type}' ({node.op_type}) in an If branch reads '{name}', which "
                    "nothing before it defines. The model file is malformed."
                )
        if foldable(self, node):
            fold_node(self, node, -1)
        else:
            convert_node(self, node, -1)

    def _freeze_inputs(self, g, init_names) -> None:
        """--freeze_input: a graph input (one without an initializer) becomes a constant of the given value, which
        must have the input's element type and static shape."""
        free = {i.name: i for i in g.input if i.name not in init_names}
        for name, arr in self.frozen.items():
            if name not in free:
                raise CompileError(
                    f"--freeze_input {name}: '{self.source}' has no graph input of that name without an "
                    f"initializer; its free inputs are: {', '.join(sorted(free)) or '(none)'}."
                )
            tt = free[name].type.tensor_type
            want = _NUMPY_TYPES.get(tt.elem_type)
            if want is None or arr.dtype != np.dtype(want):
                raise CompileError(
                    f"--freeze_input {name}: the file holds {arr.dtype} values; the input is "
                    f"{elem_type_name(tt.elem_type)}" + (f" (save the array as {want})." if want else ".")
                )
            dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
            if tt.HasField("shape") and (
                len(dims) != arr.ndim or any(d is not None and d != n for d, n in zip(dims, arr.shape))
            ):
                raise CompileError(
                    f"--freeze_input {name}: the array has shape {list(arr.shape)}; the input's shape is "
                    f"{[d if d is not None else '?' for d in dims]}."
                )
            self.values[name] = Value(name, tuple(arr.shape), str(arr.dtype), const=arr)

    def _pin_inputs(self, inputs) -> None:
        for inp in inputs:
            tt = inp.type.tensor_type
            code = tt.elem_type
            if code not in _INPUT_TYPES:
                raise UnsupportedError(
                    f"Model input '{inp.name}' has element type {elem_type_name(code)}; model inputs must be "
                    "FLOAT (float32), INT8 or UINT8 (raw, or quantized data read by DequantizeLinear / QLinear "
                    "operators), INT32 or BOOL."
                )
            if not tt.HasField("shape"):
                raise UnsupportedError(
                    f"Model input '{inp.name}' has no shape; static shapes are required: give it with "
                    f"--input_shape {inp.name}=D0,D1,... (e.g. 1,512)."
                )
            shape = []
            for d in tt.shape.dim:
                if d.HasField("dim_value") and d.dim_value >= 0:
                    # 0 is a static size too: a zero-size input (no data; see onnx_ops/dispatch.py ZERO_SIZE_OPS)
                    shape.append(int(d.dim_value))
                elif d.HasField("dim_param") and d.dim_param in self.dims:
                    d.dim_value = self.dims[d.dim_param]  # pin in the proto too, for shape inference
                    shape.append(int(d.dim_value))
                else:
                    what = f"symbolic dimension '{d.dim_param}'" if d.HasField("dim_param") else "an unknown dimension"
                    hint = (
                        f"pin it with --dim {d.dim_param}=N (or the shape with --input_shape {inp.name}=D0,D1,...)"
                        if d.HasField("dim_param")
                        else f"give the whole shape with --input_shape {inp.name}=D0,D1,... (e.g. 1,512)"
                    )
                    raise UnsupportedError(
                        f"Model input '{inp.name}' has {what} (dimension {len(shape)} of "
                        f"{[x.dim_value or x.dim_param or '?' for x in tt.shape.dim]}); only static shapes are "
                        f"supported: {hint}."
                    )
            v = self.builder.runtime_value(inp.name, shape, _INPUT_TYPES[code])
            v.tensors["onnx"].is_input = True
            self.values[inp.name] = v
            self.graph_inputs = getattr(self, "graph_inputs", []) + [v.tensors["onnx"]]

    def _infer_shapes(self) -> None:
        try:
            inferred = onnx.shape_inference.infer_shapes(self.model, strict_mode=False, data_prop=True)
        except Exception as e:
            raise CompileError(f"ONNX shape inference failed on '{self.source}': {type(e).__name__}: {e}.") from None
        g = inferred.graph
        for vi in list(g.value_info) + list(g.output) + list(g.input):
            tt = vi.type.tensor_type
            if not tt.HasField("shape"):
                continue
            dims = [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim]
            if all(d >= 0 for d in dims):
                self.shapes.setdefault(vi.name, tuple(int(d) for d in dims))
        branch_shapes(g, self.shapes)
        for name, v in self.values.items():
            self.shapes[name] = tuple(v.shape)

    def _finish(self) -> Graph:
        b = self.builder
        outputs = []
        for name in self._output_names:
            v = self.values.get(name)
            if v is None:
                raise CompileError(f"Model output '{name}' is not produced by any node. The model file is malformed.")
            if v.is_const and str(np.asarray(v.const).dtype) not in ("float32", "int8", "uint8", "int32", "bool"):
                raise UnsupportedError(
                    f"Model output '{name}' is a constant of type {array_type_name(v.const)}; "
                    "constant outputs must be float32, int8, uint8, int32 or bool."
                )
            t = b.get(v, "onnx")
            if getattr(v, "onnx_dtype", None) == "uint8" and t.dtype == "int8":
                # uint8 quantized data is held as int8 shifted by -128: shift back at the boundary.
                q = t.quant
                u8 = b.new_tensor(
                    name + ":u8",
                    t.shape,
                    "uint8",
                    None if q is None else type(q)(scale=q.scale, zero_point=q.zero_point + 128, axis=q.axis),
                )
                b.add_op("CAST", [t], [u8], {"Offset": 128})
                t = u8
            if t.dtype == "int8" and getattr(v, "per_axis_q", None) is not None:
                raise UnsupportedError(
                    f"Model output '{name}' is INT8 quantized per axis; int8 model outputs "
                    "need one scale and zero point (uint8 or float outputs may be per axis)."
                )
            if t.dtype == "int8" and t.quant is None:
                t.quant = b.quant_params(QInfo(np.ones(1, np.float32), np.zeros(1, np.int64)))
            if t.is_input or t.is_output or t.is_const or t.name != name:
                holder = next((x for x in b.tensors if x.name == name), None)
                if holder is not None and holder is not t:
                    holder.name = b._unique(name + ":inner")
                if t.is_input or t.is_output or t.is_const:
                    out = b.new_tensor(name + ":copy", t.shape, t.dtype, t.quant)
                    b.add_op("RESHAPE", [t], [out])
                    t = out
                t.name = name
                b._names.add(name)
            t.is_output = True
            t.meaning = self.meanings.get(name)
            outputs.append(t)
        ops = b.ops
        # Drop operators nothing reads (e.g. unused layout twins); keep order.
        live = {id(t) for t in outputs}
        kept = []
        for op in reversed(ops):
            if op.kind in ("IF", "IF_ELSE") or any(id(t) in live for t in op.outputs):  # markers open blocks
                kept.append(op)
                live.update(id(t) for t in op.inputs if t is not None)
        kept.reverse()
        used = {id(t) for op in kept for t in op.inputs + op.outputs if t is not None} | {id(t) for t in outputs}
        inputs = list(getattr(self, "graph_inputs", []))
        for t in inputs:
            if t.dtype == "int8" and t.quant is None:  # raw int8 data: the identity quantization
                t.quant = b.quant_params(QInfo(np.ones(1, np.float32), np.zeros(1, np.int64)))
        tensors = [t for t in b.tensors if id(t) in used or t.is_input]
        for i, t in enumerate(tensors):
            t.index = i
        for i, op in enumerate(kept):
            op.index = i
        limits.check_weights(self.source, sum(t.data.nbytes for t in tensors if t.data is not None))
        graph = Graph(
            name=self.model.graph.name or "main",
            tensors=tensors,
            ops=kept,
            inputs=inputs,
            outputs=outputs,
            description=f"ONNX opset {self.opset}",
        )
        graph.link()
        return graph
