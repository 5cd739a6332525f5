/* The timing model's tables and Thumb-2 decoder (see cycle_model.h).
 *
 * Sources of the per-core figures: Cortex-M4 Technical Reference Manual (r0p1) table 3-1 "Processor instruction set
 * summary", section 3.3.2 "Load/store timings" and table 7-1 (FPU); Cortex-M55: Arm's description of its beat-wise
 * (dual-beat) MVE execution, where a 128-bit vector instruction takes two cycles and overlaps by one cycle with a
 * following vector instruction that uses another part of the datapath (memory, multiplier, integer ALU, floating
 * point), and of the low-overhead-branch loop cache (an LE that loops costs nothing once the loop is cached).
 * Where a TRM gives a range, the middle is taken: a divide costs 7 (2 to 12), a pipeline refill P costs 2 (1 to 3).
 * What is not modelled: wait states, caches and bus contention (a zero-wait-state TCM system), operand-dependent
 * early termination, register dependencies between scalar instructions (load-use stalls of the M55's longer
 * pipeline), dual issue, and overlap of scalar with vector instructions. */
#include "cycle_model.h"

#include <stddef.h>
#include <string.h>

/*                               ALU MUL MULL DIV DSP LDR LIT STR STRr LDRD STRD LDM STM BR BRc BRi TBB IT NOP BAR SYS
 *                               FPalu FPmac FPdiv FPld FPst FPldm FPmov LOBs LOBe LOBo
 *                               MVEld MVEst MVEgat MVEmac MVEalu MVEfp MVElane MVEpred UNKNOWN */
/* clang-format off */
static const struct cy_core CORES[] = {
    {"cortex-m4",
     {1, 1, 1,  7, 1, 2, 2, 1, 2, 3, 3, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, /* scalar */
      1, 3, 14, 2, 2, 1, 1, 1, 1, 1,                                  /* FPU, (no LOB on v7E-M) */
      1, 1, 1,  1, 1, 1, 1, 1, 1},                                    /* (no MVE on v7E-M) */
     .refill = 2, .ldm_per_reg = 1, .ld_pipelined = 1, .vector_overlap = 0, .le_taken = 1},
    {"cortex-m55",
     {1, 1, 1,  7, 1, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, /* scalar */
      1, 1, 14, 1, 1, 1, 1, 1, 1, 1,                                  /* FPU, LOB */
      2, 2, 4,  2, 2, 2, 1, 1, 1},                                    /* MVE: two beats per cycle */
     .refill = 2, .ldm_per_reg = 1, .ld_pipelined = 0, .vector_overlap = 1, .le_taken = 0},
};
/* clang-format on */

static const char* const NAMES[CY_N_CLASSES] = {
    "alu",       "mul",    "mull",   "div",        "dsp",     "ldr",     "ldr_lit", "str",      "str_reg",   "ldrd",
    "strd",      "ldm",    "stm",    "br",         "br_cond", "br_ind",  "tbb",     "it",       "nop",       "barrier",
    "sys",       "fp_alu", "fp_mac", "fp_div",     "fp_ld",   "fp_st",   "fp_ldm",  "fp_mov",   "lob_start", "lob_end",
    "lob_other", "mve_ld", "mve_st", "mve_gather", "mve_mac", "mve_alu", "mve_fp",  "mve_lane", "mve_pred",  "unknown",
};

struct mve_entry {
    uint32_t mask, value;
    uint8_t cls;
};

static const struct mve_entry MVE[] = {
#include "cycle_mve_table.inc"
};

const struct cy_core* cy_core_by_name(const char* name)
{
    for (size_t i = 0; i < sizeof CORES / sizeof CORES[0]; ++i) {
        if (strcmp(CORES[i].name, name) == 0) return &CORES[i];
    }
    return NULL;
}

const char* cy_class_name(int cls)
{
    return cls >= 0 && cls < CY_N_CLASSES ? NAMES[cls] : "?";
}

static int popcount16(uint32_t x)
{
    int n = 0;
    for (x &= 0xFFFFu; x != 0; x &= x - 1) ++n;
    return n;
}

static void set(struct cy_insn* o, int cls)
{
    o->cls = (uint8_t)cls;
}

static void single(struct cy_insn* o, int cls, int rt, int rn, int rm)
{
    o->cls = (uint8_t)cls;
    o->rt = (int8_t)rt;
    o->rn = (int8_t)rn;
    o->rm = (int8_t)rm;
}

