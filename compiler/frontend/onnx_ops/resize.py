"""ONNX Resize and Upsample on float32 4-D NCHW data, as one RESIZE_SEPARABLE operator.

Every mode the ONNX reference implements (nearest with each nearest_mode, linear, cubic, antialias, and each
coordinate transformation) is a linear map that acts on height and width separately. Rather than re-deriving each
formula, the taps are measured: the node (same attributes, same constant scales / sizes / roi) runs in the onnx
package's reference evaluator on basis images (channel k holds a one-hot row k, or column k), which gives the
weight of every input row for every output row, and likewise for columns. A node that is not such a map
(tf_crop_and_resize sampling outside the roi, which writes extrapolation_value) or that scales the batch or
channel axes is refused with its reason.
"""

import numpy as np

from .common import data_tensor
from .context import NotQuantizable


def _run_node(ctx, x: np.ndarray) -> np.ndarray:
    import onnx
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator

    node = ctx.node
    inits, names = [], ["X"]
    for i in range(1, len(node.input)):
        name = node.input[i]
        if not name:
            names.append("")
            continue
        v = ctx.input(i)
        arr = np.asarray(v.const)
        if i == 3 or (node.op_type == "Resize" and i == 2 and arr.dtype == np.int64):  # sizes: batch/channel follow x
            arr = np.array(arr, np.int64)
            axes = ctx.attr("axes")
            if axes is None and arr.size == 4:
                arr[0], arr[1] = x.shape[0], x.shape[1]
        inits.append(
            helper.make_tensor(
                f"c{i}", onnx.helper.np_dtype_to_tensor_dtype(arr.dtype), arr.shape, arr.reshape(-1).tolist()
            )
        )
        names.append(f"c{i}")
    n = helper.make_node(node.op_type, names, ["Y"], **{a.name: helper.get_attribute_value(a) for a in node.attribute})
    graph = helper.make_graph(
        [n],
        "resize",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", ctx.opset)])
    return np.asarray(ReferenceEvaluator(model).run(None, {"X": x.astype(np.float32)})[0], np.float64)


def _taps(matrix: np.ndarray):
    """(index [out, k], weight [out, k]) of the non-zero entries of each row, padded with index 0 weight 0."""
    rows = [np.flatnonzero(r) for r in matrix]
    k = max(1, max(len(r) for r in rows))
    at = np.zeros((len(rows), k), np.int32)
    w = np.zeros((len(rows), k), np.float32)
    for y, idx in enumerate(rows):
        at[y, : len(idx)] = idx
        w[y, : len(idx)] = matrix[y, idx]
    return at, w


def _resize(ctx):
    if ctx.quantized:
        raise NotQuantizable()
    x = ctx.input(0)
    if x.dtype != "float32" or x.rank != 4:
        raise ctx.unsupported(
            f"input '{x.name}' is {x.dtype} of rank {x.rank}; {ctx.op_type} is supported on 4-D float32 NCHW data"
        )
    for i in range(1, ctx.num_inputs()):
        if ctx.input(i) is not None:
            ctx.const_input(i, "the roi / scales / sizes operand")
    n, c, h, w = (int(d) for d in x.shape)
    out_shape = tuple(int(d) for d in ctx.out_shape(0))
    if out_shape[:2] != (n, c):
        raise ctx.unsupported(
            f"it resizes the batch or channel axes ({list(x.shape)} -> {list(out_shape)}); only "
            "height and width may change"
        )
    oh, ow = out_shape[2:]
    try:
        zero = _run_node(ctx, np.zeros((1, 1, h, w)))
        eye_h = np.zeros((1, h, h, w))
        eye_w = np.zeros((1, w, h, w))
        for k in range(h):
            eye_h[0, k, k, :] = 1.0
        for k in range(w):
            eye_w[0, k, :, k] = 1.0
        yh, yw = _run_node(ctx, eye_h), _run_node(ctx, eye_w)
    except Exception as e:  # the reference rejects the node: say why, in one line
        raise ctx.unsupported(
            f"the ONNX reference cannot evaluate this node ({type(e).__name__}: {' '.join(str(e).split())[:200]})"
        ) from None
    if np.any(zero != 0):
        raise ctx.unsupported(
            "it writes extrapolation_value outside the crop (tf_crop_and_resize); that is not a "
            "linear resampling and is not supported"
        )
    if yh.shape[2:] != (oh, ow) or yw.shape[2:] != (oh, ow):
        raise ctx.error(f"the reference gives {list(yh.shape[2:])}, shape inference {[oh, ow]}")
    mh = yh[0, :, :, 0].T  # [oh, h]: weight of input row k for output row y
    mw = yw[0, :, 0, :].T  # [ow, w]
    if not (np.allclose(yh, yh[..., :1]) and np.allclose(yw, yw[:, :, :1, :])):
        raise ctx.unsupported("its height and width resampling are not separable")
    row_at, row_w = _taps(mh)
    col_at, col_w = _taps(mw)
    b = ctx.b
    out = b.runtime_value(ctx.out_name(), out_shape, "float32")
    b.add_op(
        "RESIZE_SEPARABLE",
        [data_tensor(ctx, x, "onnx")],
        [out.tensors["onnx"]],
        {"Dims": (n * c, h, w, 1, oh, ow), "RowAt": row_at, "RowW": row_w, "ColAt": col_at, "ColW": col_w},
    )
    ctx.set_output(0, out)


CONVERTERS = {
    "Resize": (_resize, "compute"),
    "Upsample": (_resize, "compute"),
}
