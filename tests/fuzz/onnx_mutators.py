"""Structure-aware mutations of ONNX models: change one protobuf field and re-serialize.

Byte flips mostly break the protobuf framing, which the reader rejects early. These mutations keep the file a valid
ModelProto and make its *content* hostile instead: dimensions of 0, negative, 2^62 or symbolic; node inputs dropped,
duplicated, dangling or forming a cycle; nodes reordered, duplicated or retyped; wrong element types; extreme
attribute values (kernel_shape, pads, strides, dilations, group, axis, perm, ...) and attributes of the wrong type;
node inputs read from Constant nodes holding text, NaN or values of the wrong rank or type; initializers whose
raw_data has the wrong length, or that point at external data files (which the compiler must refuse without reading
anything); opset and IR version changes; an empty graph; If / Loop / Scan nodes with nested
subgraphs, model-local functions and unknown domains; quantization parameters of zero, NaN or the wrong type; and
hostile names. That is what reaches the checks of onnx_validate, the converters, the passes, the planner and the
code generator.

Every function draws all its randomness from the `random.Random` it is given, so a run is reproducible.
"""

import math

import numpy as np
import onnx
from onnx import AttributeProto, TensorProto, helper

_INTS = (
    -(1 << 62),
    -(1 << 31),
    -2,
    -1,
    0,
    1,
    2,
    3,
    4,
    7,
    255,
    256,
    4096,
    65535,
    65536,
    1 << 20,
    1 << 30,
    (1 << 31) - 1,
    1 << 31,
    1 << 40,
    (1 << 63) - 1,
)
_FLOATS = (0.0, -0.0, -1.0, 1e-45, 1e-30, 1e-10, 1.0, 1e10, 3.4e38, math.inf, -math.inf, math.nan)
_NAMES = (
    "*/ int x; /*",
    "a\nb",
    "back\\slash",
    'quo"te',
    "??/",
    "caf\u00e9 \u2603",
    "int",
    "1abc",
    "",
    "x" * 300,
    "workspace",
    "\x00nul",
    "</title><script>",
    "y",
    "x",
)
_OPS = (
    "Conv",
    "Gemm",
    "MatMul",
    "Relu",
    "MaxPool",
    "AveragePool",
    "GlobalAveragePool",
    "Add",
    "Mul",
    "Sub",
    "Div",
    "Reshape",
    "Flatten",
    "Transpose",
    "Concat",
    "Squeeze",
    "Unsqueeze",
    "BatchNormalization",
    "Pad",
    "ReduceMean",
    "Identity",
    "Slice",
    "Split",
    "Gather",
    "QuantizeLinear",
    "DequantizeLinear",
    "QLinearConv",
    "QLinearMatMul",
    "Softmax",
    "Clip",
    "PRelu",
    "LeakyRelu",
    "Sigmoid",
    "Tanh",
    "HardSwish",
    "HardSigmoid",
    "Shape",
    "Size",
    "ConstantOfShape",
    "Expand",
    "Tile",
    "Range",
    "Constant",
    "Cast",
    "If",
    "Loop",
    "Scan",
    "Resize",
    "Where",
    "Equal",
    "NonZero",
    "TopK",
    "Erf",
    "Einsum",
    "Conv3D",
    "Unknown",
)
_ELEM = (0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 16, 17, 21, 22, 23, 99, -1)
_SPATIAL = ("kernel_shape", "pads", "strides", "dilations", "output_padding", "output_shape")
_INT_ATTRS = (
    "group",
    "axis",
    "keepdims",
    "transA",
    "transB",
    "ceil_mode",
    "count_include_pad",
    "storage_order",
    "to",
    "select_last_index",
    "noop_with_empty_axes",
    "block_size",
    "saturate",
    "batch_dims",
)
_LIST_ATTRS = _SPATIAL + ("perm", "axes", "split", "starts", "ends", "shape", "value_ints", "sizes")


