/* QEMU TCG plugin: counts the guest instructions executed between two marker functions.
 *
 * Every translated block adds its instruction count to one 64-bit counter with an inline add (exact for executed
 * blocks, cheap); instruction callbacks on the first instruction of the start and end markers snapshot the counter.
 * At exit the plugin writes one line "start end" per region the guest measured (each start marker followed by an
 * end marker, in order; "0 0" if none was) to the file given by out=PATH, so one run can measure several models.
 * Arguments: start=ADDR,end=ADDR,out=PATH (addresses in hex, as in the ELF symbol table, Thumb bit clear).
 * Used by the benchmarks (bench/) and by aot_perf_test.
 *
 * Estimated cycles (optional: core=cortex-m4|cortex-m55, cycles=PATH): every instruction is classified once, when
 * QEMU translates its block, by the timing model of cycle_model.c; each block then carries its straight-line cycles
 * and its histogram of classes, and a callback per executed block adds them, plus the refill of a taken
 * conditional branch (seen from the next block's address) and the overlap of vector instructions across a loop's
 * back edge. The instruction count above is unchanged by it. At exit PATH gets a header line naming the columns,
 * then one line per region: its cycles, its taken conditional branches and its instructions per class.
 *
 * Debian's QEMU 7.2 supports plugins (API version 1) but ships no qemu-plugin.h, so the few declarations this
 * plugin needs are written out below from QEMU's documented plugin API. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cycle_model.h"

typedef uint64_t qemu_plugin_id_t;
struct qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS = 0 };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 = 0 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void* userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void* userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb* tb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb* tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void* userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb* tb, enum qemu_plugin_op op, void* ptr,
                                              uint64_t imm);
struct qemu_plugin_insn* qemu_plugin_tb_get_insn(const struct qemu_plugin_tb* tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn* insn);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn* insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void* userdata);
const void* qemu_plugin_insn_data(const struct qemu_plugin_insn* insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn* insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void* userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define MAX_REGIONS 256
static uint64_t insn_count;
static uint64_t at_start;
static uint64_t region_start[MAX_REGIONS], region_end[MAX_REGIONS];
static int n_regions;
static uint64_t start_addr, end_addr;
static char out_path[4096];

/* Per-layer attribution (optional: runner_lo=, runner_hi=, sites=): between the markers, every translated block's
 * instructions are added to the most recent block executed inside a runner function [runner_lo, runner_hi).
 * A generated runner is a straight sequence of kernel calls, so each of its blocks ends at (or leads to) one
 * call, and everything the callee executes lands on that block. Several runners (one per measured model) are
 * given as repeated runner_lo=/runner_hi= pairs. */
#define MAX_SITES   4096
#define MAX_RUNNERS 64
struct block {
    uint64_t pc, n;
};
static uint64_t runner_lo[MAX_RUNNERS], runner_hi[MAX_RUNNERS];
static int n_runners;
static char sites_path[4096];
static uint64_t site_pc[MAX_SITES], site_count[MAX_SITES];
static int n_sites, current_site = -1, measuring;

static int site_of(uint64_t pc)
{
    for (int i = 0; i < n_sites; ++i) {
        if (site_pc[i] == pc) return i;
    }
    if (n_sites == MAX_SITES) return current_site;
    site_pc[n_sites] = pc;
    return n_sites++;
}

static void on_block(unsigned int vcpu, void* userdata)
{
    (void)vcpu;
    const struct block* b = userdata;
    if (!measuring) return;
    for (int r = 0; r < n_runners; ++r) {
        if (b->pc >= runner_lo[r] && b->pc < runner_hi[r]) {
            current_site = site_of(b->pc);
            break;
        }
    }
    if (current_site >= 0) site_count[current_site] += b->n;
}

/* Cycle estimate state. */
struct tb_cycles {
    uint64_t pc, next_pc; /* first instruction, and the one after the last (the not-taken successor) */
    int64_t cycles;       /* straight-line cycles, branches not taken */
    int32_t taken_extra;  /* added when the last instruction is a conditional branch and it was taken */
    uint8_t cond, first_group, last_group, n_hist;
    uint8_t hist_cls[CY_N_CLASSES];
    uint16_t hist_n[CY_N_CLASSES];
};
static const struct cy_core* core;
static char cycles_path[4096];
static uint64_t cycle_count, cycles_at_start, region_cycles[MAX_REGIONS];
static uint64_t class_count[CY_N_CLASSES + 1], region_class[MAX_REGIONS][CY_N_CLASSES + 1]; /* + taken branches */
static const struct tb_cycles* prev_tb;
static int debug_unknown; /* $AOT_CYCLES_DEBUG set: name every unknown encoding as it is translated */

