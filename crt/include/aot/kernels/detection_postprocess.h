/* DETECTION_POSTPROCESS (the CUSTOM operator "TFLite_Detection_PostProcess" of SSD detectors), float32, batch 1:
 * decodes center-size box encodings against constant anchors, then non-maximum suppression, either per class
 * ("regular", use_regular_nms) or once over each anchor's best class ("fast", one class per detection), with
 * TFLite Micro's arithmetic (box decoding in double, IoU in float) and its orderings (ties keep the lower index).
 *
 * Outputs: boxes [max_detections][4] (ymin, xmin, ymax, xmax), classes and scores [max_detections] (the class is
 * the index among num_classes, as a float), num_detections [1]. Slots past the detections are zero. A decoded box
 * with ymin >= ymax or xmin >= xmax returns AOT_ERR_KERNEL, as TFLite Micro's invocation fails.
 *
 * `scratch` holds AOT_DETECTION_POSTPROCESS_SCRATCH_BYTES(num_boxes, regular_slots) bytes, 4-byte aligned, where
 * regular_slots is max_detections + min(num_boxes, detections_per_class) for regular NMS and 0 for fast NMS.  */
#ifndef AOT_KERNELS_DETECTION_POSTPROCESS_H_
#define AOT_KERNELS_DETECTION_POSTPROCESS_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AOT_DETECTION_POSTPROCESS_SCRATCH_BYTES(num_boxes, regular_slots)                                              \
    (4 * (10 * (num_boxes) + 5 * (regular_slots)) + (num_boxes))

struct aot_detection_postprocess_params {
    int32_t num_boxes;
    int32_t box_stride; /* values per box encoding (>= 4; the first four are y, x, h, w) */
    int32_t num_classes;
    int32_t class_stride; /* num_classes, plus one when the predictions lead with a background class */
    int32_t max_detections;
    int32_t detections_per_class; /* regular NMS only */
    int32_t regular_nms;
    int32_t regular_slots;
};

/* fparams: y_scale, x_scale, h_scale, w_scale, nms_score_threshold, nms_iou_threshold. */
int32_t aot_detection_postprocess_f32(const struct aot_detection_postprocess_params* p, const float* fparams,
                                      const float* box_encodings, const float* class_predictions, const float* anchors,
                                      float* boxes, float* classes, float* scores, float* num_detections,
                                      void* scratch);

#ifdef __cplusplus
}
#endif

#endif
