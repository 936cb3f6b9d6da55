/* Host-side table of the reducers of kernels/reduce.def (the reduction family's kernels are
 * reduce_<name>, and for op reducers rscan_<name>, rseg_<name>, rat_<name>), and the values the
 * host hands them: identities and initial values as accumulator bits. */
#ifndef PG_REDUCER_TABLE_H
#define PG_REDUCER_TABLE_H
#include "core/pg.h"
#include "kernels/reduce_ids.h"
#include "kernels/reduce_types.h"

typedef enum { PG_RKIND_OP, PG_RKIND_ARG, PG_RKIND_MOMENTS } PgReducerKind;

typedef struct {
    const char *name;   /* "add_f32": the op-table loop of an op reducer */
    PgReducerKind kind;
    int acc_type;       /* PgType the accumulator is stored as (op reducers), or its value's */
    int loop;           /* the op-table loop (kernels/kernel_ids.h) of an op reducer, else -1 */
    int acc_size;       /* bytes of the accumulator (workspaces of split reductions and scans) */
} PgReducerInfo;

extern const PgReducerInfo pg_reducers[PG_NREDUCERS];

/* The op reducer whose combiner is op-table loop `kernel_id` (PG_K_add_f64, ...), or -1. */
int pg_reducer_of_loop(int kernel_id);
/* An op reducer's identity (or the neutral start of maximum, minimum, fmax, fmin), as bits. */
void pg_reducer_identity(int reducer, uint64_t bits[2]);
/* The element at src, stored as src_type, as an op reducer's accumulator bits. */
void pg_reducer_convert(int reducer, const void *src, int src_type, uint64_t bits[2]);
#endif
