/*
 * Two networks in one firmware built with CMake (examples/cmake/CMakeLists.txt): a keyword spotter and an anomaly
 * detector, run one after the other in one shared workspace on each seeded reference case that `aotc refdata`
 * wrote; every output must equal TFLite Micro's bit for bit. Exits 0 iff all match (ctest runs it under QEMU).
 */
#include <stdint.h>
#include <stdio.h>

#include "ad.h"
#include "ad_ref.h"
#include "kws.h"
#include "kws_ref.h"

#define MAX_OF(a, b)    ((a) > (b) ? (a) : (b))
#define WORKSPACE_SIZE  MAX_OF(KWS_WORKSPACE_SIZE, AD_WORKSPACE_SIZE)
#define WORKSPACE_ALIGN MAX_OF(KWS_WORKSPACE_ALIGN, AD_WORKSPACE_ALIGN)

/* One buffer for both models: they never run at the same time. */
static uint8_t workspace[WORKSPACE_SIZE] __attribute__((aligned(WORKSPACE_ALIGN)));
static int8_t kws_out[KWS_IDENTITY_SIZE];
static int8_t ad_out[AD_IDENTITY_SIZE];

static int32_t mismatches(const int8_t* got, const int8_t* want, int32_t n)
{
    int32_t bad = 0;
    for (int32_t i = 0; i < n; ++i) bad += got[i] != want[i];
    return bad;
}

int main(void)
{
    int32_t failed = 0;
    for (int32_t c = 0; c < KWS_REF_COUNT; ++c) {
        const struct kws_inputs in = {kws_ref_input_1 + c * KWS_INPUT_1_SIZE};
        struct kws_outputs out = {kws_out};
        int32_t rc = kws_run(&in, &out, workspace);
        int32_t bad = mismatches(kws_out, kws_ref_identity_want + c * KWS_IDENTITY_SIZE, KWS_IDENTITY_SIZE);
        printf("kws case %d: rc %d, %d mismatches\n", (int)c, (int)rc, (int)bad);
        failed += rc != 0 || bad != 0;
    }
    for (int32_t c = 0; c < AD_REF_COUNT; ++c) {
        const struct ad_inputs in = {ad_ref_input_1 + c * AD_INPUT_1_SIZE};
        struct ad_outputs out = {ad_out};
        int32_t rc = ad_run(&in, &out, workspace);
        int32_t bad = mismatches(ad_out, ad_ref_identity_want + c * AD_IDENTITY_SIZE, AD_IDENTITY_SIZE);
        printf("ad case %d: rc %d, %d mismatches\n", (int)c, (int)rc, (int)bad);
        failed += rc != 0 || bad != 0;
    }
    printf("%s (shared workspace %u B)\n", failed == 0 ? "both models match TFLite Micro bit for bit" : "FAILED",
           (unsigned)WORKSPACE_SIZE);
    return failed == 0 ? 0 : 1;
}
