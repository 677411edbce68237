/* An LD_PRELOAD shim that wraps libascendcl's aclrtLaunchKernel and aclrtBinaryGetFunction:
 * it counts the launches, records the kernel names, forwards to the next definition
 * (dlsym(RTLD_NEXT)) and prints what it saw when the process exits. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

static int g_launches;

typedef aclError (*LaunchFn)(aclrtFuncHandle, uint32_t, const void *, size_t, aclrtStream);
typedef aclError (*GetFunctionFn)(const aclrtBinHandle, const char *, aclrtFuncHandle *);

static void *next(const char *name) {
    void *fn = dlsym(RTLD_NEXT, name);
    if (fn == NULL) fprintf(stderr, "shim: no next %s\n", name);
    return fn;
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,
                           aclrtStream stream) {
    LaunchFn real;
    void *sym = next("aclrtLaunchKernel");
    memcpy(&real, &sym, sizeof real);
    ++g_launches;
    fprintf(stdout, "shim launch blocks=%u\n", numBlocks);
    return real(funcHandle, numBlocks, argsData, argsSize, stream);
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName, aclrtFuncHandle *funcHandle) {
    GetFunctionFn real;
    void *sym = next("aclrtBinaryGetFunction");
    memcpy(&real, &sym, sizeof real);
    fprintf(stdout, "shim function %s\n", kernelName);
    return real(binHandle, kernelName, funcHandle);
}

__attribute__((destructor)) static void report(void) { fprintf(stdout, "shim launches %d\n", g_launches); }
