/* SignalRfft (int16): the real FFT of TFLite Micro's signal library, in its fixed-point arithmetic.
 *
 * Every product is a Q15 multiply rounded half up ((a * b + 2^14) >> 15); every sum is narrowed to int16 with
 * two's complement wrap-around; each stage divides its inputs by the radix (times 32767 / radix, rounded) before
 * its butterflies.  These are the rounding points of the reference, so the bins agree bit for bit.  Complex
 * values are int16 pairs (re, im). */
#include "aot_sched.h"

#include "aot/kernels/signal.h"
#include "signal_fixed.h"

static int16_t q15_round(int32_t product)
{
    return aot_sig_wrap16(aot_sig_asr(product + (1 << 14), 15));
}

/* c = c * (32767 / radix), both parts */
static void divide(int16_t* c, int32_t radix)
{
    const int32_t k = 32767 / radix;
    c[0] = q15_round(c[0] * k);
    c[1] = q15_round(c[1] * k);
}

static void cmul(int16_t* m, const int16_t* a, const int16_t* b)
{
    const int16_t re = q15_round(a[0] * b[0] - a[1] * b[1]);
    const int16_t im = q15_round(a[0] * b[1] + a[1] * b[0]);
    m[0] = re;
    m[1] = im;
}

static void radix2(int16_t* out, int32_t stride, int32_t m, const int16_t* tw)
{
    int32_t k;
    int16_t t[2];
    for (k = 0; k < m; ++k) {
        int16_t* a = out + 2 * k;
        int16_t* b = out + 2 * (k + m);
        divide(a, 2);
        divide(b, 2);
        cmul(t, b, tw + 2 * k * stride);
        b[0] = aot_sig_wrap16(a[0] - t[0]);
        b[1] = aot_sig_wrap16(a[1] - t[1]);
        a[0] = aot_sig_wrap16(a[0] + t[0]);
        a[1] = aot_sig_wrap16(a[1] + t[1]);
    }
}

static void radix4(int16_t* out, int32_t stride, int32_t m, const int16_t* tw)
{
    int32_t k;
    int16_t s0[2], s1[2], s2[2], s3[2], s4[2], s5[2];
    for (k = 0; k < m; ++k) {
        int16_t* a = out + 2 * k;
        int16_t* b = out + 2 * (k + m);
        int16_t* c = out + 2 * (k + 2 * m);
        int16_t* d = out + 2 * (k + 3 * m);
        divide(a, 4);
        divide(b, 4);
        divide(c, 4);
        divide(d, 4);
        cmul(s0, b, tw + 2 * k * stride);
        cmul(s1, c, tw + 4 * k * stride);
        cmul(s2, d, tw + 6 * k * stride);
        s5[0] = aot_sig_wrap16(a[0] - s1[0]);
        s5[1] = aot_sig_wrap16(a[1] - s1[1]);
        a[0] = aot_sig_wrap16(a[0] + s1[0]);
        a[1] = aot_sig_wrap16(a[1] + s1[1]);
        s3[0] = aot_sig_wrap16(s0[0] + s2[0]);
        s3[1] = aot_sig_wrap16(s0[1] + s2[1]);
        s4[0] = aot_sig_wrap16(s0[0] - s2[0]);
        s4[1] = aot_sig_wrap16(s0[1] - s2[1]);
        c[0] = aot_sig_wrap16(a[0] - s3[0]);
        c[1] = aot_sig_wrap16(a[1] - s3[1]);
        a[0] = aot_sig_wrap16(a[0] + s3[0]);
        a[1] = aot_sig_wrap16(a[1] + s3[1]);
        b[0] = aot_sig_wrap16(s5[0] + s4[1]);
        b[1] = aot_sig_wrap16(s5[1] - s4[0]);
        d[0] = aot_sig_wrap16(s5[0] - s4[1]);
        d[1] = aot_sig_wrap16(s5[1] + s4[0]);
    }
}

/* More stages than a 32-bit length can have (every radix is at least 2). */
#define AOT_RFFT_MAX_STAGES 31

