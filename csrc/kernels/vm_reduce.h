/* Reductions and scans whose combiner is a VM program (pygpu.reduce, vectorize's .reduce and
 * .accumulate), optionally with a VM program as the map that makes each element from several
 * inputs (pygpu.fuse's final reduction): the reduction family's structure (kernels/reduce.h) with
 * the interpreter of vm.h in place of an op-table combiner. Single source: vm_reduce.cu runs it on
 * CUDA (a thread's PG_VM_GPU_LANES lanes are items interleaved across the block, so that
 * neighbouring outputs load coalesced), vm_reduce_cpu.c on the CPU (blocks of a few hundred
 * consecutive items, every instruction a loop over them).
 *
 * One pass (PgVmReduceArgs of vm_types.h): each lane takes an item (o, k), the elements
 * [k * chunk, k * chunk + chunk) of output o's reduced range, and folds them IN ORDER: the first
 * element is the accumulator, each next one is combined as comb(acc, x). So the combiner need
 * only be associative (not commutative), and no identity is needed (the host fills empty
 * reductions). Every element is loaded converted to its input's compute type and mapped (or,
 * without a map, loaded as the accumulator's type). A reduction stores the accumulator (with
 * init in front: comb(init, acc)) converted to the output's type; a scan stores the running
 * value after every element, starting from the carried value of the items before it.
 *
 * Registers: the map's file is slots [0, map_slots), the combiner's the next comb_slots. The
 * accumulator lives in the combiner's first input register, each new element goes to its
 * second; lanes whose chunk has ended keep their accumulator (a program may write its inputs). */
#ifndef PG_VM_REDUCE_H
#define PG_VM_REDUCE_H
#include "vm.h"

#ifdef __CUDACC__
#define PG_VMR_FN static __device__ __forceinline__
/* one copy of the interpreter in the module, called from the few places that run a program
 * (inlined at each, nvcc's time would grow with every copy) */
static __device__ __noinline__ void
pg_vmr_exec_device(const PgVmProgram *p, char *R, int64_t slot, int n)
{
    pg_vm_exec(PG_VM_CODE(p), p->ninsn, R, slot, n);
}
#define PG_VMR_EXEC(p, R, slot, n) pg_vmr_exec_device(p, R, slot, n)
#else
#include <string.h>
#define PG_VMR_FN static inline
#define PG_VMR_EXEC(p, R, slot, n) pg_vm_cpu_exec(p, R, slot, n)
#endif

/* A lane's item: output o, chunk k, its first reduced index and length (0: no item). */
typedef struct {
    int64_t o, k, rb, len;
} PgVmrLane;

/* Reduced elements between an item's neighbouring elements: 1 (chunks), or nchunks when the
 * combiner commutes (item k takes elements k, k + nchunks, ...: neighbouring lanes read
 * neighbouring elements, coalesced on the GPU, contiguous on the CPU). */
#define PG_VMR_ISTEP(a) (((a)->flags & PG_VMR_COMMUTE) && !((a)->flags & PG_VMR_SCAN) ? (a)->nchunks : 1)

/* Operands of a lane's offsets in `base`: the inputs, the output, the carry. */
#define PG_VMR_NOFF(a) ((a)->nin + 2)
/* base's entries for n lanes: their offsets, and on the CPU the uniform steps, the shortest chunk
 * and the runs' lengths */
#ifdef __CUDACC__
#define PG_VMR_NBASE(a, n) ((int64_t)(n) * PG_VMR_NOFF(a))
#else
#define PG_VMR_NBASE(a, n) ((int64_t)(n) * PG_VMR_NOFF(a) + 2 * PG_VMR_NOFF(a) + 1)
#define PG_VMR_RAGGED INT64_MIN
#endif

/* Byte offset of reduced element r for operand q (several merged reduced dimensions). */
PG_VMR_FN int64_t
pg_vmr_red_offset(const PgVmReduceArgs *a, int q, int64_t r)
{
    int64_t off = 0;
    for (int d = a->nred - 1; d >= 0; d--) {
        int64_t n = a->red_shape[d], qd = r / n;
        off += (r - qd * n) * a->red_str[q][d];
        r = qd;
    }
    return off;
}

/* The items of lanes [0, n) (item0, item0 + step, ...) and each operand's offset of the item's
 * first element (base[j * NOFF + q]; with several reduced dimensions only o's part). */
