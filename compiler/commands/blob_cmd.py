"""`blob MODEL --like P.json --prefix P --out W.bin [--embed NAME]`: the weights blob of MODEL for code generated from
another model of the same architecture (compiled with --weights blob), or one paragraph naming where the
architectures differ; with --embed also NAME.h / NAME.c beside it, the blob as a const array in the weights section
(codegen/blob_embed.py)."""

import json
import os

import numpy as np

from ..codegen.blob_manifest import first_difference
from ..codegen.blob_embed import render_embed
from ..codegen.cnames import validate_prefix
from ..driver import compile_model, write_files
from ..errors import CompileError
from ..ops.kernel_table import options_from_flags
from ..user_kernels import options_from_flags as user_kernel_options


def _read_like(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
        record = report.get("weights_blob")
    except (OSError, ValueError) as e:
        raise CompileError(f"--like {path}: cannot read the model's report: {e}.") from None
    if not record:
        raise CompileError(
            f"--like {path}: that model was compiled with its weights in the code; compile it with --weights blob "
            '(aot_model_library(weights = "blob")) so that its code reads a blob.'
        )
    return dict(record, model=report.get("model"))


def make_blob(model: str, like: dict, like_name: str, prefix: str, target: str = "host", **compile_args) -> bytes:
    """The weights blob of `model` for the code whose report's "weights_blob" record is `like` (compiled with
    `prefix`, `target` and `compile_args`, driver.compile_model's), or a CompileError naming the first difference."""
    compiled = compile_model(model, prefix, target, weights="blob", **compile_args)
    this = compiled.manifest["weights_blob"]
    if this["arch_hash"] != like["arch_hash"]:
        a, b = like_name, os.path.basename(model)
        raise CompileError(
            f"{b} does not have the architecture of {a}, so its weights cannot go into a blob for that code: "
            f"{first_difference(like, this, a, b)}. A blob carries weights and quantization tables only; the "
            "operators, shapes, kernel choice and the zero points / activation ranges compiled into the calls must "
            "be the same (retrain with the same graph and the same input and output quantization), or rebuild the "
            "firmware from the new model."
        )
    return compiled.files[f"{prefix}_weights.bin"]


def run_blob(model: str, flags) -> int:
    like = _read_like(flags.like)
    blob = make_blob(
        model,
        like,
        like.get("model") or os.path.basename(flags.like),
        flags.prefix,
        flags.target,
        kernel_options=options_from_flags(flags),
        io_in_workspace=flags.io_in_workspace,
        user_kernels=user_kernel_options(flags),
    )
    try:
        with open(flags.out, "wb") as f:
            f.write(blob)
    except OSError as e:
        raise CompileError(f"Cannot write the blob '{flags.out}': {e.strerror or e}.") from None
    if flags.embed:
        validate_prefix(flags.embed)
        write_files(
            os.path.dirname(os.path.abspath(flags.out)), render_embed(flags.embed, np.frombuffer(blob, np.uint8))
        )
    if not flags.quiet:
        print(f"{flags.out}: {len(blob)} B, architecture {like['arch_hash']}")
    return 0
