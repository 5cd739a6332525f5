"""ONNX-ML ZipMap, which skl2onnx appends to every classifier by default: onnxruntime returns its output as a
sequence of maps {class label: probability}, one map per row. C has no maps, so the generated code returns the
map's values as the float tensor [N, C] that ZipMap reads, column k holding the probability of class_labels[k]
(the node's classlabels_int64s or classlabels_strings, in their order). The header's comment on that output and the
manifest's output entry ("meaning") name the labels, so an application can key the columns as the map would.

This runs before validation (onnx_reader.py): the ZipMap node becomes an Identity and the graph output's declared
type (a sequence of maps) becomes a float tensor. A ZipMap whose output feeds another node instead of being a model
output is refused: nothing else in a graph we compile can read a sequence of maps.
"""

from onnx import TensorProto, helper

from ..errors import UnsupportedError


def _labels(node) -> list:
    for a in node.attribute:
        if a.name == "classlabels_int64s" and len(a.ints):
            return [int(v) for v in a.ints]
        if a.name == "classlabels_strings" and len(a.strings):
            return [s.decode("utf-8", "replace") for s in a.strings]
    return []


def lower_zipmap(model, source: str) -> dict:
    """Rewrites model's ZipMap nodes in place (see the module docstring); returns {output name: meaning}, the
    meaning for the model output that was a ZipMap's (Tensor.meaning)."""
    g = model.graph
    outputs = {o.name: o for o in g.output}
    meanings = {}
    for i, n in enumerate(g.node):
        if n.domain != "ai.onnx.ml" or n.op_type != "ZipMap":
            continue
        label = f"ONNX node '{n.name or n.op_type}' (ZipMap)"
        labels = _labels(n)
        out = n.output[0] if n.output else ""
        readers = [m.name or m.op_type for m in g.node if out in m.input]
        if out not in outputs or readers:
            raise UnsupportedError(
                f"{label} writes a sequence of maps {{class: probability}} that "
                f"{'node ' + repr(readers[0]) + ' reads' if readers else 'is not a model output'}; ZipMap is "
                "supported as the last node of a classifier, whose model output then becomes the probability "
                "tensor [N, classes] in class-label order. Export the model without ZipMap (skl2onnx "
                "options={'zipmap': False}) to use the probabilities inside the graph."
            )
        if not labels:
            raise UnsupportedError(
                f"{label} has neither classlabels_int64s nor classlabels_strings; ZipMap needs one of them."
            )
        kind = "int64" if isinstance(labels[0], int) else "string"
        shown = ", ".join(repr(v) if kind == "string" else str(v) for v in labels[:16])
        more = f", ... ({len(labels)} labels)" if len(labels) > 16 else ""
        meanings[out] = {
            "from": "ZipMap",
            "class_labels": labels,
            "class_label_type": kind,
            "note": (
                f"ONNX-ML ZipMap output '{out}' as a float tensor [N, {len(labels)}]: column k is the probability of "
                f"class label k of [{shown}{more}] (onnxruntime returns one map {{label: probability}} per row)."
            ),
        }
        g.node[i].CopyFrom(helper.make_node("Identity", list(n.input), [out], name=n.name or f"zipmap_{i}"))
        vi = outputs[out]
        vi.type.Clear()
        vi.type.tensor_type.elem_type = TensorProto.FLOAT
    return meanings


__all__ = ["lower_zipmap"]
