"""What <prefix>.json records of a model compiled with its weights in a blob, and the comparison of two such
records that says why a blob of one model cannot be bound by the other's code (`aotc blob --like`)."""

from .cnames import sanitize_comment
from .weights_blob import _code_only


def blob_manifest(graph, op_lines, header: str, arch: bytes, blob_size: int) -> dict:
    """The architecture hash, the blob's size, and the code of every operator and of the header as the hash saw it
    (comments removed), so another model's record can be compared line by line."""
    return {
        "arch_hash": arch.hex(),
        "blob_bytes": blob_size,
        "header": _code_only(header).split("\n"),
        "ops": [
            {
                "index": op.index,
                "kind": op.kind,
                "outputs": [sanitize_comment(t.name, 60) for t in op.outputs],
                "tensors": [
                    [sanitize_comment(t.name, 60), t.dtype, [int(d) for d in t.shape]]
                    for t in list(op.inputs) + list(op.outputs)
                    if t is not None
                ],
                "code": _code_only("\n".join(lines)).split("\n") if lines else [],
            }
            for op, lines in zip(graph.ops, op_lines)
        ],
    }


def _clip(line: str, n: int = 140) -> str:
    line = " ".join(line.split())
    return line if len(line) <= n else line[: n - 3] + "..."


def first_difference(like: dict, this: dict, like_name: str, this_name: str) -> str:
    """One paragraph naming the first operator (or header line) whose code differs between two blob records."""
    a_ops, b_ops = like["ops"], this["ops"]
    # Operators and tensor shapes first: a later operator's other shape also moves the workspace plan, so an earlier
    # operator's code (its buffer offsets) can differ only as a consequence of it.
    for a, b in zip(a_ops, b_ops):
        if a["kind"] != b["kind"]:
            return (
                f"operator {a['index']} is {a['kind']} in {like_name} but {b['kind']} in {this_name} "
                f"(output '{b['outputs'][0] if b['outputs'] else '?'}')"
            )
        for ta, tb in zip(a.get("tensors", []), b.get("tensors", [])):
            if ta[1:] != tb[1:]:
                return (
                    f"operator {a['index']} ({a['kind']}): tensor '{tb[0]}' is {tb[1]} {tb[2]} in {this_name} but "
                    f"'{ta[0]}' is {ta[1]} {ta[2]} in {like_name}"
                )
    for a, b in zip(a_ops, b_ops):
        if a["code"] != b["code"]:
            for la, lb in zip(a["code"] + [""] * len(b["code"]), b["code"] + [""] * len(a["code"])):
                if la != lb:
                    return (
                        f"operator {a['index']} ({a['kind']}) computing '{b['outputs'][0] if b['outputs'] else '?'}' "
                        f"compiles to other code: {like_name} has `{_clip(la)}`, {this_name} has `{_clip(lb)}` "
                        "(a shape, the kernel chosen, or a zero point / activation range compiled into the call)"
                    )
    if len(a_ops) != len(b_ops):
        return f"{like_name} has {len(a_ops)} operators and {this_name} {len(b_ops)}"
    for la, lb in zip(like["header"] + [""] * len(this["header"]), this["header"] + [""] * len(like["header"])):
        if la != lb:
            return (
                f"their headers differ (the model's inputs, outputs or buffers): {like_name} has `{_clip(la)}`, "
                f"{this_name} has `{_clip(lb)}`"
            )
    return "their parameter tables are laid out differently"
