/* The fake driver's reading of user modules: the kernels of a cubin (an ELF image: entry symbols,
 * their parameters from the .nv.info.<kernel> sections, their static shared memory from
 * .nv.shared.<kernel>) and of PTX text (.entry declarations and their .param lists), so that
 * cuModuleGetFunction knows the names NVRTC produced, cuFuncGetParamInfo answers as a 12.4+
 * driver does, and a launch can record the bytes of each parameter for the tests. */
#define _GNU_SOURCE /* memmem */
#include "mock.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
add_kernel(MockImage *img, const char *name, size_t len)
{
    MockKernel *k = realloc(img->kernels, (img->nkernels + 1) * sizeof *k);
    if (k == NULL)
        return -1;
    img->kernels = k;
    k = &img->kernels[img->nkernels++];
    memset(k, 0, sizeof *k);
    if (len >= sizeof k->name)
        len = sizeof k->name - 1;
    memcpy(k->name, name, len);
    k->name[len] = 0;
    return 0;
}

static MockKernel *
find(MockImage *img, const char *name, size_t len)
{
    for (size_t i = 0; i < img->nkernels; i++)
        if (strlen(img->kernels[i].name) == len && memcmp(img->kernels[i].name, name, len) == 0)
            return &img->kernels[i];
    return NULL;
}

/* ------------------------------------------------------------------ ELF (cubin) */

typedef struct {
    uint32_t name, type;
    uint64_t flags, addr, offset, size;
    uint32_t link, info;
    uint64_t align, entsize;
} Section;

static int
section(const unsigned char *b, size_t n, int i, Section *s)
{
    uint64_t shoff;
    uint16_t shentsize, shnum;
    memcpy(&shoff, b + 0x28, 8);
    memcpy(&shentsize, b + 0x3A, 2);
    memcpy(&shnum, b + 0x3C, 2);
    if (i >= shnum || shoff + (uint64_t)(i + 1) * shentsize > n || shentsize < 64)
        return -1;
    const unsigned char *p = b + shoff + (uint64_t)i * shentsize;
    memcpy(&s->name, p, 4);
    memcpy(&s->type, p + 4, 4);
    memcpy(&s->flags, p + 8, 8);
    memcpy(&s->addr, p + 16, 8);
    memcpy(&s->offset, p + 24, 8);
    memcpy(&s->size, p + 32, 8);
    memcpy(&s->link, p + 40, 4);
    memcpy(&s->info, p + 44, 4);
    memcpy(&s->align, p + 48, 8);
    memcpy(&s->entsize, p + 56, 8);
    return s->offset + s->size <= n || s->type == 8 /* NOBITS */ ? 0 : -1;
}

static const char *
string_at(const unsigned char *b, size_t n, const Section *strtab, uint32_t off)
{
    if (strtab->offset + off >= n)
        return "";
    return (const char *)b + strtab->offset + off;
}

/* EIATTR_KPARAM_INFO entries of a kernel's .nv.info section: index, ordinal, offset, size. */
static void
read_param_info(const unsigned char *b, const Section *s, MockKernel *k)
{
    const unsigned char *p = b + s->offset, *end = p + s->size;
    while (p + 4 <= end) {
        unsigned char format = p[0], attr = p[1];
        if (format != 0x04) { /* EIFMT_SVAL carries a 2-byte size; the others are 4 bytes in all */
            p += 4;
            continue;
        }
        uint16_t len;
        memcpy(&len, p + 2, 2);
        if (p + 4 + len > end)
            break;
        if (attr == 0x17 && len >= 12) { /* EIATTR_KPARAM_INFO */
            uint16_t ordinal, offset;
            uint32_t flags;
            memcpy(&ordinal, p + 8, 2);
            memcpy(&offset, p + 10, 2);
            memcpy(&flags, p + 12, 4);
            if (ordinal < MOCK_MAX_PARAMS) {
                k->param_offset[ordinal] = offset;
                k->param_size[ordinal] = (flags >> 18) & 0x3fff;
                if (ordinal + 1 > (int)k->nparams)
                    k->nparams = ordinal + 1;
            }
        }
        p += 4 + len;
    }
    k->params_known = 1;
}

