/* Test double of the Ethos-U driver glue (tests/ethos_u): builds base_addrs / base_addrs_size exactly as TFLite
 * Micro's ethos-u kernel does before ethosu_invoke_v3 (inputs 1.. then outputs, at most 8) and checks everything
 * the generated code hands over against expect.h (written from the .tflite by ethos_u_expect.py); returns a
 * distinct code per failed check. In place of the NPU it writes a hash of the input to the output. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "aot/errors.h"
#include "aot/user_kernel.h"
#include "expect.h"

const uint8_t* double_ws = NULL; /* the application's workspace and its size, set by main */
uint32_t double_ws_size = 0;
const int8_t* double_app_input = NULL; /* the application's input buffer */
int32_t double_init_calls = 0, double_invoke_calls = 0;

static int32_t in_ws(uintptr_t a, int32_t n)
{
    return a >= (uintptr_t)double_ws && a + (uintptr_t)n <= (uintptr_t)double_ws + double_ws_size;
}

static int32_t check_common(const struct aot_uk_params* p)
{
    int32_t i;
    if (p->num_inputs != 5 || p->num_outputs != 1) return -2001;
    if (p->options_size != (int32_t)sizeof expect_options || memcmp(p->options, expect_options, sizeof expect_options))
        return -2002;
    if (p->inputs[0].bytes != (int32_t)sizeof expect_cms || !p->inputs[0].is_const) return -2003;
    for (i = 1; i < 5; ++i)
        if (p->inputs[i].bytes != expect_sizes[i - 1]) return -2004;
    if (p->outputs[0].bytes != expect_sizes[4]) return -2005;
    if (!p->inputs[1].is_const || p->inputs[2].is_const || p->inputs[3].is_const || p->inputs[4].is_const) return -2006;
    return 0;
}

int32_t ethosu_init(const struct aot_uk_params* p)
{
    const uint8_t* cms = (const uint8_t*)p->const_inputs[0];
    const uint8_t* flash = (const uint8_t*)p->const_inputs[1];
    int32_t rc = check_common(p);
    double_init_calls++;
    if (rc) return rc;
    /* The command stream and the weights: byte for byte, 16-byte aligned (the NPU reads them by DMA). */
    if (memcmp(cms, expect_cms, sizeof expect_cms) != 0) return -2010;
    if (memcmp(flash, expect_flash, sizeof expect_flash) != 0) return -2011;
    if (((uintptr_t)cms & 15u) || ((uintptr_t)flash & 15u)) return -2012;
    if (p->const_inputs[2] != NULL || p->const_inputs[4] != NULL) return -2013;
    return AOT_OK;
}

int32_t ethosu_invoke(const struct aot_uk_params* p, const void* const* inputs, void* const* outputs, void* scratch)
{
    uintptr_t base_addrs[8];
    int32_t base_addrs_size[8];
    int32_t n = 0, i, rc = check_common(p);
    const uint8_t* cms = (const uint8_t*)inputs[0];
    int8_t* out;
    double_invoke_calls++;
    if (rc) return rc;
    if (scratch != NULL) return -2020;
    if (cms != p->const_inputs[0] || memcmp(cms, expect_cms, sizeof expect_cms) != 0) return -2021;
    for (i = 1; i < p->num_inputs; ++i) {
        base_addrs[n] = (uintptr_t)inputs[i];
        base_addrs_size[n++] = p->inputs[i].bytes;
    }
    for (i = 0; i < p->num_outputs; ++i) {
        base_addrs[n] = (uintptr_t)outputs[i];
        base_addrs_size[n++] = p->outputs[i].bytes;
    }
    if (n != EXPECT_NUM_BASES) return -2022;
    for (i = 0; i < n; ++i) {
        if (base_addrs_size[i] != expect_sizes[i]) return -2023;
        if (base_addrs[i] & 15u) return -2024;
        if (expect_offsets[i] < 0) {
            /* not in the arena: the weights, in flash, byte for byte */
            if (in_ws(base_addrs[i], 1) || base_addrs[i] != (uintptr_t)p->const_inputs[i + 1]) return -2025;
            if (memcmp((const void*)base_addrs[i], expect_flash, sizeof expect_flash) != 0) return -2026;
        } else {
            /* in the arena: inside the workspace, at Vela's offset relative to the scratch (base 1) */
            if (!in_ws(base_addrs[i], base_addrs_size[i])) return -2027;
            if ((int32_t)(base_addrs[i] - base_addrs[1]) != expect_offsets[i] - expect_offsets[1]) return -2028;
        }
    }
    /* The input was copied to where the command stream reads it. */
    if (memcmp(inputs[4], double_app_input, EXPECT_IN_SIZE) != 0) return -2029;
    /* Stand-in for the NPU's result: a function of the input the test recomputes. */
    out = (int8_t*)outputs[0];
    for (i = 0; i < EXPECT_OUT_SIZE; ++i) {
        uint32_t h = 2166136261u + (uint32_t)i;
        int32_t k;
        for (k = 0; k < EXPECT_IN_SIZE; ++k) h = (h ^ (uint8_t)double_app_input[k]) * 16777619u;
        out[i] = (int8_t)(h & 0xffu);
    }
    return AOT_OK;
}
