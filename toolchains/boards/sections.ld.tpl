/* aot_rules linker script template, filled per firmware from its aot_board (regions) and placement
 * (aot_rules/private/link_layout.bzl). Vectors, code, rodata and the .data load image go to the code region;
 * .data, .bss, heap and stack to the RAM region. What the firmware's placement puts elsewhere (weights,
 * workspace, state, I/O buffers: the input sections generated code names, .rodata.aot_weights.<prefix> and
 * .bss.aot_<kind>.<...>) gets an output section in that region, before the generic patterns that would
 * otherwise catch it. Every kind is framed by __aot_<kind>_start / _end wherever it lands (the image report
 * reads them). Placed RAM sections are zeroed at reset from the table __aot_zero_table_start .. _end.
 * The stack sits at the top of the RAM region and is painted at reset so its high-water mark can be measured.
 * A board's own template may use the same placeholders. */
ENTRY(aot_reset_handler)

MEMORY
{
%AOT_MEMORY%
}

__aot_stack_size = %AOT_STACK_SIZE%;

SECTIONS
{
  .vectors : { KEEP(*(.vectors)) } > %AOT_CODE%

  .text :
  {
    *(.text .text.*)
    KEEP(*(.init))
    KEEP(*(.fini))
  } > %AOT_CODE%

%AOT_PLACED_SECTIONS%
  .rodata :
  {
%AOT_CODE_KINDS%
    *(.rodata .rodata.*)
  } > %AOT_CODE%

  .aot_zero_table : ALIGN(4)
  {
    __aot_zero_table_start = .;
%AOT_ZERO_TABLE%
    __aot_zero_table_end = .;
  } > %AOT_CODE%

  .ARM.extab : { *(.ARM.extab* .gnu.linkonce.armextab.*) } > %AOT_CODE%
  .ARM.exidx :
  {
    __exidx_start = .;
    *(.ARM.exidx* .gnu.linkonce.armexidx.*)
    __exidx_end = .;
  } > %AOT_CODE%

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
  } > %AOT_CODE%

  .data : ALIGN(8)
  {
    __data_start__ = .;
    *(.data .data.*)
    . = ALIGN(8);
    __data_end__ = .;
  } > %AOT_RAM% AT > %AOT_CODE%
  __data_load__ = LOADADDR(.data);

  .bss (NOLOAD) : ALIGN(8)
  {
    __bss_start__ = .;
%AOT_RAM_KINDS%
    *(.bss .bss.*)
    *(COMMON)
    . = ALIGN(8);
    __bss_end__ = .;
  } > %AOT_RAM%

  /* newlib's sbrk grows the heap from `end` towards the stack. */
  .heap (NOLOAD) : ALIGN(8)
  {
    end = .;
    _end = .;
    __end__ = .;
    . = ORIGIN(%AOT_RAM%) + LENGTH(%AOT_RAM%) - __aot_stack_size;
  } > %AOT_RAM%

  .stack (NOLOAD) : ALIGN(8)
  {
    __stack_bottom = .;
    . += __aot_stack_size;
    __stack_top = .;
  } > %AOT_RAM%

  ASSERT(__stack_top <= ORIGIN(%AOT_RAM%) + LENGTH(%AOT_RAM%), "aot_rules: %AOT_RAM% overflow (data + bss + stack do not fit)")
}
