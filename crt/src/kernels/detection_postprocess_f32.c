/* DETECTION_POSTPROCESS float32 (aot/kernels/detection_postprocess.h). */
#include "aot_sched.h"

#include <math.h>
#include <string.h>

#include "aot/errors.h"
#include "aot/kernels/detection_postprocess.h"

struct dp_work {
    float* decoded;        /* num_boxes x (ymin, xmin, ymax, xmax) */
    float* keep_scores;    /* scores at or above the threshold, in box order */
    float* class_scores;   /* one score per box: of the class in hand (regular) or the best class (fast) */
    int32_t* keep_indices; /* their boxes; also the merge buffer while keep_scores is sorted */
    int32_t* sorted;       /* positions in keep_scores, best first */
    int32_t* selected;     /* boxes NMS kept, best first */
    int32_t* best_class;   /* fast NMS: each box's best class */
    int32_t* slot_index;   /* regular NMS: box * class_stride + class of the detections so far, then new ones */
    float* slot_score;
    int32_t* order;
    float* order_score;
    int32_t* merge;
    uint8_t* active;
};

/* The scratch regions, one element type each, back to back: every region is 4-byte elements but the last (bytes),
 * so each starts 4-byte aligned. Carved in bytes and converted by way of void*: no region is read as another type. */
static void* region(void* scratch, int32_t words)
{
    return (uint8_t*)scratch + 4 * (size_t)words;
}

static void carve(void* scratch, int32_t n, int32_t k, struct dp_work* w)
{
    w->decoded = region(scratch, 0);
    w->keep_scores = region(scratch, 4 * n);
    w->class_scores = region(scratch, 5 * n);
    w->keep_indices = region(scratch, 6 * n);
    w->sorted = region(scratch, 7 * n);
    w->selected = region(scratch, 8 * n);
    w->best_class = region(scratch, 9 * n);
    w->slot_index = region(scratch, 10 * n);
    w->slot_score = region(scratch, 10 * n + k);
    w->order = region(scratch, 10 * n + 2 * k);
    w->order_score = region(scratch, 10 * n + 3 * k);
    w->merge = region(scratch, 10 * n + 4 * k);
    w->active = region(scratch, 10 * n + 5 * k);
}

/* idx = 0..n-1 ordered by decreasing value, equal values keeping the lower position first: a stable merge sort,
 * which orders exactly as TFLite Micro's merge sort and its partial sort with the index tie-break do. */
static void sort_decreasing(const float* v, int32_t* idx, int32_t* tmp, int32_t n)
{
    int32_t* src = idx;
    int32_t* dst = tmp;
    int32_t width, i;
    for (i = 0; i < n; i++) {
        idx[i] = i;
    }
    for (width = 1; width < n; width *= 2) {
        int32_t lo;
        int32_t* t;
        for (lo = 0; lo < n; lo += 2 * width) {
            int32_t mid = (n - lo > width) ? lo + width : n;
            int32_t hi = (n - mid > width) ? mid + width : n;
            int32_t l = lo, r = mid, k = lo;
            while (k < hi) {
                if (l < mid && (r >= hi || !(v[src[r]] > v[src[l]]))) {
                    dst[k++] = src[l++];
                } else {
                    dst[k++] = src[r++];
                }
            }
        }
        t = src;
        src = dst;
        dst = t;
    }
    if (src != idx) {
        memcpy(idx, src, (size_t)n * sizeof(int32_t));
    }
}

static float max_f(float a, float b)
{
    return (a < b) ? b : a;
}

static float min_f(float a, float b)
{
    return (b < a) ? b : a;
}

static float iou(const float* decoded, int32_t i, int32_t j)
{
    const float* a = decoded + 4 * i;
    const float* b = decoded + 4 * j;
    const float area_a = (a[2] - a[0]) * (a[3] - a[1]);
    const float area_b = (b[2] - b[0]) * (b[3] - b[1]);
    float inter;
    if (area_a <= 0.0f || area_b <= 0.0f) {
        return 0.0f;
    }
    inter = max_f(min_f(a[2], b[2]) - max_f(a[0], b[0]), 0.0f) * max_f(min_f(a[3], b[3]) - max_f(a[1], b[1]), 0.0f);
    return inter / (area_a + area_b - inter);
}

/* Greedy NMS over one score per box: boxes at or above the score threshold, best first, each dropping the later
 * ones overlapping it by more than the IoU threshold, at most max_out of them. Returns how many were selected. */
static int32_t nms_one(const struct aot_detection_postprocess_params* p, const float* fparams, const float* scores,
                       int32_t max_out, struct dp_work* w)
{
    const float score_threshold = fparams[4];
    const float iou_threshold = fparams[5];
    int32_t kept = 0, n_selected = 0, n_active, out_size, i, j;
    for (i = 0; i < p->num_boxes; i++) {
        if (scores[i] >= score_threshold) {
            w->keep_scores[kept] = scores[i];
            w->keep_indices[kept] = i;
            kept++;
        }
    }
    sort_decreasing(w->keep_scores, w->sorted, w->keep_indices, kept);
    j = 0;
    for (i = 0; i < p->num_boxes; i++) {
        if (scores[i] >= score_threshold) {
            w->keep_indices[j++] = i;
        }
    }
    out_size = kept < max_out ? kept : max_out;
    n_active = kept;
    memset(w->active, 1, (size_t)kept);
    for (i = 0; i < kept; i++) {
        int32_t box;
        if (n_active == 0 || n_selected >= out_size) {
            break;
        }
        if (!w->active[i]) {
            continue;
        }
        box = w->keep_indices[w->sorted[i]];
        w->selected[n_selected++] = box;
        w->active[i] = 0;
        n_active--;
        for (j = i + 1; j < kept; j++) {
            if (w->active[j] && iou(w->decoded, box, w->keep_indices[w->sorted[j]]) > iou_threshold) {
                w->active[j] = 0;
                n_active--;
            }
        }
    }
    return n_selected;
}