static void decode16(uint32_t hw, struct cy_insn* o)
{
    if (hw < 0x4000u) return set(o, CY_ALU);
    if ((hw & 0xFFC0u) == 0x4340u) return set(o, CY_MUL); /* MULS */
    if (hw < 0x4400u) return set(o, CY_ALU);
    if (hw < 0x4800u) {
        if ((hw & 0xFF00u) == 0x4700u) return set(o, CY_BR_IND); /* BX, BLX */
        int rd = (int)(((hw >> 4) & 8u) | (hw & 7u));
        if ((hw & 0xFF00u) != 0x4500u && rd == 15) { /* ADD PC / MOV PC */
            o->writes_pc = 1;
            return set(o, CY_BR_IND);
        }
        return set(o, CY_ALU);
    }
    if (hw < 0x5000u) return single(o, CY_LDR_LIT, (int)((hw >> 8) & 7u), 15, -1);
    if (hw < 0x6000u) {
        int op = (int)((hw >> 9) & 7u);
        return single(o, op < 3 ? CY_STR_REG : CY_LDR, (int)(hw & 7u), (int)((hw >> 3) & 7u), (int)((hw >> 6) & 7u));
    }
    if (hw < 0x9000u) return single(o, (hw & 0x0800u) ? CY_LDR : CY_STR, (int)(hw & 7u), (int)((hw >> 3) & 7u), -1);
    if (hw < 0xA000u) return single(o, (hw & 0x0800u) ? CY_LDR : CY_STR, (int)((hw >> 8) & 7u), 13, -1);
    if (hw < 0xB000u) return set(o, CY_ALU); /* ADR, ADD Rd, SP */
    if (hw < 0xC000u) {
        if ((hw & 0xF500u) == 0xB100u) { /* CBZ, CBNZ */
            o->cond = 1;
            return set(o, CY_BR_COND);
        }
        if ((hw & 0xFE00u) == 0xB400u) { /* PUSH */
            o->nregs = (uint8_t)(popcount16(hw & 0xFFu) + ((hw >> 8) & 1u));
            return set(o, CY_STM);
        }
        if ((hw & 0xFE00u) == 0xBC00u) { /* POP */
            o->nregs = (uint8_t)(popcount16(hw & 0xFFu) + ((hw >> 8) & 1u));
            o->writes_pc = (uint8_t)((hw >> 8) & 1u);
            return set(o, CY_LDM);
        }
        if ((hw & 0xFF00u) == 0xBF00u) return set(o, (hw & 0xFu) ? CY_IT : CY_NOP);
        if ((hw & 0xFF00u) == 0xBE00u || (hw & 0xFFE0u) == 0xB660u) return set(o, CY_SYS); /* BKPT, CPS */
        return set(o, CY_ALU); /* ADD/SUB SP, extends, REV */
    }
    if (hw < 0xD000u) {
        o->nregs = (uint8_t)popcount16(hw & 0xFFu);
        return set(o, (hw & 0x0800u) ? CY_LDM : CY_STM);
    }
    if (hw < 0xE000u) {
        if ((hw & 0x0E00u) == 0x0E00u) return set(o, CY_SYS); /* UDF, SVC */
        o->cond = 1;
        return set(o, CY_BR_COND);
    }
    return set(o, CY_BR); /* B */
}

/* Coprocessor space: MVE (the generated table) first, then the FPU's encodings (coprocessors 10 and 11). */
static void decode_coproc(uint32_t hw1, uint32_t hw2, struct cy_insn* o)
{
    uint32_t word = (hw1 << 16) | hw2;
    if ((hw1 & 0xEE00u) == 0xEC00u && (hw2 & 0x0E00u) == 0x0E00u) { /* MVE loads and stores, two-lane moves */
        if ((hw1 & 0x01A0u) == 0) return set(o, CY_MVE_LANE);       /* P = U = W = 0: VMOV two lanes */
        /* P = 0, U = 1, W = 0: vector offsets and VLD2x/VLD4x; the 0xFC/0xFD prefix with bit 12: a vector base */
        if ((hw1 & 0x01A0u) == 0x0080u || ((hw1 & 0x1000u) && (hw2 & 0x1000u))) return set(o, CY_MVE_GATHER);
        return set(o, (hw1 & 0x0010u) ? CY_MVE_LD : CY_MVE_ST);
    }
    for (size_t i = 0; i < sizeof MVE / sizeof MVE[0]; ++i) {
        if ((word & MVE[i].mask) == MVE[i].value) return set(o, MVE[i].cls);
    }
    if ((hw2 & 0x0E00u) != 0x0A00u) return set(o, CY_UNKNOWN);
    if ((hw1 & 0xEE00u) == 0xEC00u) {                            /* extension register load/store, 64-bit moves */
        if ((hw1 & 0x01A0u) == 0) return set(o, CY_FP_MOV);      /* VMOV two core registers */
        if ((hw1 & 0xFF30u) == 0xED10u) return set(o, CY_FP_LD); /* VLDR */
        if ((hw1 & 0xFF30u) == 0xED00u) return set(o, CY_FP_ST); /* VSTR */
        o->nregs = (uint8_t)((hw2 & 0x0100u) ? (hw2 & 0xFFu) / 2 : (hw2 & 0xFFu));
        return set(o, CY_FP_LDM);
    }
    if ((hw1 & 0xEF00u) != 0xEE00u) return set(o, CY_UNKNOWN);
    if (hw2 & 0x0010u) return set(o, CY_FP_MOV); /* VMOV core <-> S, VMRS, VMSR */
    switch (((hw1 >> 4) & 0xBu)) {
    case 0x0: /* VMLA, VMLS */
    case 0x1: /* VNMLA, VNMLS */
    case 0x9: /* VFNMA, VFNMS */
    case 0xA: /* VFMA, VFMS */
        return set(o, CY_FP_MAC);
    case 0x8:
        return set(o, CY_FP_DIV);
    case 0xB:
        if ((hw1 & 0x000Fu) == 0x1u && (hw2 & 0x00C0u) == 0x00C0u) return set(o, CY_FP_DIV); /* VSQRT */
        return set(o, CY_FP_ALU);
    default:
        return set(o, CY_FP_ALU); /* VMUL, VNMUL, VADD, VSUB */
    }
}

