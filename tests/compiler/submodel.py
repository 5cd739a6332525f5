"""Cut a real .tflite model down to a range of its operators, for tests (written to a temporary file only).

`submodel(path, first, last, inputs, outputs)` keeps operators first..last with their tensors and buffers, and makes
the given tensor indices the model's inputs and outputs: e.g. the SVDF/FULLY_CONNECTED chain of a keyword model
without its int16 front and back ends, or an LSTM alone so its whole output sequence (not just a saturated
classifier score) is compared with TFLite Micro. The real models themselves are never copied into the repository.
"""

from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb
import flatbuffers


def submodel(path: str, first: int, last: int, inputs: list, outputs: list) -> bytes:
    with open(path, "rb") as f:
        model = fb.ModelT.InitFromPackedBuf(bytearray(f.read()), 0)
    sg = model.subgraphs[0]
    sg.operators = sg.operators[first : last + 1]
    sg.inputs = list(inputs)
    sg.outputs = list(outputs)
    b = flatbuffers.Builder(1024)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


class SavedModel:
    """A model file already written, standing in for a tflite_builder.ModelBuilder (its save(path) copies it)."""

    def __init__(self, path):
        self.path = str(path)

    def save(self, dst) -> str:
        with open(self.path, "rb") as f, open(dst, "wb") as g:
            g.write(f.read())
        return str(dst)


def save_submodel(path: str, out_path, first: int, last: int, inputs: list, outputs: list) -> str:
    with open(out_path, "wb") as f:
        f.write(submodel(path, first, last, inputs, outputs))
    return str(out_path)
