"""Public API of aot_rules. Load rules from here only; everything else is private and may change.

- `aot_firmware`: a firmware ELF (+ .bin and size report) for one board, through a platform transition.
- `aot_qemu_test`: runs a firmware under QEMU; the guest's exit code is the test result (tagged `qemu`).
- `AotFirmwareInfo`: provider of `aot_firmware`.
"""

load("//aot_rules/private:firmware.bzl", _aot_firmware = "aot_firmware")
load("//aot_rules/private:providers.bzl", _AotFirmwareInfo = "AotFirmwareInfo")
load("//aot_rules/private:qemu_test.bzl", _aot_qemu_test = "aot_qemu_test")

aot_firmware = _aot_firmware
aot_qemu_test = _aot_qemu_test
AotFirmwareInfo = _AotFirmwareInfo
