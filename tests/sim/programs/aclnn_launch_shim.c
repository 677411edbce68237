/* An LD_PRELOAD shim that wraps libascendcl's launch functions and aclrtBinaryGetFunction:
 * it counts the launches by entry point, records the kernel names, forwards to the next
 * definition (dlsym(RTLD_NEXT)) and prints what it saw when the process exits. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

static int g_launches;
static int g_plain_launches;

typedef aclError (*LaunchFn)(aclrtFuncHandle, uint32_t, const void*, size_t, aclrtStream);
typedef aclError (*HostArgsLaunchFn)(aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg*, void*, size_t,
                                     aclrtPlaceHolderInfo*, size_t);
typedef aclError (*GetFunctionFn)(const aclrtBinHandle, const char*, aclrtFuncHandle*);

static void* next(const char* name) {
    void* fn = dlsym(RTLD_NEXT, name);
    if (fn == NULL) fprintf(stderr, "shim: no next %s\n", name);
    return fn;
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
                           aclrtStream stream) {
    LaunchFn real;
    void* sym = next("aclrtLaunchKernel");
    memcpy(&real, &sym, sizeof real);
    ++g_plain_launches;
    return real(funcHandle, numBlocks, argsData, argsSize, stream);
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg* cfg, void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray, size_t placeHolderNum) {
    HostArgsLaunchFn real;
    void* sym = next("aclrtLaunchKernelWithHostArgs");
    memcpy(&real, &sym, sizeof real);
    ++g_launches;
    fprintf(stdout, "shim launch blocks=%u\n", numBlocks);
    return real(funcHandle, numBlocks, stream, cfg, hostArgs, argsSize, placeHolderArray, placeHolderNum);
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName, aclrtFuncHandle* funcHandle) {
    GetFunctionFn real;
    void* sym = next("aclrtBinaryGetFunction");
    memcpy(&real, &sym, sizeof real);
    fprintf(stdout, "shim function %s\n", kernelName);
    return real(binHandle, kernelName, funcHandle);
}

__attribute__((destructor)) static void report(void) {
    fprintf(stdout, "shim plain launches %d\n", g_plain_launches);
    fprintf(stdout, "shim launches %d\n", g_launches);
}
