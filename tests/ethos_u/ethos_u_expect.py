"""What the Ethos-U driver glue must receive for a Vela-compiled model, read from the .tflite with the flatbuffer
schema (not with the compiler's reader), written as expect.h for the test double (ethosu_double.c): the command
stream and the weights byte for byte, the custom options bytes, the sizes of the base-address tensors (inputs 1..
then outputs, as TFLite Micro's ethos-u kernel passes them) and Vela's OfflineMemoryAllocation offsets.

    python ethos_u_expect.py MODEL.tflite expect.h
"""

import sys

import numpy as np


def expectations(path):
    """What the driver must receive, straight from the flatbuffer."""
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    data = open(path, "rb").read()
    m = fb.Model.GetRootAsModel(data, 0)
    sg = m.Subgraphs(0)
    op = sg.Operators(0)
    code = m.OperatorCodes(op.OpcodeIndex())
    assert code.CustomCode() == b"ethos-u" and sg.OperatorsLength() == 1
    ins = list(op.InputsAsNumpy())
    outs = list(op.OutputsAsNumpy())

    def nbytes(i):
        t = sg.Tensors(i)
        size = {fb.TensorType.UINT8: 1, fb.TensorType.INT8: 1}[t.Type()]
        return int(np.prod(t.ShapeAsNumpy())) * size

    def buffer(i):
        b = m.Buffers(sg.Tensors(i).Buffer())
        if b.Offset() > 1:  # large models keep buffers after the flatbuffer
            return data[b.Offset() : b.Offset() + b.Size()]
        return b.DataAsNumpy().tobytes()

    offsets = None
    for k in range(m.MetadataLength()):
        md = m.Metadata(k)
        if md.Name() == b"OfflineMemoryAllocation":
            words = np.frombuffer(m.Buffers(md.Buffer()).DataAsNumpy().tobytes(), "<i4")
            offsets = [int(w) for w in words[3:]]
    assert offsets is not None, "Vela writes an OfflineMemoryAllocation"
    return {
        "cms": buffer(ins[0]),
        "flash": buffer(ins[1]),
        "options": op.CustomOptionsAsNumpy().tobytes(),
        "bases": ins[1:] + outs,
        "sizes": [nbytes(i) for i in ins[1:] + outs],
        "offsets": [offsets[i] for i in ins[1:] + outs],
        "in_size": nbytes(ins[4]),
        "out_size": nbytes(outs[0]),
    }


def _array(name, raw):
    body = ",".join(str(b) for b in raw)
    return f"static const uint8_t {name}[{len(raw)}] = {{{body}}};"


def expect_header(e):
    return "\n".join(
        [
            "#include <stdint.h>",
            _array("expect_cms", e["cms"]),
            _array("expect_flash", e["flash"]),
            _array("expect_options", e["options"]),
            f"#define EXPECT_NUM_BASES {len(e['bases'])}",
            "static const int32_t expect_sizes[] = {" + ", ".join(map(str, e["sizes"])) + "};",
            # -1: not in the arena (the weights, in flash).
            "static const int32_t expect_offsets[] = {" + ", ".join(map(str, e["offsets"])) + "};",
            f"#define EXPECT_IN_SIZE {e['in_size']}",
            f"#define EXPECT_OUT_SIZE {e['out_size']}",
            "",
        ]
    )


def main(argv) -> int:
    with open(argv[2], "w") as f:
        f.write(expect_header(expectations(argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
