"""Loads the weights an .onnx file keeps in a side file (external data) into the model, before anything reads it.

torch's dynamo exporter (the default of torch.onnx.export since torch 2.9) writes the initializers of all but the
smallest models to `model.onnx.data` beside `model.onnx`; onnx.save_model(..., save_as_external_data=True) does the
same. The model names the file in each tensor's `external_data` (location, offset, length). The file is untrusted
input, so only a plain file name is followed, and only to a regular file in the model's own directory: no directory
part, no '..', no absolute path, no device or /proc file. Each tensor's bytes are read from (offset, length), which
must lie inside the file and match the size its type and shape need; the payload becomes the tensor's raw_data and
the model is then exactly a self-contained one (onnx_validate checks it as any other).
"""

import math
import os
import stat

from onnx import TensorProto

from .. import limits
from ..errors import CompileError, UnsupportedError

# Bytes per element of the types a constant may have (onnx_validate lists the same set).
_ITEMSIZE = {
    TensorProto.FLOAT: 4,
    TensorProto.UINT8: 1,
    TensorProto.INT8: 1,
    TensorProto.UINT16: 2,
    TensorProto.INT16: 2,
    TensorProto.INT32: 4,
    TensorProto.INT64: 8,
    TensorProto.BOOL: 1,
    TensorProto.FLOAT16: 2,
    TensorProto.DOUBLE: 8,
    TensorProto.UINT32: 4,
    TensorProto.UINT64: 8,
}


def _tensors(graph):
    """(tensor, description) of the graph's initializers and constant attributes, subgraphs included."""
    for t in graph.initializer:
        yield t, f"initializer '{t.name}'"
    for i, n in enumerate(graph.node):
        for a in n.attribute:
            if a.HasField("t"):
                yield a.t, f"attribute '{a.name}' of ONNX node '{n.name or f'{n.op_type}_{i}'}' ({n.op_type})"
            for t in a.tensors:
                yield t, f"attribute '{a.name}' of ONNX node '{n.name or f'{n.op_type}_{i}'}' ({n.op_type})"
            for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                yield from _tensors(g)


def is_external(t) -> bool:
    return t.data_location == TensorProto.EXTERNAL or len(t.external_data) > 0


def has_external_data(model) -> bool:
    return any(is_external(t) for t, _ in _tensors(model.graph))


def _int_field(t, entries: dict, key: str, what: str, source: str) -> int:
    text = entries.get(key, "0")
    if not text.isdigit():
        raise CompileError(
            f"'{source}': {what} has external_data {key} '{text}', which is not a non-negative integer. "
            "The model file is malformed."
        )
    return int(text)


def load_external_data(model, model_path: str, source: str) -> None:
    """Replaces every external tensor's reference by its bytes, read from the side file beside `model_path`.
    Raises one CompileError paragraph naming the tensor and the file when the file is missing or does not hold
    what the model says."""
    directory = os.path.dirname(os.path.abspath(model_path))
    files = {}  # location -> (file object, size)
    total = 0
    try:
        for t, what in _tensors(model.graph):
            if not is_external(t):
                continue
            entries = {e.key: e.value for e in t.external_data}
            loc = entries.get("location", "")
            if (
                not loc
                or loc != os.path.basename(loc)
                or "/" in loc
                or "\\" in loc
                or loc in (".", "..")
                or os.path.isabs(loc)
            ):
                raise UnsupportedError(
                    f"'{source}': {what} stores its data in '{loc}'. External data is read only from a plain file "
                    "name in the model's own directory (as torch.onnx.export and onnx.save_model write it: "
                    "'model.onnx.data' beside 'model.onnx'); paths are never followed."
                )
            if t.HasField("raw_data") or any(
                len(getattr(t, f)) for f in ("float_data", "int32_data", "int64_data", "double_data", "uint64_data")
            ):
                raise CompileError(
                    f"'{source}': {what} is marked as external data but also holds values inside the model. "
                    "The model file is malformed."
                )
            if t.data_type not in _ITEMSIZE:
                raise UnsupportedError(
                    f"'{source}': {what} has element type {t.data_type}; constants of type "
                    f"{', '.join(TensorProto.DataType.Name(c) for c in _ITEMSIZE)} are supported."
                )
            need = math.prod(t.dims) * _ITEMSIZE[t.data_type]
            if loc not in files:
                path = os.path.join(directory, loc)
                try:
                    st = os.stat(path)
                except OSError:
                    raise CompileError(
                        f"'{source}': {what} stores its weights as external data in the side file '{loc}', "
                        f"which is not beside the model (looked for {path}). Keep the data file next to the .onnx "
                        "file it belongs to (in "
                        'Bazel: aot_model_library(..., model_data = ["' + loc + '"]), or save the model with its '
                        "weights inside: onnx.save_model(onnx.load(path), out, save_as_external_data=False)."
                    ) from None
                if not stat.S_ISREG(st.st_mode):
                    raise UnsupportedError(
                        f"'{source}': {what} stores its data in '{loc}', which is not a regular file; external "
                        "data is read from regular files only."
                    )
                files[loc] = (open(path, "rb"), st.st_size)  # noqa: SIM115 - closed in the finally below
            f, size = files[loc]
            offset = _int_field(t, entries, "offset", what, source)
            length = _int_field(t, entries, "length", what, source) if "length" in entries else need
            if length != need or offset + length > size:
                raise CompileError(
                    f"'{source}': {what} of type {TensorProto.DataType.Name(t.data_type)} and shape "
                    f"{list(t.dims)} needs {need} bytes, but its external data claims {length} bytes at offset "
                    f"{offset} of '{loc}' ({size} bytes). The model and its data file do not belong together, or "
                    "one of them is truncated."
                )
            limits.check_tensor("(constant)", what, list(t.dims), _ITEMSIZE[t.data_type])
            total += need
            limits.check_weights(source, total)
            f.seek(offset)
            data = f.read(length)
            del t.external_data[:]
            t.data_location = TensorProto.DEFAULT
            t.raw_data = data
    finally:
        for f, _ in files.values():
            f.close()