static void decode_ldst_single(uint32_t hw1, uint32_t hw2, struct cy_insn* o)
{
    int load = (hw1 >> 4) & 1u, rn = (int)(hw1 & 0xFu), rt = (int)(hw2 >> 12);
    int reg = !(hw1 & 0x0080u) && (hw2 & 0x0FC0u) == 0;
    int word = (hw1 & 0x0060u) == 0x0040u;
    if (!load) return single(o, reg ? CY_STR_REG : CY_STR, rt, rn, reg ? (int)(hw2 & 0xFu) : -1);
    if (rt == 15 && !word) return set(o, CY_NOP); /* PLD, PLI */
    if (rt == 15) o->writes_pc = 1;               /* LDR PC */
    if (rn == 15) return single(o, CY_LDR_LIT, rt, rn, -1);
    return single(o, CY_LDR, rt, rn, reg ? (int)(hw2 & 0xFu) : -1);
}

static void decode32(uint32_t hw1, uint32_t hw2, struct cy_insn* o)
{
    uint32_t op1 = (hw1 >> 11) & 3u;
    if (op1 == 1) {
        if ((hw1 & 0x0600u) == 0) {
            if (!(hw1 & 0x0040u)) { /* LDM, STM */
                o->nregs = (uint8_t)popcount16(hw2);
                if ((hw1 & 0x0010u) && (hw2 & 0x8000u)) o->writes_pc = 1;
                return set(o, (hw1 & 0x0010u) ? CY_LDM : CY_STM);
            }
            if ((hw1 & 0x0120u) != 0) return set(o, (hw1 & 0x0010u) ? CY_LDRD : CY_STRD);
            if ((hw1 & 0xFFF0u) == 0xE8D0u && (hw2 & 0xFFE0u) == 0xF000u) return set(o, CY_TBB);
            return single(o, (hw1 & 0x0010u) ? CY_LDR : CY_STR, (int)(hw2 >> 12), (int)(hw1 & 0xFu),
                          -1); /* exclusives */
        }
        if ((hw1 & 0x0600u) == 0x0200u) return set(o, CY_ALU); /* data processing, shifted register */
        return decode_coproc(hw1, hw2, o);
    }
    if (op1 == 2) {
        if (!(hw2 & 0x8000u)) return set(o, CY_ALU);         /* data processing, immediate */
        if ((hw2 & 0xD001u) == 0xC001u) {                    /* Armv8.1-M low-overhead branches, VCTP, branch future */
            if (hw2 == 0xE801u) return set(o, CY_LOB_OTHER); /* VCTP */
            if ((hw2 & 0xF001u) == 0xE001u) return set(o, CY_LOB_START); /* DLS, DLSTP */
            if ((hw2 & 0xF001u) == 0xC001u && (hw1 & 0xFFC0u) == 0xF000u && (hw1 & 0xFu) == 0xFu) {
                o->cond = 1; /* LE, LETP */
                return set(o, CY_LOB_END);
            }
            if ((hw2 & 0xF001u) == 0xC001u && (hw1 & 0xFF80u) == 0xF000u) { /* WLS, WLSTP */
                o->cond = 1;
                return set(o, CY_LOB_START);
            }
            return set(o, CY_LOB_OTHER);
        }
        if ((hw2 & 0x5000u) == 0x5000u || (hw2 & 0x5000u) == 0x1000u) return set(o, CY_BR); /* BL, B.W */
        if ((hw2 & 0x5000u) == 0x0000u) {
            if ((hw1 & 0x0380u) != 0x0380u) { /* B<c>.W */
                o->cond = 1;
                return set(o, CY_BR_COND);
            }
            if ((hw1 & 0xFFF0u) == 0xF3B0u && (hw2 & 0xFF00u) == 0x8F00u) return set(o, CY_BARRIER);
            if ((hw1 & 0xFFF0u) == 0xF3A0u) return set(o, CY_NOP); /* hints */
            return set(o, CY_SYS);                                 /* MRS, MSR */
        }
        return set(o, CY_UNKNOWN);
    }
    /* op1 == 3 */
    if ((hw1 & 0x0600u) == 0x0000u) {
        if ((hw1 & 0x0100u) && !(hw1 & 0x0010u)) return set(o, CY_UNKNOWN); /* Advanced SIMD element load/store */
        if ((hw1 & 0x0070u) == 0x0070u) return set(o, CY_UNKNOWN);
        return decode_ldst_single(hw1, hw2, o);
    }
    if ((hw1 & 0x0780u) == 0x0200u || (hw1 & 0x0780u) == 0x0280u) { /* 0xFA: data processing (register) */
        if ((hw2 & 0xF000u) != 0xF000u) return set(o, CY_UNKNOWN);
        if (!(hw1 & 0x0080u) && (hw2 & 0x0080u) == 0) return set(o, CY_ALU); /* shifts by register */
        if (!(hw1 & 0x0080u)) return set(o, CY_ALU);                         /* extend (and add) */
        return set(o, CY_DSP); /* parallel add/sub, saturating, REV, RBIT, CLZ, SEL */
    }
    if ((hw1 & 0x0780u) == 0x0300u) return set(o, CY_MUL); /* 0xFB00-0xFB7F: 32-bit multiplies, MACs, USAD8 */
    if ((hw1 & 0x0780u) == 0x0380u) {                      /* 0xFB80-0xFBFF: long multiplies, divides */
        if ((hw1 & 0x0050u) == 0x0010u && (hw2 & 0x00F0u) == 0x00F0u) return set(o, CY_DIV); /* SDIV, UDIV */
        return set(o, CY_MULL);
    }
    return decode_coproc(hw1, hw2, o);
}

