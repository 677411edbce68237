/*
 * Launch throughput with profiling off: N aclrtLaunchKernel calls on one
 * stream, timed with the host's monotonic clock (real time, whatever the
 * simulator's clock mode). Prints "launches_per_s=<rate>".
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "acl/acl.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
    const long n = argc > 1 ? atol(argv[1]) : 1000000;
    static const unsigned char image[] = {1, 2, 3, 4};
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS ||
        aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "noop_kernel", &fn) != ACL_SUCCESS) {
        printf("FAIL setup\n");
        return 1;
    }
    long args[2] = {1, 2};
    for (long i = 0; i < 1000; ++i) aclrtLaunchKernel(fn, 8, args, sizeof args, s); /* warm up */
    const double t0 = now_s();
    for (long i = 0; i < n; ++i) {
        if (aclrtLaunchKernel(fn, 8, args, sizeof args, s) != ACL_SUCCESS) {
            printf("FAIL launch %ld\n", i);
            return 1;
        }
    }
    const double t1 = now_s();
    if (aclrtSynchronizeStream(s) != ACL_SUCCESS) return 1;
    printf("launches=%ld\nseconds=%.6f\nlaunches_per_s=%.0f\n", n, t1 - t0, (double)n / (t1 - t0));
    return 0;
}
