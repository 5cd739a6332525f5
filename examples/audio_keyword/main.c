/* Audio to keyword in one firmware: 16-bit audio -> TFLite Micro's audio preprocessor (AOT-compiled, prefix
 * `preproc`, stateful) -> the micro_speech classifier (AOT-compiled, prefix `speech`) -> keyword scores.
 *
 * As TFLite Micro's micro_speech example does: the preprocessor runs on a 30 ms window (480 samples) every 20 ms
 * (320 samples), 49 times over one second of audio, its state (the noise estimate) carried from one window to the
 * next and reset once before the clip; each run's 40 int8 features are one row of the 49x40 matrix the classifier
 * reads. The clip and the expected features and scores come from audio_ref.h, computed at build time by
 * audio_reference.py with the tflite_micro interpreter; every feature row and every score must match bit for bit.
 * With the float front-end too (AUDIO_REF_HAVE_FLOAT: audio_preprocessor_float, prefix `preproc_f`, its own state),
 * the same 49 windows also go through it and its float features must equal TFLite Micro's bit for bit (IEEE-754
 * patterns compared, not a tolerance).
 * Prints the scores and "match"; exits 0 iff everything matched. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "audio_ref.h"
#include "audio_workspace.h"
#include "preproc.h"
#include "speech.h"
#if defined(AUDIO_REF_HAVE_FLOAT)
#include "preproc_f.h"
#endif

#if defined(__arm__)
#define DEMO_PLATFORM "mps2-an386 (Cortex-M4F)"
#else
#define DEMO_PLATFORM "the host"
#endif

/* Each model's runs measured for the QEMU test's stack check (aot_stack_probe.h, built with AOT_STACK_PROBE). */
#include "aot_stack_probe.h"
#if defined(AOT_STACK_PROBE)
static uint32_t stack_peak_preproc;
static uint32_t stack_peak_speech;
#if defined(AUDIO_REF_HAVE_FLOAT)
static uint32_t stack_peak_preproc_f;
#endif
#endif

/* The build-time reference and the compiled models must agree on every size (C99: a negative array size fails). */
#define DEMO_CHECK(name, cond) typedef char demo_check_##name[(cond) ? 1 : -1]
DEMO_CHECK(window, PREPROC_SERVING_DEFAULT_AUDIO_FRAME_0_SIZE == AUDIO_REF_WINDOW * sizeof(int16_t));
DEMO_CHECK(features, PREPROC_PARTITIONEDCALL_0_SIZE == AUDIO_REF_FEATURE_SIZE);
DEMO_CHECK(matrix, SPEECH_RESHAPE_1_SIZE == AUDIO_REF_FRAMES * AUDIO_REF_FEATURE_SIZE);
DEMO_CHECK(scores, SPEECH_LABELS_SOFTMAX_SIZE == AUDIO_REF_NUM_SCORES);
DEMO_CHECK(clip, (AUDIO_REF_FRAMES - 1) * AUDIO_REF_STRIDE + AUDIO_REF_WINDOW <= AUDIO_REF_NUM_SAMPLES);

/* The feature matrix: written one row per preprocessor run, then the classifier's input. */
static int8_t features[AUDIO_REF_FRAMES * AUDIO_REF_FEATURE_SIZE];
static int8_t scores[AUDIO_REF_NUM_SCORES];

#if defined(AUDIO_REF_HAVE_FLOAT)
DEMO_CHECK(float_window, PREPROC_F_SERVING_DEFAULT_AUDIO_FRAME_0_SIZE == AUDIO_REF_WINDOW * sizeof(int16_t));
DEMO_CHECK(float_features, PREPROC_F_PARTITIONEDCALL_0_SIZE == AUDIO_REF_FEATURE_SIZE * sizeof(float));
DEMO_CHECK(float_bits, sizeof(float) == sizeof(uint32_t));

static float float_row[AUDIO_REF_FEATURE_SIZE];

/* Runs the float preprocessor over the clip's windows (state reset once, then carried); returns the number of
 * features whose bit pattern differs from TFLite Micro's, or -1 if a run fails. */
static int32_t check_float_preprocessor(void)
{
    int32_t frame;
    int32_t i;
    int32_t differ = 0;
    if (preproc_f_reset(AUDIO_WORKSPACE_STATE_PREPROC_F) != 0) {
        return -1;
    }
    for (frame = 0; frame < AUDIO_REF_FRAMES; frame++) {
        const struct preproc_f_inputs in = {&audio_ref_audio[frame * AUDIO_REF_STRIDE]};
        struct preproc_f_outputs out = {float_row};
        int32_t rc;
        STACK_MEASURED(preproc_f,
                       rc = preproc_f_run(&in, &out, AUDIO_WORKSPACE_PREPROC_F, AUDIO_WORKSPACE_STATE_PREPROC_F));
        if (rc != 0) {
            return -1;
        }
        for (i = 0; i < AUDIO_REF_FEATURE_SIZE; i++) {
            uint32_t bits;
            memcpy(&bits, &float_row[i], sizeof(bits));
            if (bits != audio_ref_float_features_want[frame * AUDIO_REF_FEATURE_SIZE + i]) {
                differ++;
            }
        }
    }
    return differ;
}
#endif