static void on_block_cycles(unsigned int vcpu, void* userdata)
{
    (void)vcpu;
    const struct tb_cycles* t = userdata;
    const struct tb_cycles* p = prev_tb;
    int64_t c = t->cycles;
    if (p != NULL) {
        if (p->cond && t->pc != p->next_pc) {
            c += p->taken_extra;
            if (measuring) ++class_count[CY_N_CLASSES];
        }
        if (core->vector_overlap && p->last_group && t->first_group && p->last_group != t->first_group) c -= 1;
    }
    cycle_count += (uint64_t)c;
    if (measuring) {
        for (int i = 0; i < t->n_hist; ++i) class_count[t->hist_cls[i]] += t->hist_n[i];
    }
    prev_tb = t;
}

static void translate_cycles(struct qemu_plugin_tb* tb, size_t n)
{
    struct tb_cycles* t = calloc(1, sizeof *t); /* lives as long as the translation: never freed */
    if (t == NULL) return;
    struct cy_insn prev, cur;
    uint16_t per_class[CY_N_CLASSES] = {0};
    t->pc = qemu_plugin_tb_vaddr(tb);
    for (size_t i = 0; i < n; ++i) {
        struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
        const uint8_t* d = qemu_plugin_insn_data(insn);
        size_t got = qemu_plugin_insn_size(insn);
        /* The instruction's length comes from its first halfword: QEMU 7.2 sometimes reports 4 bytes for a 16-bit
         * instruction, or 6 for a 32-bit one, near the end of a page. */
        uint32_t hw1 = got >= 2 ? (uint32_t)d[0] | (uint32_t)d[1] << 8 : 0;
        size_t size = (hw1 >> 11) >= 0x1Du ? 4 : 2;
        uint32_t hw2 = size == 4 && got >= 4 ? (uint32_t)d[2] | (uint32_t)d[3] << 8 : 0;
        cy_decode(hw1, hw2, got >= size ? (int)size : 0, &cur);
        if (cur.cls == CY_UNKNOWN && debug_unknown) {
            fprintf(stderr, "insn_count: unknown encoding at %#" PRIx64 ": %04x %04x (%zu bytes)\n",
                    qemu_plugin_insn_vaddr(insn), hw1, hw2, got);
        }
        t->cycles += cy_cycles(core, &cur, i ? &prev : NULL);
        ++per_class[cur.cls];
        if (i == 0) t->first_group = cur.group;
        /* A loop's LE (no cycles once the loop is cached) does not separate the body's last vector instruction
         * from the next iteration's first. */
        if (cur.group || !(cur.cls == CY_LOB_END && core->le_taken == 0)) t->last_group = cur.group;
        if (i + 1 == n) {
            t->next_pc = qemu_plugin_insn_vaddr(insn) + size;
            t->cond = (uint8_t)cy_is_conditional(&cur);
            t->taken_extra = cy_taken_extra(core, &cur);
        }
        prev = cur;
    }
    for (int c = 0; c < CY_N_CLASSES; ++c) {
        if (per_class[c]) {
            t->hist_cls[t->n_hist] = (uint8_t)c;
            t->hist_n[t->n_hist] = per_class[c];
            ++t->n_hist;
        }
    }
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block_cycles, QEMU_PLUGIN_CB_NO_REGS, t);
}

static void on_start(unsigned int vcpu, void* userdata)
{
    (void)vcpu;
    (void)userdata;
    at_start = insn_count;
    cycles_at_start = cycle_count;
    memset(class_count, 0, sizeof class_count);
    measuring = 1;
    current_site = -1;
}

static void on_end(unsigned int vcpu, void* userdata)
{
    (void)vcpu;
    (void)userdata;
    if (measuring && n_regions < MAX_REGIONS) {
        region_start[n_regions] = at_start;
        region_end[n_regions] = insn_count;
        region_cycles[n_regions] = cycle_count - cycles_at_start;
        memcpy(region_class[n_regions], class_count, sizeof class_count);
        ++n_regions;
    }
    measuring = 0;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insn_count, n);
    if (core != NULL) translate_cycles(tb, n);
    if (sites_path[0] != '\0') {
        struct block* b = malloc(sizeof *b); /* lives as long as the translation: never freed */
        if (b != NULL) {
            b->pc = qemu_plugin_tb_vaddr(tb);
            b->n = n;
            qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, b);
        }
    }
    for (size_t i = 0; i < n; ++i) {
        struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        if (pc == start_addr) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start, QEMU_PLUGIN_CB_NO_REGS, NULL);
        if (pc == end_addr) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
    }
}

