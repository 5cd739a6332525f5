/* The fast float32 fully connected layer one row at a time (fully_connected_f32_gemm_body.h): a unit of its own,
 * which the compiler calls for a batch of one, so that an image of such layers links no pair tile. */
#define AOT_FC_F32_ENTRY   aot_fully_connected_f32_gemm_row
#define AOT_FC_F32_ONE_ROW 1
#include "fully_connected_f32_gemm_body.h"
