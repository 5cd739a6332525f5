/*
 * aot_putchar() on an STM32 USART of the F1/F2/F4 register layout (ST RM0090 section 30.6 for the F405/407,
 * RM0041 section 23.6 for the F100: USART_SR at +0x00, USART_DR at +0x04, USART_CR1 at +0x0C). Which USART and
 * which RCC enable bit come from the board's cc_library (boards/qemu/BUILD.bazel):
 *   AOT_USART_BASE    the USART's base address
 *   AOT_RCC_ENR       address of the RCC peripheral clock enable register of its bus
 *   AOT_RCC_USART_EN  the USART's bit in that register
 * Enough for QEMU's STM32 machines, which model the USART registers but not baud rates or pins; on the real chip
 * also route the TX pin to the USART and set USART_BRR for your clock.
 */
#include <stdint.h>

#include "aot_board_io.h"

#if !defined(AOT_USART_BASE) || !defined(AOT_RCC_ENR) || !defined(AOT_RCC_USART_EN)
#error "define AOT_USART_BASE, AOT_RCC_ENR and AOT_RCC_USART_EN (see boards/qemu/BUILD.bazel)"
#endif

#define RCC_ENR      (*(volatile uint32_t*)(AOT_RCC_ENR))
#define USART_SR     (*(volatile uint32_t*)((AOT_USART_BASE) + 0x00u))
#define USART_DR     (*(volatile uint32_t*)((AOT_USART_BASE) + 0x04u))
#define USART_CR1    (*(volatile uint32_t*)((AOT_USART_BASE) + 0x0Cu))
#define USART_SR_TXE (1u << 7)
#define USART_CR1_UE (1u << 13)
#define USART_CR1_TE (1u << 3)

void aot_putchar(unsigned char c)
{
    if ((USART_CR1 & USART_CR1_UE) == 0u) {
        RCC_ENR |= (AOT_RCC_USART_EN);
        USART_CR1 = USART_CR1_UE | USART_CR1_TE;
    }
    while ((USART_SR & USART_SR_TXE) == 0u) {
    }
    USART_DR = c;
}