static void put_detection(const struct dp_work* w, int32_t slot, int32_t box, int32_t cls, float score, float* boxes,
                          float* classes, float* scores)
{
    memcpy(boxes + 4 * slot, w->decoded + 4 * box, 4 * sizeof(float));
    classes[slot] = (float)cls;
    scores[slot] = score;
}

static int32_t regular_nms(const struct aot_detection_postprocess_params* p, const float* fparams,
                           const float* predictions, struct dp_work* w, float* boxes, float* classes, float* scores)
{
    const int32_t label_offset = p->class_stride - p->num_classes;
    int32_t n_sorted = 0, col, row, i;
    for (col = 0; col < p->num_classes; col++) {
        int32_t n_slots = n_sorted, n_keep, n_selected;
        for (row = 0; row < p->num_boxes; row++) {
            w->class_scores[row] = predictions[row * p->class_stride + col + label_offset];
        }
        n_selected = nms_one(p, fparams, w->class_scores, p->detections_per_class, w);
        for (i = 0; i < n_selected; i++) {
            w->slot_index[n_slots] = w->selected[i] * p->class_stride + col + label_offset;
            w->slot_score[n_slots] = w->class_scores[w->selected[i]];
            n_slots++;
        }
        n_keep = n_slots < p->max_detections ? n_slots : p->max_detections;
        sort_decreasing(w->slot_score, w->order, w->merge, n_slots);
        for (row = 0; row < n_keep; row++) {
            const int32_t t = w->order[row];
            w->order[row] = w->slot_index[t];
            w->order_score[row] = w->slot_score[t];
        }
        for (row = 0; row < n_keep; row++) {
            w->slot_index[row] = w->order[row];
            w->slot_score[row] = w->order_score[row];
        }
        n_sorted = n_keep;
    }
    for (i = 0; i < n_sorted; i++) {
        const int32_t box = w->slot_index[i] / p->class_stride;
        put_detection(w, i, box, w->slot_index[i] - box * p->class_stride - label_offset, w->slot_score[i], boxes,
                      classes, scores);
    }
    return n_sorted;
}

static int32_t fast_nms(const struct aot_detection_postprocess_params* p, const float* fparams,
                        const float* predictions, struct dp_work* w, float* boxes, float* classes, float* scores)
{
    const int32_t label_offset = p->class_stride - p->num_classes;
    int32_t row, c, i, n_selected;
    for (row = 0; row < p->num_boxes; row++) {
        const float* s = predictions + row * p->class_stride + label_offset;
        int32_t best = 0;
        for (c = 1; c < p->num_classes; c++) {
            if (s[c] > s[best]) {
                best = c;
            }
        }
        w->best_class[row] = best;
        w->class_scores[row] = s[best];
    }
    n_selected = nms_one(p, fparams, w->class_scores, p->max_detections, w);
    for (i = 0; i < n_selected; i++) {
        const int32_t box = w->selected[i];
        put_detection(w, i, box, w->best_class[box], w->class_scores[box], boxes, classes, scores);
    }
    return n_selected;
}

int32_t aot_detection_postprocess_f32(const struct aot_detection_postprocess_params* p, const float* fparams,
                                      const float* box_encodings, const float* class_predictions, const float* anchors,
                                      float* boxes, float* classes, float* scores, float* num_detections, void* scratch)
{
    struct dp_work w;
    int32_t i, n;
    carve(scratch, p->num_boxes, p->regular_slots, &w);
    for (i = 0; i < p->num_boxes; i++) {
        const float* e = box_encodings + i * p->box_stride;
        const float* a = anchors + 4 * i;
        float* d = w.decoded + 4 * i;
        /* In double, as TFLite Micro decodes, then rounded once to float. */
        const float yc = (float)((double)e[0] / (double)fparams[0] * (double)a[2] + (double)a[0]);
        const float xc = (float)((double)e[1] / (double)fparams[1] * (double)a[3] + (double)a[1]);
        const float half_h = (float)(0.5 * exp((double)e[2] / (double)fparams[2]) * (double)a[2]);
        const float half_w = (float)(0.5 * exp((double)e[3] / (double)fparams[3]) * (double)a[3]);
        d[0] = yc - half_h;
        d[1] = xc - half_w;
        d[2] = yc + half_h;
        d[3] = xc + half_w;
        if (d[0] >= d[2] || d[1] >= d[3]) {
            return AOT_ERR_KERNEL;
        }
    }
    memset(boxes, 0, (size_t)p->max_detections * 4 * sizeof(float));
    memset(classes, 0, (size_t)p->max_detections * sizeof(float));
    memset(scores, 0, (size_t)p->max_detections * sizeof(float));
    n = p->regular_nms ? regular_nms(p, fparams, class_predictions, &w, boxes, classes, scores)
                       : fast_nms(p, fparams, class_predictions, &w, boxes, classes, scores);
    num_detections[0] = (float)n;
    return AOT_OK;
}
