"""Says where and why an .onnx file is not a valid protobuf, for the reader's error message.

The protobuf library only reports "Error parsing message with type 'onnx.ModelProto'". When that happens, this
module walks the file's wire format itself, guided by the ModelProto descriptor (so every field has its schema name),
and returns the first defect with its position: a length-delimited field that runs past the end of its enclosing
message (a truncated or corrupt file), a varint longer than 10 bytes or cut off, a field number 0, a wire type
that protobuf does not define (6, 7) or an unmatched end-group, or messages nested deeper than protobuf's parser
allows, or a packed list of numbers that ends inside a number. The walk is linear in the file size and bounded in
depth, so it is safe on any input.
"""

from google.protobuf.descriptor import FieldDescriptor

MAX_DEPTH = 100  # protobuf's default recursion limit for nested messages
_FIXED = {
    FieldDescriptor.TYPE_FLOAT: 4,
    FieldDescriptor.TYPE_FIXED32: 4,
    FieldDescriptor.TYPE_SFIXED32: 4,
    FieldDescriptor.TYPE_DOUBLE: 8,
    FieldDescriptor.TYPE_FIXED64: 8,
    FieldDescriptor.TYPE_SFIXED64: 8,
}
_VARINT = {
    FieldDescriptor.TYPE_INT32,
    FieldDescriptor.TYPE_INT64,
    FieldDescriptor.TYPE_UINT32,
    FieldDescriptor.TYPE_UINT64,
    FieldDescriptor.TYPE_SINT32,
    FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_BOOL,
    FieldDescriptor.TYPE_ENUM,
}


class _Defect(Exception):
    pass


def _varint(buf, pos: int, end: int, where: str):
    result, shift, start = 0, 0, pos
    while True:
        if pos >= end:
            raise _Defect(f"{where}: a varint starting at byte {start} runs past the end of its message")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise _Defect(f"{where}: the varint at byte {start} is longer than 10 bytes")


def _walk(buf, pos: int, end: int, desc, path: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise _Defect(f"{path}: messages are nested more than {MAX_DEPTH} levels deep")
    counts = {}
    here = path or "the model"
    while pos < end:
        start = pos
        key, pos = _varint(buf, pos, end, here)
        number, wire = key >> 3, key & 7
        field = desc.fields_by_number.get(number) if desc is not None else None
        name = field.name if field is not None else f"<unknown field {number}>"
        if field is not None and field.is_repeated:
            name += f"[{counts.get(number, 0)}]"
            counts[number] = counts.get(number, 0) + 1
        fpath = f"{path}.{name}" if path else name
        if number == 0:
            raise _Defect(f"{here}: the field at byte {start} has number 0, which protobuf does not allow")
        if wire == 0:
            _, pos = _varint(buf, pos, end, fpath)
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            if pos + size > end:
                raise _Defect(f"{fpath} at byte {start} needs {size} bytes, but only {end - pos} remain in {here}")
            pos += size
        elif wire == 2:
            length, pos = _varint(buf, pos, end, fpath)
            if length > end - pos:
                raise _Defect(f"{fpath} at byte {start} claims {length} bytes, but only {end - pos} remain in {here}")
            if field is not None and field.type == FieldDescriptor.TYPE_MESSAGE:
                _walk(buf, pos, pos + length, field.message_type, fpath, depth + 1)
            elif field is not None and field.is_repeated and field.type in _FIXED:
                if length % _FIXED[field.type]:
                    raise _Defect(f"{fpath} at byte {start} packs {length} bytes of {_FIXED[field.type]}-byte numbers")
            elif field is not None and field.is_repeated and field.type in _VARINT:
                p = pos
                while p < pos + length:
                    _, p = _varint(buf, p, pos + length, fpath)
            pos += length
        elif wire == 3:
            pos = _skip_group(buf, pos, end, number, fpath, depth + 1)
        elif wire == 4:
            raise _Defect(f"{here}: an end-group marker at byte {start} has no matching start")
        else:
            raise _Defect(f"{here}: the field at byte {start} has wire type {wire}, which protobuf does not define")


def _skip_group(buf, pos: int, end: int, number: int, path: str, depth: int) -> int:
    """Skips a (deprecated, never used by ONNX) group up to its end marker; returns the position after it."""
    if depth > MAX_DEPTH:
        raise _Defect(f"{path}: groups are nested more than {MAX_DEPTH} levels deep")
    while pos < end:
        start = pos
        key, pos = _varint(buf, pos, end, path)
        inner, wire = key >> 3, key & 7
        if wire == 4:
            if inner != number:
                raise _Defect(f"{path}: the end-group marker at byte {start} closes group {inner}, not {number}")
            return pos
        if wire == 0:
            _, pos = _varint(buf, pos, end, path)
        elif wire in (1, 5):
            pos += 8 if wire == 1 else 4
        elif wire == 2:
            length, pos = _varint(buf, pos, end, path)
            pos += length
        elif wire == 3:
            pos = _skip_group(buf, pos, end, inner, path, depth + 1)
        else:
            raise _Defect(f"{path}: the field at byte {start} has wire type {wire}, which protobuf does not define")
        if pos > end:
            break
    raise _Defect(f"{path}: a group is not closed before the end of its message")


def describe_defect(data: bytes) -> str:
    """The first wire-format defect of `data` as an ONNX ModelProto ('graph.node[3].attribute[0] at byte 812
    claims 4000 bytes, but only 37 remain in graph.node[3]'), or '' if the walk finds none."""
    import onnx

    try:
        _walk(memoryview(data), 0, len(data), onnx.ModelProto.DESCRIPTOR, "", 0)
    except _Defect as e:
        return str(e)
    return ""
