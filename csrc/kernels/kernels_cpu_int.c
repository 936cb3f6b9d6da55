/* The CPU loops of loops.def whose output is an integer (see cpu_loops.h). */
#define PG_CPU_PART_INT 1
#include "cpu_loops.h"
