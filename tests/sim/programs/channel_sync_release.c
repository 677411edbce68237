/*
 * Device logs released at synchronisations (NPU_SIM_DEVICE_LOGS=sync), beside the default release
 * once due. Phase 1 launches kernels, then spends host time (cheap API calls) until the device
 * clock has passed their ends, and looks at the STARS channel: read, flush, poll. Then it
 * synchronises and reads again. Phase 2 starts a reader thread that polls and reads as msPTI's does,
 * and launches CHUNKS chunks of KERNELS kernels with a synchronisation after each: every batch the
 * reader reads is printed with its record count.
 *
 *   channel_sync_release
 *
 * Output lines:
 *   DUE <read bytes> <flush pending> <poll ready>   phase 1, the kernels' logs due, before synchronising
 *   SYNCED <read bytes>                              phase 1, after aclrtSynchronizeStream
 *   BATCH <records>                                  phase 2, one read pass of the reader thread
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "channel_program.h"

#define KERNELS 64
#define CHUNKS 12

static atomic_int g_stop;

static unsigned long long device_now(void) {
    int64_t v = 0;
    CHECK(halGetDeviceInfo(0, MODULE_TYPE_SYSTEM, INFO_TYPE_SYS_COUNT, &v) == 0);
    return (unsigned long long)v;
}

/* Reads the STARS channel until it returns nothing; the bytes read. */
static size_t read_all(void) {
    static char buf[1 << 16];
    size_t total = 0;
    for (;;) {
        const int n = prof_channel_read(0, PROF_CHANNEL_STARS_SOC_LOG, buf, sizeof buf);
        CHECK(n >= 0);
        if (n == 0) return total;
        total += (size_t)n;
    }
}

static void* reader(void* arg) {
    (void)arg;
    while (!atomic_load(&g_stop)) {
        struct prof_poll_info info[8];
        const int n = prof_channel_poll(info, 8, 1);
        CHECK(n >= 0);
        if (n == 0) continue;
        const size_t bytes = read_all();
        if (bytes > 0) printf("BATCH %zu\n", bytes / sizeof(struct StarsSocLog));
    }
    return NULL;
}

int main(void) {
    static const char image[] = "channel-sync-release: empty_kernel";
    CHECK(aclInit(NULL) == ACL_SUCCESS);
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
    aclrtFuncHandle fn = load_empty_kernel(image, sizeof image);
    CHECK(start_stars_channel(0) == PROF_OK);
    uint64_t args[2] = {0, 0};

    /* Phase 1. */
    for (int i = 0; i < KERNELS; ++i) CHECK(aclrtLaunchKernel(fn, 1, args, sizeof args, stream) == ACL_SUCCESS);
    const unsigned long long launched = device_now();
    int32_t device = -1;
    /* Host time passes (virtual clock: each call spends the SoC's API cost) until the work is done. */
    while (device_now() < launched + 10000000ULL) CHECK(aclrtGetDevice(&device) == ACL_SUCCESS);
    unsigned pending = 0;
    CHECK(halProfDataFlush(0, PROF_CHANNEL_STARS_SOC_LOG, &pending) == 0);
    struct prof_poll_info info[8];
    const int ready = prof_channel_poll(info, 8, 0);
    CHECK(ready >= 0);
    printf("DUE %zu %u %d\n", read_all(), pending, ready);
    CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    printf("SYNCED %zu\n", read_all());
    fflush(stdout);

    /* Phase 2. */
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, reader, NULL) == 0);
    for (int c = 0; c < CHUNKS; ++c) {
        for (int i = 0; i < KERNELS; ++i) CHECK(aclrtLaunchKernel(fn, 1, args, sizeof args, stream) == ACL_SUCCESS);
        CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    }
    /* The last chunk: a stop releases nothing new (everything was synchronised); let the reader take it. */
    for (int i = 0; i < 100 && prof_channel_poll(info, 8, 0) > 0; ++i) {
        struct timespec pause = {0, 10000000};
        nanosleep(&pause, NULL);
    }
    atomic_store(&g_stop, 1);
    CHECK(prof_stop(0, PROF_CHANNEL_STARS_SOC_LOG) == PROF_OK);
    CHECK(pthread_join(thread, NULL) == 0);
    const size_t rest = read_all();
    if (rest > 0) printf("BATCH %zu\n", rest / sizeof(struct StarsSocLog));
    CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
    CHECK(aclrtResetDevice(0) == ACL_SUCCESS);
    return 0;
}