static int
parse_elf(MockImage *img, const unsigned char *b, size_t n)
{
    if (n < 64)
        return -1;
    uint16_t shnum, shstrndx;
    memcpy(&shnum, b + 0x3C, 2);
    memcpy(&shstrndx, b + 0x3E, 2);
    Section names, s;
    if (section(b, n, shstrndx, &names) < 0)
        return -1;
    /* the kernels: function symbols marked as entries (STO_CUDA_ENTRY, 0x10) */
    for (int i = 0; i < shnum; i++) {
        Section strtab;
        if (section(b, n, i, &s) < 0 || s.type != 2 /* SYMTAB */ || section(b, n, (int)s.link, &strtab) < 0)
            continue;
        for (uint64_t off = 0; off + 24 <= s.size; off += 24) {
            const unsigned char *sym = b + s.offset + off;
            uint32_t name;
            uint64_t size;
            memcpy(&name, sym, 4);
            memcpy(&size, sym + 16, 8);
            unsigned char info = sym[4], other = sym[5];
            const char *str = string_at(b, n, &strtab, name);
            if ((info & 15) == 2 && (other & 0x10)) {
                if (add_kernel(img, str, strlen(str)) < 0)
                    return -1;
            } else if ((info & 15) == 1 && size > 0) {
                /* a global variable (local binding without -rdc, found by name all the same) */
                MockGlobal *g = realloc(img->globals, (img->nglobals + 1) * sizeof *g);
                if (g == NULL)
                    return -1;
                img->globals = g;
                g = &img->globals[img->nglobals++];
                memset(g, 0, sizeof *g);
                snprintf(g->name, sizeof g->name, "%s", str);
                g->size = (size_t)size;
            }
        }
    }
    /* their parameters and static shared memory */
    for (int i = 0; i < shnum; i++) {
        if (section(b, n, i, &s) < 0)
            continue;
        const char *sname = string_at(b, n, &names, s.name);
        MockKernel *k;
        if (strncmp(sname, ".nv.info.", 9) == 0 && (k = find(img, sname + 9, strlen(sname + 9))) != NULL)
            read_param_info(b, &s, k);
        else if (strncmp(sname, ".nv.shared.", 11) == 0 && (k = find(img, sname + 11, strlen(sname + 11))) != NULL)
            k->static_shared = (size_t)s.size;
    }
    return 0;
}

/* ------------------------------------------------------------------ PTX */

/* The bytes of one .param declaration: ".param .u64 name" or ".param .align 8 .b8 name[16]". */
static size_t
ptx_param_size(const char *p, const char *end)
{
    size_t elem = 0, count = 1;
    for (const char *q = p; q < end; q++) {
        if (*q == '.' && (q[1] == 'u' || q[1] == 's' || q[1] == 'b' || q[1] == 'f') && isdigit((unsigned char)q[2]))
            elem = (size_t)strtoul(q + 2, NULL, 10) / 8;
        if (*q == '[')
            count = (size_t)strtoul(q + 1, NULL, 10);
    }
    return elem * count;
}

static int
parse_ptx(MockImage *img, const char *text, size_t n)
{
    const char *end = text + n, *p = text;
    while ((p = strstr(p, ".entry")) != NULL && p < end) {
        p += 6;
        while (p < end && isspace((unsigned char)*p))
            p++;
        const char *name = p;
        while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '$'))
            p++;
        if (add_kernel(img, name, (size_t)(p - name)) < 0)
            return -1;
        MockKernel *k = &img->kernels[img->nkernels - 1];
        k->params_known = 1;
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p >= end || *p != '(')
            continue;
        const char *close = memchr(p, ')', (size_t)(end - p));
        if (close == NULL)
            return -1;
        size_t offset = 0;
        for (const char *q = p + 1; q < close && k->nparams < MOCK_MAX_PARAMS;) {
            const char *comma = memchr(q, ',', (size_t)(close - q));
            const char *stop = comma ? comma : close;
            if (memmem(q, (size_t)(stop - q), ".param", 6) != NULL) {
                size_t size = ptx_param_size(q, stop);
                size_t align = size >= 8 ? 8 : size ? size : 1;
                offset = (offset + align - 1) / align * align;
                k->param_offset[k->nparams] = (uint32_t)offset;
                k->param_size[k->nparams] = (uint32_t)size;
                k->nparams++;
                offset += size;
            }
            q = stop + 1;
        }
        p = close;
    }
    return 0;
}

int
mock_image_parse(MockImage *img, const void *image)
{
    const unsigned char *b = image;
    memset(img, 0, sizeof *img);
    if (memcmp(b, "\x7f" "ELF", 4) == 0) {
        /* the ELF header does not give the file size: the section table's end bounds it */
        uint64_t shoff;
        uint16_t shentsize, shnum;
        memcpy(&shoff, b + 0x28, 8);
        memcpy(&shentsize, b + 0x3A, 2);
        memcpy(&shnum, b + 0x3C, 2);
        size_t n = (size_t)(shoff + (uint64_t)shentsize * shnum);
        img->kind = 'e';
        img->size = n;
        return parse_elf(img, b, n);
    }
    const char *text = image;
    size_t n = strlen(text);
    if (strstr(text, ".version") != NULL && strstr(text, ".target") != NULL) {
        img->kind = 'p';
        img->size = n;
        return parse_ptx(img, text, n);
    }
    return -1;
}

MockKernel *
mock_image_kernel(MockImage *img, const char *name)
{
    return find(img, name, strlen(name));
}
