/*
 * aot_putchar() on USART1 of an STM32F405/407 (ST RM0090 section 30.6: USART_SR at +0x00, USART_DR at +0x04,
 * USART_CR1 at +0x0C; RCC_APB2ENR bit 4 clocks USART1). Enough for QEMU's netduinoplus2, which models the USART
 * registers but not baud rates or pins; on the real chip also route PA9 to AF7 and set USART_BRR for your clock.
 */
#include <stdint.h>

#include "aot_board_io.h"

#define RCC_APB2ENR   (*(volatile uint32_t*)0x40023844u)
#define USART1_SR     (*(volatile uint32_t*)0x40011000u)
#define USART1_DR     (*(volatile uint32_t*)0x40011004u)
#define USART1_CR1    (*(volatile uint32_t*)0x4001100Cu)
#define USART_SR_TXE  (1u << 7)
#define USART_CR1_UE  (1u << 13)
#define USART_CR1_TE  (1u << 3)
#define RCC_USART1_EN (1u << 4)

void aot_putchar(unsigned char c)
{
    if ((USART1_CR1 & USART_CR1_UE) == 0u) {
        RCC_APB2ENR |= RCC_USART1_EN;
        USART1_CR1 = USART_CR1_UE | USART_CR1_TE;
    }
    while ((USART1_SR & USART_SR_TXE) == 0u) {
    }
    USART1_DR = c;
}
