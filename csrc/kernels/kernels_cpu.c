/* The tables of every CPU elementwise loop, indexed by kernel id; the loops themselves are compiled
 * in kernels_cpu_<part>.c (see cpu_loops.h). pg_cpu_loops_avx2 is the table for x86-64-v3 CPUs:
 * the loops of the bool parts from their x86-64-v3 builds (kernels_cpu_bool_*_avx2.c), the rest
 * the baseline's. */
#include "cpu_loops.h" /* the parts (PG_CPU_PART_OF); no loops are compiled here */
#include "kernel_ids.h"

#define PG_DEF1(NAME, S0, SO, EXPR) PG_CPU_LOOP_FN pg_cpu_##NAME(const PgLoopArgs *, int, int64_t, int64_t);
#define PG_DEF2(NAME, S0, S1, SO, EXPR) PG_DEF1(NAME, S0, SO, EXPR)
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR) PG_DEF1(NAME, S0, SO, EXPR)
#include "loops.def"
#undef PG_DEF1

#define PG_DEF1(NAME, S0, SO, EXPR) pg_cpu_##NAME,
const PgCpuLoop pg_cpu_loops[PG_NKERNELS] = {
#include "loops.def"
};
#undef PG_DEF1

#if defined(__x86_64__) && defined(__GNUC__)
/* 1 for the parts that have an x86-64-v3 build */
#define PG_CPU_AVX2_PART_BOOL_INT 1
#define PG_CPU_AVX2_PART_BOOL_REAL 1
#define PG_CPU_AVX2_PART_INT 1
#define PG_CPU_AVX2_PART_FLOAT 1
#define PG_CPU_AVX2_PART_DOUBLE 1
#define PG_CPU_AVX2_PART_COMPLEX 0
#define PG_CPU_AVX2_BUILT(S0, SO) PG_CPU_CAT(PG_CPU_AVX2_PART_, PG_CPU_PART_OF(S0, SO))
#define PG_CPU_AVX2_NAME_1(NAME) pg_cpu_avx2_##NAME
#define PG_CPU_AVX2_NAME_0(NAME) pg_cpu_##NAME

#define PG_DEF1(NAME, S0, SO, EXPR)                                                         \
    PG_CPU_CAT(PG_CPU_WHEN_, PG_CPU_AVX2_BUILT(S0, SO))                                     \
    (PG_CPU_LOOP_FN pg_cpu_avx2_##NAME(const PgLoopArgs *, int, int64_t, int64_t);)
#include "loops.def"
#undef PG_DEF1

#define PG_DEF1(NAME, S0, SO, EXPR) PG_CPU_CAT(PG_CPU_AVX2_NAME_, PG_CPU_AVX2_BUILT(S0, SO))(NAME),
const PgCpuLoop pg_cpu_loops_avx2[PG_NKERNELS] = {
#include "loops.def"
};
#undef PG_DEF1
#endif
