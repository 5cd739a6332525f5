/* Bench firmware of weights in a blob against weights in the code (bench/weights_blob): one inference of the
 * library `NET` (kc: weights = "const", kb: weights = "blob", the blob written by QEMU at BLOB_ADDR) between the
 * instruction counter's markers, after a warm-up run, on a reference case whose outputs must match. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kws_ref_ref.h"
#include NET_HEADER

#define CAT2(a, b) a##b
#define CAT(a, b)  CAT2(a, b)
#define NET_(x)    CAT(NET, x)

void bench_start_marker(void) __attribute__((noinline));
void bench_end_marker(void) __attribute__((noinline));
void bench_start_marker(void)
{
    __asm__ volatile("nop");
}
void bench_end_marker(void)
{
    __asm__ volatile("nop");
}

static uint8_t ws[NET_WORKSPACE_SIZE] __attribute__((aligned(16)));
static int8_t output[12];

int main(void)
{
    struct NET_(_inputs) in = {kws_ref_ref_input_1};
    struct NET_(_outputs) out = {output};
    int32_t rc;
#ifdef BLOB_ADDR
    rc = NET_(_bind_weights)((const void*)BLOB_ADDR, 0x10000u);
    if (rc != 0) {
        printf("bind failed: %d\n", (int)rc);
        return 1;
    }
#endif
    rc = NET_(_run)(&in, &out, ws); /* warm-up */
    bench_start_marker();
    rc |= NET_(_run)(&in, &out, ws);
    bench_end_marker();
    if (rc != 0 || memcmp(output, kws_ref_ref_identity_want, sizeof(output)) != 0) {
        printf("wrong output (rc %d)\n", (int)rc);
        return 1;
    }
    return 0;
}
