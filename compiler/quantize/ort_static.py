"""onnxruntime's static quantizer (`onnxruntime.quantization.quantize_static`, QDQ format, MinMax calibration) run
on a float ONNX model: the maintained implementation, not ours. Its recommended pre-processing (shape inference and
the graph optimizations that fold BatchNormalization into convolutions) runs first.

The output is reproducible: the calibration is a min/max over the samples in file order with one thread, and the
quantizer's scratch files live in a private directory that no output names."""

import os
import tempfile

import onnx

from ..errors import CompileError
from .agreement import quiet_onnxruntime

# Activation types our int8 kernels run; weights are always symmetric int8 (zero point 0), as the kernels need.
ACTIVATIONS = ("int8", "uint8")


def _refuse_non_float(model, label: str) -> None:
    quant_ops = sorted(
        {
            n.op_type
            for n in model.graph.node
            if n.op_type
            in ("QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul", "DynamicQuantizeLinear")
        }
    )
    if quant_ops:
        raise CompileError(
            f"{label} is quantized already (it has {', '.join(quant_ops)} nodes); `aotc quantize` takes a float32 "
            "model. Compile the quantized model directly, or quantize its float original."
        )
    inits = {i.name for i in model.graph.initializer}
    for vi in model.graph.input:
        if vi.name not in inits and vi.type.tensor_type.elem_type != onnx.TensorProto.FLOAT:
            raise CompileError(
                f"Input '{vi.name}' of {label} has element type "
                f"{onnx.TensorProto.DataType.Name(vi.type.tensor_type.elem_type)}; the quantizer calibrates float32 "
                "inputs only."
            )


def _self_contained(model, model_path: str, label: str, tmp: str) -> str:
    """The path of the model with every weight inside the file: model_path itself, or, when weights live in a side
    file (torch.onnx.export's default, `model.onnx.data`), a copy in `tmp` with them read in. onnxruntime's
    pre-processing copies the model into a directory of its own, where a relative side file is not found."""
    if not any(t.data_location == onnx.TensorProto.EXTERNAL for t in model.graph.initializer):
        return model_path
    try:
        full = onnx.load(model_path)
    except Exception as e:  # noqa: BLE001 - the loader names the missing or short file
        raise CompileError(
            f"{label} keeps weights in a side file that could not be read ({type(e).__name__}: {e}); keep the data "
            "file the model names (e.g. model.onnx.data) beside the model."
        ) from None
    if full.ByteSize() >= 2**31:
        raise CompileError(
            f"{label} with its side-file weights is {full.ByteSize()} bytes, over protobuf's 2 GB limit of one "
            "file; `aotc quantize` reads models that fit a microcontroller's flash."
        )
    path = os.path.join(tmp, "float.onnx")
    onnx.save(full, path)
    return path


class _Reader:
    """The calibration samples, in order, as onnxruntime's CalibrationDataReader protocol asks."""

    def __init__(self, samples):
        self._it = iter(samples)

    def get_next(self):
        return next(self._it, None)

    def __iter__(self):
        return self

    def __next__(self):
        item = self.get_next()
        if item is None:
            raise StopIteration
        return item


def quantize_qdq(model_path: str, samples: list, out_path: str, per_channel: bool, activations: str) -> None:
    """Writes the QDQ-quantized model to out_path."""
    quiet_onnxruntime()
    try:
        from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except Exception as e:
        raise CompileError(
            f"onnxruntime's quantizer is not available ({e}); `aotc quantize` runs onnxruntime.quantization. Install "
            "the pinned requirements (onnxruntime is one of them)."
        ) from None
    if activations not in ACTIVATIONS:
        raise CompileError(
            f"Activation type '{activations}' is not supported: the int8 kernels run {' or '.join(ACTIVATIONS)} "
            "activations (weights are int8)."
        )
    label = os.path.basename(model_path)
    model = onnx.load(model_path, load_external_data=False)
    _refuse_non_float(model, label)

    class Reader(_Reader, CalibrationDataReader):
        pass

    act = QuantType.QInt8 if activations == "int8" else QuantType.QUInt8
    with tempfile.TemporaryDirectory(prefix="aotc_quantize_") as tmp:
        source = _self_contained(model, model_path, label, tmp)
        pre = os.path.join(tmp, "pre.onnx")
        try:
            # The optimizer folds BatchNormalization into the preceding Conv, as onnxruntime recommends.
            quant_pre_process(source, pre, skip_symbolic_shape=True)
        except Exception as e:  # noqa: BLE001 - the quantizer's own message, as one paragraph
            raise CompileError(
                f"onnxruntime's quantization pre-processing failed on {label}: {type(e).__name__}: {e}"
            ) from None
        raw = os.path.join(tmp, "quantized.onnx")
        cwd = os.getcwd()
        try:
            # The calibrator writes its augmented model beside the working directory on some versions.
            os.chdir(tmp)
            quantize_static(
                pre,
                raw,
                Reader(samples),
                quant_format=QuantFormat.QDQ,
                per_channel=per_channel,
                activation_type=act,
                weight_type=QuantType.QInt8,
                calibration_providers=["CPUExecutionProvider"],
                extra_options={"WeightSymmetric": True},
            )
        except CompileError:
            raise
        except Exception as e:  # noqa: BLE001
            raise CompileError(f"onnxruntime's quantize_static failed on {label}: {type(e).__name__}: {e}") from None
        finally:
            os.chdir(cwd)
        quantized = onnx.load(raw)
    # Save without external data: the compiler reads one self-contained file.
    onnx.save(quantized, out_path)
