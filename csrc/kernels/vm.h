/* The vectorize VM: a register bytecode for user functions (pygpu.vectorize, fuse, reduce), run
 * by an interpreter compiled once with the rest of the kernels. Single source: vm.cu instantiates
 * it for CUDA (a thread runs the program over PG_VM_GPU_LANES elements at once, so each
 * instruction's dispatch is paid once for them), vm_cpu.c for the CPU (the program runs
 * block-wise over vectors of a few hundred elements, numexpr's design, on every core).
 *
 * A program (PgVmProgram of vm_types.h, one contiguous blob in device memory) is a header, a
 * constant table and instructions. With L lanes, registers are slots of L 8-byte words: register r
 * holds one value per lane, as an array of its compute type starting at byte r * L * 8 of the
 * register file (complex128 takes two consecutive slots). Every instruction works on all lanes:
 *   - op-table loops (kernels/ops.def, ids < PG_K_copy_b): dst = EXPR(a, b, c) computed in the
 *     loop's own types, exactly as the ufunc loop of that id computes one element (float16
 *     loops are not part of the VM: the front end computes float16 as float32);
 *   - PG_VM_* ops below: moves, masked moves, casts, complex parts, jumps.
 * Control flow is structured by the compiler into masks (bool registers): every lane computes
 * every instruction it reaches; variables assigned under a mask use masked moves, and a jump
 * is taken when no lane of a mask is set. So divergent lanes cost only time, and no operation
 * can trap (the op table defines integer division by zero and friends).
 *
 * Inputs are loaded into their registers (header.in_regs) converted from their stored types to
 * the program's input types; the result register is stored converted to the output's type.
 * Constant registers are filled once per thread and never written by the program. The host
 * checks every program before it is run (jit/vm_program.c): operands in range for their types,
 * known opcodes, jumps inside the program. */
#ifndef PG_VM_H
#define PG_VM_H
#include "elementwise.h"
#include "vm_types.h"

/* ------------------------------------------------------------------ the interpreter */

/* compute types of the registers: every PgType but float16 (computed as float32) */
#define PG_VM_TYPES_A(X, ...)                                                                 \
    X(b, __VA_ARGS__) X(i8, __VA_ARGS__) X(i16, __VA_ARGS__) X(i32, __VA_ARGS__)              \
    X(i64, __VA_ARGS__) X(u8, __VA_ARGS__) X(u16, __VA_ARGS__) X(u32, __VA_ARGS__)            \
    X(u64, __VA_ARGS__) X(f32, __VA_ARGS__) X(f64, __VA_ARGS__) X(c64, __VA_ARGS__)           \
    X(c128, __VA_ARGS__)
/* the same list again, for use inside an expansion of the first */
#define PG_VM_TYPES_B(X, ...)                                                                 \
    X(b, __VA_ARGS__) X(i8, __VA_ARGS__) X(i16, __VA_ARGS__) X(i32, __VA_ARGS__)              \
    X(i64, __VA_ARGS__) X(u8, __VA_ARGS__) X(u16, __VA_ARGS__) X(u32, __VA_ARGS__)            \
    X(u64, __VA_ARGS__) X(f32, __VA_ARGS__) X(f64, __VA_ARGS__) X(c64, __VA_ARGS__)           \
    X(c128, __VA_ARGS__)

/* register r as an array of T, one element per lane; `slot` is L * 8 bytes */
#define PG_VM_REG(T, r) ((T *)(R + (int64_t)(r) * slot))

#ifdef __CUDACC__
#define PG_VM_GPU_LANES 4   /* elements a CUDA thread runs the program over at once */
#define PG_VM_GPU_SLOTS 32  /* register slots of a CUDA thread: 1 KiB of local memory */
/* A thread's lanes are few: every lane computes (lanes past the end hold harmless garbage). */
#define PG_VM_EACH_LANE(j) _Pragma("unroll 1") for (int j = 0; j < PG_VM_GPU_LANES; j++)
#define PG_VM_EXEC_FN static __device__ __forceinline__ void
#else
#define PG_VM_EACH_LANE(j) _Pragma("omp simd") for (int j = 0; j < n; j++)
#define PG_VM_EXEC_FN static inline void /* inline: files that take only the helpers below */
#include "cpu_stop.h"
#endif

