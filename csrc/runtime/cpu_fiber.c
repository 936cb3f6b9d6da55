/* Fibers for the threads of a CPU block (see cpu_fiber.h). */
#include "runtime/cpu_fiber.h"
#include "runtime/cpu_fault.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ------------------------------------------------------------------ switching
 * pg_fiber_switch(&save, to): saves the callee-saved registers on the current stack, stores its
 * stack pointer in *save, and resumes the fiber whose stack pointer is `to` (as saved by an
 * earlier switch, or prepared by frame_init, whose entry function then gets `arg` as its first
 * argument). The floating-point control state is not switched:
 * the fibers of a block share their OS thread's, as CUDA threads share the device's. */
#if defined(__x86_64__)
#define PG_FIBER_ASM 1
void pg_fiber_switch(void **save, void *to, void *arg);
__asm__(".text\n"
        ".globl pg_fiber_switch\n"
        ".hidden pg_fiber_switch\n"
        ".type pg_fiber_switch,@function\n"
        "pg_fiber_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    movq %rdx, %rdi\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size pg_fiber_switch, .-pg_fiber_switch\n");

/* A fresh stack that pg_fiber_switch "returns" into entry from, as if entry had been called. */
static void *
frame_init(char *top, void (*entry)(void *))
{
    uint64_t *sp = (uint64_t *)((uintptr_t)top & ~(uintptr_t)15);
    *--sp = 0;                          /* entry's return address: it never returns */
    *--sp = (uint64_t)(uintptr_t)entry; /* where the ret goes */
    for (int i = 0; i < 6; i++)
        *--sp = 0;                      /* rbp rbx r12 r13 r14 r15 */
    return sp;
}
#elif defined(__aarch64__)
#define PG_FIBER_ASM 1
void pg_fiber_switch(void **save, void *to, void *arg);
__asm__(".text\n"
        ".globl pg_fiber_switch\n"
        ".hidden pg_fiber_switch\n"
        ".type pg_fiber_switch,%function\n"
        "pg_fiber_switch:\n"
        "    sub sp, sp, #176\n"
        "    stp x19, x20, [sp, #0]\n"
        "    stp x21, x22, [sp, #16]\n"
        "    stp x23, x24, [sp, #32]\n"
        "    stp x25, x26, [sp, #48]\n"
        "    stp x27, x28, [sp, #64]\n"
        "    stp x29, x30, [sp, #80]\n"
        "    stp d8, d9, [sp, #96]\n"
        "    stp d10, d11, [sp, #112]\n"
        "    stp d12, d13, [sp, #128]\n"
        "    stp d14, d15, [sp, #144]\n"
        "    mov x9, sp\n"
        "    str x9, [x0]\n"
        "    mov sp, x1\n"
        "    mov x0, x2\n"
        "    ldp x19, x20, [sp, #0]\n"
        "    ldp x21, x22, [sp, #16]\n"
        "    ldp x23, x24, [sp, #32]\n"
        "    ldp x25, x26, [sp, #48]\n"
        "    ldp x27, x28, [sp, #64]\n"
        "    ldp x29, x30, [sp, #80]\n"
        "    ldp d8, d9, [sp, #96]\n"
        "    ldp d10, d11, [sp, #112]\n"
        "    ldp d12, d13, [sp, #128]\n"
        "    ldp d14, d15, [sp, #144]\n"
        "    add sp, sp, #176\n"
        "    ret\n"
        ".size pg_fiber_switch, .-pg_fiber_switch\n");

static void *
frame_init(char *top, void (*entry)(void *))
{
    uint64_t *sp = (uint64_t *)((uintptr_t)top & ~(uintptr_t)15) - 22;
    memset(sp, 0, 22 * sizeof *sp);
    sp[11] = (uint64_t)(uintptr_t)entry; /* x30: where the ret goes */
    return sp;
}
#else
#include <ucontext.h>
#define PG_FIBER_ASM 0
#endif

/* ------------------------------------------------------------------ the block being run */

enum { F_NEW = 0, F_READY, F_RUNNING, F_WAIT_BLOCK, F_WAIT_WARP, F_DONE };

typedef struct {
    void *sp;
    char *stack;      /* the usable stack (its guard page is just below), or NULL */
    int state;
    int op, arg, width;
    uint64_t value, result;
    pg_uint3 idx;
#if !PG_FIBER_ASM
    ucontext_t uc;
#endif
} Fiber;

