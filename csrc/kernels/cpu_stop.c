/* The flag of cpu_stop.h. */
#include "cpu_stop.h"

volatile int pg_cpu_stop;
