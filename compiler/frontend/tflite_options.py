"""Generic decoding of TFLite builtin option tables into plain dicts.

The flatbuffer bindings expose one accessor method per schema field; reading
them reflectively means new ops never need frontend changes: an op module
just looks up the field names it cares about (e.g. "StrideW").
"""

import inspect

import tflite
from tflite.BuiltinOptions import BuiltinOptions

_OPTION_CLASS_BY_CODE = {
    value: name for name, value in vars(BuiltinOptions).items() if not name.startswith("_") and isinstance(value, int)
}

_SKIP_SUFFIXES = ("Length", "IsNone", "AsNumpy")


def decode_builtin_options(op) -> dict:
    """Return {field_name: value} for the operator's builtin options (may be empty)."""
    code = op.BuiltinOptionsType()
    if code == 0:
        return {}
    class_name = _OPTION_CLASS_BY_CODE.get(code)
    cls = getattr(tflite, class_name, None) if class_name else None
    table = op.BuiltinOptions()
    if cls is None or table is None:
        return {}
    obj = cls()
    obj.Init(table.Bytes, table.Pos)
    result = {}
    for name, member in inspect.getmembers(cls, inspect.isfunction):
        if name.startswith("_") or name in ("Init",) or name.endswith(_SKIP_SUFFIXES):
            continue
        if name.startswith("GetRootAs") or name.endswith("BufferHasIdentifier"):
            continue
        params = inspect.signature(member).parameters
        if hasattr(cls, name + "AsNumpy"):
            arr = getattr(obj, name + "AsNumpy")()
            result[name] = [] if isinstance(arr, int) else [int(v) for v in arr]
        elif len(params) == 1:
            result[name] = getattr(obj, name)()
    return result
