/* A stand-in for cuFFT with the mock driver (libcuda_mock.c), whose device memory is host memory:
 * every entry point pygpu takes, computing each transform by the definition (an O(n^2) DFT per
 * axis, enough for the small arrays of tests/test_fft_cuda_mock.py) and recording what pygpu asked
 * for: plans made and destroyed, the stream and work area of the last execution. The mock driver
 * runs copies on stream threads: an execution first waits for its plan's stream (the driver's
 * cuStreamSynchronize), so it sees the data queued before it. Like cuFFT, a
 * complex-to-real execution overwrites its input (with NaNs here, so a caller that hands its own
 * data shows). mock_cufft_stats() reports. */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    long creates, destroys, plans, execs, set_streams, work_areas, auto_allocation_off;
    void *last_stream;
    void *last_work_area;
    long long last_batch;
    int last_rank, last_type;
} MockFftStats;
static MockFftStats stats;

MockFftStats *
mock_cufft_stats(void)
{
    return &stats;
}

enum { R2C = 0x2a, C2R = 0x2c, C2C = 0x29, D2Z = 0x6a, Z2D = 0x6c, Z2Z = 0x69 };
enum { INVALID_PLAN = 1, INVALID_VALUE = 4, NO_WORKSPACE = 13 };
#define MAX_PLANS 64
#define WORK_BYTES 4096

typedef struct {
    int used, made, auto_allocate, rank, type;
    long long n[3], batch;
    void *work, *stream;
} Plan;
static Plan plans[MAX_PLANS];

static Plan *
plan_of(int h)
{
    return h >= 1 && h <= MAX_PLANS && plans[h - 1].used ? &plans[h - 1] : NULL;
}

int
cufftCreate(int *h)
{
    for (int i = 0; i < MAX_PLANS; i++)
        if (!plans[i].used) {
            memset(&plans[i], 0, sizeof plans[i]);
            plans[i].used = 1;
            plans[i].auto_allocate = 1;
            *h = i + 1;
            stats.creates++;
            return 0;
        }
    return 2; /* CUFFT_ALLOC_FAILED */
}

int
cufftDestroy(int h)
{
    Plan *p = plan_of(h);
    if (p == NULL)
        return INVALID_PLAN;
    p->used = 0;
    stats.destroys++;
    return 0;
}

int
cufftSetStream(int h, void *s)
{
    Plan *p = plan_of(h);
    if (p == NULL)
        return INVALID_PLAN;
    p->stream = s;
    stats.set_streams++;
    return 0;
}

int
cufftSetAutoAllocation(int h, int a)
{
    Plan *p = plan_of(h);
    if (p == NULL)
        return INVALID_PLAN;
    p->auto_allocate = a;
    if (!a)
        stats.auto_allocation_off++;
    return 0;
}

int
cufftMakePlanMany64(int h, int rank, long long *n, long long *inembed, long long istride, long long idist,
                    long long *onembed, long long ostride, long long odist, int type, long long batch, size_t *work)
{
    (void)istride; (void)idist; (void)ostride; (void)odist;
    Plan *p = plan_of(h);
    if (p == NULL)
        return INVALID_PLAN;
    if (rank < 1 || rank > 3 || batch < 1 || inembed != NULL || onembed != NULL)
        return INVALID_VALUE;
    for (int i = 0; i < rank; i++)
        if (n[i] < 1)
            return INVALID_VALUE;
    p->rank = rank;
    p->type = type;
    memcpy(p->n, n, sizeof(long long) * (size_t)rank);
    p->batch = batch;
    p->made = 1;
    *work = WORK_BYTES;
    stats.plans++;
    return 0;
}

int
cufftSetWorkArea(int h, void *area)
{
    Plan *p = plan_of(h);
    if (p == NULL)
        return INVALID_PLAN;
    p->work = area;
    stats.work_areas++;
    return 0;
}

/* One complex signal of the plan's shape in doubles (re, im interleaved), by the definition. */
static void
dft(const Plan *p, double *v, int sign)
{
    long long total = 1;
    for (int i = 0; i < p->rank; i++)
        total *= p->n[i];
    double *tmp = malloc(sizeof(double) * 2 * (size_t)total);
    /* one axis at a time: stride of axis d in the C-ordered signal */
    for (int d = 0; d < p->rank; d++) {
        long long n = p->n[d], stride = 1;
        for (int e = d + 1; e < p->rank; e++)
            stride *= p->n[e];
        for (long long idx = 0; idx < total; idx++) {
            long long k = idx / stride % n, base = idx - k * stride;
            double re = 0, im = 0;
            for (long long t = 0; t < n; t++) {
                double a = sign * 2 * M_PI * (double)(k * t % n) / (double)n;
                double xr = v[2 * (base + t * stride)], xi = v[2 * (base + t * stride) + 1];
                re += xr * cos(a) - xi * sin(a);
                im += xr * sin(a) + xi * cos(a);
            }
            tmp[2 * idx] = re;
            tmp[2 * idx + 1] = im;
        }
        memcpy(v, tmp, sizeof(double) * 2 * (size_t)total);
    }
    free(tmp);
}