/* float16 loops are not VM ops */
#define PG_VM_KEEP_b(...) __VA_ARGS__
#define PG_VM_KEEP_i8(...) __VA_ARGS__
#define PG_VM_KEEP_i16(...) __VA_ARGS__
#define PG_VM_KEEP_i32(...) __VA_ARGS__
#define PG_VM_KEEP_i64(...) __VA_ARGS__
#define PG_VM_KEEP_u8(...) __VA_ARGS__
#define PG_VM_KEEP_u16(...) __VA_ARGS__
#define PG_VM_KEEP_u32(...) __VA_ARGS__
#define PG_VM_KEEP_u64(...) __VA_ARGS__
#define PG_VM_KEEP_f16(...)
#define PG_VM_KEEP_f32(...) __VA_ARGS__
#define PG_VM_KEEP_f64(...) __VA_ARGS__
#define PG_VM_KEEP_c64(...) __VA_ARGS__
#define PG_VM_KEEP_c128(...) __VA_ARGS__
#define PG_VM_KEEP(S, ...) PG_VM_KEEP_##S(__VA_ARGS__)

/* A loop with a whole-array CPU implementation (vmath.h) calls it over the lanes (unary and
 * binary ones). */
#define PG_VM_UNARY_LANES(NAME, S0, SO, EXPR) PG_VM_EACH_LANE(j) { pg_t_##S0 x0 = A0[j]; D[j] = (EXPR); }
#define PG_VM_UNARY_VMATH(NAME, S0, SO, EXPR) pg_v_##NAME(A0, D, n);
#ifdef __CUDACC__
#define PG_VM_UNARY_BODY PG_VM_UNARY_LANES
#else
#define PG_VM_UNARY_BODY(NAME, S0, SO, EXPR)                                                  \
    PG_VMATH_CHOOSE(NAME, PG_VM_UNARY_VMATH, PG_VM_UNARY_LANES)(NAME, S0, SO, EXPR)
#endif

#define PG_VM_CASE1(NAME, S0, SO, EXPR)                                                       \
    case PG_K_##NAME: {                                                                       \
        const pg_t_##S0 *A0 = PG_VM_REG(const pg_t_##S0, in.a);                               \
        pg_t_##SO *D = PG_VM_REG(pg_t_##SO, in.dst);                                          \
        PG_VM_UNARY_BODY(NAME, S0, SO, EXPR)                                                  \
    } break;
#define PG_VM_BINARY_LANES(NAME, S0, S1, SO, EXPR)                                            \
    PG_VM_EACH_LANE(j) { pg_t_##S0 x0 = A0[j]; pg_t_##S1 x1 = A1[j]; D[j] = (EXPR); }
#define PG_VM_BINARY_VMATH(NAME, S0, S1, SO, EXPR) pg_v_##NAME(A0, A1, D, n);
#ifdef __CUDACC__
#define PG_VM_BINARY_BODY PG_VM_BINARY_LANES
#else
#define PG_VM_BINARY_BODY(NAME, S0, S1, SO, EXPR)                                             \
    PG_VMATH_CHOOSE(NAME, PG_VM_BINARY_VMATH, PG_VM_BINARY_LANES)(NAME, S0, S1, SO, EXPR)
#endif

#define PG_VM_CASE2(NAME, S0, S1, SO, EXPR)                                                   \
    case PG_K_##NAME: {                                                                       \
        const pg_t_##S0 *A0 = PG_VM_REG(const pg_t_##S0, in.a);                               \
        const pg_t_##S1 *A1 = PG_VM_REG(const pg_t_##S1, in.b);                               \
        pg_t_##SO *D = PG_VM_REG(pg_t_##SO, in.dst);                                          \
        PG_VM_BINARY_BODY(NAME, S0, S1, SO, EXPR)                                             \
    } break;
