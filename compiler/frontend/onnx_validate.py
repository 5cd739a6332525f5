"""Checks of an ONNX model that are not specific to one operator, made before anything else looks at it.

A model file is untrusted input. Before the reader converts constants with numpy, runs the onnx package's shape
inference or constant folding, or any converter reads an attribute, `check_model` verifies what every later step
takes for granted, so a hostile file gets one clear CompileError paragraph (naming the tensor, node or attribute
and what is supported) instead of an exception deep inside numpy or the onnx package, a hang or a memory blow-up:

- no tensor stores its data outside the .onnx file (external data) any more: onnx_external has read the side file
  beside the model (a plain file name only: no path written in the model is followed, no '../../etc/passwd',
  /dev/zero or /proc reads), and a model given in memory with external references is refused;
- no control flow but If, Loop and Scan (branches and bodies are checked as graphs of their own, reading outer
  names; other graph-valued attributes are refused), no model-local functions in use;
- one opset for the standard domain, in the range the installed onnx package knows;
- every constant (initializer, Constant / ConstantOfShape value attribute): a supported element type,
  non-negative dimensions, rank and byte size within compiler/limits.py, and a payload (raw_data or the typed
  field) of exactly the length its shape and type need; all constants together within the weight limit;
- graph inputs and outputs are tensors with sane claimed shapes;
- names: unique initializers, graph inputs and node outputs (one producer per value), every node input defined by
  an earlier node, graph input or initializer (topological order, so no cycles), every graph output defined;
- attributes: a known type holding a value of that type, lists of a bounded length, and the ranges that must
  hold for any operator: kernel_shape / strides / dilations / group >= 1, pads >= 0, all of them and axis / axes /
  perm entries small enough that shape arithmetic stays far from overflow;
- each standard operator against its schema at the model's opset (onnx.defs): the number of inputs and outputs,
  required inputs and outputs not left empty, required attributes present, and every attribute the schema knows of
  the type it defines (so a converter can rely on 'axis' being an INT and 'kernel_shape' INTS).
"""

import math

import onnx
from onnx import AttributeProto, TensorProto

from .. import limits
from ..errors import CompileError, UnsupportedError
from .onnx_ml_rules import SUPPORTED as ML_SUPPORTED

# Element types a constant may have, with their item size in bytes and the typed field that can hold the payload
# when raw_data is not used (ONNX stores int8/uint8/int16/uint16/bool/float16 values in int32_data).
_CONST_TYPES = {
    TensorProto.FLOAT: (4, "float_data"),
    TensorProto.UINT8: (1, "int32_data"),
    TensorProto.INT8: (1, "int32_data"),
    TensorProto.UINT16: (2, "int32_data"),
    TensorProto.INT16: (2, "int32_data"),
    TensorProto.INT32: (4, "int32_data"),
    TensorProto.INT64: (8, "int64_data"),
    TensorProto.BOOL: (1, "int32_data"),
    TensorProto.FLOAT16: (2, "int32_data"),
    TensorProto.DOUBLE: (8, "double_data"),
    TensorProto.UINT32: (4, "uint64_data"),
    TensorProto.UINT64: (8, "uint64_data"),
}
_TYPED_FIELDS = ("float_data", "int32_data", "int64_data", "double_data", "uint64_data", "string_data")

# Attribute sanity: the largest value any spatial attribute or axis may have. A microcontroller model's kernels,
# strides and pads are tiny; these bounds only keep shape arithmetic (in the onnx package's C++ shape inference
# and in the converters) far from int64 overflow and huge loops.
_MAX_SPATIAL = 1 << 20
_MAX_LIST = 1024  # entries of an INTS / FLOATS / STRINGS attribute
_POSITIVE = ("kernel_shape", "strides", "dilations", "group")
_NON_NEGATIVE = ("pads", "output_padding")
_AXES = ("axis", "axes", "perm")

