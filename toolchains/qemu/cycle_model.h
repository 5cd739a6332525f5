/* Per-core timing model of Thumb/Thumb-2 (and MVE) instructions: the classes, the per-core cycle tables and the
 * decoder that maps an instruction's encoding to its class and cycles. Pure C, no QEMU: the instruction-counting
 * plugin (insn_count_plugin.c) classifies each instruction once, when QEMU translates it, and cycle_classify.c (a
 * host tool for the tests) prints the same classification for given encodings.
 *
 * An estimate, not silicon: zero wait states, no caches, no bus contention; what each class costs and where the
 * figures come from is in cycle_model.c and bench/README.md ("Estimated cycles"). */
#ifndef AOT_CYCLE_MODEL_H
#define AOT_CYCLE_MODEL_H

#include <stdint.h>

enum cy_class {
    CY_ALU,        /* data processing, moves, shifts, extends, bit fields, saturation, ADR */
    CY_MUL,        /* 32-bit result multiplies and MACs: MUL, MLA, MLS, SMULxy, SMLAxy, SMLAD, SMUAD, SMMLA, USADA8 */
    CY_MULL,       /* 64-bit result: SMULL, UMULL, SMLAL, UMLAL, SMLALD, SMLALxy, UMAAL */
    CY_DIV,        /* SDIV, UDIV */
    CY_DSP,        /* SIMD add/sub, saturating arithmetic, SEL, REV, CLZ, packing (the 0xFA register space) */
    CY_LDR,        /* single load (LDR, LDRB, LDRH, LDRSB, LDRSH, LDREX) */
    CY_LDR_LIT,    /* PC-relative load */
    CY_STR,        /* single store, immediate offset */
    CY_STR_REG,    /* single store, register offset */
    CY_LDRD,       /* LDRD */
    CY_STRD,       /* STRD */
    CY_LDM,        /* LDM, POP (cycles per register added) */
    CY_STM,        /* STM, PUSH */
    CY_BR,         /* B, BL: always taken */
    CY_BR_COND,    /* B<c>, CBZ, CBNZ: taken or not, seen at run time */
    CY_BR_IND,     /* BX, BLX, MOV/ADD PC, POP {..pc}, LDR PC */
    CY_TBB,        /* TBB, TBH */
    CY_IT,         /* IT */
    CY_NOP,        /* NOP and hints, PLD */
    CY_BARRIER,    /* DMB, DSB, ISB */
    CY_SYS,        /* MRS, MSR, CPS, SVC, BKPT, UDF */
    CY_FP_ALU,     /* VFP add, sub, mul, abs, neg, cmp, cvt, mov */
    CY_FP_MAC,     /* VFP VMLA, VMLS, VNMLA, VFMA, VFMS, VFNMA */
    CY_FP_DIV,     /* VDIV, VSQRT */
    CY_FP_LD,      /* VLDR */
    CY_FP_ST,      /* VSTR */
    CY_FP_LDM,     /* VLDM, VSTM, VPUSH, VPOP (cycles per register added) */
    CY_FP_MOV,     /* VMOV between core and FP registers, VMRS, VMSR */
    CY_LOB_START,  /* DLS, DLSTP, WLS, WLSTP (WLS skips the loop when taken) */
    CY_LOB_END,    /* LE, LETP: taken = another iteration */
    CY_LOB_OTHER,  /* VCTP, branch-future instructions */
    CY_MVE_LD,     /* contiguous vector load */
    CY_MVE_ST,     /* contiguous vector store */
    CY_MVE_GATHER, /* gather/scatter and interleaving (VLD2x/VLD4x) loads and stores */
    CY_MVE_MAC,    /* vector multiplies: VMLADAV, VMLAV, VMLALDAV, VMLA, VMUL, VQDMULH, VQRDMULH, VMULL, VMULH */
    CY_MVE_ALU,    /* vector integer ALU: add, sub, shifts, min/max, logic, moves, narrowing/widening, compares */
    CY_MVE_FP,     /* vector floating point */
    CY_MVE_LANE,   /* moves between a vector lane and core registers */
    CY_MVE_PRED,   /* VPST */
    CY_UNKNOWN,    /* an encoding the decoder does not know: costed 1 cycle and reported, so coverage is visible */
    CY_N_CLASSES
};

/* The vector pipelines of a beat-wise core: two consecutive vector instructions of different groups overlap. */
enum cy_group { CY_G_NONE, CY_G_MEM, CY_G_MAC, CY_G_ALU, CY_G_FP };

struct cy_core {
    const char* name;
    uint8_t cost[CY_N_CLASSES]; /* cycles of one instruction of the class (not taken, for branches) */
    uint8_t refill;             /* pipeline refill after a taken branch (the TRMs' P) */
    uint8_t ldm_per_reg;        /* LDM/STM/VLDM: cycles per register added to the class cost */
    uint8_t ld_pipelined;       /* a single load or store right after a single load costs one cycle less (M4) */
    uint8_t vector_overlap;     /* dual-beat: a vector instruction after one of another group costs one cycle less */
    uint8_t le_taken;           /* LE/LETP taken (loop cache: 0 on the M55) */
};

/* One decoded instruction. */
struct cy_insn {
    uint8_t cls;
    uint8_t group;     /* enum cy_group */
    uint8_t nregs;     /* register list length (LDM/STM/VLDM), 0 otherwise */
    uint8_t writes_pc; /* a load or move into PC: always taken */
    uint8_t cond;      /* a branch whose outcome is seen at run time: B<c>, CBZ/CBNZ, LE/LETP, WLS/WLSTP */
    int8_t rt, rn, rm; /* single loads/stores: destination and address registers (-1: none) */
};

const struct cy_core* cy_core_by_name(const char* name);
const char* cy_class_name(int cls);

/* Decodes a 16-bit (size 2) or 32-bit (size 4, hw1 first) Thumb instruction. */
void cy_decode(uint32_t hw1, uint32_t hw2, int size, struct cy_insn* out);

/* Cycles of `in` on `core` when it follows `prev` in straight-line code (prev NULL: first of its block), counting a
 * branch as not taken. */
int cy_cycles(const struct cy_core* core, const struct cy_insn* in, const struct cy_insn* prev);

/* Extra cycles when the branch `in` is taken (negative for LE on a core with a loop cache). */
int cy_taken_extra(const struct cy_core* core, const struct cy_insn* in);

/* Whether the class is a branch whose outcome is known only at run time. */
int cy_is_conditional(const struct cy_insn* in);

#endif
