# CMake toolchain file: arm-none-eabi-gcc for a Cortex-M4 with single-precision FPU (e.g. QEMU mps2-an386, STM32F4,
# nRF52). For another core change CORE_FLAGS (toolchains/cores.bzl lists each core's flags).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CORE_FLAGS "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16")
set(CMAKE_C_FLAGS_INIT "${CORE_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${CORE_FLAGS} -Wl,--gc-sections")