PG_VMR_FN void
pg_vmr_setup(const PgVmReduceArgs *a, int64_t item0, int64_t step, int n, PgVmrLane *ln, int64_t *base)
{
    const int64_t nitems = a->nout * a->nchunks;
    const int nin = a->nin, noff = PG_VMR_NOFF(a);
    int64_t keep[PG_VM_MAXARGS + 1], o = -1, k = 0; /* o's kept offsets, for the lanes that share it */
    for (int j = 0; j < n; j++) {
        PgVmrLane *l = &ln[j];
        int64_t it = item0 + (int64_t)j * step, prev = o;
        int64_t *b = base + (int64_t)j * noff;
        if (it >= nitems) {
            o = k = 0;
        } else if (j > 0 && step == 1) { /* the next item: no division */
            if (a->outer && ++o == a->nout) {
                o = 0;
                k++;
            } else if (!a->outer && ++k == a->nchunks) {
                k = 0;
                o++;
            }
        } else if (a->outer) {
            k = it / a->nout;
            o = it - k * a->nout;
        } else {
            o = it / a->nchunks;
            k = it - o * a->nchunks;
        }
        l->o = o;
        l->k = k;
        if (it >= nitems) {
            l->rb = l->len = 0;
        } else if (PG_VMR_ISTEP(a) > 1) { /* interleaved: elements k, k + nchunks, ... */
            l->rb = k;
            l->len = (a->nred_total - k + a->nchunks - 1) / a->nchunks;
        } else {
            l->rb = k * a->chunk;
            l->len = a->nred_total - l->rb < a->chunk ? a->nred_total - l->rb : a->chunk;
        }
        if (o != prev) {
            for (int q = 0; q <= nin + 1; q++)
                keep[q] = 0;
            int64_t rest = o;
            for (int d = a->nkeep - 1; d >= 0; d--) {
                int64_t n_d = a->keep_shape[d], qd = d > 0 ? rest / n_d : 0, i = rest - qd * n_d;
                for (int q = 0; q <= nin; q++)
                    keep[q] += i * a->keep_str[q][d];
                keep[nin + 1] += i * a->carry_keep[d];
                rest = qd;
            }
        }
        for (int q = 0; q <= nin + 1; q++)
            b[q] = keep[q];
        b[nin] += k * a->out_chunk;
        b[nin + 1] += (k - 1) * a->carry_k;
        if (a->nred == 1)
            for (int q = 0; q <= nin; q++)
                b[q] += l->rb * a->red_str[q][0];
    }
#ifndef __CUDACC__
    /* after the lanes' offsets: each operand's step from lane to lane when it is the same within
     * runs of equal length (all n lanes, or each output's chunks where a block holds several
     * outputs: one strided gather or scatter moves a run), else PG_VMR_RAGGED; the shortest
     * chunk; then each operand's run length */
    int64_t *u = base + (int64_t)n * noff, *runs = u + noff + 1, shortest = ln[0].len;
    for (int q = 0; q < noff; q++) {
        int64_t step = n > 1 ? base[noff + q] - base[q] : 0, run = 1;
        while (run < n && base[(int64_t)run * noff + q] - base[(int64_t)(run - 1) * noff + q] == step)
            run++;
        for (int r0 = run; r0 < n && step != PG_VMR_RAGGED; r0 += run)
            for (int j = r0 + 1; j < r0 + run && j < n; j++)
                if (base[(int64_t)j * noff + q] - base[(int64_t)(j - 1) * noff + q] != step) {
                    step = PG_VMR_RAGGED;
                    break;
                }
        u[q] = step;
        runs[q] = run;
    }
    for (int j = 1; j < n; j++)
        shortest = ln[j].len < shortest ? ln[j].len : shortest;
    u[noff] = shortest;
#endif
}

/* Byte offset, from the item's base, of its element i for operand q (i past the chunk: its last
 * element, so that every lane reads valid memory). */
PG_VMR_FN int64_t
pg_vmr_offset(const PgVmReduceArgs *a, const PgVmrLane *l, int q, int64_t i)
{
    int64_t ii = (i < l->len ? i : l->len > 0 ? l->len - 1 : 0) * PG_VMR_ISTEP(a);
    if (a->nred == 1)
        return ii * a->red_str[q][0];
    return a->nred == 0 ? 0 : pg_vmr_red_offset(a, q, l->rb + ii);
}

