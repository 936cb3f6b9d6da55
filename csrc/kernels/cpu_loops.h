/* The CPU instantiation of the elementwise loops of loops.def, from the same source as
 * kernels.cu, split by the loop's output type over a few translation units so that a parallel
 * build compiles them side by side (one file took 80 s of the 95 s build on two cores). Each kernels_cpu_<part>.c
 * defines PG_CPU_PART_<PART> 1 and includes this header; kernels_cpu.c includes it with none
 * defined and gets the table of all the loops. */
#ifndef PG_CPU_LOOPS_H
#define PG_CPU_LOOPS_H
#include <math.h>
#include "elementwise.h"
#include "kernel_ids.h"

/* the part of a loop by its output suffix (SO) and, for the many bool results (comparisons,
 * predicates), its first input's (S0): parts of similar compile times */
#define PG_CPU_PART_OF(S0, SO) PG_CPU_CAT(PG_CPU_PART_OF_, SO)(S0)
#define PG_CPU_PART_OF_b(S0) PG_CPU_CAT(PG_CPU_BOOL_FROM_, S0)
#define PG_CPU_BOOL_FROM_b BOOL_INT
#define PG_CPU_BOOL_FROM_i8 BOOL_INT
#define PG_CPU_BOOL_FROM_i16 BOOL_INT
#define PG_CPU_BOOL_FROM_i32 BOOL_INT
#define PG_CPU_BOOL_FROM_i64 BOOL_INT
#define PG_CPU_BOOL_FROM_u8 BOOL_INT
#define PG_CPU_BOOL_FROM_u16 BOOL_INT
#define PG_CPU_BOOL_FROM_u32 BOOL_INT
#define PG_CPU_BOOL_FROM_u64 BOOL_INT
#define PG_CPU_BOOL_FROM_f16 BOOL_REAL
#define PG_CPU_BOOL_FROM_f32 BOOL_REAL
#define PG_CPU_BOOL_FROM_f64 BOOL_REAL
#define PG_CPU_BOOL_FROM_c64 BOOL_REAL
#define PG_CPU_BOOL_FROM_c128 BOOL_REAL
#define PG_CPU_PART_OF_i8(S0) INT
#define PG_CPU_PART_OF_i16(S0) INT
#define PG_CPU_PART_OF_i32(S0) INT
#define PG_CPU_PART_OF_i64(S0) INT
#define PG_CPU_PART_OF_u8(S0) INT
#define PG_CPU_PART_OF_u16(S0) INT
#define PG_CPU_PART_OF_u32(S0) INT
#define PG_CPU_PART_OF_u64(S0) INT
#define PG_CPU_PART_OF_f16(S0) FLOAT
#define PG_CPU_PART_OF_f32(S0) FLOAT
#define PG_CPU_PART_OF_f64(S0) DOUBLE
#define PG_CPU_PART_OF_c64(S0) COMPLEX
#define PG_CPU_PART_OF_c128(S0) COMPLEX
#ifndef PG_CPU_PART_BOOL_INT
#define PG_CPU_PART_BOOL_INT 0
#endif
#ifndef PG_CPU_PART_BOOL_REAL
#define PG_CPU_PART_BOOL_REAL 0
#endif
#ifndef PG_CPU_PART_INT
#define PG_CPU_PART_INT 0
#endif
#ifndef PG_CPU_PART_FLOAT
#define PG_CPU_PART_FLOAT 0
#endif
#ifndef PG_CPU_PART_DOUBLE
#define PG_CPU_PART_DOUBLE 0
#endif
#ifndef PG_CPU_PART_COMPLEX
#define PG_CPU_PART_COMPLEX 0
#endif

#define PG_CPU_CAT(a, b) PG_CPU_CAT_(a, b)
#define PG_CPU_CAT_(a, b) a##b
#define PG_CPU_WHEN_1(...) __VA_ARGS__
#define PG_CPU_WHEN_0(...)
/* PG_CPU_IN_PART(S0, SO)(code): the code when this translation unit builds that loop's part */
#define PG_CPU_IN_PART(S0, SO) PG_CPU_CAT(PG_CPU_WHEN_, PG_CPU_CAT(PG_CPU_PART_, PG_CPU_PART_OF(S0, SO)))

/* this part's loops */
#define PG_DEF1(NAME, S0, SO, EXPR) PG_CPU_IN_PART(S0, SO)(PG_LOOP1(NAME, S0, SO, EXPR))
#define PG_DEF2(NAME, S0, S1, SO, EXPR) PG_CPU_IN_PART(S0, SO)(PG_LOOP2(NAME, S0, S1, SO, EXPR))
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR) PG_CPU_IN_PART(S0, SO)(PG_LOOP3(NAME, S0, S1, S2, SO, EXPR))
#include "loops.def"
#undef PG_DEF1
#undef PG_DEF2
#undef PG_DEF3

#endif
