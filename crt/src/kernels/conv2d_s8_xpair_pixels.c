/* The packed-input convolution's per-pixel-pair work (every group of four output channels: tap loop,
 * requantization, optional residual ADD) as one out-of-line function, which every specialized layer of an image
 * calls (aot/kernels/conv2d_s8_xpair_inline.h).  Written for size: every loop stays a loop (the inline body's
 * unrolled forms are for literal counts), the two pixels' outputs share one requantization text. */
#include "aot_sched.h"
#include "aot/kernels/conv2d_s8_xpair_inline.h"

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define AOT_XP_NO_UNROLL _Pragma("GCC unroll 1")
#else
#define AOT_XP_NO_UNROLL
#endif

/* s[j] (+)= pixel 0's and s[4 + j] (+)= pixel 1's sum over n taps (aot_xdot4_s8 with a run-time n); `first`:
 * assigned, not added (no zeroing of s: GCC makes that a memset call). */
static void aot_xp_dot4(const int32_t* xs, const int8_t* w, int32_t n, int32_t* s, int32_t first)
{
#ifdef AOT_XPAIR_ASM
    uint32_t l0 = (uint32_t)AOT_PACK_BIAS, h0 = 0, l1 = (uint32_t)AOT_PACK_BIAS, h1 = 0;
    uint32_t l2 = (uint32_t)AOT_PACK_BIAS, h2 = 0, l3 = (uint32_t)AOT_PACK_BIAS, h3 = 0;
    const int32_t* xp = xs;
    const int8_t* wp = w;
    int32_t passes = n >> 2, rest = n & 3, v, wv;
    if (passes > 0) {
        __asm__(AOT_XPASS_ASM : AOT_XPAIR_OPERANDS, [n] "+r"(passes), [v] "=&r"(v), [w] "=&r"(wv) : : "cc", "memory");
    }
    AOT_XP_NO_UNROLL
    for (; rest > 0; rest--) {
        __asm__(AOT_XTAP_ASM("[%[xp]], #4", "1", "2", "3", "[%[wp]], #4")
                : AOT_XPAIR_OPERANDS, [v] "=&r"(v), [w] "=&r"(wv)
                :
                : "memory");
    }
    s[0] = (first ? 0 : s[0]) + AOT_XLO(l0);
    s[4] = (first ? 0 : s[4]) + AOT_XHI(l0, h0);
    s[1] = (first ? 0 : s[1]) + AOT_XLO(l1);
    s[5] = (first ? 0 : s[5]) + AOT_XHI(l1, h1);
    s[2] = (first ? 0 : s[2]) + AOT_XLO(l2);
    s[6] = (first ? 0 : s[6]) + AOT_XHI(l2, h2);
    s[3] = (first ? 0 : s[3]) + AOT_XLO(l3);
    s[7] = (first ? 0 : s[7]) + AOT_XHI(l3, h3);
#else
    int32_t j;
    if (first) {
        for (j = 0; j < 8; j++) {
            s[j] = 0;
        }
    }
    aot_xdot4_s8(xs, w, n, s, s + 4);
#endif
}

void aot_conv2d_s8_xpair_pixels(const struct aot_xpair_layer* layer, const int32_t* xs, int32_t two, int8_t* out,
                                const int8_t* residual)
{
    /* The fields are read where used: held in locals they were spilled to the frame anyway (216 B of it). */
    const int32_t taps = layer->taps, chunk = layer->chunk, out_c = layer->out_c;
    /* The common call: a pair of pixels, no residual, the short requantization (the store unrolled, as inline). */
    const int32_t fast = two && residual == NULL && layer->requant == AOT_REQUANT_SHORT;
    int32_t oc, r, k;
    AOT_XP_NO_UNROLL
    for (oc = 0; oc < out_c; oc += 4) {
        const int8_t* w = layer->filter + oc * taps;
        const int32_t rows = out_c - oc < 4 ? out_c - oc : 4;
        int32_t s[8];
        AOT_XP_NO_UNROLL
        for (r = 0; r < taps; r += chunk) {
            aot_xp_dot4(xs + r, w + 4 * r, taps - r < chunk ? taps - r : chunk, s, r == 0);
        }
        if (fast && rows == 4) {
            aot_xpair_store(s, s + 4, 1, 4, layer->bias, out + oc, out + out_c + oc, NULL, NULL, oc, AOT_REQUANT_SHORT,
                            layer->out_multiplier, layer->out_second, layer->quant_step, layer->output_offset,
                            layer->act_min, layer->act_max, NULL);
            continue;
        }
        AOT_XP_NO_UNROLL
        for (r = 0; r < rows; r++) {
            const int32_t c = oc + r;
            const int32_t b = layer->bias != NULL ? layer->bias[c] : 0;
            const int32_t m = layer->out_multiplier[c * layer->quant_step];
            const int32_t sc = layer->out_second[c * layer->quant_step];
            AOT_XP_NO_UNROLL
            for (k = 0; k <= two; k++) {
                const int8_t v = aot_requant_s8(s[4 * k + r] + b, layer->requant, m, sc, layer->output_offset,
                                                layer->act_min, layer->act_max);
                out[k * out_c + c] =
                    residual != NULL ? (int8_t)aot_add_s8_elem_inline(v, residual[k * out_c + c], layer->add) : v;
            }
        }
    }
}
