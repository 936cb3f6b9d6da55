/* Which embedded image of a module a GPU loads (runtime/fatbin.h), and its bytes. */
#ifndef PG_MODULE_IMAGE_H
#define PG_MODULE_IMAGE_H
#include "core/pg.h"
#include "runtime/fatbin.h"

/* The image of m for a GPU of compute capability cc (major * 10 + minor: 86 for 8.6): a fatbin
 * (the driver picks inside it); else the cubin of the GPU's major version with the highest minor
 * not above the GPU's (SASS runs on later minors of its major); else the PTX of the highest
 * architecture not above the GPU's (the driver JIT-compiles it). NULL when none fits. */
const PgModuleImage *pg_module_image_pick(const PgFatbinModule *m, int cc);

/* The bytes for cuModuleLoadData: the image's own, or (a compressed image) inflated into a new
 * bytes object *owner, to release after loading (NULL otherwise). With the GIL; -1 with an
 * exception. */
int pg_module_image_bytes(const PgFatbinModule *m, const PgModuleImage *img, const void **bytes, PyObject **owner);

#endif
