/* A firmware that faults on purpose (undefined instruction): the runner must fail and name the fault. */
int main(void)
{
    __builtin_trap();
    return 0;
}
