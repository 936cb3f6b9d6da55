/* The CPU loops of loops.def that give bool from floating or complex inputs (see cpu_loops.h). */
#define PG_CPU_PART_BOOL_REAL 1
#include "cpu_loops.h"