def _int(rng):
    return rng.choice(_INTS) if rng.random() < 0.8 else rng.randint(-8, 300)


def _pick(rng, seq):
    return seq[rng.randrange(len(seq))] if len(seq) else None


def _all_graphs(g):
    """g and every subgraph under its nodes' attributes (If/Loop/Scan bodies)."""
    out = [g]
    for n in g.node:
        for a in n.attribute:
            if a.type == AttributeProto.GRAPH:
                out += _all_graphs(a.g)
            elif a.type == AttributeProto.GRAPHS:
                for sg in a.graphs:
                    out += _all_graphs(sg)
    return out


def _value_names(g):
    names = [i.name for i in g.input] + [t.name for t in g.initializer]
    for n in g.node:
        names += list(n.output)
    return [n for n in names if n] or ["x"]


# --- shapes and types ------------------------------------------------------------------------------------------
def _dims(rng, m, g):
    """A dimension of a graph input/output/value_info or initializer: 0, negative, huge, symbolic, or rank change."""
    vis = list(g.input) + list(g.output) + list(g.value_info)
    if rng.random() < 0.3 and len(g.initializer):
        t = _pick(rng, g.initializer)
        dims = list(t.dims)
        if dims and rng.random() < 0.6:
            dims[rng.randrange(len(dims))] = _int(rng)
        elif rng.random() < 0.5:
            dims.append(rng.choice((0, 1, 2, 1 << 31)))
        elif dims:
            dims.pop()
        del t.dims[:]
        t.dims.extend(dims)
        return
    if not vis:
        return
    vi = _pick(rng, vis)
    shape = vi.type.tensor_type.shape
    r = rng.random()
    if r < 0.45 and len(shape.dim):
        d = shape.dim[rng.randrange(len(shape.dim))]
        if rng.random() < 0.25:
            d.dim_param = rng.choice(("batch", "N", "", "x" * 200, "seq"))
        else:
            d.dim_value = _int(rng)
    elif r < 0.6:
        shape.dim.add().dim_value = rng.choice((1, 2, 0, 65536))
    elif r < 0.7 and len(shape.dim):
        del shape.dim[rng.randrange(len(shape.dim))]
    elif r < 0.8:
        vi.type.tensor_type.ClearField("shape")
    elif r < 0.9:
        del shape.dim[:]
        for _ in range(rng.choice((0, 7, 9, 40))):
            shape.dim.add().dim_value = rng.choice((1, 2, 3))
    else:
        d = shape.dim.add() if not len(shape.dim) else shape.dim[0]
        d.Clear()  # neither dim_value nor dim_param: an unknown dimension


def _elem_type(rng, m, g):
    vis = list(g.input) + list(g.output) + list(g.value_info)
    if rng.random() < 0.5 and len(g.initializer):
        t = _pick(rng, g.initializer)
        t.data_type = rng.choice(_ELEM)
    elif vis:
        vi = _pick(rng, vis)
        if rng.random() < 0.1:
            vi.type.Clear()
            vi.type.sequence_type.elem_type.tensor_type.elem_type = TensorProto.FLOAT
        else:
            vi.type.tensor_type.elem_type = rng.choice(_ELEM)