_ATTR_FIELD = {
    AttributeProto.FLOAT: "f",
    AttributeProto.INT: "i",
    AttributeProto.STRING: "s",
    AttributeProto.TENSOR: "t",
    AttributeProto.GRAPH: "g",
    AttributeProto.SPARSE_TENSOR: "sparse_tensor",
    AttributeProto.TYPE_PROTO: "tp",
}
_ATTR_LIST = {
    AttributeProto.FLOATS: "floats",
    AttributeProto.INTS: "ints",
    AttributeProto.STRINGS: "strings",
    AttributeProto.TENSORS: "tensors",
    AttributeProto.GRAPHS: "graphs",
    AttributeProto.SPARSE_TENSORS: "sparse_tensors",
    AttributeProto.TYPE_PROTOS: "type_protos",
}


def _type_name(code: int) -> str:
    try:
        return TensorProto.DataType.Name(code)
    except ValueError:
        return str(code)


def _node_label(node, index: int) -> str:
    return f"ONNX node '{node.name or f'{node.op_type}_{index}'}' ({node.op_type})"


def _supported_types() -> str:
    return ", ".join(_type_name(c) for c in _CONST_TYPES)


# --- external data ---------------------------------------------------------------------------------------------
def _walk_tensors(graph, where: str):
    """(tensor, description) of every TensorProto in graph, its nodes' attributes and nested subgraphs."""
    for t in graph.initializer:
        yield t, f"initializer '{t.name}'"
    for sp in graph.sparse_initializer:
        yield sp.values, f"sparse initializer '{sp.values.name}'"
        yield sp.indices, f"sparse initializer '{sp.values.name}' (indices)"
    for i, n in enumerate(graph.node):
        label = _node_label(n, i)
        for a in n.attribute:
            if a.HasField("t"):
                yield a.t, f"attribute '{a.name}' of {label}"
            for t in a.tensors:
                yield t, f"attribute '{a.name}' of {label}"
            for sp in [a.sparse_tensor] if a.HasField("sparse_tensor") else []:
                yield sp.values, f"attribute '{a.name}' of {label}"
            for sp in a.sparse_tensors:
                yield sp.values, f"attribute '{a.name}' of {label}"
            for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                yield from _walk_tensors(g, where)


def _check_external(model, source: str) -> None:
    graphs = [model.graph] + [
        g
        for f in model.functions
        for n in f.node
        for a in n.attribute
        for g in ([a.g] if a.HasField("g") else []) + list(a.graphs)
    ]
    for g in graphs:
        for t, what in _walk_tensors(g, source):
            if t.data_location == TensorProto.EXTERNAL or len(t.external_data) or t.HasField("segment"):
                loc = next((e.value for e in t.external_data if e.key == "location"), "")
                kind = (
                    "is a segment of a larger tensor"
                    if t.HasField("segment") and not len(t.external_data)
                    else "stores its data outside the model file" + (f" (location '{loc}')" if loc else "")
                )
                raise UnsupportedError(
                    f"'{source}': {what} {kind}, which was not loaded. External data is read only when the "
                    "model is compiled from its .onnx file with the data file beside it (a plain file name, "
                    "no path); otherwise save the model with its weights inside "
                    "(onnx.save_model(model, path, save_as_external_data=False); at most 2 GB)."
                )


# --- constants -------------------------------------------------------------------------------------------------
def check_tensor_proto(t, what: str) -> int:
    """Checks a constant's type, dims, size and payload length; returns its size in bytes."""
    if t.data_type not in _CONST_TYPES:
        raise UnsupportedError(
            f"The {what} has element type {_type_name(t.data_type)}; constants of type "
            f"{_supported_types()} are supported."
        )
    itemsize, field = _CONST_TYPES[t.data_type]
    dims = list(t.dims)
    if any(d < 0 for d in dims):
        raise CompileError(f"The {what} has a negative dimension in its shape {dims}. The model file is malformed.")
    nbytes = limits.check_tensor("(constant)", what, dims, itemsize)
    count = math.prod(dims)
    if t.HasField("raw_data"):
        if len(t.raw_data) != count * itemsize:
            raise CompileError(
                f"The {what} of type {_type_name(t.data_type)} and shape {dims} needs "
                f"{count * itemsize} bytes of raw_data but holds {len(t.raw_data)}. The model file "
                "is malformed."
            )
    else:
        have = {f: len(getattr(t, f)) for f in _TYPED_FIELDS if len(getattr(t, f))}
        if set(have) - {field} or have.get(field, 0) != count:
            found = ", ".join(f"{n} values in {f}" for f, n in have.items()) or "no values"
            raise CompileError(
                f"The {what} of type {_type_name(t.data_type)} and shape {dims} needs {count} "
                f"values (in raw_data or {field}) but has {found}. The model file is malformed."
            )
    return nbytes


