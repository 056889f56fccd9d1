/* A stand-in libcuda.so.1 with no GPU behind it, for testing against upstream cuTile's launch path
   on a machine without a GPU: enough for `ct.launch` / `KernelSignature.from_kernel_args` to derive a
   kernel's signature from (fake) device arrays, compile it (tileiras runs for real) and "load" and
   "launch" the cubin. Every image loaded is written to $FAKECUDA_OUT/<n>.cubin, and log.txt there
   records the kernel symbols looked up and the launches. The device is an sm_90 (H200-like). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
static int n_images = 0;
static char last_image[4096];

static const char* outdir(void) { const char* d = getenv("FAKECUDA_OUT"); return d ? d : "."; }

static void note(const char* fmt, const char* a, long b) {
    char p[4096]; snprintf(p, sizeof p, "%s/log.txt", outdir());
    FILE* f = fopen(p, "a"); if (!f) return; fprintf(f, fmt, a, b); fclose(f);
}

static CUresult generic(void) { return 0; }
static CUresult cuInit(unsigned f) { (void)f; return 0; }
static CUresult cuDriverGetVersion(int* v) { *v = 13000; return 0; }
static CUresult cuDeviceGet(int* d, int o) { (void)o; *d = 0; return 0; }
static CUresult cuDeviceGetCount(int* n) { *n = 1; return 0; }
static CUresult cuDeviceGetAttribute(int* v, int attr, int dev) {
    (void)dev;
    switch (attr) {
    case 75: *v = 9; break;                    /* compute capability major */
    case 76: *v = 0; break;                    /* minor */
    case 5: *v = 2147483647; break;            /* max grid x */
    case 6: case 7: *v = 65535; break;
    case 16: *v = 132; break;                  /* SMs */
    case 97: *v = 232448; break;               /* max shared memory per block opt-in */
    case 8: *v = 49152; break;
    default: *v = 1; break;
    }
    return 0;
}
static void* CTX = (void*)0x1000;
static CUresult cuCtxGetCurrent(void** c) { *c = CTX; return 0; }
static CUresult cuCtxSetCurrent(void* c) { (void)c; return 0; }
static CUresult cuCtxPushCurrent(void* c) { (void)c; return 0; }
static CUresult cuCtxPopCurrent(void** c) { if (c) *c = CTX; return 0; }
static CUresult cuCtxGetDevice(int* d) { *d = 0; return 0; }
static CUresult cuCtxGetDevice_v2(int* d, void* c) { (void)c; *d = 0; return 0; }
static CUresult cuCtxGetId(void* c, unsigned long long* id) { (void)c; *id = 1; return 0; }
static CUresult cuDevicePrimaryCtxRetain(void** c, int d) { (void)d; *c = CTX; return 0; }
static CUresult cuPointerGetAttribute(void* data, int attr, uint64_t ptr) {
    (void)ptr;
    if (attr == 1) *(void**)data = CTX;        /* CU_POINTER_ATTRIBUTE_CONTEXT */
    else memset(data, 0, 4);
    return 0;
}
static CUresult cuStreamGetCtx(void* s, void** c) { (void)s; *c = CTX; return 0; }
static CUresult cuStreamGetId(void* s, unsigned long long* id) { (void)s; *id = 7; return 0; }
static CUresult cuStreamIsCapturing(void* s, int* st) { (void)s; *st = 0; return 0; }
static CUresult cuGetErrorString(int e, const char** s) { (void)e; *s = "fake libcuda"; return 0; }