void cy_decode(uint32_t hw1, uint32_t hw2, int size, struct cy_insn* out)
{
    memset(out, 0, sizeof *out);
    out->rt = out->rn = out->rm = -1;
    if (size == 2) {
        decode16(hw1 & 0xFFFFu, out);
    } else if (size == 4) {
        decode32(hw1 & 0xFFFFu, hw2 & 0xFFFFu, out);
    } else {
        out->cls = CY_UNKNOWN;
    }
    switch (out->cls) {
    case CY_MVE_LD:
    case CY_MVE_ST:
    case CY_MVE_GATHER:
        out->group = CY_G_MEM;
        break;
    case CY_MVE_MAC:
        out->group = CY_G_MAC;
        break;
    case CY_MVE_ALU:
        out->group = CY_G_ALU;
        break;
    case CY_MVE_FP:
        out->group = CY_G_FP;
        break;
    default:
        out->group = CY_G_NONE;
        break;
    }
}

static int is_single_load(const struct cy_insn* i)
{
    return (i->cls == CY_LDR || i->cls == CY_LDR_LIT) && !i->writes_pc;
}

int cy_cycles(const struct cy_core* core, const struct cy_insn* in, const struct cy_insn* prev)
{
    int c = core->cost[in->cls];
    if (in->nregs) c += core->ldm_per_reg * in->nregs;
    if (in->writes_pc || in->cls == CY_BR || in->cls == CY_BR_IND || in->cls == CY_TBB) c += core->refill;
    if (prev == NULL) return c;
    /* M4: a load or store after a single load overlaps its address phase with the load's data phase, unless its
     * address uses the loaded register. */
    if (core->ld_pipelined && is_single_load(prev) && !in->writes_pc &&
        (in->cls == CY_LDR || in->cls == CY_LDR_LIT || in->cls == CY_STR_REG || in->cls == CY_STR) &&
        in->rn != prev->rt && in->rm != prev->rt && c > 1)
        c -= 1;
    if (core->vector_overlap && in->group != CY_G_NONE && prev->group != CY_G_NONE && in->group != prev->group) c -= 1;
    return c;
}

int cy_taken_extra(const struct cy_core* core, const struct cy_insn* in)
{
    if (in->cls == CY_LOB_END) return (int)core->le_taken - (int)core->cost[CY_LOB_END];
    return core->refill;
}

int cy_is_conditional(const struct cy_insn* in)
{
    return in->cond;
}
