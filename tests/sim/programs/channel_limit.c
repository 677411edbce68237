/*
 * The driver's STARS channel holds at most its limit of unread bytes (64 MiB) and takes bytes again
 * once they are read. Starts channel 50 on device 0, launches LAUNCHES kernels without reading
 * (two 64-byte logs each), reads everything, launches AGAIN more and reads again, then stops the
 * channel: after a stop it takes nothing, and a restart discards what was left unread. Prints:
 *   READ bytes begin_logs end_logs       (first drain: bytes and how many begin / end logs)
 *   AGAIN bytes                          (second drain)
 *   STOPPED bytes                        (read after launches on a stopped channel)
 *   RESTART bytes                        (read after a restart: the unread bytes were discarded)
 */
#include <string.h>

#include "channel_program.h"

static char g_piece[1 << 20];

/* Reads the channel dry; counts the bytes and the STARS begin (func 0) / end (func 1) logs. */
static size_t drain(size_t* begins, size_t* ends) {
    size_t total = 0;
    for (;;) {
        const int n = prof_channel_read(0, PROF_CHANNEL_STARS_SOC_LOG, g_piece, sizeof g_piece);
        CHECK(n >= 0);
        if (n == 0) return total;
        CHECK(n % sizeof(struct StarsSocLog) == 0); /* whole pieces: the reads here are multiples of a log */
        for (int off = 0; off < n; off += (int)sizeof(struct StarsSocLog)) {
            uint16_t head;
            memcpy(&head, g_piece + off, sizeof head);
            const unsigned func = STARS_HEAD_FUNC_TYPE(head);
            if (func == STARS_FUNC_TYPE_BEGIN && begins) ++*begins;
            if (func == STARS_FUNC_TYPE_END && ends) ++*ends;
        }
        total += (size_t)n;
    }
}

static void launch(aclrtFuncHandle fn, aclrtStream stream, long count) {
    uint64_t args = 0;
    for (long i = 0; i < count; ++i) CHECK(aclrtLaunchKernel(fn, 1, &args, sizeof args, stream) == ACL_SUCCESS);
}

int main(int argc, char** argv) {
    CHECK(argc == 3);
    const long launches = atol(argv[1]);
    const long again = atol(argv[2]);
    CHECK(aclInit(NULL) == ACL_SUCCESS);
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    CHECK(start_stars_channel(0) == PROF_OK);

    static const char image[] = "channel-limit-kernel";
    aclrtFuncHandle fn = load_empty_kernel(image, sizeof image);
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);

    size_t begins = 0, ends = 0;
    launch(fn, stream, launches);
    /* A log is readable once the device has done the work. */
    CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    const size_t first = drain(&begins, &ends);
    printf("READ %zu %zu %zu\n", first, begins, ends);
    launch(fn, stream, again);
    CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    printf("AGAIN %zu\n", drain(NULL, NULL));

    CHECK(prof_stop(0, PROF_CHANNEL_STARS_SOC_LOG) == PROF_OK);
    launch(fn, stream, again);
    printf("STOPPED %zu\n", drain(NULL, NULL));

    CHECK(start_stars_channel(0) == PROF_OK);
    launch(fn, stream, again);
    CHECK(prof_stop(0, PROF_CHANNEL_STARS_SOC_LOG) == PROF_OK);
    CHECK(start_stars_channel(0) == PROF_OK);
    printf("RESTART %zu\n", drain(NULL, NULL));
    CHECK(prof_stop(0, PROF_CHANNEL_STARS_SOC_LOG) == PROF_OK);
    CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
    CHECK(aclrtResetDevice(0) == ACL_SUCCESS);
    return 0;
}
