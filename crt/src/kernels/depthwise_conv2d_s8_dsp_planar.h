/* The planar 3x3 depthwise kernel of depthwise_conv2d_s8_dsp.c, included there once per requantization:
 * AOT_DW_PLANAR_NAME is the entry point, AOT_DW_PLANAR_REQUANT the function that requantizes a chunk of doubled
 * accumulators of one channel (aot_dw_requant: the short form; aot_dw_requant_exact: TFLite's in full), and
 * AOT_DW_PLANAR_FUSED 1 where the fused stride-1 loop (short form, full range) may be used.  One text
 * for both keeps the ordinary entry point's code what it was. */
void AOT_DW_PLANAR_NAME(const int8_t* input, int32_t batches, int32_t channels, int32_t in_rows, int32_t in_cols,
                        int32_t in_row_step, int32_t in_col_step, const int8_t* filter, const int32_t* bias,
                        int8_t* output, int32_t out_rows, int32_t out_cols, int32_t out_row_step, int32_t out_col_step,
                        int32_t stride_r, int32_t stride_c, int32_t pad_r, int32_t pad_c, int32_t input_zero_point,
                        const int32_t* out_multiplier, const int32_t* out_add, int32_t act_min, int32_t act_max,
                        int32_t* scratch)
{
    const int32_t n = stride_c <= 2 ? (out_cols + 1) & ~1 : out_cols;
    const int32_t hp = (out_rows - 1) * stride_r + 3;
    const int32_t wp = ((n - 1) * stride_c + 3 + 1) & ~1;
    const int32_t plane_cells = hp * wp;
    const int32_t chunk_max = AOT_DW_ACC_CELLS / n;
    const int32_t chunk = chunk_max < 1 ? 1 : (chunk_max > out_rows ? out_rows : chunk_max);
    /* Input rows/columns the planes hold (the others are never read by any output; none when an explicit
     * padding is wider than what the windows cover). */
    const int32_t r_end = in_rows < hp - pad_r ? in_rows : (hp - pad_r > 0 ? hp - pad_r : 0);
    const int32_t c_end = in_cols < wp - pad_c ? in_cols : (wp - pad_c > 0 ? wp - pad_c : 0);
    const int32_t image = in_rows * in_cols * channels;
    /* Stride 1 over the full int8 range: accumulation and requantization in one loop per channel, without the
     * accumulators (compiler/ops/kernels/conv.py, dsp_3x3_scratch, mirrors the condition). */
    const int32_t fused = AOT_DW_PLANAR_FUSED && stride_c == 1 && out_cols >= 2 && act_min <= -128 && act_max >= 127;
    int32_t* const accs = scratch;
    int16_t* const planes = (int16_t*)(void*)(scratch + (fused ? 0 : chunk * n));
    int16_t* const interior = planes + pad_r * wp + pad_c;
    struct aot_dw_acc_job aj;
    struct aot_dw_rq_job rq;
#if AOT_DW_PLANAR_FUSED
    struct aot_dw_fused_job fj;
#endif
    int32_t b, c, i, y, x;

    /* The geometry of a full chunk, for every channel (the last, part chunk changes the row counts). */
    aj.acc = accs;
    aj.acc_end = accs + chunk * n;
    aj.wp_bytes = 2 * wp;
    aj.skip_bytes = 2 * (stride_r * wp - n);
    aj.row_bytes = 4 * n;
    aj.odd = (n / 2) & 1;
    rq.acc = accs;
    rq.singles = out_cols & 3;
    rq.quad_bytes = 4 * (out_cols & ~3);
    rq.a_skip_bytes = 4 * (n - out_cols);
    rq.o_skip = out_row_step - out_cols * out_col_step;
    rq.step = out_col_step;
    rq.rows = chunk;
    rq.n = n;
    rq.cols = out_cols;
    rq.row_step = out_row_step;
    rq.act_min = act_min;
    rq.act_max = act_max;
#if AOT_DW_PLANAR_FUSED
    fj.bias = bias;
    fj.mult = out_multiplier;
    fj.add = out_add;
    fj.out = output;
    fj.wp_bytes = 2 * wp;
    fj.skip_bytes = 2 * (stride_r * wp - n);
    fj.odd = (out_cols / 2) & 1;
    fj.tail = out_cols & 1;
    fj.row_span = 2 * (out_cols / 2) * out_col_step;
    fj.o_skip = out_row_step - fj.row_span;
    fj.rows = out_rows;
    fj.step = out_col_step;
#endif
    for (i = 0; i < 2 * plane_cells; i++) {
        planes[i] = (int16_t)input_zero_point;
    }
    for (b = 0; b < batches; b++) {
        for (c = 0; c < channels; c += 2) {
            const int8_t* src = input + b * image + c;
            const int32_t pair = c + 1 < channels;
            int32_t k;
            for (y = 0; y < r_end; y++) {
                if (pair) {
                    aot_dw_copy_row2(src + y * in_row_step, in_col_step, interior + y * wp, plane_cells, c_end);
                } else {
                    aot_dw_copy_row(src + y * in_row_step, in_col_step, interior + y * wp, c_end);
                }
            }
#if AOT_DW_PLANAR_FUSED
            if (fused) {
                AOT_DW_ROWS_S1_RQ(&fj, planes, filter + 9 * c, c);
                if (pair) {
                    AOT_DW_ROWS_S1_RQ(&fj, planes + plane_cells, filter + 9 * (c + 1), c + 1);
                }
                continue;
            }
#endif
            for (k = 0; k <= pair; k++) {
                const int16_t* const plane = planes + k * plane_cells;
                /* The channel's nine weights, row by row. */
                const int8_t* const f = filter + 9 * (c + k);
                const int32_t bc = bias[c + k], m = out_multiplier[c + k], add = out_add[c + k];
                int8_t* const out = output + c + k;
                uint32_t w[6];
                int32_t y0;
                if (stride_c != 1) {
                    aot_dw_pairs(f, w);
                }
                /* A chunk of plane rows at a time: accumulate them (weights in registers), then requantize. */
                for (y0 = 0; y0 < out_rows; y0 += chunk) {
                    const int32_t rows = out_rows - y0 < chunk ? out_rows - y0 : chunk;
                    const int16_t* const r0 = plane + y0 * stride_r * wp;
                    if (rows != rq.rows) {
                        aj.acc_end = accs + rows * n;
                        rq.rows = rows;
                    }
                    if (stride_c == 1) {
                        AOT_DW_ROWS_S1(&aj, r0, f, bc);
                    } else if (stride_c == 2) {
                        aot_dw_rows_s2(r0, wp, stride_r * wp, rows, n, w, bc, accs);
                    } else {
                        for (y = 0; y < rows; y++) {
                            for (x = 0; x < n; x++) {
                                accs[y * n + x] = aot_dw_window(r0 + y * stride_r * wp + x * stride_c, wp, w, bc);
                            }
                        }
                    }
                    AOT_DW_PLANAR_REQUANT(&rq, out + y0 * out_row_step, m, add);
                }
            }
        }
        output += out_rows * out_cols * channels;
#if AOT_DW_PLANAR_FUSED
        fj.out = output;
#endif
    }
}
