/* cuFFT plans and their execution (cuda_fft.h). A plan is made once per (device, kind, precision,
 * lengths, batch) and kept in a small table, the least recently used one destroyed when it is
 * full (CuPy's plan cache is the model users know; 16 plans, as its default). A plan is bound to
 * the call's stream before each execution, and runs in a work area taken from the device's pool
 * for the call (freed at once: the pool keeps it from other streams until the work is ordered),
 * so plans do not hold memory between calls. The GIL serialises access to the table; the device's
 * context is current around every cuFFT call. */
#include "runtime/cuda_fft.h"
#include "runtime/cuda_backend.h"
#include "runtime/cuda_libs.h"
#include "runtime/memory.h"

#define NPLANS 16

typedef struct {
    PgDevice *dev;        /* NULL: a free slot */
    PgFftKind kind;
    int double_precision, rank;
    int64_t n[3], batch;
    cufftHandle plan;
    size_t work_bytes;
    uint64_t last_use;
} PlanEntry;

static PlanEntry plans[NPLANS];
static uint64_t use_clock;

static int
same_key(const PlanEntry *e, const PgFftCall *c)
{
    if (e->dev != c->dev || e->kind != c->kind || e->double_precision != c->double_precision || e->rank != c->rank ||
        e->batch != c->batch)
        return 0;
    for (int i = 0; i < c->rank; i++)
        if (e->n[i] != c->n[i])
            return 0;
    return 1;
}

/* Destroys an entry's plan, in its device's context, once the device has finished the work that
 * may use it (a plan is shared by the streams of its device). */
static void
plan_clear(PlanEntry *e)
{
    CUcontext saved;
    if (e->dev != NULL && pg_cuda_enter(e->dev, &saved) == 0) {
        pg_cu.cuCtxSynchronize();
        pg_cufft.cufftDestroy(e->plan);
        pg_cuda_leave(e->dev, saved);
    }
    PyErr_Clear(); /* a failed device reports on its next use */
    memset(e, 0, sizeof *e);
}

static int
cufft_type(const PgFftCall *c)
{
    switch (c->kind) {
    case PG_FFT_R2C: return c->double_precision ? CUFFT_D2Z : CUFFT_R2C;
    case PG_FFT_C2R: return c->double_precision ? CUFFT_Z2D : CUFFT_C2R;
    default: return c->double_precision ? CUFFT_Z2Z : CUFFT_C2C;
    }
}

/* The cached plan for the call, made if new. Called in the device's context. */
static PlanEntry *
plan_for(const PgFftCall *c)
{
    PlanEntry *slot = NULL;
    for (int i = 0; i < NPLANS; i++) {
        PlanEntry *e = &plans[i];
        if (e->dev != NULL && same_key(e, c)) {
            e->last_use = ++use_clock;
            return e;
        }
        if (slot == NULL || (slot->dev != NULL && (e->dev == NULL || e->last_use < slot->last_use)))
            slot = e;
    }
    if (slot->dev != NULL)
        plan_clear(slot);
    cufftHandle h;
    int st = pg_cufft.cufftCreate(&h);
    if (st != 0) {
        pg_cuda_lib_raise(c->dev, "cuFFT", st, "cufftCreate");
        return NULL;
    }
    long long n[3];
    for (int i = 0; i < c->rank; i++)
        n[i] = (long long)c->n[i];
    size_t work = 0;
    const char *call = "cufftSetAutoAllocation";
    if ((st = pg_cufft.cufftSetAutoAllocation(h, 0)) == 0) {
        call = "cufftMakePlanMany64";
        /* NULL embeddings: each signal packed, the batch contiguous (C order of the arrays) */
        st = pg_cufft.cufftMakePlanMany64(h, c->rank, n, NULL, 1, 0, NULL, 1, 0, cufft_type(c), (long long)c->batch,
                                          &work);
    }
    if (st != 0) {
        pg_cufft.cufftDestroy(h);
        pg_cuda_lib_raise(c->dev, "cuFFT", st, call);
        return NULL;
    }
    slot->dev = c->dev;
    slot->kind = c->kind;
    slot->double_precision = c->double_precision;
    slot->rank = c->rank;
    memcpy(slot->n, c->n, sizeof slot->n);
    slot->batch = c->batch;
    slot->plan = h;
    slot->work_bytes = work;
    slot->last_use = ++use_clock;
    return slot;
}

static int
execute(const PgFftCall *c, cufftHandle h)
{
    switch (cufft_type(c)) {
    case CUFFT_C2C: return pg_cufft.cufftExecC2C(h, c->in, c->out, c->inverse ? CUFFT_INVERSE : CUFFT_FORWARD);
    case CUFFT_Z2Z: return pg_cufft.cufftExecZ2Z(h, c->in, c->out, c->inverse ? CUFFT_INVERSE : CUFFT_FORWARD);
    case CUFFT_R2C: return pg_cufft.cufftExecR2C(h, c->in, c->out);
    case CUFFT_D2Z: return pg_cufft.cufftExecD2Z(h, c->in, c->out);
    case CUFFT_C2R: return pg_cufft.cufftExecC2R(h, c->in, c->out);
    default: return pg_cufft.cufftExecZ2D(h, c->in, c->out);
    }
}

int
pg_cufft_exec(const PgFftCall *c)
{
    if (c->rank < 1 || c->rank > 3) {
        PyErr_Format(PyExc_ValueError, "cuFFT transforms 1 to 3 axes at a time, not %d", c->rank);
        return -1;
    }
    if (pg_cufft_load() < 0)
        return -1;
    CUcontext saved;
    if (pg_cuda_enter(c->dev, &saved) < 0)
        return -1;
    int rc = -1, st;
    PgBlock *work = NULL;
    const char *call = "cufftSetStream";
    PlanEntry *e = plan_for(c);
    if (e == NULL)
        goto done;
    pg_pool_note_queue(c->dev, c->stream); /* cuFFT's work goes on this stream next */
    if ((st = pg_cufft.cufftSetStream(e->plan, (CUstream)c->stream)) != 0)
        goto failed;
    if (e->work_bytes > 0) {
        if ((work = pg_pool_alloc(c->dev, e->work_bytes, PG_MEM_DEVICE, c->stream)) == NULL)
            goto done;
        call = "cufftSetWorkArea";
        if ((st = pg_cufft.cufftSetWorkArea(e->plan, work->ptr)) != 0)
            goto failed;
    }
    call = "cufftExec";
    if ((st = execute(c, e->plan)) != 0)
        goto failed;
    rc = 0;
    goto done;
failed:
    pg_cuda_lib_raise(c->dev, "cuFFT", st, call);
done:
    if (work != NULL)
        pg_pool_free(work); /* stream-ordered: reused only after the transform */
    pg_cuda_leave(c->dev, saved);
    return rc;
}

int
pg_cufft_cached_plans(void)
{
    int n = 0;
    for (int i = 0; i < NPLANS; i++)
        n += plans[i].dev != NULL;
    return n;
}

void
pg_cufft_clear_plans(void)
{
    for (int i = 0; i < NPLANS; i++)
        if (plans[i].dev != NULL)
            plan_clear(&plans[i]);
}
