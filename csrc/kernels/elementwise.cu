/* The CUDA instantiation of every elementwise loop: compiled by nvcc into the embedded fatbin. */
#include "elementwise.h"

#define PG_DEF1(NAME, S0, SO, EXPR) PG_LOOP1(NAME, S0, SO, EXPR)
#define PG_DEF2(NAME, S0, S1, SO, EXPR) PG_LOOP2(NAME, S0, S1, SO, EXPR)
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR) PG_LOOP3(NAME, S0, S1, S2, SO, EXPR)
#include "loops.def"
