/* The CPU loops of loops.def whose output is float16 or float32 (see cpu_loops.h). */
#define PG_CPU_PART_FLOAT 1
#include "cpu_loops.h"