#ifndef __CUDACC__
/* The byte step d between neighbouring lanes' element i of operand q, and the runs of lanes it
 * holds in (*run lanes each, the last maybe fewer), when every run has that step (the lanes of a
 * CPU block in a row of full chunks): 1, else 0. */
static inline int
pg_vmr_uniform(const PgVmReduceArgs *a, int q, int64_t i, int n, const int64_t *base, int64_t *d, int *run)
{
    const int noff = PG_VMR_NOFF(a);
    const int64_t *u = base + (int64_t)n * noff;
    if (a->nred > 1 || i >= u[noff] || u[q] == PG_VMR_RAGGED)
        return 0;
    *d = u[q];
    *run = (int)u[noff + 1 + q];
    return 1;
}
#endif

#ifndef __CUDACC__
/* m values of storage type `from`, d bytes apart from `first`, into dst as compute type ct; 0 for
 * a type without a gather */
static inline int
pg_vmr_gather_run(char *dst, int ct, const char *first, int64_t d, int from, int m)
{
    if (from == ct && d == pg_vm_type_size(ct)) {
        memcpy(dst, first, (size_t)m * (size_t)d);
        return 1;
    }
    switch (ct) {
#define PG_VMR_GATHER(S, _) case PG_TYPE_##S: pg_gather_##S(first, d, from, (pg_t_##S *)dst, m); return 1;
        PG_VM_TYPES_A(PG_VMR_GATHER, ~)
#undef PG_VMR_GATHER
    default: return 0;
    }
}

/* m values of compute type ct at src to storage type `to`, d bytes apart from `first`; 0 for a
 * type without a scatter */
static inline int
pg_vmr_scatter_run(char *first, int64_t d, int to, const char *src, int ct, int m)
{
    if (to == ct && d == pg_vm_type_size(ct)) {
        memcpy(first, src, (size_t)m * (size_t)d);
        return 1;
    }
    switch (ct) {
#define PG_VMR_SCATTER(S, _) case PG_TYPE_##S: pg_scatter_##S(first, d, to, (const pg_t_##S *)src, m); return 1;
        PG_VM_TYPES_A(PG_VMR_SCATTER, ~)
#undef PG_VMR_SCATTER
    default: return 0;
    }
}
#endif

/* Element i of input q for lanes [0, n) into the register lanes at dst, as compute type ct. */
PG_VMR_FN void
pg_vmr_load(const PgVmReduceArgs *a, int q, int64_t i, int n, const PgVmrLane *ln, const int64_t *base, char *dst,
            int ct)
{
    const int size = pg_vm_type_size(ct), noff = PG_VMR_NOFF(a);
    const char *p = a->data[q];
    if (p == NULL) { /* a scalar: every lane (reloaded each time: a program may write its inputs) */
        for (int j = 0; j < n; j++)
            pg_vm_load_value(dst + (int64_t)j * size, ct, (const char *)a->scalar[q], a->types[q]);
        return;
    }
#ifndef __CUDACC__
    int64_t d;
    int run;
    if (pg_vmr_uniform(a, q, i, n, base, &d, &run)) {
        const int64_t off = a->nred ? i * PG_VMR_ISTEP(a) * a->red_str[q][0] : 0;
        int r0 = 0;
        for (; r0 < n; r0 += run) {
            const int m = n - r0 < run ? n - r0 : run;
            const char *first = p + base[(int64_t)r0 * noff + q] + off;
            if (!pg_vmr_gather_run(dst + (int64_t)r0 * size, ct, first, d, a->types[q], m))
                break; /* a type without a gather (the first run's answer is every run's) */
        }
        if (r0 >= n)
            return;
    }
#endif
#ifndef __CUDACC__
    if (a->types[q] == ct) { /* stored as computed: plain copies, no conversion */
        switch (size) {
#define PG_VMR_COPY(T)                                                                                     \
    for (int j = 0; j < n; j++)                                                                            \
        ((T *)dst)[j] = *(const T *)(p + base[(int64_t)j * noff + q] + pg_vmr_offset(a, &ln[j], q, i));    \
    return;
        case 1: PG_VMR_COPY(uint8_t)
        case 2: PG_VMR_COPY(uint16_t)
        case 4: PG_VMR_COPY(uint32_t)
        case 8: PG_VMR_COPY(uint64_t)
        default: break;
#undef PG_VMR_COPY
        }
    }
#endif
    for (int j = 0; j < n; j++)
        pg_vm_load_value(dst + (int64_t)j * size, ct, p + base[(int64_t)j * noff + q] + pg_vmr_offset(a, &ln[j], q, i),
                         a->types[q]);
}

