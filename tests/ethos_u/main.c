/* The Ethos-U hand-off on the host and on a Cortex-M4 board (tests/ethos_u): person_detect_vela.tflite compiled with
 * the test double of the driver glue (ethosu_double.c) as its ethos-u kernel. Runs before init (refused), init,
 * then seeded and extreme inputs; the double checks every byte and address it receives and returns a distinct
 * code per failed check; here the output must be the double's stand-in result for each input. No NPU is emulated:
 * the command stream is checked, never executed. Exits 0 iff everything holds. */
#include <stdint.h>
#include <stdio.h>

#include "aot/errors.h"
#include "pd.h"

extern const uint8_t* double_ws;
extern uint32_t double_ws_size;
extern const int8_t* double_app_input;
extern int32_t double_init_calls, double_invoke_calls;

static uint8_t ws[PD_WORKSPACE_SIZE] __attribute__((aligned(16)));
static int8_t x[PD_INPUT_SIZE];
static int8_t y[PD_MOBILENETV1_PREDICTIONS_RESHAPE_1_SIZE];

#ifdef AOT_STACK_PROBE
/* The board's stack probe; weak: the host build and a board with a start-up of its own do not define it. */
extern void aot_stack_paint(void) __attribute__((weak));
extern uint32_t aot_stack_used(void) __attribute__((weak));
#endif

/* The double's stand-in for the NPU result, recomputed here from the application's input buffer. */
static int8_t standin(int32_t i)
{
    uint32_t h = 2166136261u + (uint32_t)i;
    int32_t k;
    for (k = 0; k < (int32_t)PD_INPUT_SIZE; ++k) {
        h = (h ^ (uint8_t)x[k]) * 16777619u;
    }
    return (int8_t)(h & 0xffu);
}

int main(void)
{
    const struct pd_inputs in = {x};
    struct pd_outputs out = {y};
    uint32_t seed = 12345u;
    int32_t rc, c, i, failures = 0;
#ifdef AOT_STACK_PROBE
    uint32_t stack_peak = 0u;
#endif
    double_ws = ws;
    double_ws_size = PD_WORKSPACE_SIZE;
    double_app_input = x;
    rc = pd_run(&in, &out, ws);
    printf("run before init: %d (want %d)\n", (int)rc, AOT_ERR_NOT_INITIALIZED);
    failures += rc != AOT_ERR_NOT_INITIALIZED;
    rc = pd_init();
    printf("init: %d, failed op %d, hook calls %d\n", (int)rc, (int)pd_failed_op(), (int)double_init_calls);
    failures += rc != AOT_OK || double_init_calls != 1;
    for (c = 0; c < 4; ++c) {
        for (i = 0; i < (int32_t)PD_INPUT_SIZE; ++i) {
            seed = seed * 1664525u + 1013904223u;
            x[i] = c == 0 ? (int8_t)-128 : c == 1 ? (int8_t)127 : (int8_t)(seed >> 24);
        }
#ifdef AOT_STACK_PROBE
        if (aot_stack_paint != 0) {
            aot_stack_paint();
        }
#endif
        rc = pd_run(&in, &out, ws);
#ifdef AOT_STACK_PROBE
        if (aot_stack_used != 0 && aot_stack_used() > stack_peak) {
            stack_peak = aot_stack_used();
        }
#endif
        for (i = 0; i < (int32_t)sizeof y && rc == AOT_OK; ++i) {
            rc = y[i] == standin(i) ? AOT_OK : -1;
        }
        printf("case %d: %d, failed op %d\n", (int)c, (int)rc, (int)pd_failed_op());
        failures += rc != AOT_OK;
    }
    failures += double_invoke_calls != 4;
#ifdef AOT_STACK_PROBE
    if (aot_stack_used != 0) {
        printf("aot_stack: pd_run peak=%u\n", (unsigned)stack_peak);
    } else {
        printf("aot_stack: pd_run peak=unmeasured (the board's start-up has no aot_stack_paint)\n");
    }
#endif
    printf("%s (workspace %u B, weights %u B)\n", failures == 0 ? "ethos-u hand-off: every check passed" : "FAILED",
           (unsigned)PD_WORKSPACE_SIZE, (unsigned)PD_WEIGHT_BYTES);
    return failures == 0 ? 0 : 1;
}