def _check_constants(graph, source: str) -> None:
    if len(graph.sparse_initializer):
        sp = graph.sparse_initializer[0]
        raise UnsupportedError(
            f"'{source}': sparse initializer '{sp.values.name}' is not supported; store the "
            "weights as dense initializers."
        )
    total = 0
    for t in graph.initializer:
        total += check_tensor_proto(t, f"initializer '{t.name}'")
    for i, n in enumerate(graph.node):
        for a in n.attribute:
            if a.type == AttributeProto.TENSOR:
                total += check_tensor_proto(a.t, f"attribute '{a.name}' of {_node_label(n, i)}")
            elif a.type in (AttributeProto.TENSORS, AttributeProto.SPARSE_TENSOR, AttributeProto.SPARSE_TENSORS):
                raise UnsupportedError(
                    f"{_node_label(n, i)}: attribute '{a.name}' of type "
                    f"{AttributeProto.AttributeType.Name(a.type)} is not supported (constant "
                    "attributes must be dense tensors)."
                )
    limits.check_weights(source, total)


# --- graph inputs and outputs ----------------------------------------------------------------------------------
def _check_value_info(vi, what: str) -> None:
    if vi.type.WhichOneof("value") not in (None, "tensor_type"):
        raise UnsupportedError(
            f"{what} '{vi.name}' is a {vi.type.WhichOneof('value').replace('_type', '')}; only tensors are supported."
        )
    tt = vi.type.tensor_type
    if not tt.HasField("shape"):
        return
    dims = [d.dim_value for d in tt.shape.dim if d.HasField("dim_value")]
    if any(d < 0 for d in dims):
        raise CompileError(
            f"{what} '{vi.name}' has a negative dimension in its shape "
            f"{[d.dim_value if d.HasField('dim_value') else d.dim_param or '?' for d in tt.shape.dim]}."
            " The model file is malformed."
        )
    if len(tt.shape.dim) > limits.active().max_rank:
        raise UnsupportedError(
            f"{what} '{vi.name}' has rank {len(tt.shape.dim)}; at most "
            f"{limits.active().max_rank} dimensions are supported."
        )
    itemsize = _CONST_TYPES.get(tt.elem_type, (1, ""))[0]
    limits.check_tensor("(value)", f"{what.lower()} '{vi.name}'", dims, itemsize)


# --- nodes and attributes --------------------------------------------------------------------------------------
def _check_attribute(a, label: str) -> None:
    def bad(msg):
        return CompileError(f"{label}: attribute '{a.name}' {msg}. The model file is malformed.")

    if a.type in _ATTR_FIELD:
        if a.type not in (AttributeProto.FLOAT, AttributeProto.INT, AttributeProto.STRING) and not a.HasField(
            _ATTR_FIELD[a.type]
        ):
            raise bad(f"is declared {AttributeProto.AttributeType.Name(a.type)} but holds no such value")
        if a.type == AttributeProto.GRAPH:
            raise UnsupportedError(
                f"{label}: attribute '{a.name}' is a subgraph; of the control-flow operators If (inlined when "
                "its condition is a constant after --freeze_input / --dim / constant folding), Loop (unrolled "
                "when its trip count is a constant) and Scan (unrolled over its static sequence length) are "
                "supported; other operators with graph attributes are not."
            )
    elif a.type in _ATTR_LIST:
        if a.type == AttributeProto.GRAPHS:
            raise UnsupportedError(f"{label}: attribute '{a.name}' holds subgraphs; control flow is not supported.")
        n = len(getattr(a, _ATTR_LIST[a.type]))
        if n > _MAX_LIST:
            raise UnsupportedError(f"{label}: attribute '{a.name}' has {n} entries; at most {_MAX_LIST} are supported.")
    else:
        raise bad(f"has type {a.type}, which ONNX does not define (UNDEFINED or unknown)")
    if a.type not in (AttributeProto.INT, AttributeProto.INTS):
        return
    values = [a.i] if a.type == AttributeProto.INT else list(a.ints)
    if a.name in _POSITIVE and any(not 1 <= v <= _MAX_SPATIAL for v in values):
        raise UnsupportedError(
            f"{label}: attribute '{a.name}' is {values if len(values) > 1 else values[0]}; "
            f"values from 1 to {_MAX_SPATIAL} are supported."
        )
    if a.name in _NON_NEGATIVE and any(not 0 <= v <= _MAX_SPATIAL for v in values):
        raise UnsupportedError(
            f"{label}: attribute '{a.name}' is {values}; values from 0 to {_MAX_SPATIAL} are supported."
        )
    if a.name in _AXES and any(abs(v) > 64 for v in values):
        raise UnsupportedError(
            f"{label}: attribute '{a.name}' is {values if len(values) > 1 else values[0]}; axes "
            f"must lie within the tensor's rank (at most {limits.active().max_rank})."
        )


