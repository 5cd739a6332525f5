"""Write the regression reproducers of fixed fuzz findings into corpus/<format>/, rebuilt from the project's own seeds.

The fuzzer found these defects by mutating models; mutants of the shared (third-party) models may not be committed,
and a minimized reproducer is clearer anyway, so each defect is re-applied here, by name, to a small model from
seeds.py (TFLite) or onnx_seeds.py (ONNX). Run after changing a seed:

    .venv/bin/python tests/fuzz/regressions.py          # rewrites corpus/{tflite,onnx}/regress_*

Every entry must compile or give one CompileError paragraph (tests/compiler/test_fuzz_corpus.py checks it).
"""

import math
import os
import sys

import flatbuffers
import numpy as np
import onnx
from onnx import helper, numpy_helper
from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import onnx_seeds  # noqa: E402
import seeds  # noqa: E402


def _edit(seed: str, fn) -> bytes:
    m = fb.ModelT.InitFromPackedBuf(bytearray(seeds.builder_seeds()[seed]), 0)
    fn(m, m.subgraphs[0])
    b = flatbuffers.Builder(4096)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def _op(sg, m, kind):
    code = getattr(fb.BuiltinOperator, kind)
    return next(op for op in sg.operators if m.operatorCodes[op.opcodeIndex].builtinCode == code)


def _tensor(sg, name):
    return (
        next(t for t in sg.tensors if t.name.decode() == name)
        if isinstance(sg.tensors[0].name, bytes)
        else next(t for t in sg.tensors if t.name == name)
    )


def _set(obj, **kw):
    for k, v in kw.items():
        setattr(obj, k, v)


# name -> (seed, edit). The first three are the findings of the first fuzz prototype (bug_1..3).
CASES = {
    "fc_without_outputs": ("float_mlp", lambda m, sg: _set(_op(sg, m, "FULLY_CONNECTED"), outputs=[])),
    "softmax_beta_zero": ("conv_block", lambda m, sg: _set(_op(sg, m, "SOFTMAX").builtinOptions, beta=0.0)),
    "depthwise_stride_zero": (
        "conv_block",
        lambda m, sg: _set(_op(sg, m, "DEPTHWISE_CONV_2D").builtinOptions, strideW=0),
    ),
    "conv_dilation_negative": (
        "conv_block",
        lambda m, sg: _set(_op(sg, m, "CONV_2D").builtinOptions, dilationHFactor=-1),
    ),
    "pool_filter_huge": (
        "conv_block",
        lambda m, sg: _set(_op(sg, m, "MAX_POOL_2D").builtinOptions, filterWidth=(1 << 31) - 1),
    ),
    "scale_nan": ("elementwise", lambda m, sg: _set(_tensor(sg, "sum").quantization, scale=[math.nan])),
    "scale_zero": ("conv_block", lambda m, sg: _set(_tensor(sg, "w").quantization, scale=[0.0] * 4)),
    "zero_point_out_of_range": ("elementwise", lambda m, sg: _set(_tensor(sg, "x").quantization, zeroPoint=[300])),
    "per_channel_axis_out_of_range": (
        "conv_block",
        lambda m, sg: _set(_tensor(sg, "w").quantization, quantizedDimension=7),
    ),
    "ops_out_of_order": ("elementwise", lambda m, sg: sg.operators.reverse()),
    "two_producers": ("elementwise", lambda m, sg: sg.operators.insert(1, sg.operators[0])),
    "op_writes_constant": (
        "float_mlp",
        lambda m, sg: _set(_op(sg, m, "HARD_SWISH"), outputs=[_op(sg, m, "FULLY_CONNECTED").inputs[1]]),
    ),
    "op_writes_model_input": ("float_mlp", lambda m, sg: _set(_op(sg, m, "HARD_SWISH"), outputs=[sg.inputs[0]])),
    "huge_claimed_shape": ("float_mlp", lambda m, sg: _set(_tensor(sg, "fc"), shape=[1 << 20, 1 << 20, 1 << 20])),
    "rank_nine": ("float_mlp", lambda m, sg: _set(_tensor(sg, "hs"), shape=[1] * 8 + [5])),
    "buffer_index_out_of_range": ("float_mlp", lambda m, sg: _set(_tensor(sg, "w"), buffer=999)),
    "buffer_offset_past_end": (
        "float_mlp",
        lambda m, sg: _set(m.buffers[_tensor(sg, "w").buffer], data=None, offset=1 << 40, size=120),
    ),
    "opcode_index_out_of_range": ("elementwise", lambda m, sg: _set(sg.operators[0], opcodeIndex=4000)),
    "op_input_index_out_of_range": ("elementwise", lambda m, sg: _set(sg.operators[0], inputs=[0, 999])),
    "unknown_tensor_type": ("elementwise", lambda m, sg: _set(_tensor(sg, "prod"), type=17)),
    "no_outputs": ("elementwise", lambda m, sg: _set(sg, outputs=[])),
    # Degenerate scales reached fixed-point helpers' asserts (AssertionError, negative shift ValueError).
    "add_input_scale_huge": ("elementwise", lambda m, sg: _set(_tensor(sg, "x").quantization, scale=[1e8])),
    "add_output_scale_tiny": ("elementwise", lambda m, sg: _set(_tensor(sg, "sum").quantization, scale=[1e-8])),
    "tanh_input_scale_tiny": ("elementwise", lambda m, sg: _set(_tensor(sg, "mean").quantization, scale=[1e-9])),
    "conv_output_scale_tiny": ("conv_block", lambda m, sg: _set(_tensor(sg, "conv").quantization, scale=[1e-20])),
    # A corrupt name offset made a tensor name kilobytes of binary, quoted raw in the error (run 2's finding).
    "binary_name_in_error": (
        "elementwise",
        lambda m, sg: _set(_tensor(sg, "prod"), type=17, name="".join(chr(i % 256) for i in range(1, 4400))),
    ),
    "hostile_names": (
        "float_mlp",
        lambda m, sg: [
            _set(t, name=n)
            for t, n in zip(
                sg.tensors, ["class", "linux", "a\x01b", "*/ x /*", "??/", "9", "new", "unix", "\u2603", "x" * 500]
            )
        ],
    ),
}


