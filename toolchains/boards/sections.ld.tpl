/* aot_rules linker script, shared by every board: MEMORY comes from toolchains/cores.bzl (BOARDS).
 * Vectors, code, rodata (model weights) and the .data load image go to FLASH; .data, .bss, heap and stack to RAM.
 * The stack sits at the top of RAM and is painted at reset so its high-water mark can be measured. */
ENTRY(aot_reset_handler)

MEMORY
{
  FLASH (rx)  : ORIGIN = %FLASH_ORIGIN%, LENGTH = %FLASH_LENGTH%
  RAM   (rwx) : ORIGIN = %RAM_ORIGIN%, LENGTH = %RAM_LENGTH%
}

__aot_stack_size = %STACK_SIZE%;

SECTIONS
{
  .vectors : { KEEP(*(.vectors)) } > FLASH

  .text :
  {
    *(.text .text.*)
    KEEP(*(.init))
    KEEP(*(.fini))
  } > FLASH

  .rodata : { *(.rodata .rodata.*) } > FLASH

  .ARM.extab : { *(.ARM.extab* .gnu.linkonce.armextab.*) } > FLASH
  .ARM.exidx :
  {
    __exidx_start = .;
    *(.ARM.exidx* .gnu.linkonce.armexidx.*)
    __exidx_end = .;
  } > FLASH

  .init_array :
  {
    PROVIDE_HIDDEN(__preinit_array_start = .);
    KEEP(*(.preinit_array))
    PROVIDE_HIDDEN(__preinit_array_end = .);
    PROVIDE_HIDDEN(__init_array_start = .);
    KEEP(*(SORT(.init_array.*)))
    KEEP(*(.init_array))
    PROVIDE_HIDDEN(__init_array_end = .);
    PROVIDE_HIDDEN(__fini_array_start = .);
    KEEP(*(SORT(.fini_array.*)))
    KEEP(*(.fini_array))
    PROVIDE_HIDDEN(__fini_array_end = .);
  } > FLASH

  .data : ALIGN(8)
  {
    __data_start__ = .;
    *(.data .data.*)
    . = ALIGN(8);
    __data_end__ = .;
  } > RAM AT > FLASH
  __data_load__ = LOADADDR(.data);

  .bss (NOLOAD) : ALIGN(8)
  {
    __bss_start__ = .;
    *(.bss .bss.*)
    *(COMMON)
    . = ALIGN(8);
    __bss_end__ = .;
  } > RAM

  /* newlib's sbrk grows the heap from `end` towards the stack. */
  .heap (NOLOAD) : ALIGN(8)
  {
    end = .;
    _end = .;
    __end__ = .;
    . = ORIGIN(RAM) + LENGTH(RAM) - __aot_stack_size;
  } > RAM

  .stack (NOLOAD) : ALIGN(8)
  {
    __stack_bottom = .;
    . += __aot_stack_size;
    __stack_top = .;
  } > RAM

  ASSERT(__stack_top <= ORIGIN(RAM) + LENGTH(RAM), "aot_rules: RAM overflow (data + bss + stack do not fit)")
}
