/* One firmware image, two trainings of one architecture: the code of blob_a_int8.tflite (compiled once with
 * weights = "blob") binds A's blob and runs A's reference cases bit-exact with TFLite Micro, then binds B's blob and
 * runs B's, without being relinked; the blobs are not part of the image (QEMU writes them to BLOB_SLOT_A / _B /
 * _OTHER, as they would be flashed apart from it).  Wrong blobs are refused with their codes (aot/errors.h).  Exit
 * code 0 iff all of it holds. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "a_linked.h"
#include "aot/errors.h"
#include "bm.h"
#include "ref_a_ref.h"
#include "ref_b_ref.h"

/* The linker script frames the weights section of the firmware's placement (aot_rules/private/link_layout.bzl). */
extern const uint8_t __aot_weights_start[];
extern const uint8_t __aot_weights_end[];

/* The size of each slot the blobs are written to: a bind is handed the slot, the blob says how much of it is its. */
#define SLOT_SIZE 0x4000u

static uint8_t ws[BM_WORKSPACE_SIZE] __attribute__((aligned(BM_WORKSPACE_ALIGN)));
static uint8_t copy[BM_WEIGHTS_BLOB_SIZE + 16u] __attribute__((aligned(16)));
static int failures;

#ifdef AOT_STACK_PROBE
/* The board's stack probe; weak: a board with a start-up of its own may not define it. */
extern void aot_stack_paint(void) __attribute__((weak));
extern uint32_t aot_stack_used(void) __attribute__((weak));
/* The deepest stack of any bm_run (aot_qemu_test's check_stack holds it to the static bound). */
static uint32_t stack_peak;
#endif

static void expect(const char* what, int32_t got, int32_t want)
{
    if (got != want) {
        printf("FAIL: %s: %d, expected %d\n", what, (int)got, (int)want);
        failures++;
    }
}

/* Runs every reference case; returns how many outputs differ from `want`. */
static int run_cases(const int8_t* input, const int8_t* want, int count)
{
    struct bm_inputs in;
    struct bm_outputs out;
    int8_t probabilities[BM_PROBABILITIES_SIZE];
    int i, wrong = 0;
    int32_t rc;
    for (i = 0; i < count; i++) {
        in.input = input + i * BM_INPUT_SIZE;
        out.probabilities = probabilities;
#ifdef AOT_STACK_PROBE
        if (aot_stack_paint != 0) {
            aot_stack_paint();
        }
#endif
        rc = bm_run(&in, &out, ws);
#ifdef AOT_STACK_PROBE
        if (aot_stack_used != 0 && aot_stack_used() > stack_peak) {
            stack_peak = aot_stack_used();
        }
#endif
        expect("bm_run", rc, AOT_OK);
        if (memcmp(probabilities, want + i * BM_PROBABILITIES_SIZE, BM_PROBABILITIES_SIZE) != 0) {
            wrong++;
        }
    }
    return wrong;
}

static void patch32(size_t offset, uint32_t value)
{
    memcpy(copy, (const void*)BLOB_SLOT_A, BM_WEIGHTS_BLOB_SIZE);
    memcpy(copy + offset, &value, sizeof(value));
}