# --- ONNX -------------------------------------------------------------------------------------------------------
def _onnx_edit(seed: str, fn) -> bytes:
    """fn edits the seed's ModelProto in place, or returns the file's bytes itself (wire-format defects)."""
    data = onnx_seeds.builder_seeds()[seed]
    m = onnx.ModelProto.FromString(data)
    out = fn(m, m.graph, data)
    return out if isinstance(out, bytes) else m.SerializeToString()


def _node(g, name):
    return next(n for n in g.node if n.name == name)


def _set_attr(g, node, name, value):
    n = _node(g, node)
    for a in list(n.attribute):
        if a.name == name:
            n.attribute.remove(a)
    if value is not None:
        n.attribute.append(helper.make_attribute(name, value))


def _set_init(g, name, arr):
    t = next(t for t in g.initializer if t.name == name)
    t.CopyFrom(numpy_helper.from_array(np.asarray(arr), name))


def _ld(field: int, payload: bytes) -> bytes:
    """One length-delimited protobuf field (wire type 2)."""
    out, n = bytearray([field << 3 | 2]), len(payload)
    while True:
        out.append(n & 0x7F | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out) + payload


def _nested_ifs(m, g, data, depth=60):
    """A graph whose If node's then_branch holds an If ... `depth` levels down (3 messages per level: deeper than
    protobuf parses). Written on the wire directly: the protobuf library will not build it either."""
    graph = _ld(1, _ld(4, b"Relu") + _ld(1, b"x") + _ld(2, b"t"))  # GraphProto.node = NodeProto
    for _ in range(depth):
        attr = _ld(1, b"then_branch") + b"\xa0\x01\x05" + _ld(6, graph)  # AttributeProto name, type (20) GRAPH, g
        graph = _ld(1, _ld(4, b"If") + _ld(1, b"cond") + _ld(2, b"t") + _ld(5, attr))
    return bytes([1 << 3, 8]) + _ld(8, bytes([2 << 3, 13])) + _ld(7, graph)  # ir_version, opset_import, graph


def _string_operand(m, g, data):
    """Div's divisor 'two' made by a Constant node holding text instead of the initializer."""
    g.initializer.remove(next(t for t in g.initializer if t.name == "two"))
    nodes = [helper.make_node("Constant", [], ["two"], value_string="2", name="two_text")] + list(g.node)
    del g.node[:]
    g.node.extend(nodes)


