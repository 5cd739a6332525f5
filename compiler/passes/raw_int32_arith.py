"""TFLite ADD / SUB / MUL / DIV on raw int32 tensors (no quantization, no fused activation) become BINARY_INT32
operators, the int32 element-wise kernel ONNX integer arithmetic already uses (wrap-around, truncating division,
as TFLite Micro's reference int32 kernels compute them on in-range values).  TFLite Micro's audio front-end scales
its features this way (mul, add, TruncateDiv on int32).  Quantized int32 or a fused activation stays with the
ordinary lowerings, which refuse it in one paragraph."""

_KINDS = ("ADD", "SUB", "MUL", "DIV")


def rewrite_raw_int32_arith(graph) -> None:
    for op in graph.ops:
        if op.kind not in _KINDS or len(op.inputs) != 2 or len(op.outputs) != 1:
            continue
        tensors = list(op.inputs) + list(op.outputs)
        if any(t is None or t.dtype != "int32" or t.quant is not None for t in tensors):
            continue
        if op.options.get("FusedActivationFunction", 0) != 0:
            continue
        op.options = {"Operation": op.kind}
        op.kind = "BINARY_INT32"