def _schema(node, opset: int):
    """The ONNX schema of a standard-domain node at the model's opset, or None (other domains, operators this onnx
    package does not know or that the opset predates: the converters name those as unsupported)."""
    if node.domain not in ("", "ai.onnx") or not node.op_type:
        return None
    try:
        return onnx.defs.get_schema(node.op_type, opset, "")
    except Exception:  # noqa: BLE001 - SchemaError: no such operator at this opset
        return None


def _count(lo: int, hi: int) -> str:
    return f"exactly {lo}" if lo == hi else f"at least {lo}" if hi >= 1 << 30 else f"{lo} to {hi}"


def _check_schema(n, label: str, opset: int) -> None:
    """Input / output counts, required inputs and attributes, and attribute types against the operator's schema:
    what every converter may then rely on (a required operand is there, 'axis' is an INT, ...)."""
    schema = _schema(n, opset)
    if schema is None:
        return
    what = f"{n.op_type} (opset {opset})"
    for kind, names, lo, hi, formal in (
        ("inputs", n.input, schema.min_input, schema.max_input, schema.inputs),
        ("outputs", n.output, schema.min_output, schema.max_output, schema.outputs),
    ):
        if not lo <= len(names) <= hi:
            raise CompileError(
                f"{label} has {len(names)} {kind}; {what} takes {_count(lo, hi)}. The model file is malformed."
            )
        for i, p in enumerate(formal):
            if i < len(names) and not names[i] and p.option == onnx.defs.OpSchema.FormalParameterOption.Single:
                raise CompileError(
                    f"{label}: {kind[:-1]} {i} ('{p.name}') is required but its name is empty. The "
                    "model file is malformed."
                )
    present = set()
    for a in n.attribute:
        present.add(a.name)
        spec = schema.attributes.get(a.name)
        if spec is not None and int(a.type) != int(spec.type.value):
            raise CompileError(
                f"{label}: attribute '{a.name}' is {AttributeProto.AttributeType.Name(a.type)}, but "
                f"{what} defines it as {spec.type.name}. The model file is malformed."
            )
    for name, spec in schema.attributes.items():
        if spec.required and name not in present:
            raise CompileError(
                f"{label} lacks the attribute '{name}', which {what} requires. The model file is malformed."
            )