/* n values of compute type `from` at src into dst as compute type `to` (lane by lane) */
PG_VMR_FN void
pg_vmr_convert(char *dst, int to, const char *src, int from, int n)
{
    const int tsz = pg_vm_type_size(to), fsz = pg_vm_type_size(from);
#ifndef __CUDACC__
    if (to == from) {
        memcpy(dst, src, (size_t)n * (size_t)tsz);
        return;
    }
    switch (to) {
#define PG_VMR_CONVERT(S, _) case PG_TYPE_##S: pg_gather_##S(src, fsz, from, (pg_t_##S *)dst, n); return;
        PG_VM_TYPES_A(PG_VMR_CONVERT, ~)
#undef PG_VMR_CONVERT
    default: break;
    }
#endif
    for (int j = 0; j < n; j++)
        pg_vm_load_value(dst + (int64_t)j * tsz, to, src + (int64_t)j * fsz, from);
}

/* acc = comb(acc, x) for the lanes with take[j] (take NULL: every lane); the others keep acc
 * (save: n * 16 bytes of scratch). */
PG_VMR_FN void
pg_vmr_combine(const PgVmReduceArgs *a, char *RC, int64_t slot, int n, const char *take, char *save)
{
    const PgVmProgram *cp = a->comb;
    const int asz = pg_vm_type_size(a->acc_type);
    char *A = RC + (int64_t)cp->in_regs[0] * slot;
    const char *O = RC + (int64_t)cp->out_reg * slot;
    if (take == NULL) {
        PG_VMR_EXEC(cp, RC, slot, n);
        if (O != A)
            pg_vmr_convert(A, a->acc_type, O, a->acc_type, n);
        return;
    }
    for (int64_t b = 0; b < (int64_t)n * asz; b++)
        save[b] = A[b];
    PG_VMR_EXEC(cp, RC, slot, n);
#ifndef __CUDACC__
    /* a select over whole values (vectorised); O and A the same register or apart */
    if (asz == 8) {
        for (int j = 0; j < n; j++)
            ((uint64_t *)A)[j] = take[j] ? ((const uint64_t *)O)[j] : ((const uint64_t *)save)[j];
        return;
    }
    if (asz == 4) {
        for (int j = 0; j < n; j++)
            ((uint32_t *)A)[j] = take[j] ? ((const uint32_t *)O)[j] : ((const uint32_t *)save)[j];
        return;
    }
#endif
    for (int j = 0; j < n; j++) {
        const char *src = take[j] ? O + (int64_t)j * asz : save + (int64_t)j * asz;
        char *dst = A + (int64_t)j * asz;
        if (src != dst)
            for (int b = 0; b < asz; b++)
                dst[b] = src[b];
    }
}

/* Element i of every lane's item, mapped, into the lanes at dst as the accumulator's type. */
PG_VMR_FN void
pg_vmr_element(const PgVmReduceArgs *a, int64_t i, int n, const PgVmrLane *ln, const int64_t *base, char *R,
               int64_t slot, char *dst)
{
    const PgVmProgram *mp = a->map;
    const int act = a->acc_type;
    if (mp == NULL) {
        pg_vmr_load(a, 0, i, n, ln, base, dst, act);
        return;
    }
    for (int q = 0; q < a->nin; q++)
        pg_vmr_load(a, q, i, n, ln, base, R + (int64_t)mp->in_regs[q] * slot, mp->in_types[q]);
    PG_VMR_EXEC(mp, R, slot, n);
    pg_vmr_convert(dst, act, R + (int64_t)mp->out_reg * slot, mp->out_type, n);
}

/* Stores the lanes' accumulators (lanes [0, n), or those with i < len when not every lane has an
 * element i) as the output's element i (scans) or value (reductions). */
