"""Size limits on what a model may ask the compiler to handle, checked before anything is allocated.

A model file is untrusted input: a few bytes can claim a tensor of 2^60 elements or millions of operators. The
frontends check every claim against these limits first, so a hostile file gets a clear error instead of exhausting
memory or time, and so every size that reaches generated C fits the int32 arithmetic it uses. The defaults are far
above any microcontroller model; `aotc --max_tensor_bytes/--max_weight_bytes/--max_model_bytes` change them.
"""

from dataclasses import dataclass, replace

from .errors import CompileError

INT32_MAX = (1 << 31) - 1


@dataclass(frozen=True)
class Limits:
    max_model_bytes: int = 512 << 20  # the model file
    max_tensor_bytes: int = 64 << 20  # any one tensor (activation or constant)
    max_weight_bytes: int = 256 << 20  # all constant data together
    max_ops: int = 10_000
    max_tensors: int = 100_000
    max_rank: int = 6


_active = Limits()


def active() -> Limits:
    return _active


def configure(**overrides) -> Limits:
    """Sets limits for this process (the CLI does it from its flags); None values keep the default."""
    global _active
    _active = replace(Limits(), **{k: v for k, v in overrides.items() if v is not None})
    return _active


def _flag(field: str) -> str:
    return "--" + field


def check_model_bytes(source: str, size: int) -> None:
    if size > _active.max_model_bytes:
        raise CompileError(
            f"'{source}' is {size} bytes, over the limit of {_active.max_model_bytes} bytes for a "
            f"model file (raise it with {_flag('max_model_bytes')})."
        )


def check_counts(source: str, ops: int, tensors: int) -> None:
    if ops > _active.max_ops or tensors > _active.max_tensors:
        raise CompileError(
            f"'{source}' declares {ops} operators and {tensors} tensors; the limits are "
            f"{_active.max_ops} operators and {_active.max_tensors} tensors."
        )


def check_tensor(index: int, name: str, shape, itemsize: int) -> int:
    """Returns the tensor's byte size after checking its rank and size (shape entries must be positive)."""
    if len(shape) > _active.max_rank:
        raise CompileError(
            f"Tensor {index} '{name}' has rank {len(shape)}; at most {_active.max_rank} dimensions are supported."
        )
    nbytes = itemsize
    for d in shape:
        nbytes *= max(int(d), 1)
        if nbytes > _active.max_tensor_bytes:
            raise CompileError(
                f"Tensor {index} '{name}' with shape {list(shape)} is larger than the limit of "
                f"{_active.max_tensor_bytes} bytes per tensor (raise it with "
                f"{_flag('max_tensor_bytes')})."
            )
    return nbytes


def check_weights(source: str, total: int) -> None:
    if total > _active.max_weight_bytes:
        raise CompileError(
            f"'{source}' holds {total} bytes of constant data, over the limit of "
            f"{_active.max_weight_bytes} bytes (raise it with {_flag('max_weight_bytes')})."
        )