# --- initializers ----------------------------------------------------------------------------------------------
def _raw_data(rng, m, g):
    if not len(g.initializer):
        return
    t = _pick(rng, g.initializer)
    r = rng.random()
    if r < 0.35:
        raw = t.raw_data
        if raw and rng.random() < 0.5:
            t.raw_data = raw[: rng.randrange(len(raw))]
        else:
            t.raw_data = raw + bytes(rng.choice((1, 3, 4, 64)))
    elif r < 0.5:
        # The payload in a typed field instead, of the wrong length or the wrong field for its type.
        arr = onnx.numpy_helper.to_array(t).reshape(-1) if t.data_type in (1, 6, 7) and t.raw_data else np.zeros(0)
        t.ClearField("raw_data")
        field = rng.choice(("float_data", "int32_data", "int64_data", "double_data", "string_data"))
        n = max(0, arr.size + rng.choice((-1, 0, 1, 5)))
        if field == "string_data":
            t.string_data.extend([b"ab"] * n)
        else:
            getattr(t, field).extend([1] * n)
    elif r < 0.65:
        raw = bytearray(t.raw_data)
        if raw:
            if t.data_type == TensorProto.FLOAT and len(raw) >= 4 and rng.random() < 0.7:
                i = rng.randrange(len(raw) // 4) * 4
                raw[i : i + 4] = np.float32(rng.choice(_FLOATS)).tobytes()
            else:
                raw[rng.randrange(len(raw))] = rng.randrange(256)
            t.raw_data = bytes(raw)
    elif r < 0.85:
        # External data: the compiler must refuse it without opening any file.
        t.ClearField("raw_data")
        t.data_location = TensorProto.EXTERNAL
        del t.external_data[:]
        loc = rng.choice(
            (
                "weights.bin",
                "../../../../etc/passwd",
                "/etc/passwd",
                "/dev/zero",
                "/dev/urandom",
                "input.onnx",
                "",
                "/proc/self/mem",
                "a/../../b",
            )
        )
        entries = [("location", loc)]
        if rng.random() < 0.6:
            entries.append(("offset", str(rng.choice((0, 4, -1, 1 << 40)))))
        if rng.random() < 0.6:
            entries.append(("length", str(rng.choice((0, 4, 64, 1 << 40, -5)))))
        if rng.random() < 0.2:
            entries = entries[1:]
        for k, v in entries:
            e = t.external_data.add()
            e.key, e.value = k, v
    else:
        # A segment, or data_location EXTERNAL without entries, or a huge claimed size with no payload.
        if rng.random() < 0.4:
            t.segment.begin, t.segment.end = rng.choice(((0, 1), (5, 2), (-1, 1 << 40)))
        elif rng.random() < 0.5:
            t.data_location = TensorProto.EXTERNAL
        else:
            del t.dims[:]
            t.dims.extend([1 << 20, 1 << 20])


def _quant_params(rng, m, g):
    """A scalar/small initializer (scale, zero point, Clip bounds, ...) set to an edge value or a wrong type."""
    small = [t for t in g.initializer if int(np.prod(t.dims)) <= 16]
    if not small:
        return
    t = _pick(rng, small)
    try:
        arr = onnx.numpy_helper.to_array(t).copy()
    except Exception:  # noqa: BLE001
        return
    r = rng.random()
    if r < 0.6 and arr.size:
        flat = arr.reshape(-1)
        i = rng.randrange(flat.size)
        if arr.dtype.kind == "f":
            flat[i] = rng.choice(_FLOATS)
        elif arr.dtype.kind in "iu":
            info = np.iinfo(arr.dtype)
            flat[i] = rng.choice((info.min, info.max, 0, 1, -1 if info.min < 0 else 0))
        arr = flat.reshape(arr.shape)
    elif r < 0.8:
        arr = arr.astype(rng.choice((np.float64, np.int64, np.int16, np.uint8, np.float16, np.int8, np.int32)))
    else:
        arr = np.resize(arr, rng.choice(((0,), (3,), (2, 2), (17,))))
    new = onnx.numpy_helper.from_array(arr, t.name)
    t.CopyFrom(new)


# --- nodes -----------------------------------------------------------------------------------------------------
def _node_io(rng, m, g):
    if not len(g.node):
        return
    n = _pick(rng, g.node)
    field = n.input if rng.random() < 0.75 else n.output
    names = _value_names(g)
    choices = [
        "",
        "dangling_" + str(rng.randrange(9)),
        _pick(rng, names),
        n.output[0] if len(n.output) else "y",
        _pick(rng, [o for o in g.output] or [None]).name if len(g.output) else "y",
    ]
    r = rng.random()
    if r < 0.45 and len(field):
        field[rng.randrange(len(field))] = rng.choice(choices)
    elif r < 0.65:
        field.append(rng.choice(choices))
    elif r < 0.85 and len(field):
        del field[rng.randrange(len(field))]
    elif len(field):
        field.append(field[0])  # the same input twice


def _const_operand(rng, m, g):
    """One node input read from a new Constant node (first in the graph) holding a hostile value: text, NaN or
    infinite floats, a scalar where a list is expected or the reverse, empty, bool, huge or float-typed integers."""
    if not len(g.node):
        return
    n = _pick(rng, g.node)
    name = f"hostile_const_{rng.randrange(1000)}"
    kind = rng.choice(
        ("value_string", "value_strings", "value_float", "value_floats", "value_int", "value_ints", "value")
    )
    value = {
        "value_string": lambda: rng.choice(("", "2", "\xff", "x" * 300)),
        "value_strings": lambda: ["a", "1"][: rng.choice((0, 1, 2))],
        "value_float": lambda: rng.choice(_FLOATS),
        "value_floats": lambda: [rng.choice(_FLOATS) for _ in range(rng.choice((0, 1, 2, 4)))],
        "value_int": lambda: _int(rng),
        "value_ints": lambda: [_int(rng) for _ in range(rng.choice((0, 1, 2, 4, 8)))],
        "value": lambda: onnx.numpy_helper.from_array(
            rng.choice(
                (
                    np.array(True),
                    np.zeros((0, 3), np.float32),
                    np.full((2, 2), np.nan, np.float32),
                    np.float16(1.0),
                    np.array([1.5, 2.5], np.float64),
                    np.array(1 << 62, np.int64),
                    np.uint64(1 << 63),
                )
            ),
            name,
        ),
    }[kind]()
    const = helper.make_node("Constant", [], [name], name=name)
    lists = {
        "value_strings": AttributeProto.STRINGS,
        "value_floats": AttributeProto.FLOATS,
        "value_ints": AttributeProto.INTS,
    }
    const.attribute.append(helper.make_attribute(kind, value, attr_type=lists.get(kind)))
    if len(n.input) and rng.random() < 0.8:
        n.input[rng.randrange(len(n.input))] = name
    else:
        n.input.append(name)
    nodes = [const] + list(g.node)
    del g.node[:]
    g.node.extend(nodes)


def _node_order(rng, m, g):
    nodes = list(g.node)
    if len(nodes) < 2:
        return
    i, j = rng.randrange(len(nodes)), rng.randrange(len(nodes))
    r = rng.random()
    if r < 0.35:
        nodes[i], nodes[j] = nodes[j], nodes[i]
    elif r < 0.6:
        nodes.insert(j, nodes[i])  # two producers of one value
    elif r < 0.8:
        del nodes[i]
    else:
        # A cycle: an earlier node reads a later node's output.
        a, b = sorted((i, j))
        if a != b and len(nodes[a].input) and len(nodes[b].output):
            nodes[a].input[0] = nodes[b].output[0]
    del g.node[:]
    g.node.extend(nodes)


def _node_type(rng, m, g):
    if not len(g.node):
        return
    n = _pick(rng, g.node)
    r = rng.random()
    if r < 0.6:
        n.op_type = rng.choice(_OPS)
    elif r < 0.85:
        n.domain = rng.choice(("com.microsoft", "ai.onnx.ml", "custom.domain", "ai.onnx", "", "local"))
    else:
        n.name = rng.choice(_NAMES)


def _attr_value(rng, a):
    if a.type == AttributeProto.INT:
        a.i = _int(rng)
    elif a.type == AttributeProto.INTS:
        vals = list(a.ints)
        r = rng.random()
        if r < 0.5 and vals:
            vals[rng.randrange(len(vals))] = _int(rng)
        elif r < 0.7:
            vals = [_int(rng) for _ in range(rng.choice((0, 1, 3, 5, 9)))]
        elif r < 0.85:
            vals = vals + vals
        else:
            vals = vals[:-1]
        del a.ints[:]
        a.ints.extend(vals)
    elif a.type == AttributeProto.FLOAT:
        a.f = rng.choice(_FLOATS)
    elif a.type == AttributeProto.FLOATS:
        del a.floats[:]
        a.floats.extend(rng.choice(_FLOATS) for _ in range(rng.choice((0, 1, 3))))
    elif a.type == AttributeProto.STRING:
        a.s = rng.choice(
            (
                b"",
                b"SAME_UPPER",
                b"SAME_LOWER",
                b"VALID",
                b"NOTSET",
                b"reflect",
                b"edge",
                b"wrap",
                b"constant",
                b"\xff\xfe",
                b"x" * 300,
            )
        )
    elif a.type == AttributeProto.TENSOR:
        arr = rng.choice(
            (
                np.zeros((0,), np.float32),
                np.full((3,), np.nan, np.float32),
                np.array(1 << 40),
                np.array([1, 2], np.int8),
            )
        )
        a.t.CopyFrom(onnx.numpy_helper.from_array(arr, a.t.name))
    else:
        a.type = AttributeProto.INT
        a.i = _int(rng)


def _node_attr(rng, m, g):
    """One attribute changed: a new edge value, a type that does not match, removed, or a new one added."""
    if not len(g.node):
        return
    n = _pick(rng, g.node)
    r = rng.random()
    if len(n.attribute) and r < 0.55:
        _attr_value(rng, n.attribute[rng.randrange(len(n.attribute))])
    elif len(n.attribute) and r < 0.65:
        a = n.attribute[rng.randrange(len(n.attribute))]
        a.type = rng.choice(
            (
                AttributeProto.FLOAT,
                AttributeProto.STRING,
                AttributeProto.INTS,
                AttributeProto.INT,
                AttributeProto.GRAPH,
                AttributeProto.TENSOR,
            )
        )
    elif len(n.attribute) and r < 0.75:
        del n.attribute[rng.randrange(len(n.attribute))]
    else:
        name = rng.choice(_SPATIAL + _INT_ATTRS + _LIST_ATTRS + ("auto_pad", "mode", "alpha", "epsilon", "value"))
        for a in list(n.attribute):
            if a.name == name:
                n.attribute.remove(a)
        if name in _INT_ATTRS:
            n.attribute.append(helper.make_attribute(name, _int(rng)))
        elif name in _LIST_ATTRS:
            n.attribute.append(helper.make_attribute(name, [_int(rng) for _ in range(rng.choice((1, 2, 4, 6)))]))
        elif name in ("auto_pad", "mode"):
            n.attribute.append(helper.make_attribute(name, rng.choice(("SAME_LOWER", "VALID", "bogus", "reflect"))))
        elif name == "value":
            n.attribute.append(
                helper.make_attribute(name, onnx.numpy_helper.from_array(np.zeros(rng.choice((0, 1, 5)), np.float32)))
            )
        else:
            n.attribute.append(helper.make_attribute(name, rng.choice(_FLOATS)))


def _subgraph(rng, m, g):
    """Control flow: a node wrapped as the body of an If / Loop / Scan, or a model-local function call."""
    if not len(g.node):
        return
    idx = rng.randrange(len(g.node))
    n = g.node[idx]
    outs = [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in n.output if o]
    body = helper.make_graph([n], "body", [], outs)
    r = rng.random()
    if r < 0.4:
        cond = helper.make_tensor("cond_" + str(idx), TensorProto.BOOL, [], [rng.random() < 0.5])
        if rng.random() < 0.5:
            g.initializer.append(cond)
        new = helper.make_node(
            "If", [cond.name], list(n.output), then_branch=body, else_branch=body, name="if_" + str(idx)
        )
    elif r < 0.7:
        new = helper.make_node("Loop", ["", ""], list(n.output), body=body, name="loop_" + str(idx))
    elif r < 0.85:
        new = helper.make_node(
            "Scan", list(n.input), list(n.output), body=body, num_scan_inputs=1, name="scan_" + str(idx)
        )
    else:
        f = helper.make_function(
            "local", "Fn" + str(idx), list(n.input), list(n.output), [n], [helper.make_opsetid("", 13)]
        )
        m.functions.append(f)
        m.opset_import.append(helper.make_opsetid("local", 1))
        new = helper.make_node("Fn" + str(idx), list(n.input), list(n.output), domain="local", name="fn_" + str(idx))
    g.node.remove(n)
    g.node.insert(idx, new)


# --- graph and model -------------------------------------------------------------------------------------------
def _graph_io(rng, m, g):
    field = g.input if rng.random() < 0.5 else g.output
    r = rng.random()
    if r < 0.3 and len(field):
        field[rng.randrange(len(field))].name = rng.choice(_value_names(g) + ["dangling", ""])
    elif r < 0.5 and len(field):
        field.append(field[rng.randrange(len(field))])
    elif r < 0.65 and len(field):
        del field[rng.randrange(len(field))]
    elif r < 0.75:
        del field[:]
    elif r < 0.9 and len(g.initializer):
        # An initializer that is also a graph input (allowed: a default value), or a duplicate initializer.
        t = _pick(rng, g.initializer)
        if rng.random() < 0.5:
            g.input.append(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)))
        else:
            g.initializer.append(t)
    else:
        del g.node[:]