static void on_exit(qemu_plugin_id_t id, void* userdata)
{
    (void)id;
    (void)userdata;
    FILE* f = fopen(out_path, "w");
    if (f == NULL) {
        fprintf(stderr, "insn_count: cannot write %s\n", out_path);
        return;
    }
    if (n_regions == 0) fprintf(f, "0 0\n");
    for (int i = 0; i < n_regions; ++i) fprintf(f, "%" PRIu64 " %" PRIu64 "\n", region_start[i], region_end[i]);
    fclose(f);
    if (core != NULL) {
        FILE* h = fopen(cycles_path, "w");
        if (h == NULL) {
            fprintf(stderr, "insn_count: cannot write %s\n", cycles_path);
            return;
        }
        fprintf(h, "cycles taken_branches");
        for (int c = 0; c < CY_N_CLASSES; ++c) fprintf(h, " %s", cy_class_name(c));
        fprintf(h, "\n");
        for (int i = 0; i < n_regions; ++i) {
            fprintf(h, "%" PRIu64 " %" PRIu64, region_cycles[i], region_class[i][CY_N_CLASSES]);
            for (int c = 0; c < CY_N_CLASSES; ++c) fprintf(h, " %" PRIu64, region_class[i][c]);
            fprintf(h, "\n");
        }
        fclose(h);
    }
    if (sites_path[0] != '\0') {
        FILE* g = fopen(sites_path, "w");
        if (g == NULL) {
            fprintf(stderr, "insn_count: cannot write %s\n", sites_path);
            return;
        }
        for (int i = 0; i < n_sites; ++i) fprintf(g, "%" PRIx64 " %" PRIu64 "\n", site_pc[i], site_count[i]);
        fclose(g);
    }
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t* info,
                                                               int argc, char** argv)
{
    (void)info;
    for (int i = 0; i < argc; ++i) {
        if (strncmp(argv[i], "start=", 6) == 0) {
            start_addr = strtoull(argv[i] + 6, NULL, 16);
        } else if (strncmp(argv[i], "end=", 4) == 0) {
            end_addr = strtoull(argv[i] + 4, NULL, 16);
        } else if (strncmp(argv[i], "out=", 4) == 0 && strlen(argv[i] + 4) < sizeof(out_path)) {
            strcpy(out_path, argv[i] + 4);
        } else if (strncmp(argv[i], "runner_lo=", 10) == 0 && n_runners < MAX_RUNNERS) {
            runner_lo[n_runners] = strtoull(argv[i] + 10, NULL, 16);
            runner_hi[n_runners] = runner_lo[n_runners];
            ++n_runners;
        } else if (strncmp(argv[i], "runner_hi=", 10) == 0 && n_runners > 0) {
            runner_hi[n_runners - 1] = strtoull(argv[i] + 10, NULL, 16);
        } else if (strncmp(argv[i], "sites=", 6) == 0 && strlen(argv[i] + 6) < sizeof(sites_path)) {
            strcpy(sites_path, argv[i] + 6);
        } else if (strncmp(argv[i], "core=", 5) == 0) {
            core = cy_core_by_name(argv[i] + 5);
            if (core == NULL) {
                fprintf(stderr, "insn_count: no timing model for core '%s' (cortex-m4, cortex-m55)\n", argv[i] + 5);
                return -1;
            }
        } else if (strncmp(argv[i], "cycles=", 7) == 0 && strlen(argv[i] + 7) < sizeof(cycles_path)) {
            strcpy(cycles_path, argv[i] + 7);
        } else {
            fprintf(stderr,
                    "insn_count: unknown argument '%s' (expected start=, end=, out=, runner_lo=, runner_hi=, sites=, "
                    "core=, cycles=)\n",
                    argv[i]);
            return -1;
        }
    }
    if ((core != NULL) != (cycles_path[0] != '\0')) {
        fprintf(stderr, "insn_count: core= and cycles= go together\n");
        return -1;
    }
    if (start_addr == 0 || end_addr == 0 || out_path[0] == '\0') {
        fprintf(stderr, "insn_count: start=, end= and out= are required\n");
        return -1;
    }
    debug_unknown = getenv("AOT_CYCLES_DEBUG") != NULL;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit, NULL);
    return 0;
}
