/* The id of every reducer of reduce.def, in its order: PG_R_<name>, PG_NREDUCERS; the op reducers
 * (which also scan, reduceat and ufunc.at) are the ids below PG_NOP_REDUCERS. */
#ifndef PG_REDUCE_IDS_H
#define PG_REDUCE_IDS_H

#define PG_RED_OP(NAME, S) PG_R_##NAME,
#define PG_RED_ARG(NAME, S, CMP) PG_R_##NAME,
#define PG_RED_MOMENTS(NAME, S, R) PG_R_##NAME,
typedef enum {
#include "reduce.def"
    PG_NREDUCERS
} PgReducerId;
#undef PG_RED_OP
#undef PG_RED_ARG
#undef PG_RED_MOMENTS

/* the op reducers lead the list: PG_NOP_REDUCERS counts them */
#define PG_RED_OP(NAME, S) PG_ROP_SLOT_##NAME,
#define PG_RED_ARG(NAME, S, CMP)
#define PG_RED_MOMENTS(NAME, S, R)
enum {
#include "reduce.def"
    PG_NOP_REDUCERS
};
#undef PG_RED_OP
#undef PG_RED_ARG
#undef PG_RED_MOMENTS
#endif