PG_VMR_FN void
pg_vmr_store(const PgVmReduceArgs *a, int64_t i, int n, const PgVmrLane *ln, const int64_t *base, const char *A)
{
    const int nin = a->nin, noff = PG_VMR_NOFF(a), act = a->acc_type, asz = pg_vm_type_size(act);
    const int scan = (a->flags & PG_VMR_SCAN) != 0;
    char *p = a->data[nin];
#ifndef __CUDACC__
    int64_t d;
    int run;
    if (pg_vmr_uniform(a, nin, scan ? i : 0, n, base, &d, &run)) {
        const int64_t off = scan && a->nred ? i * PG_VMR_ISTEP(a) * a->red_str[nin][0] : 0;
        int r0 = 0;
        for (; r0 < n; r0 += run) {
            const int m = n - r0 < run ? n - r0 : run;
            char *first = p + base[(int64_t)r0 * noff + nin] + off;
            if (!pg_vmr_scatter_run(first, d, a->types[nin], A + (int64_t)r0 * asz, act, m))
                break;
        }
        if (r0 >= n)
            return;
    }
#endif
    for (int j = 0; j < n; j++)
        if (i < ln[j].len)
            pg_vm_store_value(p + base[(int64_t)j * noff + nin] + (scan ? pg_vmr_offset(a, &ln[j], nin, i) : 0),
                              a->types[nin], A + (int64_t)j * asz, act);
}

/* The whole pass for lanes [0, n) of a block, once pg_vmr_setup has placed them, with the
 * constants already in both register files. take and save: scratch of n and n * 16 bytes. */
PG_VMR_FN void
pg_vmr_items(const PgVmReduceArgs *a, int n, const PgVmrLane *ln, const int64_t *base, char *R, int64_t slot,
             char *take, char *save)
{
    const PgVmProgram *cp = a->comb;
    char *RC = R + (int64_t)a->map_slots * slot;
    const int asz = pg_vm_type_size(a->acc_type), noff = PG_VMR_NOFF(a);
    char *A = RC + (int64_t)cp->in_regs[0] * slot, *V = RC + (int64_t)cp->in_regs[1] * slot;
    const int scan = (a->flags & PG_VMR_SCAN) != 0;
    int64_t longest = 0, shortest = ln[0].len;
    int carried = 0;
    for (int j = 0; j < n; j++) {
        longest = ln[j].len > longest ? ln[j].len : longest;
        shortest = ln[j].len < shortest ? ln[j].len : shortest;
        take[j] = a->carry && ln[j].k > 0 && ln[j].len > 0;
        carried |= take[j];
    }
    for (int64_t i = 0; i < longest; i++) {
        if (i == 0 && !carried) {
            pg_vmr_element(a, 0, n, ln, base, R, slot, A); /* the first element is the accumulator */
        } else if (i == 0) { /* scans in parts: the first element follows the carried value */
            pg_vmr_element(a, 0, n, ln, base, R, slot, V);
            for (int j = 0; j < n; j++) {
                const char *src = take[j] ? a->carry + base[(int64_t)j * noff + a->nin + 1] : V + (int64_t)j * asz;
                for (int b = 0; b < asz; b++)
                    A[(int64_t)j * asz + b] = src[b];
            }
            pg_vmr_combine(a, RC, slot, n, take, save);
        } else {
            pg_vmr_element(a, i, n, ln, base, R, slot, V);
            if (i < shortest) {
                pg_vmr_combine(a, RC, slot, n, NULL, save);
            } else {
                for (int j = 0; j < n; j++)
                    take[j] = i < ln[j].len;
                pg_vmr_combine(a, RC, slot, n, take, save);
            }
        }
        if (scan)
            pg_vmr_store(a, i, n, ln, base, A);
    }
    if (scan)
        return;
    if (a->flags & PG_VMR_INITIAL) { /* comb(init, acc) */
        for (int j = 0; j < n; j++)
            for (int b = 0; b < asz; b++) {
                V[(int64_t)j * asz + b] = A[(int64_t)j * asz + b];
                A[(int64_t)j * asz + b] = ((const char *)a->init)[b];
            }
        pg_vmr_combine(a, RC, slot, n, NULL, save);
    }
    pg_vmr_store(a, 0, n, ln, base, A);
}

/* The constants of both programs into their files, lanes [0, n). */
PG_VMR_FN void
pg_vmr_constants(const PgVmReduceArgs *a, char *R, int64_t slot, int n)
{
    if (a->map)
        pg_vm_fill_constants(a->map, R, slot, n);
    pg_vm_fill_constants(a->comb, R + (int64_t)a->map_slots * slot, slot, n);
}

#endif
