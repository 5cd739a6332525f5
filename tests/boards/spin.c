/* A firmware that never exits: the runner's timeout must end it and fail the test. */
int main(void)
{
    for (;;) {
        __asm__ volatile("nop");
    }
}
