/*
 * One rank of an fp32 all-reduce over process ranks: the wall time of the collective, the data
 * moved and checked.
 *
 *   hccl_all_reduce RANKS BYTES COUNT ROOT_FILE      (the rank in $RANK)
 * Rank 0 writes the root info to ROOT_FILE (the other ranks wait for it: MPI_Bcast's stand-in).
 * Every rank uses device RANK, fills its input with element i = (i % 251) + rank, runs one
 * all-reduce as a warm-up, then COUNT times: a barrier, the all-reduce, a synchronisation of
 * the stream, timed on the wall clock from before the call to after the synchronisation. Every
 * rank checks every element of its output after each round (the sum is exact in fp32) and fails
 * with exit 1 when one differs. Rank 0 prints one JSON line: {"seconds": [COUNT values],
 * "device_ms": [COUNT values]}, the latter the simulated time between events recorded on the
 * stream around each all-reduce (the timing model's, whatever the wall clock does).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fail(const char* what, int code) {
    fprintf(stderr, "hccl_all_reduce: %s failed (%d)\n", what, code);
    return 1;
}

static int share_root_info(uint32_t rank, const char* path, HcclRootInfo* info) {
    if (rank == 0) {
        HcclResult st = HcclGetRootInfo(info);
        if (st != HCCL_SUCCESS) return fail("HcclGetRootInfo", st);
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        FILE* f = fopen(tmp, "wb");
        if (f == NULL || fwrite(info, sizeof *info, 1, f) != 1) return fail("writing the root info", 0);
        fclose(f);
        return rename(tmp, path) == 0 ? 0 : fail("renaming the root info", 0);
    }
    for (int tries = 0; tries < 60000; ++tries) {
        FILE* f = fopen(path, "rb");
        if (f != NULL) {
            size_t got = fread(info, sizeof *info, 1, f);
            fclose(f);
            if (got == 1) return 0;
        }
        usleep(1000);
    }
    return fail("waiting for the root info", 0);
}

int main(int argc, char** argv) {
    if (argc != 5 || getenv("RANK") == NULL) {
        fprintf(stderr, "usage: RANK=r %s RANKS BYTES COUNT ROOT_FILE\n", argv[0]);
        return 2;
    }
    const uint32_t ranks = (uint32_t)atoi(argv[1]);
    const uint64_t bytes = strtoull(argv[2], NULL, 10);
    const int count = atoi(argv[3]);
    const uint32_t rank = (uint32_t)atoi(getenv("RANK"));
    const uint64_t n = bytes / sizeof(float);
    HcclRootInfo info;
    aclError ae;
    if ((ae = aclInit(NULL)) != ACL_SUCCESS) return fail("aclInit", ae);
    if ((ae = aclrtSetDevice((int32_t)rank)) != ACL_SUCCESS) return fail("aclrtSetDevice", ae);
    if (share_root_info(rank, argv[4], &info) != 0) return 1;
    HcclComm comm = NULL;
    HcclResult st = HcclCommInitRootInfo(ranks, &info, rank, &comm);
    if (st != HCCL_SUCCESS) return fail("HcclCommInitRootInfo", st);
    aclrtStream stream = NULL;
    if ((ae = aclrtCreateStream(&stream)) != ACL_SUCCESS) return fail("aclrtCreateStream", ae);
    void *in = NULL, *out = NULL;
    if ((ae = aclrtMalloc(&in, bytes, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS) return fail("aclrtMalloc", ae);
    if ((ae = aclrtMalloc(&out, bytes, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS) return fail("aclrtMalloc", ae);
    float* host = malloc(bytes);
    if (host == NULL) return fail("malloc", 0);
    for (uint64_t i = 0; i < n; ++i) host[i] = (float)(i % 251 + rank);
    if ((ae = aclrtMemcpy(in, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE)) != ACL_SUCCESS) {
        return fail("aclrtMemcpy", ae);
    }
    const float base = (float)ranks * (float)(ranks - 1) / 2.0f;
    double* seconds = calloc((size_t)count + 1, sizeof(double));
    float* device_ms = calloc((size_t)count + 1, sizeof(float));
    aclrtEvent before = NULL, after = NULL;
    if (seconds == NULL || device_ms == NULL) return fail("calloc", 0);
    if ((ae = aclrtCreateEvent(&before)) != ACL_SUCCESS || (ae = aclrtCreateEvent(&after)) != ACL_SUCCESS) {
        return fail("aclrtCreateEvent", ae);
    }
    for (int round = 0; round <= count; ++round) {
        if ((st = HcclBarrier(comm, stream)) != HCCL_SUCCESS) return fail("HcclBarrier", st);
        if ((ae = aclrtSynchronizeStream(stream)) != ACL_SUCCESS) return fail("aclrtSynchronizeStream", ae);
        const double t0 = now_s();
        if ((ae = aclrtRecordEvent(before, stream)) != ACL_SUCCESS) return fail("aclrtRecordEvent", ae);
        st = HcclAllReduce(in, out, n, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream);
        if (st != HCCL_SUCCESS) return fail("HcclAllReduce", st);
        if ((ae = aclrtRecordEvent(after, stream)) != ACL_SUCCESS) return fail("aclrtRecordEvent", ae);
        if ((ae = aclrtSynchronizeStream(stream)) != ACL_SUCCESS) return fail("aclrtSynchronizeStream", ae);
        seconds[round] = now_s() - t0;
        if ((ae = aclrtEventElapsedTime(&device_ms[round], before, after)) != ACL_SUCCESS) {
            return fail("aclrtEventElapsedTime", ae);
        }
        memset(host, 0, bytes);
        if ((ae = aclrtMemcpy(host, bytes, out, bytes, ACL_MEMCPY_DEVICE_TO_HOST)) != ACL_SUCCESS) {
            return fail("aclrtMemcpy", ae);
        }
        for (uint64_t i = 0; i < n; ++i) {
            const float want = (float)ranks * (float)(i % 251) + base;
            if (host[i] != want) {
                fprintf(stderr, "hccl_all_reduce: rank %u round %d: element %llu is %g, not %g\n", rank, round,
                        (unsigned long long)i, host[i], want);
                return 1;
            }
        }
    }
    if (rank == 0) {
        printf("{\"seconds\": [");
        for (int round = 1; round <= count; ++round) printf("%s%.6f", round > 1 ? ", " : "", seconds[round]);
        printf("], \"device_ms\": [");
        for (int round = 1; round <= count; ++round) printf("%s%.9g", round > 1 ? ", " : "", device_ms[round]);
        printf("]}\n");
    }
    aclrtDestroyEvent(before);
    aclrtDestroyEvent(after);
    free(device_ms);
    free(seconds);
    free(host);
    aclrtFree(in);
    aclrtFree(out);
    aclrtDestroyStream(stream);
    HcclCommDestroy(comm);
    aclrtResetDevice((int32_t)rank);
    aclFinalize();
    return 0;
}