def _check_nodes(model, graph, source: str, opset: int, outer: dict = None) -> None:
    """`outer`: the names an enclosing graph defines before the node holding this subgraph (an If branch reads
    them)."""
    functions = {(f.domain, f.name) for f in model.functions}
    defined = dict(outer or {})  # value name -> what defines it
    local = set()
    for t in graph.initializer:
        if t.name in local:
            raise CompileError(f"'{source}' has two initializers named '{t.name}'. The model file is malformed.")
        local.add(t.name)
        defined[t.name] = "an initializer"
    inputs = set()
    for vi in graph.input:
        if vi.name in inputs or not vi.name:
            raise CompileError(
                f"'{source}' declares the graph input '{vi.name}' "
                + ("twice" if vi.name else "with an empty name")
                + ". The model file is malformed."
            )
        inputs.add(vi.name)
        defined.setdefault(vi.name, "a graph input")
    for i, n in enumerate(graph.node):
        label = _node_label(n, i)
        if (n.domain, n.op_type) in functions:
            raise UnsupportedError(
                f"{label} calls a function defined in the model (domain '{n.domain}'); "
                "model-local functions are not supported."
            )
        ml = n.domain == "ai.onnx.ml" and n.op_type in ML_SUPPORTED  # rewritten by onnx_ml_rules.RULES
        if n.domain == "ai.onnx.ml" and not ml:
            # Checked before the attributes: a scikit-learn export's long coefficient lists are not the problem.
            raise UnsupportedError(
                f"{label} is an ONNX-ML operator (domain 'ai.onnx.ml', as skl2onnx exports scikit-learn "
                f"models); {n.op_type} is not supported. Of ONNX-ML, {', '.join(ML_SUPPORTED)} are (the "
                "classifiers with integer class labels and the regressors; LabelEncoder, OneHotEncoder, Imputer, "
                "CategoryMapper and the others are not). Export the model as "
                "standard ONNX operators (a linear model or MLP as MatMul / Gemm) to compile it."
            )
        for a in n.attribute:
            if a.type == AttributeProto.GRAPH and n.op_type in ("If", "Loop", "Scan") and n.domain in ("", "ai.onnx"):
                # An If branch or a Loop / Scan body: a graph of its own that may read every name defined so far.
                _check_constants(a.g, source)
                _check_nodes(model, a.g, source, opset, defined)
                continue
            if ml and a.type in (AttributeProto.FLOATS, AttributeProto.INTS):
                # coefficient lists: long for wide inputs; bounded like a constant tensor
                limits.check_tensor("(constant)", f"attribute '{a.name}' of {label}", [len(a.floats) + len(a.ints)], 4)
                continue
            _check_attribute(a, label)
        _check_schema(n, label, opset)
        for name in n.input:
            if name and name not in defined:
                raise CompileError(
                    f"{label} reads '{name}', which no earlier node, graph input or initializer "
                    "defines. The model file is malformed (nodes must be in topological order, "
                    "without cycles)."
                )
        for name in n.output:
            if name and name in defined:
                raise CompileError(
                    f"{label} writes '{name}', which is already defined by {defined[name]}; every "
                    "value must have exactly one producer. The model file is malformed."
                )
            if name:
                defined[name] = label
    for vi in graph.output:
        if vi.name not in defined:
            raise CompileError(
                f"Model output '{vi.name}' is not produced by any node, graph input or initializer. "
                "The model file is malformed."
            )


# --- the entry point -------------------------------------------------------------------------------------------
def check_model(model, source: str) -> None:
    """Raises CompileError (one paragraph) if the model breaks a rule above; returns None otherwise."""
    if not model.HasField("graph"):
        raise CompileError(f"'{source}' has no graph. Only complete ONNX models are supported.")
    g = model.graph
    _check_external(model, source)
    # The same version imported twice (skl2onnx does for some models) is one opset.
    versions = sorted({int(o.version) for o in model.opset_import if o.domain in ("", "ai.onnx")})
    newest = onnx.defs.onnx_opset_version()
    if len(versions) != 1 or not 1 <= versions[0] <= newest:
        found = "no opset" if not versions else f"opset {versions}" if len(versions) > 1 else f"opset {versions[0]}"
        raise UnsupportedError(
            f"'{source}' imports {found} for the standard ONNX domain; exactly one opset from 1 "
            f"to {newest} is supported."
        )
    limits.check_counts(source, len(g.node), len(g.value_info) + len(g.initializer) + len(g.input))
    if not len(g.output):
        raise CompileError(f"'{source}' declares no graph outputs; a model needs at least one.")
    for vi in g.input:
        _check_value_info(vi, "Model input")
    _check_constants(g, source)
    # Nodes before outputs: an output that is not a tensor comes from an operator that is refused by name
    # (ONNX-ML's ZipMap writes a sequence of maps), which says more than the output's type.
    _check_nodes(model, g, source, versions[0])
    for vi in g.output:
        _check_value_info(vi, "Model output")
