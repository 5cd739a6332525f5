load("@aot_rules//aot_rules:defs.bzl", "aot_firmware", "aot_qemu_test")

aot_firmware(
    name = "hello",
    srcs = ["hello.c"],
    board = "mps2-an386",
)

aot_qemu_test(
    name = "hello_test",
    firmware = ":hello",
)
