/*
 * Several host threads launch kernels on device 0 (a stream each) while another thread reads the
 * STARS channel as the bytes arrive, in pieces that are not a multiple of a log. Every log must
 * arrive once and whole: prints "LOGS begins ends pairs" where pairs counts, per stream, the task
 * ids whose begin and end both arrived (in the order they were written).
 *   channel_threads THREADS LAUNCHES_PER_THREAD
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "channel_program.h"

#define MAX_THREADS 8
#define LOG_SIZE ((int)sizeof(struct StarsSocLog))

static aclrtFuncHandle g_fn;
static long g_per_thread;
static atomic_int g_launching;

static unsigned char g_buf[LOG_SIZE * 4096 + LOG_SIZE];
static size_t g_fill;
static size_t g_begins, g_ends, g_pairs;
static long g_open[2048]; /* per stream: the task id whose begin arrived last, -1 if none */

static void* launcher(void* arg) {
    (void)arg;
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
    uint64_t args = 0;
    for (long i = 0; i < g_per_thread; ++i)
        CHECK(aclrtLaunchKernel(g_fn, 1, &args, sizeof args, stream) == ACL_SUCCESS);
    atomic_fetch_sub(&g_launching, 1);
    return NULL;
}

static void consume(void) {
    size_t whole = g_fill / LOG_SIZE * LOG_SIZE;
    for (size_t off = 0; off < whole; off += LOG_SIZE) {
        struct StarsSocLog log;
        memcpy(&log, g_buf + off, sizeof log);
        const unsigned func = STARS_HEAD_FUNC_TYPE(log.head);
        CHECK(log.streamId < 2048);
        if (func == STARS_FUNC_TYPE_BEGIN) {
            ++g_begins;
            g_open[log.streamId] = log.taskId;
        } else {
            CHECK(func == STARS_FUNC_TYPE_END);
            ++g_ends;
            /* A task's two logs are written in one piece: its end follows its begin directly. */
            if (g_open[log.streamId] == log.taskId) ++g_pairs;
            g_open[log.streamId] = -1;
        }
    }
    memmove(g_buf, g_buf + whole, g_fill - whole);
    g_fill -= whole;
}

static void read_some(void) {
    for (;;) {
        /* 1000 bytes: logs split across reads. */
        const int n = prof_channel_read(0, PROF_CHANNEL_STARS_SOC_LOG, (char*)g_buf + g_fill, 1000);
        CHECK(n >= 0);
        if (n == 0) return;
        g_fill += (size_t)n;
        if (g_fill + 1000 > sizeof g_buf) consume();
    }
}

int main(int argc, char** argv) {
    CHECK(argc == 3);
    const int threads = atoi(argv[1]);
    g_per_thread = atol(argv[2]);
    CHECK(threads > 0 && threads <= MAX_THREADS);
    for (int i = 0; i < 2048; ++i) g_open[i] = -1;
    CHECK(aclInit(NULL) == ACL_SUCCESS);
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    CHECK(start_stars_channel(0) == PROF_OK);
    static const char image[] = "channel-threads-kernel";
    g_fn = load_empty_kernel(image, sizeof image);

    atomic_store(&g_launching, threads);
    pthread_t ids[MAX_THREADS];
    for (int t = 0; t < threads; ++t) CHECK(pthread_create(&ids[t], NULL, launcher, NULL) == 0);
    while (atomic_load(&g_launching) > 0) {
        struct prof_poll_info info[4];
        (void)prof_channel_poll(info, 4, 1);
        read_some();
        consume();
    }
    for (int t = 0; t < threads; ++t) pthread_join(ids[t], NULL);
    /* The last logs are readable once the device has run the work. */
    CHECK(aclrtSynchronizeDevice() == ACL_SUCCESS);
    read_some();
    consume();
    CHECK(g_fill == 0);
    CHECK(prof_stop(0, PROF_CHANNEL_STARS_SOC_LOG) == PROF_OK);
    printf("LOGS %zu %zu %zu\n", g_begins, g_ends, g_pairs);
    return 0;
}