# name -> (seed, edit). Findings of the ONNX fuzz runs (tests/fuzz/README.md), each minimized to one defect.
ONNX_CASES = {
    # Inputs, outputs and attributes the operator's schema requires, or types it defines (onnx_validate).
    "conv_weights_input_empty": ("conv1d", lambda m, g, d: _node(g, "conv1d").input.__setitem__(1, "")),
    "reshape_shape_input_empty": ("matmul_batched", lambda m, g, d: _node(g, "reshape").input.__setitem__(1, "")),
    "pad_without_pads": ("pad_modes", lambda m, g, d: _node(g, "edge").input.pop()),
    "concat_without_axis": ("shape_arith", lambda m, g, d: _set_attr(g, "cat", "axis", None)),
    "maxpool_without_kernel_shape": ("conv1d", lambda m, g, d: _set_attr(g, "pool1d", "kernel_shape", None)),
    "conv_strides_int_not_ints": ("conv1d", lambda m, g, d: _set_attr(g, "conv1d", "strides", 2)),
    "conv_pads_string": ("conv1d", lambda m, g, d: _set_attr(g, "conv1d", "pads", "SAME")),
    "pad_mode_not_utf8": ("pad_modes", lambda m, g, d: _set_attr(g, "reflect", "mode", b"\xff\xfe")),
    # Attribute and operand values that do not fit the input (the converters).
    "conv_pads_too_short": (
        "conv1d",
        lambda m, g, d: (_set_attr(g, "conv1d", "pads", [1]), g.value_info.append(onnx_seeds._vi("c", [1, 3, 5]))),
    ),
    "conv_bias_wrong_size": ("conv_float", lambda m, g, d: _set_init(g, "b1", np.zeros(0, np.float32))),
    "qlinear_conv_bias_wrong_size": ("qlinear", lambda m, g, d: _set_init(g, "b", np.array([1, -1, 1, -1], np.int32))),
    "gemm_b_wrong_shape": ("matmul_batched", lambda m, g, d: _set_init(g, "c", np.zeros(0, np.float32))),
    "pool_output_rank_mismatch": ("conv1d", lambda m, g, d: g.output[0].CopyFrom(onnx_seeds._vi("y", [1, 3]))),
    "transpose_perm_wrong_rank": ("shapes", lambda m, g, d: _set_attr(g, "transpose", "perm", [0, 1])),
    "slice_axis_out_of_range": ("shapes", lambda m, g, d: _set_init(g, "axes", np.array([0, 5], np.int64))),
    "split_sizes_wrong_count": ("shapes", lambda m, g, d: _set_init(g, "split", np.zeros(4, np.int64))),
    "split_sizes_huge": ("old_opset", lambda m, g, d: _set_attr(g, "split9", "split", [-(1 << 62), (1 << 62) + 5])),
    "pad_pads_wrong_length": ("pad_modes", lambda m, g, d: _set_init(g, "pads", np.zeros(3, np.int64))),
    "pad_pads_huge": ("pad_modes", lambda m, g, d: _set_init(g, "pads", np.array([0, 0, 1 << 39, 0] * 2, np.int64))),
    "reshape_shape_nan": ("matmul_batched", lambda m, g, d: _set_init(g, "shape", np.array([np.nan, 3], np.float32))),
    "gather_index_out_of_range": ("shapes", lambda m, g, d: _set_init(g, "idx", np.array([2, 7], np.int64))),
    "clip_nan_bound": ("old_opset", lambda m, g, d: _set_attr(g, "clip9", "min", float("nan"))),
    "leaky_relu_alpha_nan": ("conv1d", lambda m, g, d: _set_attr(g, "leaky", "alpha", float("nan"))),
    "batchnorm_variance_negative": ("conv_float", lambda m, g, d: _set_init(g, "var", -np.ones(4, np.float32))),
    "constant_value_string": ("mlp_matmul", _string_operand),
    # Files that are not a protobuf: the message names the file and the defect's field path and byte.
    "decode_truncated": ("conv_float", lambda m, g, d: d[: len(d) // 2]),
    "decode_field_number_zero": ("conv1d", lambda m, g, d: b"\x00" + d),
    "decode_nesting_too_deep": ("conv1d", _nested_ifs),
}


def main() -> int:
    for fmt, cases, build in (("tflite", CASES, _edit), ("onnx", ONNX_CASES, _onnx_edit)):
        out = os.path.join(HERE, "corpus", fmt)
        os.makedirs(out, exist_ok=True)
        for name, (seed, fn) in cases.items():
            with open(os.path.join(out, f"regress_{name}.{fmt}"), "wb") as f:
                f.write(build(seed, fn))
        print(f"{len(cases)} reproducers in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
