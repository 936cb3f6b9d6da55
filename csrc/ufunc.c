/* ufuncs and operators (being written). */
#include "array.h"

PyMethodDef pg_array_methods_math[] = {{NULL, NULL, 0, NULL}};
PyMethodDef pg_math_module_methods[] = {{NULL, NULL, 0, NULL}};

void
pg_math_setup_type(PyTypeObject *t)
{
    PG_UNUSED(t);
}

int
pg_math_init(PyObject *module)
{
    PG_UNUSED(module);
    return 0;
}
