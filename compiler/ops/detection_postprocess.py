"""CUSTOM:TFLite_Detection_PostProcess (DETECTION_POSTPROCESS, the last operator of SSD detectors), float32 as TFLite
Micro runs it: box encodings and class predictions in float32 (int8 detectors dequantize them first, with a
DEQUANTIZE the converter emits), constant or run-time anchors in float32, batch 1.

Its FlexBuffer options (max_detections, max_classes_per_detection, detections_per_class, use_regular_nms,
nms_score_threshold, nms_iou_threshold, num_classes, y/x/h/w_scale) become compile-time constants; the conditions
TFLite Micro checks while running with constant options (IoU threshold in (0, 1], positive detections per class)
are checked here. The kernel's workspace (decoded boxes, kept scores, sort and NMS buffers) is one scratch block
the planner places like any other (aot/kernels/detection_postprocess.h gives its layout)."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..frontend.tflite_custom_options import custom_option
from ._base import OpLowering, register

_DEFAULT_DETECTIONS_PER_CLASS = 100  # TFLite Micro's value when the option is absent
_FLOAT_OPTIONS = ("y_scale", "x_scale", "h_scale", "w_scale", "nms_score_threshold", "nms_iou_threshold")


def _optional(op, name, kinds, default):
    opts = op.options.get("custom") or {}
    return default if opts.get(name) is None else custom_option(op, name, kinds)


@register
class DetectionPostprocess(OpLowering):
    builtins = ("CUSTOM:TFLite_Detection_PostProcess",)
    dtypes = ("float32",)
    header = "aot/kernels/detection_postprocess.h"
    num_outputs = (4, 4)

    def _options(self, op) -> dict:
        if op.options.get("custom") is None:
            custom_option(op, "max_detections")  # raises: the options are no FlexBuffer map
        o = {k: custom_option(op, k) for k in ("max_detections", "max_classes_per_detection", "num_classes")}
        o["detections_per_class"] = _optional(op, "detections_per_class", (int,), _DEFAULT_DETECTIONS_PER_CLASS)
        o["use_regular_nms"] = bool(_optional(op, "use_regular_nms", (bool, int), False))
        for k in _FLOAT_OPTIONS:
            # TFLite Micro reads them as float: the value the kernel compares with is the float32 one.
            o[k] = float(np.float32(custom_option(op, k, (float, int))))
        return o

    def _refuse(self, op, what):
        raise UnsupportedError(
            f"Operator {op.index} (DETECTION_POSTPROCESS, custom code TFLite_Detection_PostProcess): {what}"
        )

    def check(self, op):
        if len(op.inputs) != 3 or any(t is None for t in op.inputs) or len(op.outputs) != 4:
            raise CompileError(
                f"Operator {op.index} (DETECTION_POSTPROCESS) has {len(op.inputs)} inputs and "
                f"{len(op.outputs)} outputs; it takes 3 inputs (box encodings, class predictions, "
                "anchors) and gives 4 outputs (boxes, classes, scores, number of detections)."
            )
        box, cls, anchors = op.inputs
        for t, what in ((box, "box encodings"), (cls, "class predictions"), (anchors, "anchors")):
            if t.dtype != "float32":
                self._refuse(
                    op,
                    f"{what} '{t.name}' are {t.dtype}; TFLite Micro's kernel takes float32 box "
                    "encodings, class predictions and anchors (an int8 detector dequantizes its box "
                    "and class outputs with DEQUANTIZE before this operator, as the TFLite converter "
                    "emits it).",
                )
        for t in op.outputs:
            if t.dtype != "float32":
                self._refuse(op, f"output '{t.name}' is {t.dtype}; all four outputs are float32.")
        o = self._options(op)
        if len(box.shape) != 3 or len(cls.shape) != 3 or len(anchors.shape) != 2:
            self._refuse(
                op,
                f"box encodings {list(box.shape)}, class predictions {list(cls.shape)} and anchors "
                f"{list(anchors.shape)} must have ranks 3, 3 and 2.",
            )
        n = int(box.shape[1])
        if box.shape[0] != 1 or cls.shape[0] != 1:
            self._refuse(op, f"batch {box.shape[0]}; TFLite Micro's kernel runs batch 1 only.")
        if box.shape[2] < 4 or list(anchors.shape) != [n, 4] or cls.shape[1] != n:
            self._refuse(
                op,
                f"box encodings {list(box.shape)}, class predictions {list(cls.shape)} and anchors "
                f"{list(anchors.shape)}: expected [1, N, >=4], [1, N, classes] and [N, 4] with the "
                "same number of boxes N.",
            )
        nc, stride = o["num_classes"], int(cls.shape[2])
        if nc < 1 or stride - nc not in (0, 1):
            self._refuse(
                op,
                f"num_classes is {nc} and the class predictions have {stride} columns; there must be "
                "num_classes columns, or one more for a leading background class.",
            )
        md = o["max_detections"]
        if md < 1:
            self._refuse(op, f"max_detections is {md}; it must be positive.")
        if not 0.0 < o["nms_iou_threshold"] <= 1.0:
            self._refuse(
                op, f"nms_iou_threshold is {o['nms_iou_threshold']}; TFLite Micro requires 0 < threshold <= 1."
            )
        if not all(np.isfinite(o[k]) for k in _FLOAT_OPTIONS):
            self._refuse(op, "an option among " + ", ".join(_FLOAT_OPTIONS) + " is not a finite float32.")
        if o["use_regular_nms"]:
            if o["detections_per_class"] < 1:
                self._refuse(
                    op, f"detections_per_class is {o['detections_per_class']}; regular NMS needs a positive number."
                )
        elif min(o["max_classes_per_detection"], nc) != 1:
            self._refuse(
                op,
                f"max_classes_per_detection is {o['max_classes_per_detection']} with fast NMS "
                "(use_regular_nms false); only 1 class per detection is supported (TFLite Micro's kernel "
                "writes the further classes of a detection past the end of its outputs).",
            )
        want = (4 * md, md, md, 1)
        got = tuple(t.num_elements for t in op.outputs)
        if got != want:
            self._refuse(
                op,
                f"outputs of {list(got)} elements for max_detections {md}; expected boxes "
                f"[1, {md}, 4], classes [1, {md}], scores [1, {md}] and num_detections [1].",
            )

    @staticmethod
    def _slots(op, o) -> int:
        n = int(op.inputs[0].shape[1])
        return o["max_detections"] + min(n, o["detections_per_class"]) if o["use_regular_nms"] else 0

    def scratch_bytes(self, op):
        n = int(op.inputs[0].shape[1])
        return 4 * (10 * n + 5 * self._slots(op, self._options(op))) + n

    def prepare(self, op):
        o = self._options(op)
        box, cls, _ = op.inputs
        op.kernel = "aot_detection_postprocess_f32"
        op.params = dict(
            ints=(
                int(box.shape[1]),
                int(box.shape[2]),
                o["num_classes"],
                int(cls.shape[2]),
                o["max_detections"],
                o["detections_per_class"],
                int(o["use_regular_nms"]),
                self._slots(op, o),
            ),
            floats=np.array([o[k] for k in _FLOAT_OPTIONS], np.float32),
        )

    def emit(self, op, ctx):
        p = op.params
        params = ctx.param_struct(
            f"op{op.index}_dp",
            "aot_detection_postprocess_params",
            (
                "num_boxes",
                "box_stride",
                "num_classes",
                "class_stride",
                "max_detections",
                "detections_per_class",
                "regular_nms",
                "regular_slots",
            ),
            p["ints"],
        )
        fparams = ctx.param(f"op{op.index}_dp_f", p["floats"], "float")
        return ctx.checked_call(
            op.kernel,
            [params, fparams]
            + [ctx.ptr(t) for t in op.inputs]
            + [ctx.ptr(t) for t in op.outputs]
            + [ctx.scratch(op, "void")],
        )
