"""Conformance cases: DETECTION_POSTPROCESS (the CUSTOM operator TFLite_Detection_PostProcess of SSD detectors),
float32 as TFLite Micro takes it, regular and fast NMS, with and without a background class, an int8 detector whose
outputs are dequantized first, and its int8 operands refused as TFLite Micro rejects them. The models are those of
tests/compiler/test_detection_postprocess.py, which also compares the outputs bit for bit; here the fast-NMS cases
keep enough boxes to fill every output slot (TFLite Micro leaves unfilled fast-NMS slots as they were)."""

from case import Case
from test_detection_postprocess import detection_model

OP = "DETECTION_POSTPROCESS"


def cases():
    return [
        Case(OP, "float32", "fast_background", detection_model(n=64, score=-0.5, iou=0.6)),
        Case(
            OP,
            "float32",
            "fast_no_background_300",
            detection_model(n=300, classes=4, background=False, score=-2.0, iou=0.3, max_det=20),
        ),
        Case(OP, "float32", "regular_background", detection_model(regular=True), qemu_sample=True),
        Case(
            OP,
            "float32",
            "regular_no_background",
            detection_model(regular=True, background=False, classes=7, per_class=2, max_det=5),
        ),
        Case(
            OP,
            "float32",
            "regular_many_per_class_iou1",
            detection_model(regular=True, per_class=30, max_det=6, iou=1.0, n=40),
        ),
        Case(OP, "float32", "regular_none_above_threshold", detection_model(regular=True, score=1.5)),
        Case(
            OP,
            "float32",
            "int8_detector_dequantized",
            detection_model(int8_inputs=((0.01, 127), (1.0 / 256, -128)), regular=True, score=0.5),
        ),
        # TFLite Micro's kernel fails on int8 operands at run time; the compiler refuses them, naming DEQUANTIZE.
        Case(
            OP,
            "int8",
            "int8_operands",
            detection_model(int8_inputs=((0.01, 0), (0.01, 0)), score=0.5, direct_int8=True),
            refused="DEQUANTIZE",
        ),
    ]