#define PG_VM_CASE3(NAME, S0, S1, S2, SO, EXPR)                                               \
    case PG_K_##NAME: {                                                                       \
        const pg_t_##S0 *A0 = PG_VM_REG(const pg_t_##S0, in.a);                               \
        const pg_t_##S1 *A1 = PG_VM_REG(const pg_t_##S1, in.b);                               \
        const pg_t_##S2 *A2 = PG_VM_REG(const pg_t_##S2, in.c);                               \
        pg_t_##SO *D = PG_VM_REG(pg_t_##SO, in.dst);                                          \
        PG_VM_EACH_LANE(j) {                                                                  \
            pg_t_##S0 x0 = A0[j]; pg_t_##S1 x1 = A1[j]; pg_t_##S2 x2 = A2[j];                 \
            D[j] = (EXPR);                                                                    \
        }                                                                                     \
    } break;

/* casts: an outer switch on the target type, an inner one on the source type */
#define PG_VM_CAST_FROM(F, T)                                                                 \
    case PG_TYPE_##F: {                                                                       \
        const pg_t_##F *A0 = PG_VM_REG(const pg_t_##F, in.a);                                 \
        pg_t_##T *D = PG_VM_REG(pg_t_##T, in.dst);                                            \
        PG_VM_EACH_LANE(j) { D[j] = pg_load_##T((const char *)&A0[j], PG_TYPE_##F); }         \
    } break;
#define PG_VM_CAST_TO(T, _)                                                                   \
    case PG_TYPE_##T:                                                                         \
        switch (in.b) { PG_VM_TYPES_B(PG_VM_CAST_FROM, T) }                                   \
        break;

/* moves of a lane's bytes, plain or under a mask */
#define PG_VM_MOVES(UT)                                                                       \
    {                                                                                         \
        const UT *A0 = PG_VM_REG(const UT, in.a);                                             \
        UT *D = PG_VM_REG(UT, in.dst);                                                        \
        if (in.op == PG_VM_MOVE) {                                                            \
            PG_VM_EACH_LANE(j) { D[j] = A0[j]; }                                              \
        } else {                                                                              \
            const pg_bool *M = PG_VM_REG(const pg_bool, in.b);                                \
            PG_VM_EACH_LANE(j) { D[j] = M[j] ? A0[j] : D[j]; }                                \
        }                                                                                     \
    }

typedef struct {
    uint64_t w[2];
} pg_vm_u128;

