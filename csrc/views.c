/* Shape methods returning views (being written). */
#include "array.h"

PyMethodDef pg_array_methods_views[] = {{NULL, NULL, 0, NULL}};
PyGetSetDef pg_array_getset_views[] = {{NULL, NULL, NULL, NULL, NULL}};
PyMethodDef pg_views_module_methods[] = {{NULL, NULL, 0, NULL}};

void
pg_views_setup_type(PyTypeObject *t)
{
    PG_UNUSED(t);
}
