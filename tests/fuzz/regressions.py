"""Write the regression reproducers of fixed fuzz findings into corpus/tflite/, rebuilt from the project's own seeds.

The fuzzer found these defects by mutating the shared (third-party) models; those files may not be committed, so
each defect is re-applied here, by name, to a small model from seeds.py. Run after changing a seed:

    .venv/bin/python tests/fuzz/regressions.py          # rewrites corpus/tflite/regress_*.tflite

Every entry must compile or give one CompileError paragraph (tests/compiler/test_fuzz_corpus.py checks it).
"""

import math
import os
import sys

import flatbuffers
from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

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
    return next(t for t in sg.tensors if t.name.decode() == name) if isinstance(sg.tensors[0].name, bytes) \
        else next(t for t in sg.tensors if t.name == name)


def _set(obj, **kw):
    for k, v in kw.items():
        setattr(obj, k, v)


# name -> (seed, edit). The first three are the findings of the first fuzz prototype (bug_1..3).
CASES = {
    "fc_without_outputs": ("float_mlp", lambda m, sg: _set(_op(sg, m, "FULLY_CONNECTED"), outputs=[])),
    "softmax_beta_zero": ("conv_block", lambda m, sg: _set(_op(sg, m, "SOFTMAX").builtinOptions, beta=0.0)),
    "depthwise_stride_zero": ("conv_block",
                              lambda m, sg: _set(_op(sg, m, "DEPTHWISE_CONV_2D").builtinOptions, strideW=0)),
    "conv_dilation_negative": ("conv_block",
                               lambda m, sg: _set(_op(sg, m, "CONV_2D").builtinOptions, dilationHFactor=-1)),
    "pool_filter_huge": ("conv_block",
                         lambda m, sg: _set(_op(sg, m, "MAX_POOL_2D").builtinOptions, filterWidth=(1 << 31) - 1)),
    "scale_nan": ("elementwise", lambda m, sg: _set(_tensor(sg, "sum").quantization, scale=[math.nan])),
    "scale_zero": ("conv_block", lambda m, sg: _set(_tensor(sg, "w").quantization, scale=[0.0] * 4)),
    "zero_point_out_of_range": ("elementwise", lambda m, sg: _set(_tensor(sg, "x").quantization, zeroPoint=[300])),
    "per_channel_axis_out_of_range": ("conv_block",
                                      lambda m, sg: _set(_tensor(sg, "w").quantization, quantizedDimension=7)),
    "ops_out_of_order": ("elementwise", lambda m, sg: sg.operators.reverse()),
    "two_producers": ("elementwise", lambda m, sg: sg.operators.insert(1, sg.operators[0])),
    "op_writes_constant": ("float_mlp", lambda m, sg: _set(
        _op(sg, m, "HARD_SWISH"), outputs=[_op(sg, m, "FULLY_CONNECTED").inputs[1]])),
    "op_writes_model_input": ("float_mlp", lambda m, sg: _set(_op(sg, m, "HARD_SWISH"), outputs=[sg.inputs[0]])),
    "huge_claimed_shape": ("float_mlp", lambda m, sg: _set(_tensor(sg, "fc"), shape=[1 << 20, 1 << 20, 1 << 20])),
    "rank_nine": ("float_mlp", lambda m, sg: _set(_tensor(sg, "hs"), shape=[1] * 8 + [5])),
    "buffer_index_out_of_range": ("float_mlp", lambda m, sg: _set(_tensor(sg, "w"), buffer=999)),
    "buffer_offset_past_end": ("float_mlp", lambda m, sg: _set(m.buffers[_tensor(sg, "w").buffer], data=None,
                                                               offset=1 << 40, size=120)),
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
    "binary_name_in_error": ("elementwise", lambda m, sg: _set(_tensor(sg, "prod"), type=17, name="".join(
        chr(i % 256) for i in range(1, 4400)))),
    "hostile_names": ("float_mlp", lambda m, sg: [_set(t, name=n) for t, n in zip(
        sg.tensors, ["class", "linux", "a\x01b", "*/ x /*", "??/", "9", "new", "unix", "\u2603", "x" * 500])]),
}


def main() -> int:
    out = os.path.join(HERE, "corpus", "tflite")
    os.makedirs(out, exist_ok=True)
    for name, (seed, fn) in CASES.items():
        with open(os.path.join(out, f"regress_{name}.tflite"), "wb") as f:
            f.write(_edit(seed, fn))
    print(f"{len(CASES)} reproducers in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
