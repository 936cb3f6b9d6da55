/* The CPU loops of loops.def that give bool from bool or integer inputs (see cpu_loops.h). */
#define PG_CPU_PART_BOOL_INT 1
#include "cpu_loops.h"
