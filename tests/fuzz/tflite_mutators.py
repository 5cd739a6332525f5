"""Structure-aware mutations of TFLite models: change one schema field and re-serialize.

Byte flips mostly break the flatbuffer itself, which the reader rejects early. These mutations keep the file a
valid flatbuffer and make its *content* hostile instead: shapes of 0, -1 or 2^31-1, ranks of 9, buffer and tensor
indices out of range, quantization with NaN scales or mismatched lengths, unknown opcodes and tensor types,
extreme operator options, operators out of order, a large-model buffer offset past the end of the file, and
hostile names. That is what reaches the checks of the frontend, the passes, the planner and the code generator.
"""

import math

import numpy as np
from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

# Values for int32 fields (shapes, indices, options): edges of every check a compiler makes.
_INTS = (-(1 << 31), -2, -1, 0, 1, 2, 3, 4, 7, 255, 256, 4096, 65535, 65536, 1 << 20, 1 << 30, (1 << 31) - 1)
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
)


def _int(rng):
    return rng.choice(_INTS) if rng.random() < 0.8 else rng.randint(-8, 300)


def _pick(rng, seq):
    return rng.randrange(len(seq)) if seq else None


# --- tensors ---------------------------------------------------------------------------------------------------
def _tensor_shape(rng, m, sg):
    t = sg.tensors[_pick(rng, sg.tensors)]
    shape = list(t.shape) if t.shape is not None else []
    r = rng.random()
    if r < 0.5 and shape:
        shape[rng.randrange(len(shape))] = _int(rng)
    elif r < 0.7:
        shape.append(rng.choice((1, 2, 0, -1, 65536)))
    elif r < 0.85 and shape:
        shape.pop(rng.randrange(len(shape)))
    else:
        shape = [rng.choice((1, 2, 3)) for _ in range(rng.choice((0, 7, 9, 40)))]
    t.shape = shape
    if rng.random() < 0.3:
        t.shapeSignature = [(-1 if rng.random() < 0.5 else d) for d in shape]


def _tensor_type(rng, m, sg):
    sg.tensors[_pick(rng, sg.tensors)].type = rng.randint(0, 20)


def _tensor_buffer(rng, m, sg):
    sg.tensors[_pick(rng, sg.tensors)].buffer = rng.choice(
        (0, 1, len(m.buffers) - 1, len(m.buffers), rng.randrange(len(m.buffers) + 2), (1 << 31) - 1)
    )


def _tensor_name(rng, m, sg):
    sg.tensors[_pick(rng, sg.tensors)].name = rng.choice(_NAMES)


def _quantization(rng, m, sg):
    t = sg.tensors[_pick(rng, sg.tensors)]
    q = t.quantization or fb.QuantizationParametersT()
    r = rng.random()
    if r < 0.3:
        n = rng.choice((0, 1, 2, 3, 17))
        q.scale = [rng.choice(_FLOATS) for _ in range(n)]
    elif r < 0.5:
        q.zeroPoint = [rng.choice((-129, 128, 1 << 40, -1, 0, 255)) for _ in range(rng.choice((0, 1, 2, 5)))]
    elif r < 0.7:
        q.quantizedDimension = _int(rng)
    elif r < 0.85 and q.scale is not None and len(q.scale):
        scale = list(q.scale)
        i = rng.randrange(len(scale))
        if rng.random() < 0.6:
            # Plausible-looking but far off: the ratios of scales drive every fixed-point multiplier and shift.
            scale[i] = float(scale[i]) * 2.0 ** rng.choice((-130, -60, -40, -31, -20, -8, -1, 1, 8, 20, 31, 40, 60))
        else:
            scale[i] = rng.choice(_FLOATS)
        q.scale = scale
    else:
        t.quantization = None
        return
    t.quantization = q


# --- buffers ---------------------------------------------------------------------------------------------------
def _buffer_data(rng, m, sg):
    i = rng.randrange(len(m.buffers))
    b = m.buffers[i]
    data = np.asarray(b.data if b.data is not None else [], np.uint8)
    r = rng.random()
    if r < 0.4 and data.size:
        data = data[: rng.randrange(data.size)]
    elif r < 0.6:
        data = np.concatenate([data, np.full(rng.choice((1, 3, 4, 64)), 0x7F, np.uint8)])
    elif r < 0.8 and data.size:
        data = data.copy()
        data[rng.randrange(data.size)] = rng.randrange(256)
    else:
        # The large-model layout: payload at an absolute file offset instead of inline.
        b.offset = rng.choice((2, 8, 1 << 20, (1 << 63) - 1))
        b.size = rng.choice((0, 4, 1 << 30, (1 << 63) - 1))
        data = np.zeros(0, np.uint8)
    b.data = data if data.size else None