/* Probability in thousandths from a quantized score (the classifier's softmax output quantization). */
static int32_t per_mille(int8_t q)
{
    float p = (float)((int32_t)q - SPEECH_LABELS_SOFTMAX_ZERO_POINT) * SPEECH_LABELS_SOFTMAX_SCALE;
    return (int32_t)(p * 1000.0f + 0.5f);
}

int main(void)
{
    int32_t frame;
    int32_t i;
    int32_t rc;
    int32_t bad_frames = 0;
    int32_t first_bad_frame = -1;
    int32_t bad_scores = 0;
    int32_t top = 0;
    int32_t float_differ = 0;

    rc = preproc_reset(AUDIO_WORKSPACE_STATE_PREPROC);
    for (frame = 0; rc == 0 && frame < AUDIO_REF_FRAMES; frame++) {
        const struct preproc_inputs in = {&audio_ref_audio[frame * AUDIO_REF_STRIDE]};
        struct preproc_outputs out = {&features[frame * AUDIO_REF_FEATURE_SIZE]};
        int32_t row_bad = 0;
        STACK_MEASURED(preproc, rc = preproc_run(&in, &out, AUDIO_WORKSPACE_PREPROC, AUDIO_WORKSPACE_STATE_PREPROC));
        for (i = 0; i < AUDIO_REF_FEATURE_SIZE; i++) {
            if (features[frame * AUDIO_REF_FEATURE_SIZE + i] !=
                audio_ref_features_want[frame * AUDIO_REF_FEATURE_SIZE + i]) {
                row_bad = 1;
            }
        }
        if (row_bad) {
            bad_frames++;
            if (first_bad_frame < 0) {
                first_bad_frame = frame;
            }
        }
    }
    if (rc != 0) {
        printf("preprocessor run %d failed: %d\n", (int)frame - 1, (int)rc);
        return 1;
    }
    {
        /* The classifier reads the matrix the preprocessor wrote, not the reference's. */
        const struct speech_inputs in = {features};
        struct speech_outputs out = {scores};
        STACK_MEASURED(speech, rc = speech_run(&in, &out, AUDIO_WORKSPACE_SPEECH));
    }
    if (rc != 0) {
        printf("classifier run failed: %d\n", (int)rc);
        return 1;
    }

    printf("\naot_rules audio-to-keyword example on %s\n", DEMO_PLATFORM);
    printf("audio: %d samples at %d Hz (synthetic, seed %d); preprocessor: %d runs of %d samples every %d\n",
           AUDIO_REF_NUM_SAMPLES, AUDIO_REF_SAMPLE_RATE, AUDIO_REF_SEED, AUDIO_REF_FRAMES, AUDIO_REF_WINDOW,
           AUDIO_REF_STRIDE);
    printf("memory: shared workspace %u B, preprocessor state buffers %u B, feature matrix %u B\n",
           (unsigned)AUDIO_WORKSPACE_SIZE, (unsigned)AUDIO_WORKSPACE_STATE_BYTES, (unsigned)sizeof(features));
    printf("features (%dx%d int8) vs TFLite Micro: %s", AUDIO_REF_FRAMES, AUDIO_REF_FEATURE_SIZE,
           bad_frames == 0 ? "bit-exact\n" : "MISMATCH");
    if (bad_frames != 0) {
        printf(" in %d rows, the first row %d\n", (int)bad_frames, (int)first_bad_frame);
    }
#if defined(AUDIO_REF_HAVE_FLOAT)
    float_differ = check_float_preprocessor();
    if (float_differ < 0) {
        printf("float preprocessor run failed\n");
        return 1;
    }
    printf("float front-end (%dx%d float32, bit patterns) vs TFLite Micro: ", AUDIO_REF_FRAMES, AUDIO_REF_FEATURE_SIZE);
    if (float_differ == 0) {
        printf("bit-exact\n");
    } else {
        printf("MISMATCH in %d values\n", (int)float_differ);
    }
#endif
    printf("\n| %-8s | %5s | %11s | %8s |\n", "keyword", "score", "probability", "expected");
    printf("|----------|-------|-------------|----------|\n");
    for (i = 0; i < AUDIO_REF_NUM_SCORES; i++) {
        int32_t p = per_mille(scores[i]);
        if (scores[i] > scores[top]) {
            top = i;
        }
        if (scores[i] != audio_ref_scores_want[i]) {
            bad_scores++;
        }
        printf("| %-8s | %5d | %7d.%03d | %8d |\n", audio_ref_labels[i], (int)scores[i], (int)(p / 1000),
               (int)(p % 1000), (int)audio_ref_scores_want[i]);
    }
    printf("\ntop keyword: %s\n", audio_ref_labels[top]);
    STACK_REPORT(preproc);
    STACK_REPORT(speech);
#if defined(AUDIO_REF_HAVE_FLOAT)
    STACK_REPORT(preproc_f);
#endif
    if (bad_frames == 0 && bad_scores == 0 && float_differ == 0) {
        printf("match: features and scores equal TFLite Micro's bit for bit\n");
        return 0;
    }
    printf("MISMATCH: %d feature rows, %d scores and %d float features differ from TFLite Micro's\n", (int)bad_frames,
           (int)bad_scores, (int)float_differ);
    return 1;
}
