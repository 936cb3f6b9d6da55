/* The CPU loops of loops.def whose output is float64 (see cpu_loops.h). */
#define PG_CPU_PART_DOUBLE 1
#include "cpu_loops.h"
