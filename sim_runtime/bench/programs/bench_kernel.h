/* What the launch benchmarks share: an ACL-call check that ends main, and the one-kernel binary
 * they launch (a vector-core image loaded from memory, its add_custom function). */
#ifndef BENCH_KERNEL_H
#define BENCH_KERNEL_H

#include <stdio.h>

#include "acl/acl.h"

/* In main: print the failed call and return 1. */
#define CHECK(call)                                        \
    do {                                                   \
        aclError e_ = (call);                              \
        if (e_ != ACL_SUCCESS) {                           \
            fprintf(stderr, "%s failed: %d\n", #call, e_); \
            return 1;                                      \
        }                                                  \
    } while (0)

/* Loads IMAGE (size bytes) as a vector-core binary and returns its add_custom function in *fn. */
static inline aclError bench_load_kernel(const char* image, size_t size, aclrtFuncHandle* fn) {
    aclrtBinaryLoadOption opt = {.type = ACL_RT_BINARY_LOAD_OPT_MAGIC,
                                 .value = {.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE}};
    aclrtBinaryLoadOptions opts = {&opt, 1};
    aclrtBinHandle bin = NULL;
    aclError e = aclrtBinaryLoadFromData(image, size, &opts, &bin);
    return e != ACL_SUCCESS ? e : aclrtBinaryGetFunction(bin, "add_custom", fn);
}

#endif
