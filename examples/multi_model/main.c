/* Multi-model firmware demo: five model libraries (KWS twice, ResNet-8, anomaly detection, micro_speech) in one
 * image with one CRT and one shared workspace. Each model runs on its build-time reference input; its output must
 * equal TFLite Micro's bit for bit. Prints a table and exits 0 iff every model matched. */
#include <stdint.h>
#include <stdio.h>

#include "ad.h"
#include "ad_ref.h"
#include "demo_workspace.h"
#include "ic.h"
#include "ic_ref.h"
#include "kws.h"
#include "kws_b.h"
#include "kws_b_ref.h"
#include "kws_ref.h"
#include "speech.h"
#include "speech_ref.h"

/* demo_fw is built for mps2-an386 only (BUILD.bazel); demo_host runs the same program on the build machine. */
#if defined(__arm__)
#define DEMO_PLATFORM "mps2-an386 (Cortex-M4F)"
#else
#define DEMO_PLATFORM "the host"
#endif

struct demo_result {
    const char* network;
    const char* prefix;
    int32_t rc;
    int32_t top;       /* index of the largest output */
    int32_t top_q;     /* its quantized value */
    int32_t mismatches;
    uint32_t workspace_bytes;
    uint32_t weight_bytes;
};

static int8_t kws_out[KWS_IDENTITY_SIZE];
static int8_t kws_b_out[KWS_B_IDENTITY_SIZE];
static int8_t ic_out[IC_IDENTITY_INT8_SIZE];
static int8_t ad_out[AD_IDENTITY_SIZE];
static int8_t speech_out[SPEECH_LABELS_SOFTMAX_SIZE];

static void compare(struct demo_result* r, const int8_t* got, const int8_t* want, int32_t n)
{
    int32_t i;
    r->top = 0;
    r->mismatches = 0;
    for (i = 0; i < n; i++) {
        if (got[i] > got[r->top]) {
            r->top = i;
        }
        if (got[i] != want[i]) {
            r->mismatches++;
        }
    }
    r->top_q = got[r->top];
}

static void print_row(const struct demo_result* r)
{
    printf("| %-22s | %-6s | %5d (q=%4d) | %-15s | %9u | %9u |\n", r->network, r->prefix, (int)r->top,
           (int)r->top_q, r->rc != 0 ? "run failed" : (r->mismatches == 0 ? "bit-exact" : "MISMATCH"),
           (unsigned)r->workspace_bytes, (unsigned)r->weight_bytes);
}

int main(void)
{
    struct demo_result results[5];
    int32_t i;
    int32_t failed = 0;
    int32_t kws_twins_differ = 0;

    {
        const struct kws_inputs in = {kws_ref_input_1};
        struct kws_outputs out = {kws_out};
        struct demo_result r = {"keyword spotting", "kws", 0, 0, 0, 0, KWS_WORKSPACE_SIZE, KWS_WEIGHT_BYTES};
        r.rc = kws_run(&in, &out, DEMO_WORKSPACE_KWS);
        compare(&r, kws_out, kws_ref_identity_want, KWS_IDENTITY_SIZE);
        results[0] = r;
    }
    {
        const struct kws_b_inputs in = {kws_b_ref_input_1};
        struct kws_b_outputs out = {kws_b_out};
        struct demo_result r = {"keyword spotting (2nd)", "kws_b", 0, 0, 0, 0, KWS_B_WORKSPACE_SIZE,
                                KWS_B_WEIGHT_BYTES};
        r.rc = kws_b_run(&in, &out, DEMO_WORKSPACE_KWS_B);
        compare(&r, kws_b_out, kws_b_ref_identity_want, KWS_B_IDENTITY_SIZE);
        results[1] = r;
    }
    {
        const struct ic_inputs in = {ic_ref_input_1_int8};
        struct ic_outputs out = {ic_out};
        struct demo_result r = {"image class. ResNet-8", "ic", 0, 0, 0, 0, IC_WORKSPACE_SIZE, IC_WEIGHT_BYTES};
        r.rc = ic_run(&in, &out, DEMO_WORKSPACE_IC);
        compare(&r, ic_out, ic_ref_identity_int8_want, IC_IDENTITY_INT8_SIZE);
        results[2] = r;
    }
    {
        const struct ad_inputs in = {ad_ref_input_1};
        struct ad_outputs out = {ad_out};
        struct demo_result r = {"anomaly detection", "ad", 0, 0, 0, 0, AD_WORKSPACE_SIZE, AD_WEIGHT_BYTES};
        r.rc = ad_run(&in, &out, DEMO_WORKSPACE_AD);
        compare(&r, ad_out, ad_ref_identity_want, AD_IDENTITY_SIZE);
        results[3] = r;
    }
    {
        const struct speech_inputs in = {speech_ref_reshape_1};
        struct speech_outputs out = {speech_out};
        struct demo_result r = {"micro_speech yes/no", "speech", 0, 0, 0, 0, SPEECH_WORKSPACE_SIZE,
                                SPEECH_WEIGHT_BYTES};
        r.rc = speech_run(&in, &out, DEMO_WORKSPACE_SPEECH);
        compare(&r, speech_out, speech_ref_labels_softmax_want, SPEECH_LABELS_SOFTMAX_SIZE);
        results[4] = r;
    }

    printf("\naot_rules multi-model demo on %s: 5 model libraries, one image\n\n", DEMO_PLATFORM);
    printf("| %-22s | %-6s | %-14s | %-15s | %9s | %9s |\n", "network", "prefix", "top output",
           "vs TFLite Micro", "workspace", "weights");
    printf("|------------------------|--------|----------------|-----------------|-----------|-----------|\n");
    for (i = 0; i < 5; i++) {
        print_row(&results[i]);
        if (results[i].rc != 0 || results[i].mismatches != 0) {
            failed++;
        }
    }
    /* The same network under two prefixes, on the same input, must give the same output. */
    for (i = 0; i < (int32_t)KWS_IDENTITY_SIZE; i++) {
        if (kws_out[i] != kws_b_out[i] && kws_ref_input_1[0] == kws_b_ref_input_1[0]) {
            kws_twins_differ = 1;
        }
    }
    printf("\nshared workspace (exclusive): %u B for all five models; separate buffers would take %u B "
           "(saves %u B)\n", (unsigned)DEMO_WORKSPACE_SIZE, (unsigned)DEMO_WORKSPACE_SEPARATE_BYTES,
           (unsigned)DEMO_WORKSPACE_SAVED_BYTES);
    if (kws_twins_differ) {
        printf("kws and kws_b disagree on the same input\n");
        failed++;
    }
    printf("%s\n", failed == 0 ? "all models match the reference bit for bit" : "FAILED");
    return failed == 0 ? 0 : 1;
}