# --- operators -------------------------------------------------------------------------------------------------
def _op_tensor_index(rng, m, sg):
    if not sg.operators:
        return
    op = sg.operators[_pick(rng, sg.operators)]
    field = "inputs" if rng.random() < 0.7 else "outputs"
    idx = list(getattr(op, field) or [])
    r = rng.random()
    choices = (-1, -2, 0, len(sg.tensors) - 1, len(sg.tensors), rng.randrange(len(sg.tensors)))
    if r < 0.6 and idx:
        idx[rng.randrange(len(idx))] = rng.choice(choices)
    elif r < 0.8:
        idx.append(rng.choice(choices))
    elif idx:
        idx.pop(rng.randrange(len(idx)))
    setattr(op, field, idx)


def _op_opcode(rng, m, sg):
    if rng.random() < 0.5 and sg.operators:
        sg.operators[_pick(rng, sg.operators)].opcodeIndex = rng.choice(
            (0, len(m.operatorCodes) - 1, len(m.operatorCodes), rng.randrange(1 << 16))
        )
    else:
        oc = m.operatorCodes[_pick(rng, m.operatorCodes)]
        code = rng.choice((0, 1, 3, 4, 9, 17, 22, 25, 32, 40, 127, 150, 200, rng.randrange(210)))
        oc.builtinCode = code
        oc.deprecatedBuiltinCode = min(code, 127)


def _op_options(rng, m, sg):
    """Set one field of an operator's builtin options table to an edge value (or swap the table type)."""
    if not sg.operators:
        return
    op = sg.operators[_pick(rng, sg.operators)]
    opts = op.builtinOptions
    if opts is None or rng.random() < 0.15:
        op.builtinOptionsType = rng.randint(0, 130)
        op.builtinOptions = None
        return
    fields = [k for k, v in vars(opts).items() if isinstance(v, (bool, int, float, list))]
    if not fields:
        return
    k = rng.choice(fields)
    v = getattr(opts, k)
    if isinstance(v, bool):
        setattr(opts, k, not v)
    elif isinstance(v, int):
        # Enum-like fields (activation, padding, types) are int8 in the schema: small values pack, others do not.
        small = (-128, -1, 0, 1, 2, 3, 4, 5, 6, 7, 127)
        setattr(opts, k, rng.choice(small) if rng.random() < 0.6 else rng.choice((128, 255, 65536, (1 << 31) - 1)))
    elif isinstance(v, float):
        setattr(opts, k, rng.choice(_FLOATS))
    else:
        setattr(opts, k, [_int(rng) for _ in range(rng.choice((0, 1, 4, 9)))])


def _op_order(rng, m, sg):
    ops = sg.operators
    if not ops or len(ops) < 2:
        return
    r = rng.random()
    i, j = rng.randrange(len(ops)), rng.randrange(len(ops))
    if r < 0.4:
        ops[i], ops[j] = ops[j], ops[i]
    elif r < 0.7:
        ops.insert(j, ops[i])  # the same operator twice: two producers of one tensor
    else:
        del ops[i]


def _graph_io(rng, m, sg):
    field = "inputs" if rng.random() < 0.5 else "outputs"
    idx = list(getattr(sg, field) or [])
    choices = (-1, 0, len(sg.tensors), rng.randrange(len(sg.tensors)))
    r = rng.random()
    if r < 0.5 and idx:
        idx[rng.randrange(len(idx))] = rng.choice(choices)
    elif r < 0.75:
        idx.append(rng.choice(choices))
    else:
        idx = []
    setattr(sg, field, idx)


def _model_header(rng, m, sg):
    r = rng.random()
    if r < 0.4:
        m.version = rng.choice((0, 2, 4, (1 << 31) - 1))
    elif r < 0.7:
        m.subgraphs = m.subgraphs + [m.subgraphs[0]] if rng.random() < 0.5 else []
    else:
        m.description = rng.choice(_NAMES)


MUTATORS = (
    (_tensor_shape, 5),
    (_tensor_type, 2),
    (_tensor_buffer, 2),
    (_tensor_name, 1),
    (_quantization, 4),
    (_buffer_data, 3),
    (_op_tensor_index, 4),
    (_op_opcode, 2),
    (_op_options, 5),
    (_op_order, 2),
    (_graph_io, 2),
    (_model_header, 1),
)
_TABLE = [fn for fn, weight in MUTATORS for _ in range(weight)]


def mutate_tflite(rng, data: bytes, rounds: int = 1):
    """`rounds` structure-aware mutations of a .tflite file; None if it does not parse as a model at all.

    The object API raises on fields it cannot pack (e.g. an int out of the field's range); that mutation is then
    simply dropped (None), the caller falls back to a byte mutation.
    """
    try:
        m = fb.ModelT.InitFromPackedBuf(bytearray(data), 0)
        if not m.subgraphs or not m.buffers or not m.operatorCodes or not m.subgraphs[0].tensors:
            return None
        sg = m.subgraphs[0]
        for _ in range(rounds):
            rng.choice(_TABLE)(rng, m, sg)
        import flatbuffers

        b = flatbuffers.Builder(len(data) + 1024)
        b.Finish(m.Pack(b), file_identifier=b"TFL3")
        return bytes(b.Output())
    except Exception:  # noqa: BLE001 - an unpackable mutant is just skipped
        return None
