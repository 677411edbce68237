/*
 * The simulator's process-wide state outlives exit().
 *
 *   threads   two threads launch kernels (each on its own stream) without pause; once both have
 *             launched, the main thread calls exit(0) while they go on launching
 *   fini      a destructor function of the program (.fini_array: it runs after every atexit handler,
 *             static destructors included) launches a kernel and synchronises
 *
 * Both must exit 0 with no sanitizer report: a launch reads the SoC catalogue and the kernel
 * cost table (Device::kernel_duration_ns) at any time until the process is gone.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <acl/acl.h>

static aclrtFuncHandle g_kernel;
static int g_launched[2]; /* accessed atomically */

static void load_kernel(void) {
    static const char image[] = "exit race kernels";
    aclrtBinHandle bin = NULL;
    if (aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "exit_race_kernel", &g_kernel) != ACL_SUCCESS) {
        fprintf(stderr, "kernel load failed\n");
        _exit(2);
    }
}

static void* launcher(void* p) {
    const int index = (int)(long)p;
    if (aclrtSetDevice(0) != ACL_SUCCESS) return NULL;
    aclrtStream stream = NULL;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) return NULL;
    uint64_t args[2] = {0, 0};
    for (unsigned i = 0;; ++i) {
        (void)aclrtLaunchKernel(g_kernel, 1, args, sizeof args, stream);
        if (i % 64 == 63) (void)aclrtSynchronizeStream(stream);
        __atomic_store_n(&g_launched[index], 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

static int g_fini_mode;

__attribute__((destructor)) static void launch_at_exit(void) {
    if (!g_fini_mode) return;
    aclrtStream stream = NULL;
    uint64_t args[2] = {0, 0};
    if (aclrtCreateStream(&stream) != ACL_SUCCESS ||
        aclrtLaunchKernel(g_kernel, 8, args, sizeof args, stream) != ACL_SUCCESS ||
        aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        fprintf(stderr, "the launch at exit failed\n");
        _exit(3);
    }
    printf("S launched_at_exit=1\n");
    fflush(stdout);
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "threads";
    g_fini_mode = strcmp(mode, "fini") == 0;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
    load_kernel();
    if (g_fini_mode) return 0;
    pthread_t threads[2];
    for (long i = 0; i < 2; ++i) pthread_create(&threads[i], NULL, launcher, (void*)i);
    while (!__atomic_load_n(&g_launched[0], __ATOMIC_ACQUIRE) || !__atomic_load_n(&g_launched[1], __ATOMIC_ACQUIRE)) {
        usleep(1000);
    }
    usleep(20000);
    printf("S exiting_while_launching=1\n");
    fflush(stdout);
    exit(0);
}
