/* The CPU run of a VM launch (vm.h), included by vm_cpu.c (baseline x86-64 and other CPUs) and
 * vm_cpu_avx2.c (x86-64-v3) with PG_VM_CPU_RUN naming the function: a launch's elements run block
 * by block, numexpr's way. For each block of up to `lanes` consecutive elements (in the loop's iteration order) the
 * inputs are gathered into their registers (converted from their stored types, a row segment at
 * a time), the program runs over the block, and the result register is scattered to the output.
 * Every instruction is then a loop over the block's lanes, which the compiler vectorises. */
#include <string.h>
#include "vm.h"
#if !defined(PG_VM_CPU_RUN) || !defined(PG_VM_CPU_EXEC)
#error "define PG_VM_CPU_RUN and PG_VM_CPU_EXEC, the names of the functions, before including vm_cpu_run.h"
#endif

/* One run of a program over lanes [0, n) (the VM reductions call it, vm_reduce_cpu.c). */
void
PG_VM_CPU_EXEC(const PgVmProgram *p, char *R, int64_t slot, int n)
{
    pg_vm_exec(PG_VM_CODE(p), p->ninsn, R, slot, n);
}

/* Position in a launch's iteration space: the index along each merged dimension and the byte
 * offset of every operand. */
typedef struct {
    int64_t idx[PG_VM_MAXDIMS];
    int64_t off[PG_VM_MAXARGS];
} Cursor;

static void
cursor_seek(const PgVmArgs *a, Cursor *c, int64_t e)
{
    for (int k = 0; k < a->nargs; k++)
        c->off[k] = 0;
    for (int d = a->ndim - 1; d >= 0; d--) {
        c->idx[d] = e % a->shape[d];
        e /= a->shape[d];
        for (int k = 0; k < a->nargs; k++)
            c->off[k] += c->idx[d] * a->strides[k][d];
    }
}

/* Elements left in the current row (the innermost dimension), at most `want`. */
static int64_t
cursor_row(const PgVmArgs *a, const Cursor *c, int64_t want)
{
    if (a->ndim == 0)
        return want;
    int64_t left = a->shape[a->ndim - 1] - c->idx[a->ndim - 1];
    return left < want ? left : want;
}

static void
cursor_advance(const PgVmArgs *a, Cursor *c, int64_t cnt)
{
    int nd = a->ndim;
    if (nd == 0)
        return;
    for (int k = 0; k < a->nargs; k++)
        c->off[k] += cnt * a->strides[k][nd - 1];
    c->idx[nd - 1] += cnt;
    for (int d = nd - 1; d > 0 && c->idx[d] >= a->shape[d]; d--) {
        for (int k = 0; k < a->nargs; k++)
            c->off[k] += a->strides[k][d - 1] - a->shape[d] * a->strides[k][d];
        c->idx[d] = 0;
        c->idx[d - 1]++;
    }
}

static int64_t
row_stride(const PgVmArgs *a, int k)
{
    return a->ndim ? a->strides[k][a->ndim - 1] : 0;
}

/* Lanes [1, n) of a register of `size`-byte lanes set to lane 0, in typed stores the compiler
 * vectorises (a memcpy per lane cost more than the program it fed). */
static void
fill_lanes(char *reg, int size, int64_t n)
{
    switch (size) {
    case 1:
        memset(reg + 1, reg[0], (size_t)(n > 1 ? n - 1 : 0));
        break;
#define PG_VM_FILL(BYTES, T)                                                                     \
    case BYTES: {                                                                                \
        T v, *r = (T *)reg;                                                                      \
        memcpy(&v, reg, sizeof v);                                                               \
        for (int64_t j = 1; j < n; j++)                                                          \
            r[j] = v;                                                                            \
        break;                                                                                   \
    }
        PG_VM_FILL(2, uint16_t)
        PG_VM_FILL(4, uint32_t)
        PG_VM_FILL(8, uint64_t)
#undef PG_VM_FILL
    case 16: {
        uint64_t lo, hi, *r = (uint64_t *)reg;
        memcpy(&lo, reg, 8);
        memcpy(&hi, reg + 8, 8);
        for (int64_t j = 1; j < n; j++) {
            r[2 * j] = lo;
            r[2 * j + 1] = hi;
        }
        break;
    }
    default:
        for (int64_t j = 1; j < n; j++)
            memcpy(reg + j * size, reg, (size_t)size);
    }
}

