"""Type variants of the hand-written conformance cases: the models the oracle-decided type matrix asks TFLite Micro
about (type_matrix.py).

Every case of cases_*.py is a single-operator model in one type.  A variant rewrites that model's flatbuffer: the
operator's run-time inputs of the case's type all take one type T_in, over every element type TFLite's schema gives
an activation (float32, int8, uint8, int16, int32, int64, bool); its outputs of that type follow (for QUANTIZE,
DEQUANTIZE and CAST every output type T_out is tried: see TYPE_CONVERTING), with the
quantization each type carries (int8 / uint8 / int16 per tensor; int32 quantized only at QUANTIZE / DEQUANTIZE,
where TFLite Micro reads it).  Constant operands (weights, biases, axes, shapes) and run-time operands of another
type (indices, conditions) keep the case's types, so every structure the cases exercise (per-channel weights, int32
biases, ...) reaches each type combination.  A variant's signature is the operator and the types of its run-time
inputs and outputs in order, "ADD(int8,int8)->int8": the row of the generated table.
"""

import numpy as np

TYPES = ("float32", "int8", "uint8", "int16", "int32", "int64", "bool")

# Operators whose output type is a free choice of the model (their kernels convert): every (input, output) type
# pair is a question for the oracle.  Every other operator computes in one type: its outputs of the case's type
# follow the inputs' type, and its other outputs (a comparison's bool, ARG_MAX's index) keep theirs.  The oracle
# cannot be asked about those pairs: TFLite Micro's kernels dispatch on one tensor's type and mostly do not check
# the others, so its interpreter "runs" ADD(int8, int8) -> float32 by reading int8 buffers as floats, past their end.
TYPE_CONVERTING = ("QUANTIZE", "DEQUANTIZE", "CAST")
# Predicates: their output is bool whatever the input type (TFLite Micro writes bools into any output unchecked).
PREDICATES = (
    "EQUAL",
    "NOT_EQUAL",
    "GREATER",
    "GREATER_EQUAL",
    "LESS",
    "LESS_EQUAL",
    "LOGICAL_AND",
    "LOGICAL_OR",
    "LOGICAL_NOT",
    "REDUCE_ALL",
)
# Operators whose types live beyond the operator (branch and body subgraphs, resource variables): rewriting the
# main subgraph's tensors alone makes an ill-formed model, which TFLite Micro runs by copying bytes unchecked.
# Their hand cases alone ask about them (the variant list holds only the case itself).
NOT_VARIED = ("IF", "WHILE", "CALL_ONCE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE")

# TensorType codes of TFLite's schema.
_CODE = {"float32": 0, "int32": 2, "uint8": 3, "int64": 4, "bool": 6, "int16": 7, "int8": 9}
_NAME = {v: k for k, v in _CODE.items()}
# Per-tensor quantization each quantized type carries in a variant (scale, zero point).
_QUANT = {"int8": (0.05, -3), "uint8": (0.05, 128), "int16": (0.001, 0)}
_QUANT_INT32 = (0.0001, 0)
_INT32_QUANTIZED_OPS = ("QUANTIZE", "DEQUANTIZE")


def _fb():
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    return fb


def _model_t(data: bytes):
    fb = _fb()
    return fb.ModelT.InitFromObj(fb.Model.GetRootAsModel(data, 0))


