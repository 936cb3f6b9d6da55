/* The CPU loops of loops.def whose output is complex (see cpu_loops.h). */
#define PG_CPU_PART_COMPLEX 1
#include "cpu_loops.h"