/* Waits for the work queued on the plan's stream (the caller has a context current). */
static int
wait_stream(const Plan *p)
{
    static int (*sync)(void *);
    if (sync == NULL) {
        void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        if (cuda == NULL || (sync = (int (*)(void *))dlsym(cuda, "cuStreamSynchronize")) == NULL)
            return 5; /* CUFFT_INTERNAL_ERROR */
    }
    return sync(p->stream) == 0 ? 0 : 6; /* CUFFT_EXEC_FAILED */
}

static int
execute(int h, int want_type, const void *in, void *out, int sign)
{
    Plan *p = plan_of(h);
    if (p == NULL || !p->made)
        return INVALID_PLAN;
    int waited = wait_stream(p);
    if (waited != 0)
        return waited;
    if (p->type != want_type)
        return 3; /* CUFFT_INVALID_TYPE */
    if (!p->auto_allocate && p->work == NULL)
        return NO_WORKSPACE;
    int single = want_type == R2C || want_type == C2R || want_type == C2C;
    long long total = 1, half = 1;
    for (int i = 0; i < p->rank; i++) {
        total *= p->n[i];
        half *= i == p->rank - 1 ? p->n[i] / 2 + 1 : p->n[i];
    }
    double *v = malloc(sizeof(double) * 2 * (size_t)total);
    for (long long b = 0; b < p->batch; b++) {
        if (want_type == C2C || want_type == Z2Z) {
            for (long long i = 0; i < 2 * total; i++)
                v[i] = single ? ((const float *)in)[2 * total * b + i] : ((const double *)in)[2 * total * b + i];
            dft(p, v, sign);
            for (long long i = 0; i < 2 * total; i++)
                if (single)
                    ((float *)out)[2 * total * b + i] = (float)v[i];
                else
                    ((double *)out)[2 * total * b + i] = v[i];
        } else if (want_type == R2C || want_type == D2Z) {
            for (long long i = 0; i < total; i++) {
                v[2 * i] = single ? ((const float *)in)[total * b + i] : ((const double *)in)[total * b + i];
                v[2 * i + 1] = 0;
            }
            dft(p, v, -1);
            long long last = p->n[p->rank - 1], h2 = last / 2 + 1, j = 0;
            for (long long i = 0; i < total; i++) {
                if (i % last >= h2)
                    continue;
                if (single) {
                    ((float *)out)[2 * (half * b + j)] = (float)v[2 * i];
                    ((float *)out)[2 * (half * b + j) + 1] = (float)v[2 * i + 1];
                } else {
                    ((double *)out)[2 * (half * b + j)] = v[2 * i];
                    ((double *)out)[2 * (half * b + j) + 1] = v[2 * i + 1];
                }
                j++;
            }
        } else { /* C2R, Z2D: the whole spectrum from its Hermitian half, then the real part */
            long long last = p->n[p->rank - 1], h2 = last / 2 + 1;
            for (long long i = 0; i < total; i++) {
                long long k = i % last, rest = i / last, src = rest * h2 + k, conj = 0;
                if (k >= h2) { /* F[k] = conj(F[-k]) over every axis */
                    long long mirror = 0, r = i, mult = 1;
                    for (int d = p->rank - 1; d >= 0; d--) {
                        long long kd = r % p->n[d];
                        r /= p->n[d];
                        mirror += ((p->n[d] - kd) % p->n[d]) * mult;
                        mult *= p->n[d];
                    }
                    src = mirror / last * h2 + mirror % last;
                    conj = 1;
                }
                double re = single ? ((const float *)in)[2 * (half * b + src)] : ((const double *)in)[2 * (half * b + src)];
                double im = single ? ((const float *)in)[2 * (half * b + src) + 1]
                                   : ((const double *)in)[2 * (half * b + src) + 1];
                v[2 * i] = re;
                v[2 * i + 1] = conj ? -im : im;
            }
            dft(p, v, +1);
            for (long long i = 0; i < total; i++)
                if (single)
                    ((float *)out)[total * b + i] = (float)v[2 * i];
                else
                    ((double *)out)[total * b + i] = v[2 * i];
        }
    }
    if (want_type == C2R || want_type == Z2D) /* cuFFT's complex-to-real may overwrite its input */
        for (long long i = 0; i < 2 * half * p->batch; i++)
            if (single)
                ((float *)in)[i] = NAN;
            else
                ((double *)in)[i] = NAN;
    free(v);
    stats.execs++;
    stats.last_stream = p->stream;
    stats.last_work_area = p->work;
    stats.last_batch = p->batch;
    stats.last_rank = p->rank;
    stats.last_type = want_type;
    return 0;
}

int cufftExecC2C(int h, void *in, void *out, int dir) { return execute(h, C2C, in, out, dir); }
int cufftExecZ2Z(int h, void *in, void *out, int dir) { return execute(h, Z2Z, in, out, dir); }
int cufftExecR2C(int h, void *in, void *out) { return execute(h, R2C, in, out, -1); }
int cufftExecD2Z(int h, void *in, void *out) { return execute(h, D2Z, in, out, -1); }
int cufftExecC2R(int h, void *in, void *out) { return execute(h, C2R, in, out, 1); }
int cufftExecZ2D(int h, void *in, void *out) { return execute(h, Z2D, in, out, 1); }