typedef struct {
    Fiber *fibers;
    int capacity;
    char **free_stacks;     /* stacks to reuse */
    int nfree;
    char **all_stacks;      /* every stack of this thread, for the guard check */
    int nall, stacks_capacity;
    /* the block in progress */
    int running;            /* a block is being run (the barrier runtime may be called) */
    int nthreads;
    int done;               /* threads that returned */
    char *pending;          /* the stack of a returned thread, free once the next one runs */
    int current;
    const PgCpuKernel *kernel;
    void **args;
    PgCpuThread *st;
    void *scheduler_sp;
#if !PG_FIBER_ASM
    ucontext_t scheduler_uc;
#endif
} Block;

/* The blocks this OS thread runs: reached through TLS only per block; fibers get it passed. */
static __thread Block thread_block;

static size_t
page_size(void)
{
    static size_t page;
    if (page == 0)
        page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

/* A stack from the pool, or a new one; NULL when there is no memory. */
static char *
stack_get(Block *b)
{
    if (b->nfree > 0)
        return b->free_stacks[--b->nfree];
    if (b->nall == b->stacks_capacity) {
        int cap = b->stacks_capacity ? 2 * b->stacks_capacity : 64;
        char **all = realloc(b->all_stacks, (size_t)cap * sizeof *all);
        if (all == NULL)
            return NULL;
        b->all_stacks = all;
        char **fr = realloc(b->free_stacks, (size_t)cap * sizeof *fr);
        if (fr == NULL)
            return NULL;
        b->free_stacks = fr;
        b->stacks_capacity = cap;
    }
    size_t guard = page_size();
    char *mem = mmap(NULL, guard + PG_FIBER_STACK_BYTES, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED)
        return NULL;
    /* without a guard page (too many mappings) an overflow goes unnoticed: carry on */
    (void)mprotect(mem, guard, PROT_NONE);
    b->all_stacks[b->nall++] = mem + guard;
    return mem + guard;
}

static void
stack_put(Block *b, char *s)
{
    if (s != NULL)
        b->free_stacks[b->nfree++] = s;
}

int
pg_fiber_guard_hit(const void *addr)
{
    const Block *b = &thread_block;
    const char *a = addr;
    size_t guard = page_size();
    for (int i = 0; i < b->nall; i++)
        if (a >= b->all_stacks[i] - guard && a < b->all_stacks[i])
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ fibers */

static void
to_scheduler(Block *b, Fiber *f)
{
#if PG_FIBER_ASM
    pg_fiber_switch(&f->sp, b->scheduler_sp, NULL);
#else
    swapcontext(&f->uc, &b->scheduler_uc);
#endif
}

static int prepare(Block *b, int i);

/* After every switch: the stack of a thread that returned before it is free now. */
static inline void
release_pending(Block *b)
{
    if (b->pending != NULL) {
        stack_put(b, b->pending);
        b->pending = NULL;
    }
}

/* Fiber f has stopped (waiting, or returned): on to the next thread of the block when that one
 * can run (one switch, not two through the scheduler), else back to the scheduler. */
static void
hand_over(Block *b, Fiber *f)
{
    int i = b->current + 1;
    Fiber *g = i < b->nthreads ? &b->fibers[i] : NULL;
    if (g != NULL && (g->state == F_READY || (g->state == F_NEW && prepare(b, i) == 0))) {
        b->current = i;
        b->st->thread_idx = g->idx;
        g->state = F_RUNNING;
#if PG_FIBER_ASM
        pg_fiber_switch(&f->sp, g->sp, b);
#else
        swapcontext(&f->uc, &g->uc);
#endif
    } else {
        to_scheduler(b, f);
    }
    release_pending(b);
}

static void
fiber_main(void *arg)
{
    Block *b = arg;
    release_pending(b);
    Fiber *f = &b->fibers[b->current];
    b->kernel->run_thread(b->args);
    f->state = F_DONE;
    b->done++;
    b->pending = f->stack;
    f->stack = NULL;
    hand_over(b, f);
    abort(); /* a finished fiber is never resumed */
}

#if !PG_FIBER_ASM
static void
fiber_main_ucontext(void)
{
    fiber_main(&thread_block);
}
#endif

/* Gives fiber i a stack and a first frame: 0, or -1 when there is no memory for the stack. */
static int
prepare(Block *b, int i)
{
    Fiber *f = &b->fibers[i];
    f->stack = stack_get(b);
    if (f->stack == NULL)
        return -1;
#if PG_FIBER_ASM
    f->sp = frame_init(f->stack + PG_FIBER_STACK_BYTES, fiber_main);
#else
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = f->stack;
    f->uc.uc_stack.ss_size = PG_FIBER_STACK_BYTES;
    f->uc.uc_link = NULL;
    makecontext(&f->uc, fiber_main_ucontext, 0);
#endif
    f->state = F_READY;
    return 0;
}

/* From the scheduler: runs fiber i (and the fibers it hands over to) until one comes back. */
static void
resume(Block *b, int i)
{
    Fiber *f = &b->fibers[i];
    b->current = i;
    b->st->thread_idx = f->idx;
    f->state = F_RUNNING;
#if PG_FIBER_ASM
    pg_fiber_switch(&b->scheduler_sp, f->sp, b);
#else
    swapcontext(&b->scheduler_uc, &f->uc);
#endif
    release_pending(b);
}

/* The fiber is waiting in a collective: back here when the collective releases it. */
static uint64_t
wait_in(Block *b, int state, int op, uint64_t value, int arg, int width)
{
    Fiber *f = &b->fibers[b->current];
    f->state = state;
    f->op = op;
    f->value = value;
    f->arg = arg;
    f->width = width;
    hand_over(b, f);
    return f->result;
}

int
pg_fiber_block_reduce(void *scheduler, int op, int predicate)
{
    if (scheduler == NULL)
        pg_fault_trap(PG_TRAP_RUNTIME, "__syncthreads in a kernel compiled without barrier support");
    return (int)wait_in(scheduler, F_WAIT_BLOCK, op, (uint64_t)(predicate != 0), 0, 0);
}

uint64_t
pg_fiber_warp(void *scheduler, int op, uint64_t value, int arg, int width)
{
    if (scheduler == NULL)
        pg_fault_trap(PG_TRAP_RUNTIME, "a warp collective in a kernel compiled without barrier support");
    if (width <= 0 || width > 32 || (width & (width - 1)) != 0)
        width = 32;
    return wait_in(scheduler, F_WAIT_WARP, op, value, arg, width);
}

/* ------------------------------------------------------------------ releasing collectives */

/* Releases lanes [lo, hi) waiting in a warp collective when no live lane is missing. */
static int
release_warp(Block *b, int lo, int hi)
{
    Fiber *fs = b->fibers;
    int waiting = 0;
    for (int l = lo; l < hi; l++) {
        if (fs[l].state == F_WAIT_WARP)
            waiting++;
        else if (fs[l].state != F_DONE)
            return 0;
    }
    if (waiting == 0)
        return 0;
    uint64_t ballot = 0;
    int all = 1, any = 0;
    for (int l = lo; l < hi; l++)
        if (fs[l].state == F_WAIT_WARP) {
            int p = fs[l].value != 0;
            ballot |= (uint64_t)p << (l - lo);
            all &= p;
            any |= p;
        }
    for (int l = lo; l < hi; l++) {
        Fiber *f = &fs[l];
        if (f->state != F_WAIT_WARP)
            continue;
        int lane = l - lo, seg = lane & ~(f->width - 1), src = -1;
        switch (f->op) {
        case PG_WARP_SHFL_IDX:
            src = seg + (f->arg & (f->width - 1));
            break;
        case PG_WARP_SHFL_UP:
            src = lane - f->arg >= seg ? lane - f->arg : lane;
            break;
        case PG_WARP_SHFL_DOWN:
            src = lane + f->arg < seg + f->width ? lane + f->arg : lane;
            break;
        case PG_WARP_SHFL_XOR:
            src = lane ^ f->arg;
            if (src < seg || src >= seg + f->width)
                src = lane;
            break;
        default:
            break;
        }
        if (f->op == PG_WARP_BALLOT && f->arg != 0) {
            /* __activemask at call site arg: the lanes waiting at that same site, the branch a
             * divergent warp took there (lanes at another collective are in another branch) */
            uint64_t site = 0;
            for (int k = lo; k < hi; k++)
                if (fs[k].state == F_WAIT_WARP && fs[k].op == PG_WARP_BALLOT && fs[k].arg == f->arg)
                    site |= (uint64_t)1 << (k - lo);
            f->result = site;
        } else if (f->op == PG_WARP_BALLOT)
            f->result = ballot;
        else if (f->op == PG_WARP_ALL)
            f->result = (uint64_t)all;
        else if (f->op == PG_WARP_ANY)
            f->result = (uint64_t)any;
        else if (src >= 0)
            /* a lane that is not there (returned, or past the block) gives the caller's value */
            f->result = lo + src < hi && fs[lo + src].state == F_WAIT_WARP ? fs[lo + src].value : f->value;
        else
            f->result = 0;
    }
    for (int l = lo; l < hi; l++)
        if (fs[l].state == F_WAIT_WARP)
            fs[l].state = F_READY;
    return 1;
}

/* Releases the block barrier when every live thread waits in it: threads that returned count
 * as arrived, as on the GPU. */
static int
release_block(Block *b)
{
    Fiber *fs = b->fibers;
    int n = b->nthreads, waiting = 0, count = 0;
    for (int i = 0; i < n; i++) {
        if (fs[i].state == F_WAIT_BLOCK) {
            waiting++;
            count += fs[i].value != 0;
        } else if (fs[i].state != F_DONE) {
            return 0;
        }
    }
    if (waiting == 0)
        return 0;
    for (int i = 0; i < n; i++) {
        Fiber *f = &fs[i];
        if (f->state != F_WAIT_BLOCK)
            continue;
        f->result = f->op == PG_REDUCE_COUNT ? (uint64_t)count
                  : f->op == PG_REDUCE_AND   ? (uint64_t)(count == waiting)
                  : f->op == PG_REDUCE_OR    ? (uint64_t)(count > 0)
                                             : 0;
        f->state = F_READY;
    }
    return 1;
}

/* ------------------------------------------------------------------ running a block */

void
pg_fiber_abandon(void)
{
    Block *b = &thread_block;
    if (!b->running)
        return;
    for (int i = 0; i < b->nthreads; i++) {
        stack_put(b, b->fibers[i].stack);
        b->fibers[i].stack = NULL;
    }
    release_pending(b);
    b->running = 0;
    b->st->scheduler = NULL;
}

void
pg_fiber_run_block(const PgCpuKernel *k, void **args, PgCpuThread *st)
{
    Block *b = &thread_block;
    pg_uint3 dim = st->block_dim;
    int n = (int)(dim.x * dim.y * dim.z);
    if (n > b->capacity) {
        Fiber *fs = realloc(b->fibers, (size_t)n * sizeof *fs);
        if (fs == NULL)
            pg_fault_trap(PG_TRAP_RUNTIME, "out of memory for the threads of a block");
        b->fibers = fs;
        b->capacity = n;
    }
    for (int i = 0; i < n; i++) {
        Fiber *f = &b->fibers[i];
        f->state = F_NEW;
        f->stack = NULL;
        f->idx.x = (unsigned int)i % dim.x;
        f->idx.y = (unsigned int)i / dim.x % dim.y;
        f->idx.z = (unsigned int)i / dim.x / dim.y;
    }
    b->kernel = k;
    b->args = args;
    b->st = st;
    b->nthreads = n;
    b->running = 1;
    b->done = 0;
    b->pending = NULL;
    st->scheduler = b;
    int done = 0;
    while (done < n) {
        for (int i = 0; i < n; i++) {
            Fiber *f = &b->fibers[i];
            if (f->state == F_NEW && prepare(b, i) < 0) {
                pg_fiber_abandon();
                pg_fault_trap(PG_TRAP_RUNTIME, "out of memory for the stacks of a block's threads");
            }
            if (f->state != F_READY)
                continue;
            resume(b, i);
            /* fibers i .. current ran, each handing over to the next */
            i = b->current;
        }
        done = b->done;
        if (done == n)
            break;
        int released = 0;
        for (int lo = 0; lo < n; lo += 32)
            released += release_warp(b, lo, lo + 32 < n ? lo + 32 : n);
        released += release_block(b);
        if (!released) {
            pg_fiber_abandon();
            pg_fault_trap(PG_TRAP_RUNTIME,
                          "deadlock: the threads of a block wait at different barriers (a __syncthreads or warp "
                          "collective that not every thread reaches)");
        }
    }
    b->running = 0;
    st->scheduler = NULL;
}