def _model_header(rng, m, g):
    r = rng.random()
    if r < 0.4:
        ops = [o for o in m.opset_import if o.domain in ("", "ai.onnx")]
        if ops:
            ops[0].version = rng.choice((0, 1, 6, 7, 9, 10, 11, 12, 14, 17, 18, 19, 21, 22, 23, 99, -1, 1 << 40))
        else:
            m.opset_import.append(helper.make_opsetid("", 13))
    elif r < 0.55:
        del m.opset_import[:]
    elif r < 0.7:
        m.opset_import.append(
            helper.make_opsetid(rng.choice(("com.microsoft", "ai.onnx.ml", "x", "")), rng.choice((1, 13, 1000)))
        )
    elif r < 0.85:
        m.ir_version = rng.choice((0, 1, 3, 7, 10, 11, 99, -1))
    elif r < 0.92:
        m.graph.name = rng.choice(_NAMES)
    else:
        sp = m.graph.sparse_initializer.add()
        sp.values.CopyFrom(helper.make_tensor("sp", TensorProto.FLOAT, [2], [1.0, 2.0]))
        sp.indices.CopyFrom(helper.make_tensor("sp_i", TensorProto.INT64, [2], [0, 1 << 40]))
        sp.dims.extend([rng.choice((4, 1 << 40))])


MUTATORS = (
    (_dims, 5),
    (_elem_type, 2),
    (_raw_data, 3),
    (_quant_params, 3),
    (_node_io, 4),
    (_const_operand, 2),
    (_node_order, 2),
    (_node_type, 2),
    (_node_attr, 6),
    (_subgraph, 1),
    (_graph_io, 2),
    (_model_header, 2),
)
_TABLE = [fn for fn, weight in MUTATORS for _ in range(weight)]


def mutate_onnx(rng, data: bytes, rounds: int = 1):
    """`rounds` structure-aware mutations of a .onnx file; None if it does not parse as a ModelProto at all."""
    try:
        m = onnx.ModelProto.FromString(data)
        if not m.HasField("graph"):
            return None
        for _ in range(rounds):
            graphs = _all_graphs(m.graph)
            g = graphs[0] if len(graphs) == 1 or rng.random() < 0.8 else rng.choice(graphs)
            rng.choice(_TABLE)(rng, m, g)
        return m.SerializeToString()
    except Exception:  # noqa: BLE001 - an unserializable mutant is just skipped
        return None
