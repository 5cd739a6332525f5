/* The fast float32 fully connected layer for every batch (fully_connected_f32_gemm_body.h): pairs of rows through
 * the GEMM tile. */
#define AOT_FC_F32_ENTRY   aot_fully_connected_f32_gemm
#define AOT_FC_F32_ONE_ROW 0
#include "fully_connected_f32_gemm_body.h"
