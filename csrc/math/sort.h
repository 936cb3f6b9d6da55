/* Sorting and searching: sort, argsort, partition, lexsort (sort.c), searchsorted, bincount and
 * histograms (search.c), as module functions and ndarray methods. */
#ifndef PG_MATH_SORT_H
#define PG_MATH_SORT_H
#include "math/ufunc.h"

/* a sorted along axis (None: flattened) into a new array; flags PG_SORT_* of backend.h. */
PgArray *pg_sort_array(PgArray *a, PyObject *axis, int flags);

extern PyMethodDef pg_sort_module_methods[], pg_array_methods_sort[], pg_search_module_methods[],
    pg_array_methods_search[];
#endif