static size_t elf_size(const unsigned char* p) {
    /* ELF64: the file ends with the section or the program headers, whichever comes last */
    uint64_t phoff, shoff; uint16_t phentsize, phnum, shentsize, shnum;
    memcpy(&phoff, p + 0x20, 8); memcpy(&shoff, p + 0x28, 8);
    memcpy(&phentsize, p + 0x36, 2); memcpy(&phnum, p + 0x38, 2);
    memcpy(&shentsize, p + 0x3A, 2); memcpy(&shnum, p + 0x3C, 2);
    uint64_t ph_end = phoff + (uint64_t)phentsize * phnum, sh_end = shoff + (uint64_t)shentsize * shnum;
    return (size_t)(ph_end > sh_end ? ph_end : sh_end);
}
static CUresult cuLibraryLoadData(void** lib, const void* code, void* a, void* b, unsigned n,
                                  void* c, void* d, unsigned m) {
    (void)a; (void)b; (void)n; (void)c; (void)d; (void)m;
    const unsigned char* p = code;
    snprintf(last_image, sizeof last_image, "%s/%d.cubin", outdir(), n_images++);
    if (p[0] == 0x7f && p[1] == 'E') {
        FILE* f = fopen(last_image, "wb");
        if (f) { fwrite(p, 1, elf_size(p), f); fclose(f); }
    }
    note("load %s %ld\n", last_image, 0);
    *lib = (void*)(intptr_t)(0x2000 + n_images);
    return 0;
}
static CUresult cuLibraryGetKernel(void** k, void* lib, const char* name) {
    note("kernel %s %ld\n", name, (long)(intptr_t)lib);
    *k = lib; return 0;
}
static CUresult cuKernelGetFunction(void** f, void* k) { *f = k; return 0; }
static CUresult cuKernelGetAttribute(int* v, int attr, void* k, int dev) {
    (void)k; (void)dev;
    *v = attr == 0 ? 128 : 0;                  /* max threads per block */
    return 0;
}
static CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned sh, void* s, void** p, void** e) {
    (void)f; (void)gy; (void)gz; (void)by; (void)bz; (void)sh; (void)s; (void)p; (void)e;
    note("launch grid %s %ld\n", "", (long)gx); note("launch block %s %ld\n", "", (long)bx);
    return 0;
}
static CUresult cuLaunchKernelEx(const void* cfg, void* f, void** p, void** e) {
    (void)cfg; (void)f; (void)p; (void)e;
    note("launch %s %ld\n", "ex", 0); return 0;
}
static CUresult cuMemAlloc(uint64_t* p, size_t n) { *p = (uint64_t)(uintptr_t)calloc(1, n ? n : 1); return 0; }
static CUresult cuMemAllocHost(void** p, size_t n) { *p = calloc(1, n ? n : 1); return 0; }
static CUresult cuMemFreeHost(void* p) { free(p); return 0; }
static CUresult cuMemGetAddressRange(uint64_t* base, size_t* size, uint64_t p) {
    if (base) *base = p; if (size) *size = 1 << 30; return 0;
}

struct entry { const char* name; void* fn; };
static const struct entry TABLE[] = {
#define E(n) {#n, (void*)n}
    E(cuInit), E(cuDriverGetVersion), E(cuDeviceGet), E(cuDeviceGetCount), E(cuDeviceGetAttribute),
    E(cuCtxGetCurrent), E(cuCtxSetCurrent), E(cuCtxPushCurrent), E(cuCtxPopCurrent),
    E(cuCtxGetId), E(cuDevicePrimaryCtxRetain), E(cuPointerGetAttribute), E(cuStreamGetCtx),
    E(cuStreamGetId), E(cuStreamIsCapturing), E(cuGetErrorString), E(cuLibraryLoadData),
    E(cuLibraryGetKernel), E(cuKernelGetFunction), E(cuKernelGetAttribute), E(cuLaunchKernel),
    E(cuLaunchKernelEx), E(cuMemAlloc), E(cuMemAllocHost), E(cuMemFreeHost), E(cuMemGetAddressRange),
#undef E
};

CUresult cuGetProcAddress_v2(const char* sym, void** fn, int ver, uint64_t flags, int* status) {
    (void)flags;
    if (status) *status = 0;
    if (strcmp(sym, "cuCtxGetDevice") == 0) { *fn = ver >= 13000 ? (void*)cuCtxGetDevice_v2 : (void*)cuCtxGetDevice; return 0; }
    for (size_t i = 0; i < sizeof TABLE / sizeof TABLE[0]; ++i)
        if (strcmp(sym, TABLE[i].name) == 0) { *fn = TABLE[i].fn; return 0; }
    *fn = (void*)generic;
    return 0;
}
