"""One core's weights-blob test (tests/weights_blob): the library of blob_a_int8.tflite with weights = "blob", B's blob
for its code, A's blob linked in the weights section, the firmware and its QEMU test, which loads A's, B's and another architecture's blob at `slots`.
A package per core, since the library's generated files are named after its prefix, `bm`, on every core."""

load("//aot_rules:defs.bzl", "aot_firmware", "aot_model_library", "aot_qemu_test", "aot_weights_blob")

def blob_qemu_test(board, core, slots):
    """The package's library `bm`, blobs `b` and `a_linked`, firmware `blob_fw` and test `blob_test`.

    Args:
      board: the built-in board to run on.
      core: its core, fixed on the library so the blobs made in any configuration are for the firmware's code.
      slots: the addresses QEMU writes A's, B's and another architecture's blob to.
    """
    aot_model_library(
        name = "bm",
        core = core,
        model = "//tests/weights_blob:blob_a_int8.tflite",
        # //tests/weights_blob:other_architecture makes a blob for it.
        visibility = ["//tests/weights_blob:__subpackages__"],
        weights = "blob",
    )
    aot_weights_blob(
        name = "b",
        like = ":bm",
        model = "//tests/weights_blob:blob_b_int8.tflite",
    )

    # A's blob linked into the image instead, where the firmware's placement puts the weights.
    aot_weights_blob(
        name = "a_linked",
        like = ":bm",
        model = "//tests/weights_blob:blob_a_int8.tflite",
    )
    aot_firmware(
        name = "blob_fw",
        srcs = ["//tests/weights_blob:blob_main.c"],
        board = board,
        defines = [
            "AOT_STACK_PROBE",
            "AOT_BOARD=\\\"%s\\\"" % board,
            "BLOB_SLOT_A=%su" % slots[0],
            "BLOB_SLOT_B=%su" % slots[1],
            "BLOB_SLOT_OTHER=%su" % slots[2],
        ],
        deps = [
            ":a_linked_embedded",
            ":bm",
            "//tests/weights_blob:ref_a",
            "//tests/weights_blob:ref_b",
        ],
    )
    aot_qemu_test(
        name = "blob_test",
        check_stack = True,
        firmware = ":blob_fw",
        loads = {
            ":bm_weights_blob": slots[0],
            ":b": slots[1],
            "//tests/weights_blob:other_weights_blob": slots[2],
        },
    )