/* Decimation in time, without recursion.  `factors` holds (radix, span) per stage, outermost first, the innermost
 * span being 1.  Stage l splits each block of radix_l * span_l values into radix_l interleaved sub-sequences of the
 * input (stride r_0 * ... * r_(l-1)); the leaves are single input values.  So output value j, written in the
 * mixed radix of the spans (j = q_0 * span_0 + q_1 * span_1 + ...), starts as input value q_0 + q_1 * r_0 +
 * q_2 * r_0 * r_1 + ...; the butterflies of the innermost stage then run on every block, then the next stage out.
 * Each butterfly touches only its own block, so this order gives the same bits as transforming each sub-sequence
 * completely before its parent's butterflies. */
static void transform(int16_t* out, const int16_t* in, const int32_t* factors, const int16_t* tw)
{
    int32_t stride[AOT_RFFT_MAX_STAGES];
    int32_t stages = 0;
    int32_t s = 1;
    int32_t n, j, l, b;
    /* Bounded by the table's own end (span 1) and by the most stages a 32-bit length has. */
    while (stages < AOT_RFFT_MAX_STAGES) {
        stride[stages] = s;
        s *= factors[2 * stages];
        ++stages;
        if (factors[2 * stages - 1] == 1) {
            break;
        }
    }
    n = s;
    for (j = 0; j < n; ++j) {
        int32_t rest = j;
        int32_t src = 0;
        for (l = 0; l < stages; ++l) {
            const int32_t span = factors[2 * l + 1];
            src += (rest / span) * stride[l];
            rest %= span;
        }
        out[2 * j] = in[2 * src];
        out[2 * j + 1] = in[2 * src + 1];
    }
    for (l = stages - 1; l >= 0; --l) {
        const int32_t radix = factors[2 * l];
        const int32_t span = factors[2 * l + 1];
        /* stride[l] is also the number of blocks of this stage: n / (radix * span). */
        for (b = 0; b < stride[l]; ++b) {
            int16_t* block = out + 2 * b * radix * span;
            if (radix == 4) {
                radix4(block, stride[l], span, tw);
            } else {
                radix2(block, stride[l], span, tw);
            }
        }
    }
}

void aot_signal_rfft_s16(const int16_t* input, int16_t* output, int32_t frames, int32_t frame_length, int32_t half,
                         const int32_t* factors, const int16_t* twiddles, const int16_t* split_twiddles,
                         int16_t* scratch)
{
    int16_t* padded = scratch;              /* 2 * half samples */
    int16_t* spectrum = scratch + 2 * half; /* half complex values */
    int32_t f, i, k;
    for (f = 0; f < frames; ++f) {
        const int16_t* x = input + f * frame_length;
        int16_t* y = output + f * 2 * (half + 1);
        int16_t dc[2];
        for (i = 0; i < 2 * half; ++i) {
            padded[i] = i < frame_length ? x[i] : 0;
        }
        /* The real frame read as half complex values (even samples real, odd imaginary). */
        transform(spectrum, padded, factors, twiddles);
        dc[0] = spectrum[0];
        dc[1] = spectrum[1];
        divide(dc, 2);
        y[0] = aot_sig_wrap16(dc[0] + dc[1]);
        y[1] = 0;
        y[2 * half] = aot_sig_wrap16(dc[0] - dc[1]);
        y[2 * half + 1] = 0;
        for (k = 1; k <= half / 2; ++k) {
            int16_t p[2], n[2], sum[2], diff[2], t[2];
            p[0] = spectrum[2 * k];
            p[1] = spectrum[2 * k + 1];
            n[0] = spectrum[2 * (half - k)];
            n[1] = aot_sig_wrap16(-(int32_t)spectrum[2 * (half - k) + 1]);
            divide(p, 2);
            divide(n, 2);
            sum[0] = aot_sig_wrap16(p[0] + n[0]);
            sum[1] = aot_sig_wrap16(p[1] + n[1]);
            diff[0] = aot_sig_wrap16(p[0] - n[0]);
            diff[1] = aot_sig_wrap16(p[1] - n[1]);
            cmul(t, diff, split_twiddles + 2 * (k - 1));
            /* Bin k first, then bin half - k: at k = half / 2 they are the same bin and the second write stays. */
            y[2 * k] = aot_sig_wrap16(aot_sig_asr(sum[0] + t[0], 1));
            y[2 * k + 1] = aot_sig_wrap16(aot_sig_asr(sum[1] + t[1], 1));
            y[2 * (half - k)] = aot_sig_wrap16(aot_sig_asr(sum[0] - t[0], 1));
            y[2 * (half - k) + 1] = aot_sig_wrap16(aot_sig_asr(t[1] - sum[1], 1));
        }
    }
}
