/* Interop protocols (being written: see the issue note). */
#include "interop.h"

int
pg_interop_import(PyObject *obj, PgArray **out)
{
    PG_UNUSED(obj);
    PG_UNUSED(out);
    return 0;
}

PyMethodDef pg_array_methods_interop[] = {{NULL, NULL, 0, NULL}};
PyGetSetDef pg_array_getset_interop[] = {{NULL, NULL, NULL, NULL, NULL}};
PyMethodDef pg_interop_module_methods[] = {{NULL, NULL, 0, NULL}};

void
pg_interop_setup_type(PyTypeObject *t)
{
    PG_UNUSED(t);
}