def _pack(m) -> bytes:
    import flatbuffers

    b = flatbuffers.Builder(1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def _op_name(m, op) -> str:
    fb = _fb()
    oc = m.operatorCodes[op.opcodeIndex]
    code = max(oc.builtinCode, oc.deprecatedBuiltinCode)
    if code == fb.BuiltinOperator.CUSTOM:
        name = oc.customCode.decode() if isinstance(oc.customCode, bytes) else oc.customCode
        return "DETECTION_POSTPROCESS" if name == "TFLite_Detection_PostProcess" else "CUSTOM:" + str(name)
    return {v: k for k, v in vars(fb.BuiltinOperator).items() if not k.startswith("_")}[code]


def _is_const(m, t) -> bool:
    return t.buffer > 0 and m.buffers[t.buffer].data is not None and len(m.buffers[t.buffer].data) > 0


def operator_under_test(m, op_name: str):
    """The first operator of the main subgraph that is `op_name` (None when the case has none there)."""
    sg = m.subgraphs[0]
    for op in sg.operators or []:
        if _op_name(m, op) == op_name:
            return op
    return None


def _set_type(t, dtype: str, op_name: str) -> None:
    fb = _fb()
    t.type = _CODE[dtype]
    q = _QUANT.get(dtype) or (_QUANT_INT32 if dtype == "int32" and op_name in _INT32_QUANTIZED_OPS else None)
    if q is None:
        t.quantization = None
        return
    qp = fb.QuantizationParametersT()
    qp.scale, qp.zeroPoint, qp.quantizedDimension = [q[0]], [q[1]], 0
    t.quantization = qp


def variants(case):
    """(signature, model bytes, varied input positions) of every type variant of `case` (the case itself
    included, first), or [] when its operator is not in the main subgraph."""
    base = case.build().build()
    m = _model_t(base)
    op = operator_under_test(m, case.op)
    if op is None:
        return []
    sg = m.subgraphs[0]
    varied_in = [
        k
        for k, i in enumerate(op.inputs)
        if i >= 0 and not _is_const(m, sg.tensors[i]) and _NAME.get(sg.tensors[i].type) == case.dtype
    ]
    ids = list(dict.fromkeys([op.inputs[k] for k in varied_in] + [i for i in op.outputs if i >= 0]))
    saved = {i: (sg.tensors[i].type, sg.tensors[i].quantization) for i in ids}
    out = [(signature(m, op, case.op), base, varied_in)]
    seen = {out[0][0]}
    free = case.op in TYPE_CONVERTING
    # A constant of the case's own type (float weights of a float case, a float PRELU alpha) ties the operator to
    # that type: variants in another input type would be ill-formed (TFLite Micro reads the constant as the other
    # type unchecked), and the case of that other type, with its own constants, asks the question properly.
    tied = case.dtype in ("float32", "int8", "int16") and any(
        i >= 0 and _is_const(m, sg.tensors[i]) and _NAME.get(sg.tensors[i].type) == case.dtype for i in op.inputs
    )
    if case.op in NOT_VARIED:
        return out
    for t_in in (case.dtype,) if tied else TYPES:
        for t_out in TYPES if free else (None,):
            for k in varied_in:
                _set_type(sg.tensors[op.inputs[k]], t_in, case.op)
            for i in op.outputs:
                if i < 0 or i in [op.inputs[k] for k in varied_in]:
                    continue
                if free:
                    _set_type(sg.tensors[i], t_out, case.op)
                elif _NAME.get(saved[i][0]) == case.dtype and case.op not in PREDICATES:
                    _set_type(sg.tensors[i], t_in, case.op)
            sig = signature(m, op, case.op)
            if sig not in seen:
                seen.add(sig)
                out.append((sig, _pack(m), varied_in))
            for i, (ty, q) in saved.items():
                sg.tensors[i].type, sg.tensors[i].quantization = ty, q
    return out


def signature(m, op, op_name: str) -> str:
    sg = m.subgraphs[0]

    def types(ids, runtime_only):
        return ",".join(
            _NAME.get(sg.tensors[i].type, str(sg.tensors[i].type))
            for i in ids
            if i >= 0 and not (runtime_only and _is_const(m, sg.tensors[i]))
        )

    return f"{op_name}({types(op.inputs, True)})->{types(op.outputs, False)}"


def model_inputs(data: bytes) -> list:
    """(shape, dtype) of every input of the model in `data`."""
    m = _model_t(data)
    sg = m.subgraphs[0]
    return [(tuple(int(d) for d in sg.tensors[i].shape), _NAME.get(sg.tensors[i].type)) for i in sg.inputs]


def random_inputs(inputs: list, count: int, seed: int, base_case=None, float_range=(0.05, 1.0)) -> list:
    """Seeded inputs over each input type's whole range (int64 and int32 small; float32 in the case's range, or in
    [0.05, 1] when the case is of another type: inside every float operator's domain).  An input of the same type
    as in the case's first extra input set takes those values (indices, shapes and the like stay valid)."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(count):
        case = []
        for k, (shape, dtype) in enumerate(inputs):
            if base_case is not None and k < len(base_case):
                given = np.asarray(base_case[k])
                if given.dtype == np.dtype(dtype if dtype != "bool" else np.bool_) and given.shape == tuple(shape):
                    case.append(given)
                    continue
            t = _Input(shape, dtype)
            if t.dtype in ("int8", "uint8", "int16"):
                info = np.iinfo(t.dtype)
                case.append(rng.integers(info.min, info.max, size=t.shape, endpoint=True).astype(t.dtype))
            elif t.dtype in ("int32", "int64"):
                case.append(rng.integers(-3, 4, size=t.shape).astype(t.dtype))
            elif t.dtype == "bool":
                case.append(rng.integers(0, 2, size=t.shape).astype(np.bool_))
            else:
                lo, hi = float_range if isinstance(float_range, tuple) else (-1.0, 1.0)
                case.append(rng.uniform(lo, hi, size=t.shape).astype(np.float32))
        cases.append(case)
    return cases


class _Input:
    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype
