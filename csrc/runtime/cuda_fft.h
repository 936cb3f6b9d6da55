/* Fourier transforms on cuFFT for CUDA devices (pygpu.fft; the CPU runs pocketfft from Python).
 * A call transforms the last `rank` (1 to 3) axes of `batch` contiguous C-ordered signals, out
 * of place: complex to complex (forward or inverse, unnormalised), real to complex (the n/2 + 1
 * non-negative frequencies of the last axis) or complex to real (n real values from n/2 + 1).
 * Plans are cached per device (pg_cufft_plan in cuda_fft.c); each call binds its plan to the
 * call's stream and gives it a work area from the pool. */
#ifndef PG_CUDA_FFT_H
#define PG_CUDA_FFT_H
#include "runtime/backend.h"

typedef enum { PG_FFT_C2C = 0, PG_FFT_R2C = 1, PG_FFT_C2R = 2 } PgFftKind;

typedef struct {
    PgDevice *dev;
    void *stream;
    PgFftKind kind;
    int double_precision;
    int rank;
    int64_t n[3];     /* the logical (real-side) lengths of the transformed axes */
    int64_t batch;
    int inverse;      /* C2C only */
    void *in, *out;   /* device memory; a C2R input may be overwritten (cuFFT's rule) */
} PgFftCall;

/* 0, or -1 with an exception (cuFFT not found, a failed call). */
int pg_cufft_exec(const PgFftCall *c);
/* Plans in the cache of every device, for tests and the report. */
int pg_cufft_cached_plans(void);
/* Destroys every cached plan (after waiting for the devices that used them). */
void pg_cufft_clear_plans(void);
#endif
