"""Creates IR tensors and operators for the ONNX frontend, and hands out a value's tensor in a given layout.

Layout changes and dequantization are made lazily and once per value: the first consumer that needs a
value in NHWC (a convolution) gets a TRANSPOSE (or a free RESHAPE when only size-1 dimensions move), later
consumers reuse it; a float consumer of a dequantized view gets one DEQUANTIZE.
"""

import numpy as np

from ... import limits
from ...errors import CompileError, UnsupportedError
from ...ir import Operator, QuantParams, Tensor
from ...ir.dtypes import DTYPES
from .layout import TO_NCHW, TO_NHWC, only_unit_dims_move, permute
from .values import QInfo, Value

_NP_TO_IR = {
    np.dtype(np.float32): "float32",
    np.dtype(np.int8): "int8",
    np.dtype(np.uint8): "uint8",
    np.dtype(np.int32): "int32",
    np.dtype(np.int64): "int64",
    np.dtype(np.float64): "float64",
    np.dtype(np.bool_): "bool",
    np.dtype(np.int16): "int16",
    np.dtype(np.float16): "float16",
}


def ir_dtype(arr: np.ndarray) -> str:
    return _NP_TO_IR.get(np.asarray(arr).dtype, str(np.asarray(arr).dtype))


class Builder:
    def __init__(self):
        self.tensors = []
        self.ops = []
        self._names = set()

    # --- tensors and operators --------------------------------------------------------------------------------
    def _unique(self, name: str) -> str:
        base, n = name or "t", 1
        while name in self._names or not name:
            name = f"{base}_{n}"
            n += 1
        self._names.add(name)
        return name

    def new_tensor(self, name: str, shape, dtype: str, quant=None, data=None) -> Tensor:
        if dtype == "int8" and quant is None and data is None:
            # Raw (not quantized) int8 data: the identity quantization, so int8 kernels that compare or move
            # stored values (max pool, clamp, concatenation, ...) accept it.  A DequantizeLinear reading the
            # value replaces it with its own parameters (quant.reinterpret).
            quant = self.quant_params(QInfo(np.ones(1, np.float32), np.zeros(1, np.int64)))
        shape = tuple(int(d) for d in shape)
        if any(d < 0 for d in shape):
            raise CompileError(
                f"Tensor '{name}' would have the shape {list(shape)}; a dimension is negative. The "
                "model's shapes or attributes are inconsistent."
            )
        # Every tensor a converter makes (shapes come from attributes, constant operands and shape inference, all
        # taken from the file) is held to the size limits before anything is allocated for it.
        limits.check_tensor("(value)", name, shape, DTYPES[dtype].size if dtype in DTYPES else 8)
        t = Tensor(index=len(self.tensors), name=self._unique(name), shape=shape, dtype=dtype, quant=quant, data=data)
        self.tensors.append(t)
        return t

    def const_tensor(self, name: str, arr, dtype: str = None, quant=None) -> Tensor:
        arr = np.ascontiguousarray(np.asarray(arr))
        return self.new_tensor(name, arr.shape, dtype or ir_dtype(arr), quant, arr)

    def int32_const(self, name: str, values) -> Tensor:
        values = [int(v) for v in np.asarray(values).reshape(-1)]
        if any(not -(1 << 31) <= v < 1 << 31 for v in values):
            raise UnsupportedError(f"'{name}' would hold {values[:8]}; values beyond int32 are not supported.")
        return self.const_tensor(name, np.asarray(values, np.int32), "int32")

    def add_op(self, kind: str, inputs: list, outputs: list, options: dict = None) -> Operator:
        op = Operator(
            index=len(self.ops), kind=kind, inputs=list(inputs), outputs=list(outputs), options=dict(options or {})
        )
        self.ops.append(op)
        return op

    @staticmethod
    def quant_params(q: QInfo, axis_map=None):
        if q is None:
            return None
        axis = q.axis if axis_map is None else axis_map(q.axis)
        return QuantParams(
            scale=np.asarray(q.scale, np.float32).reshape(-1),
            zero_point=np.asarray(q.zero_point, np.int64).reshape(-1),
            axis=int(axis),
        )

    # --- values ---------------------------------------------------------------------------------------------
    def runtime_value(self, name: str, shape, dtype: str, layout: str = "onnx", qinfo: QInfo = None) -> Value:
        """A new run-time value whose tensor in `layout` is created now (shape given in that layout)."""
        v = Value(
            name=name,
            shape=tuple(int(d) for d in (shape if layout == "onnx" else permute(shape, TO_NCHW))),
            dtype=dtype,
            qinfo=qinfo,
        )
        suffix = "" if layout == "onnx" else ":nhwc"
        v.tensors[layout] = self.new_tensor(name + suffix, shape, dtype, self.quant_params(qinfo))
        return v

    def like(self, v: Value, name: str, shape, layout: str = "onnx") -> Value:
        """A run-time value with v's element type and quantization (data-movement results)."""
        return self.runtime_value(name, shape, v.dtype, layout, v.qinfo if not v.is_dq_view else None)

    def get(self, v: Value, layout: str = "onnx") -> Tensor:
        if layout in v.tensors:
            return v.tensors[layout]
        if v.is_const:
            data = v.const
            if layout == "nhwc":
                data = np.transpose(data, TO_NHWC)
            t = self.const_tensor(v.name + ("" if layout == "onnx" else ":nhwc"), data)
        elif v.is_dq_view:
            src = self.get(v.qsrc, layout)
            t = self.new_tensor(v.name + ("" if layout == "onnx" else ":nhwc"), src.shape, "float32")
            self.add_op("DEQUANTIZE", [src], [t])
        else:
            if v.rank != 4:
                raise UnsupportedError(
                    f"Value '{v.name}' of shape {list(v.shape)} is needed in NHWC layout; only 4-D tensors have one."
                )
            src_layout = "onnx" if layout == "nhwc" else "nhwc"
            src = v.tensors[src_layout]
            perm = TO_NHWC if layout == "nhwc" else TO_NCHW
            shape = permute(src.shape, perm)
            t = self.new_tensor(v.name + ("" if layout == "onnx" else ":nhwc"), shape, src.dtype, src.quant)
            if only_unit_dims_move(src.shape, perm):
                self.add_op("RESHAPE", [src], [t])
            else:
                self.add_op("TRANSPOSE", [src, self.int32_const(f"{v.name}:perm", perm)], [t])
        v.tensors[layout] = t
        return t

    def preferred_layout(self, v: Value) -> str:
        """Where a layout-agnostic (element-wise) consumer should read v: NHWC if that twin already exists."""
        if v.is_dq_view and not v.is_const:
            return self.preferred_layout(v.qsrc)
        return "nhwc" if "nhwc" in v.tensors else "onnx"
