/* The interface between views.c (shape methods) and indexing.c (basic indexing, assignment and the
 * Python protocols of ndarray). views.c owns the method tables and pg_views_setup_type; indexing.c
 * provides the functions those tables name and the slots it fills. */
#ifndef PG_INDEXING_H
#define PG_INDEXING_H
#include "array/array.h"


/* Fills the mapping, sequence, iteration and number-conversion (__bool__ __int__ __float__
 * __index__) slots of ndarray. Called from pg_views_setup_type. */
void pg_indexing_setup_type(PyTypeObject *t);

/* Methods of ndarray implemented in indexing.c (listed in views.c's table). */
PyObject *pg_array_item(PyObject *self, PyObject *args);
PyObject *pg_array_tolist(PyObject *self, PyObject *unused);
PyObject *pg_array_complex(PyObject *self, PyObject *unused);
PyObject *pg_array_reduce(PyObject *self, PyObject *unused);
PyObject *pg_array_copy_method(PyObject *self, PyObject *unused);
PyObject *pg_array_deepcopy(PyObject *self, PyObject *memo);
/* Module function _reconstruct(numpy_array, device_str): the unpickler of ndarray. */
PyObject *pg_reconstruct(PyObject *module, PyObject *args);

/* The number slots (exported so that a file replacing tp_as_number can keep them). */
int pg_array_nb_bool(PyObject *self);
PyObject *pg_array_nb_int(PyObject *self);
PyObject *pg_array_nb_float(PyObject *self);
PyObject *pg_array_nb_index(PyObject *self);

#endif