/* cnt elements stored as `stored` at p (byte stride) into lanes of compute type ct at dst */
static void
gather(char *dst, int ct, const char *p, int64_t stride, int stored, int64_t cnt)
{
    int size = pg_vm_type_size(ct);
    if (stored == ct && stride == size) {
        memcpy(dst, p, (size_t)(cnt * size));
        return;
    }
    if (stride == 0) {   /* broadcast along the row: one load */
        pg_vm_load_value(dst, ct, p, stored);
        fill_lanes(dst, size, cnt);
        return;
    }
    switch (ct) {
#define PG_VM_GATHER_CASE(S, _) case PG_TYPE_##S: pg_gather_##S(p, stride, stored, (pg_t_##S *)dst, cnt); break;
        PG_VM_TYPES_A(PG_VM_GATHER_CASE, ~)
#undef PG_VM_GATHER_CASE
    default: break;
    }
}

static void
scatter(char *p, int64_t stride, int stored, const char *src, int ct, int64_t cnt)
{
    int size = pg_vm_type_size(ct);
    if (stored == ct && stride == size) {
        memcpy(p, src, (size_t)(cnt * size));
        return;
    }
    switch (ct) {
#define PG_VM_SCATTER_CASE(S, _) case PG_TYPE_##S: pg_scatter_##S(p, stride, stored, (const pg_t_##S *)src, cnt); break;
        PG_VM_TYPES_A(PG_VM_SCATTER_CASE, ~)
#undef PG_VM_SCATTER_CASE
    default: break;
    }
}

void
PG_VM_CPU_RUN(const PgVmArgs *a, int lanes, char *R, int64_t begin, int64_t end)
{
    const PgVmProgram *p = a->program;
    const PgVmInsn *code = PG_VM_CODE(p);
    const int64_t slot = (int64_t)lanes * 8;
    const int nin = a->nargs - 1;

    pg_vm_fill_constants(p, R, slot, lanes);

    Cursor cur;
    cursor_seek(a, &cur, begin);
    char *out_reg = R + (int64_t)p->out_reg * slot;
    int out_size = pg_vm_type_size(p->out_type);
    for (int64_t e = begin; e < end; e += lanes) {
        if (PG_CPU_STOPPING()) /* Ctrl-C: the launch raises KeyboardInterrupt */
            return;
        int n = end - e < lanes ? (int)(end - e) : lanes;
        /* scalar inputs, every lane, every tile: a program may reassign its parameters in their
         * registers, so a value left from the last tile is not the argument */
        for (int k = 0; k < nin; k++) {
            if (a->data[k])
                continue;
            int ct = p->in_types[k], size = pg_vm_type_size(ct);
            char *reg = R + (int64_t)p->in_regs[k] * slot;
            pg_vm_load_value(reg, ct, (const char *)a->scalar[k], a->types[k]);
            fill_lanes(reg, size, n);
        }
        Cursor block = cur;
        for (int pos = 0; pos < n;) {
            int64_t cnt = cursor_row(a, &cur, n - pos);
            for (int k = 0; k < nin; k++) {
                if (a->data[k] == NULL)
                    continue;
                int ct = p->in_types[k];
                gather(R + (int64_t)p->in_regs[k] * slot + (int64_t)pos * pg_vm_type_size(ct), ct,
                       a->data[k] + cur.off[k], row_stride(a, k), a->types[k], cnt);
            }
            cursor_advance(a, &cur, cnt);
            pos += (int)cnt;
        }
        pg_vm_exec(code, p->ninsn, R, slot, n);
        for (int pos = 0; pos < n;) {
            int64_t cnt = cursor_row(a, &block, n - pos);
            scatter(a->data[nin] + block.off[nin], row_stride(a, nin), a->types[nin],
                    out_reg + (int64_t)pos * out_size, p->out_type, cnt);
            cursor_advance(a, &block, cnt);
            pos += (int)cnt;
        }
    }
}
