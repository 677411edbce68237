/* An MPI-launched HCCL program, launched the way hccl_test is: rank 0's root info reaches the
 * other ranks through MPI_Bcast; every rank all-reduces COUNT floats and checks the sums.
 *
 *   mpirun -np N hccl_mpi_allreduce [COUNT]
 *
 * $HCCL_TEST_NETNS names a network namespace (/run/netns/NAME) the rank enters after MPI_Init:
 * mpirun's own channel to its ranks is TCP on the machine's loopback, which starting the rank
 * inside the namespace would cut; the rank's HCCL sockets are made inside it.
 *
 * Output: one line per rank, "rank R/N init S allreduce S sync S ok 0|1 root IP". */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char* netns = getenv("HCCL_TEST_NETNS");
    if (netns != NULL) {
        char path[256];
        snprintf(path, sizeof path, "/run/netns/%s", netns);
        const int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) {
            perror(path);
            MPI_Abort(MPI_COMM_WORLD, 6);
        }
        close(fd);
    }
    const size_t count = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 1024;
    if (aclInit(NULL) != ACL_SUCCESS) return 3;
    uint32_t devices = 1;
    aclrtGetDeviceCount(&devices);
    const int device = rank % (int)devices;
    aclrtStream stream = NULL;
    if (aclrtSetDevice(device) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS) return 4;

    HcclRootInfo root;
    memset(&root, 0, sizeof root);
    if (rank == 0 && HcclGetRootInfo(&root) != HCCL_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 5);
    MPI_Bcast(&root, HCCL_ROOT_INFO_BYTES, MPI_CHAR, 0, MPI_COMM_WORLD);
    HcclComm comm = NULL;
    const HcclResult init = HcclCommInitRootInfo((uint32_t)size, &root, (uint32_t)rank, &comm);

    const size_t bytes = count * sizeof(float);
    float* host = malloc(bytes);
    void *in = NULL, *out = NULL;
    HcclResult reduce = HCCL_E_RESERVED;
    aclError sync = ACL_SUCCESS;
    int ok = 0;
    if (init == HCCL_SUCCESS && host != NULL && aclrtMalloc(&in, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
        aclrtMalloc(&out, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS) {
        for (size_t i = 0; i < count; ++i) host[i] = (float)(rank + 1) + (float)(i % 100);
        aclrtMemcpy(in, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
        reduce = HcclAllReduce(in, out, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream);
        sync = aclrtSynchronizeStream(stream);
        aclrtMemcpy(host, bytes, out, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
        ok = reduce == HCCL_SUCCESS && sync == ACL_SUCCESS;
        const float ranks_sum = (float)size * (float)(size + 1) / 2.0f;
        for (size_t i = 0; i < count && ok; ++i) ok = host[i] == ranks_sum + (float)size * (float)(i % 100);
    }
    printf("rank %d/%d init %d allreduce %d sync %d ok %d root %s\n", rank, size, (int)init, (int)reduce, (int)sync, ok,
           root.internal);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    if (comm != NULL) HcclCommDestroy(comm);
    if (in != NULL) aclrtFree(in);
    if (out != NULL) aclrtFree(out);
    free(host);
    aclrtDestroyStream(stream);
    aclrtResetDevice(device);
    aclFinalize();
    MPI_Finalize();
    return ok ? 0 : 1;
}