/* Runs the program over the register file R of slots of `slot` bytes: lanes [0, n) are elements. */
PG_VM_EXEC_FN
pg_vm_exec(const PgVmInsn *code, int ninsn, char *R, int64_t slot, int n)
{
    int pc = 0;
    while (pc < ninsn) {
        const PgVmInsn in = code[pc++];
        switch (in.op) {
#define PG_DEF1(NAME, S0, SO, EXPR) PG_VM_KEEP(S0, PG_VM_KEEP(SO, PG_VM_CASE1(NAME, S0, SO, EXPR)))
#define PG_DEF2(NAME, S0, S1, SO, EXPR) PG_VM_KEEP(S0, PG_VM_KEEP(SO, PG_VM_CASE2(NAME, S0, S1, SO, EXPR)))
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR) PG_VM_KEEP(S1, PG_VM_KEEP(SO, PG_VM_CASE3(NAME, S0, S1, S2, SO, EXPR)))
#include "ops.def"
#undef PG_DEF1
#undef PG_DEF2
#undef PG_DEF3
        case PG_VM_MOVE:
        case PG_VM_MOVE_MASKED:
            switch (in.c) {
            case 1: PG_VM_MOVES(uint8_t) break;
            case 2: PG_VM_MOVES(uint16_t) break;
            case 4: PG_VM_MOVES(uint32_t) break;
            case 8: PG_VM_MOVES(uint64_t) break;
            default: PG_VM_MOVES(pg_vm_u128) break;
            }
            break;
        case PG_VM_CAST:
            switch (in.c) { PG_VM_TYPES_A(PG_VM_CAST_TO, ~) }
            break;
        case PG_VM_COMPLEX:
            if (in.c == PG_COMPLEX64) {
                const float *A0 = PG_VM_REG(const float, in.a), *A1 = PG_VM_REG(const float, in.b);
                pg_complex64 *D = PG_VM_REG(pg_complex64, in.dst);
                PG_VM_EACH_LANE(j) { D[j].re = A0[j]; D[j].im = A1[j]; }
            } else {
                const double *A0 = PG_VM_REG(const double, in.a), *A1 = PG_VM_REG(const double, in.b);
                pg_complex128 *D = PG_VM_REG(pg_complex128, in.dst);
                PG_VM_EACH_LANE(j) { D[j].re = A0[j]; D[j].im = A1[j]; }
            }
            break;
        case PG_VM_REAL:
        case PG_VM_IMAG:
            if (in.c == PG_COMPLEX64) {
                const pg_complex64 *A0 = PG_VM_REG(const pg_complex64, in.a);
                float *D = PG_VM_REG(float, in.dst);
                if (in.op == PG_VM_REAL) {
                    PG_VM_EACH_LANE(j) { D[j] = A0[j].re; }
                } else {
                    PG_VM_EACH_LANE(j) { D[j] = A0[j].im; }
                }
            } else {
                const pg_complex128 *A0 = PG_VM_REG(const pg_complex128, in.a);
                double *D = PG_VM_REG(double, in.dst);
                if (in.op == PG_VM_REAL) {
                    PG_VM_EACH_LANE(j) { D[j] = A0[j].re; }
                } else {
                    PG_VM_EACH_LANE(j) { D[j] = A0[j].im; }
                }
            }
            break;
        case PG_VM_JUMP:
#ifndef __CUDACC__
            if (in.a < pc && PG_CPU_STOPPING()) /* Ctrl-C: a user's loop ends here (cpu_stop.h) */
                return;
#endif
            pc = in.a;
            break;
        case PG_VM_JUMP_IF_NONE: {
            const pg_bool *M = PG_VM_REG(const pg_bool, in.a);
            int any = 0;
            for (int j = 0; j < n; j++)
                any |= M[j];
            if (!any)
                pc = in.b;
        } break;
        default: /* the host checked every opcode: not reached */
            return;
        }
    }
}

/* Value k of a compute-typed buffer `src` stored as `stored` at dst, and the reverse. */
PG_HOST_DEVICE PG_CONVERT_FN void
pg_vm_load_value(char *dst, int ctype, const char *src, int stored)
{
    switch (ctype) {
#define PG_VM_LOAD_CASE(S, _) case PG_TYPE_##S: *(pg_t_##S *)dst = pg_load_##S(src, stored); break;
        PG_VM_TYPES_A(PG_VM_LOAD_CASE, ~)
#undef PG_VM_LOAD_CASE
    default: break;
    }
}

PG_HOST_DEVICE PG_CONVERT_FN void
pg_vm_store_value(char *dst, int stored, const char *src, int ctype)
{
    switch (ctype) {
#define PG_VM_STORE_CASE(S, _) case PG_TYPE_##S: pg_store_##S(dst, stored, *(const pg_t_##S *)src); break;
        PG_VM_TYPES_A(PG_VM_STORE_CASE, ~)
#undef PG_VM_STORE_CASE
    default: break;
    }
}

/* Bytes of one lane of compute type t. */
PG_HOST_DEVICE PG_INLINE int
pg_vm_type_size(int t)
{
    switch (t) {
    case PG_BOOL: case PG_INT8: case PG_UINT8: return 1;
    case PG_INT16: case PG_UINT16: return 2;
    case PG_INT32: case PG_UINT32: case PG_FLOAT32: return 4;
    case PG_COMPLEX128: return 16;
    default: return 8;
    }
}

/* Fills the constant registers' lanes [0, n). */
PG_HOST_DEVICE PG_INLINE void
pg_vm_fill_constants(const PgVmProgram *p, char *R, int64_t slot, int n)
{
    const PgVmConst *k = PG_VM_CONSTS(p);
    for (int i = 0; i < p->nconst; i++) {
        int size = pg_vm_type_size(k[i].type);
        char *dst = R + (int64_t)k[i].reg * slot;
        for (int j = 0; j < n; j++)
            for (int b = 0; b < size; b++)
                dst[(int64_t)j * size + b] = ((const char *)k[i].value)[b];
    }
}

#endif
