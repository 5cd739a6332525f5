/* User kernels in one firmware (examples/user_kernels): three model libraries next to one CRT, one shared
 * workspace:
 *   ad      the anomaly-detection autoencoder with every FULLY_CONNECTED offloaded to user_fully_connected_s8
 *           (user_fc.c, written from TFLite Micro's semantics), checked bit for bit against TFLite Micro;
 *   custom  a network with the CUSTOM operator ClampFloor run by clamp_floor_s8 (clamp_floor.c) after its init
 *           hook, checked against TFLite Micro on its twin with the built-in MAXIMUM in its place;
 *   kws     a keyword spotter without user kernels (its API has no _init and no _failed_op).
 * Also: a run before <prefix>_init() is refused, and a failing user kernel's status reaches the caller with the
 * failing operator's index. Prints a table; exits 0 iff everything holds. */
#include <stdint.h>
#include <stdio.h>

#include "ad.h"
#include "ad_ref.h"
#include "aot/errors.h"
#include "custom.h"
#include "custom_ref.h"
#include "kws.h"
#include "kws_ref.h"
#include "uk_workspace.h"
#include "user_kernels.h"

#if defined(__arm__)
#define UK_PLATFORM "mps2-an386 (Cortex-M4F)"
#else
#define UK_PLATFORM "the host"
#endif

/* Each model's runs measured for the QEMU test's stack check (aot_stack_probe.h, built with AOT_STACK_PROBE). */
#include "aot_stack_probe.h"
#if defined(AOT_STACK_PROBE)
static uint32_t stack_peak_ad;
static uint32_t stack_peak_custom;
static uint32_t stack_peak_kws;
#endif

static int8_t ad_out[AD_IDENTITY_SIZE];
static int8_t custom_out[CUSTOM_Y_SIZE];
static int8_t kws_out[KWS_IDENTITY_SIZE];
static int32_t failures = 0;

static int32_t mismatches(const int8_t* got, const int8_t* want, int32_t n)
{
    int32_t i, bad = 0;
    for (i = 0; i < n; i++) {
        bad += got[i] != want[i];
    }
    return bad;
}

static void row(const char* model, const char* kernels, int32_t rc, int32_t bad)
{
    printf("| %-7s | %-44s | %4d | %-9s |\n", model, kernels, (int)rc,
           rc != AOT_OK ? "run failed" : (bad == 0 ? "bit-exact" : "MISMATCH"));
    failures += rc != AOT_OK || bad != 0;
}

static void expect(const char* what, int32_t ok)
{
    printf("%-78s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

int main(void)
{
    int32_t rc;
    printf("\naot_rules user kernels on %s: 3 model libraries, one image\n\n", UK_PLATFORM);
    {
        const struct custom_inputs in = {custom_ref_x};
        struct custom_outputs out = {custom_out};
        expect("custom_run() before custom_init() returns AOT_ERR_NOT_INITIALIZED",
               custom_run(&in, &out, UK_WORKSPACE_CUSTOM) == AOT_ERR_NOT_INITIALIZED);
        rc = custom_init();
        expect("custom_init() runs the ClampFloor init hook once and succeeds",
               rc == AOT_OK && clamp_floor_init_calls == 1 && custom_failed_op() == -1);
    }
    printf("\n| %-7s | %-44s | %4s | %-9s |\n", "model", "user kernels", "rc", "vs TFLM");
    printf("|---------|----------------------------------------------|------|-----------|\n");
    {
        const struct ad_inputs in = {ad_ref_input_1};
        struct ad_outputs out = {ad_out};
        user_fc_calls = 0;
        STACK_MEASURED(ad, rc = ad_run(&in, &out, UK_WORKSPACE_AD));
        row("ad", "FULLY_CONNECTED x10 -> user_fully_connected_s8", rc,
            mismatches(ad_out, ad_ref_identity_want, AD_IDENTITY_SIZE) + (user_fc_calls != 10));
    }
    {
        const struct custom_inputs in = {custom_ref_x};
        struct custom_outputs out = {custom_out};
        STACK_MEASURED(custom, rc = custom_run(&in, &out, UK_WORKSPACE_CUSTOM));
        row("custom", "CUSTOM:ClampFloor -> clamp_floor_s8", rc,
            mismatches(custom_out, custom_ref_y_want, CUSTOM_Y_SIZE));
    }
    {
        const struct kws_inputs in = {kws_ref_input_1};
        struct kws_outputs out = {kws_out};
        STACK_MEASURED(kws, rc = kws_run(&in, &out, UK_WORKSPACE_KWS));
        row("kws", "none", rc, mismatches(kws_out, kws_ref_identity_want, KWS_IDENTITY_SIZE));
    }
    printf("\n");
    {
        const struct ad_inputs in = {ad_ref_input_1};
        struct ad_outputs out = {ad_out};
        user_fc_calls = 0;
        user_fc_fail_at = 3;
        STACK_MEASURED(ad, rc = ad_run(&in, &out, UK_WORKSPACE_AD));
        user_fc_fail_at = -1;
        printf("user kernel fault injected at operator 3: ad_run() = %d, ad_failed_op() = %d\n", (int)rc,
               (int)ad_failed_op());
        expect("the kernel's status and operator index reach the caller; later layers do not run",
               rc == USER_FC_FAULT && ad_failed_op() == 3 && user_fc_calls == 4);
        STACK_MEASURED(ad, rc = ad_run(&in, &out, UK_WORKSPACE_AD));
        expect("the next run succeeds and clears ad_failed_op()",
               rc == AOT_OK && ad_failed_op() == -1 && mismatches(ad_out, ad_ref_identity_want, AD_IDENTITY_SIZE) == 0);
    }
    STACK_REPORT(ad);
    STACK_REPORT(custom);
    STACK_REPORT(kws);
    printf("%s\n", failures == 0 ? "all user-kernel checks passed" : "FAILED");
    return failures == 0 ? 0 : 1;
}
