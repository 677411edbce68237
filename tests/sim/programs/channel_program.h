/*
 * Shared by the programs that drive the simulated driver's profiling channels directly
 * (channel_decode.c, channel_limit.c, channel_threads.c).
 */
#pragma once

#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "seam/device_log.h"
#include "seam/hal.h"

#define CHECK(x)                                                                  \
    do {                                                                          \
        if (!(x)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #x); \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

/* Starts the STARS SoC-log channel (50) of `device` with the configuration msPTI uses; returns the
 * driver's result. */
static inline int start_stars_channel(unsigned device) {
    struct StarsSocLogConfig soc = {1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
    struct prof_start_para p = {PROF_TS_TYPE, 20, 1, &soc, sizeof soc};
    return prof_drv_start(device, PROF_CHANNEL_STARS_SOC_LOG, &p);
}

/* The simulator's empty kernel, from an image whose bytes name it (`image` of `size` bytes). */
static inline aclrtFuncHandle load_empty_kernel(const char* image, size_t size) {
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    CHECK(aclrtBinaryLoadFromData(image, size, NULL, &bin) == ACL_SUCCESS);
    CHECK(aclrtBinaryGetFunction(bin, "empty_kernel", &fn) == ACL_SUCCESS);
    return fn;
}
