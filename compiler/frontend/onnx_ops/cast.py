"""ONNX Cast on run-time data, between the element types a run-time value may have here: float32, int8, uint8,
int32 and bool (constant Casts are folded before this). A Cast to the value's own type (float -> float, what
exporters leave around mixed-precision code) is no work: the output is the input. Otherwise one CAST operator
(compiler/ops/cast.py): integer -> integer wraps around (numpy's and onnxruntime's static_cast), integer or bool ->
float is the value, float -> integer truncates toward zero (in range; beyond int32 it saturates, where C and
onnxruntime leave the conversion undefined), anything -> bool is `x != 0`. Casts to types with no run-time
representation (int64, float16, double, ...) are refused by name, but for an integer or bool value cast to int64:
the frontend holds int64 values as int32 (every index and label is narrowed so), and an int32 value fits, so that
Cast is one to int32 (skl2onnx casts a classifier's label to int64 this way).
"""

from onnx import TensorProto

from .context import NotQuantizable, elem_type_name

_TARGETS = {
    TensorProto.FLOAT: "float32",
    TensorProto.INT8: "int8",
    TensorProto.UINT8: "uint8",
    TensorProto.INT32: "int32",
    TensorProto.BOOL: "bool",
}


def cast(ctx):
    if ctx.quantized:
        raise NotQuantizable()  # a Cast between a DequantizeLinear and a QuantizeLinear runs in float
    x = ctx.required(0, "the input")
    to = ctx.attr("to")
    if to == TensorProto.INT64 and x.dtype in ("int32", "int8", "uint8", "bool"):
        to = TensorProto.INT32  # int64 values are held as int32 (see the module docstring)
    if to not in _TARGETS:
        raise ctx.unsupported(
            f"a Cast of run-time data to {elem_type_name(to)} is not supported; run-time values are "
            "FLOAT, INT8, UINT8, INT32 or BOOL (constant Casts of any type are folded at compile time)"
        )
    dtype = _TARGETS[to]
    if x.dtype not in _TARGETS.values():
        raise ctx.unsupported(f"input '{x.name}' has type {x.dtype}; Cast reads float32, int8, uint8, int32 or bool")
    if dtype == x.dtype and x.qinfo is None:
        ctx.set_output(0, x)  # no conversion: the same data
        return
    b = ctx.b
    layout = b.preferred_layout(x)
    t = b.get(x, layout)
    out = b.runtime_value(ctx.out_name(), t.shape, dtype, layout)
    b.add_op("CAST", [t], [out.tensors[layout]], {"Offset": 0})
    ctx.set_output(0, out)


CONVERTERS = {"Cast": (cast, "compute")}
