/* pg_math.h for the headers pygpu gives users' kernels (user_complex.h, user_float16.h,
 * cpu_cucomplex.h, cpu_fp16.h), after rtc_types.h under NVRTC. Compiled after cuda_cpu.h, whose
 * loops poll the Ctrl-C flag, its short and bounded loops go without the poll, as in
 * jit_prelude.h. */
#ifndef PG_MATH_UNPOLLED_H
#define PG_MATH_UNPOLLED_H

#include "rtc_types.h"
#ifdef PG_CUDA_CPU_H
#pragma push_macro("for")
#pragma push_macro("while")
#undef for
#undef while
#endif
#include "pg_math.h"
#ifdef PG_CUDA_CPU_H
#pragma pop_macro("for")
#pragma pop_macro("while")
#endif

#endif