int main(void)
{
    struct bm_inputs in = {ref_a_ref_input};
    int8_t probabilities[BM_PROBABILITIES_SIZE];
    struct bm_outputs out = {probabilities};
    int i, differ = 0;

    expect("run before any bind", bm_run(&in, &out, ws), AOT_ERR_WEIGHTS_UNBOUND);

    expect("bind A", bm_bind_weights((const void*)BLOB_SLOT_A, SLOT_SIZE), AOT_OK);
    expect("A's cases that differ from TFLite Micro on A",
           run_cases(ref_a_ref_input, ref_a_ref_probabilities_want, REF_A_REF_COUNT), 0);
    expect("bind B", bm_bind_weights((const void*)BLOB_SLOT_B, SLOT_SIZE), AOT_OK);
    expect("B's cases that differ from TFLite Micro on B",
           run_cases(ref_b_ref_input, ref_b_ref_probabilities_want, REF_B_REF_COUNT), 0);
    /* The same inputs (same seed and shape): B's weights must change the outputs, or B was not what ran. */
    for (i = 0; i < REF_A_REF_COUNT * (int)BM_PROBABILITIES_SIZE; i++) {
        differ += ref_a_ref_probabilities_want[i] != ref_b_ref_probabilities_want[i];
    }
    expect("A and B give different outputs", differ > 0, 1);

    expect("another architecture", bm_bind_weights((const void*)BLOB_SLOT_OTHER, SLOT_SIZE), AOT_ERR_BLOB_ARCH);
    expect("run after a refused bind", bm_run(&in, &out, ws), AOT_ERR_WEIGHTS_UNBOUND);
    patch32(4u, 2u);
    expect("another format version", bm_bind_weights(copy, BM_WEIGHTS_BLOB_SIZE), AOT_ERR_BLOB_VERSION);
    patch32(0u, 0u);
    expect("no magic", bm_bind_weights(copy, BM_WEIGHTS_BLOB_SIZE), AOT_ERR_BLOB_MAGIC);
    patch32(BM_WEIGHTS_BLOB_SIZE / 2u, 0x5A5A5A5Au);
    expect("a corrupt payload", bm_bind_weights(copy, BM_WEIGHTS_BLOB_SIZE), AOT_ERR_BLOB_CRC);
    memcpy(copy, (const void*)BLOB_SLOT_A, BM_WEIGHTS_BLOB_SIZE);
    expect("truncated", bm_bind_weights(copy, BM_WEIGHTS_BLOB_SIZE - 1u), AOT_ERR_BLOB_TRUNCATED);
    expect("header only", bm_bind_weights(copy, 16u), AOT_ERR_BLOB_TRUNCATED);
    memmove(copy + 4, copy, BM_WEIGHTS_BLOB_SIZE);
    expect("misaligned", bm_bind_weights(copy + 4, BM_WEIGHTS_BLOB_SIZE), AOT_ERR_BLOB_ALIGN);
    expect("NULL", bm_bind_weights(NULL, BM_WEIGHTS_BLOB_SIZE), AOT_ERR_NULL_ARG);
    memcpy(copy, (const void*)BLOB_SLOT_A, BM_WEIGHTS_BLOB_SIZE);
    expect("A again, from RAM", bm_bind_weights(copy, BM_WEIGHTS_BLOB_SIZE), AOT_OK);
    expect("A's cases again", run_cases(ref_a_ref_input, ref_a_ref_probabilities_want, REF_A_REF_COUNT), 0);
    /* A's blob linked into the image (aot_weights_blob's _embedded library), placed with the weights. */
    expect("the linked blob is in the weights section",
           (a_linked >= __aot_weights_start) && (a_linked + A_LINKED_SIZE <= __aot_weights_end), 1);
    expect("bind the linked A", bm_bind_weights(a_linked, A_LINKED_SIZE), AOT_OK);
    expect("A's cases from the linked blob", run_cases(ref_a_ref_input, ref_a_ref_probabilities_want, REF_A_REF_COUNT),
           0);

#ifdef AOT_STACK_PROBE
    if (aot_stack_used != 0) {
        printf("aot_stack: bm_run peak=%u\n", (unsigned)stack_peak);
    } else {
        printf("aot_stack: bm_run peak=unmeasured (the board's start-up has no aot_stack_paint)\n");
    }
#endif
    if (failures == 0) {
        printf("weights blob on %s: one image ran A's and B's blobs bit-exact (%d cases each; A loaded and linked), "
               "refused 8 wrong ones\n",
               AOT_BOARD, REF_A_REF_COUNT);
    }
    return failures == 0 ? 0 : 1;
}
