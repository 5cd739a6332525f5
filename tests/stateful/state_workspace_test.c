/* aot_workspace with a stateful and a stateless model: shared workspace, separate state (see BUILD.bazel). */
#include <stdio.h>
#include <string.h>

#include "shared_ws.h"

static int8_t frames[LSTM_SERVING_DEFAULT_FIXED_INPUT_0_SIZE];

int main(void)
{
    int8_t first[LSTM_STATEFULPARTITIONEDCALL_0_SIZE], later[LSTM_STATEFULPARTITIONEDCALL_0_SIZE];
    int8_t x = 0, y = 0;
    struct lstm_inputs in;
    struct lstm_outputs out;
    struct hello_inputs hin;
    struct hello_outputs hout;
    unsigned i;
    for (i = 0; i < sizeof frames; i++) {
        frames[i] = (int8_t)((i * 37u) & 0x7f);
    }
    in.serving_default_fixed_input_0 = frames;
    hin.serving_default_dense_input_0 = &x;
    hout.statefulpartitionedcall_0 = &y;
    /* The state is the LSTM's alone, outside the shared workspace; the stateless model has none. */
    if (SHARED_WS_STATE_BYTES != LSTM_STATE_SIZE || SHARED_WS_HELLO_STATE_BYTES != 0u) return 10;
    if (lstm_reset(SHARED_WS_STATE_LSTM) != 0) return 11;
    out.statefulpartitionedcall_0 = first;
    if (lstm_run(&in, &out, SHARED_WS_LSTM, SHARED_WS_STATE_LSTM) != 0) return 12;
    if (hello_run(&hin, &hout, SHARED_WS_HELLO) != 0) return 13;
    out.statefulpartitionedcall_0 = later;
    if (lstm_run(&in, &out, SHARED_WS_LSTM, SHARED_WS_STATE_LSTM) != 0) return 14;
    /* After a reset the sequence starts over: the first answer again (carrying the state across runs is checked
     * bit-exactly against TFLite Micro by //tests/models:lstm_exact_test). */
    if (lstm_reset(SHARED_WS_STATE_LSTM) != 0 || lstm_run(&in, &out, SHARED_WS_LSTM, SHARED_WS_STATE_LSTM) != 0)
        return 16;
    if (memcmp(first, later, sizeof first) != 0) return 17;
    printf("workspace %u B shared, state %u B separate\n", (unsigned)SHARED_WS_SIZE, (unsigned)SHARED_WS_STATE_BYTES);
    return 0;
}
