/*
 * Drives the simulated driver's profiling channels directly: starts channels 44 and 50 on every
 * device, launches kernels on several streams and device markers, then polls, reads (in small
 * pieces, so records split across reads) and decodes every record. Prints one line per record:
 *   S dev stream task func timestamp      (STARS log, channel 50)
 *   T dev stream task index model tag ts  (step trace, channel 44)
 * and a few lines about poll and flush behaviour:
 *   POLL_EMPTY ms count   /   FLUSH dev ch pending
 */
#include <string.h>
#include <time.h>

#include "channel_program.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static unsigned char g_pending[2][64 * 1024 * 1024];
static size_t g_fill[2];

static void decode(unsigned dev, unsigned ch, int chip15) {
    unsigned char* buf = g_pending[ch == PROF_CHANNEL_TS_FW];
    size_t* fill = &g_fill[ch == PROF_CHANNEL_TS_FW];
    size_t size = ch == PROF_CHANNEL_TS_FW ? sizeof(struct TsStepTrace)
                                           : (chip15 ? sizeof(struct StarsSocLogV6) : sizeof(struct StarsSocLog));
    size_t pos = 0;
    for (; pos + size <= *fill; pos += size) {
        if (ch == PROF_CHANNEL_TS_FW && chip15) {
            struct TsStepTraceV6 r;
            memcpy(&r, buf + pos, sizeof r);
            printf("T %u %u %u %llu %llu %u %llu\n", dev, r.streamId, r.taskId, (unsigned long long)r.indexId,
                   (unsigned long long)r.modelId, r.tagId, (unsigned long long)r.timestamp);
        } else if (ch == PROF_CHANNEL_TS_FW) {
            struct TsStepTrace r;
            memcpy(&r, buf + pos, sizeof r);
            printf("T %u %u %u %llu %llu %u %llu\n", dev, r.streamId, r.taskId, (unsigned long long)r.indexId,
                   (unsigned long long)r.modelId, r.tagId, (unsigned long long)r.timestamp);
        } else if (chip15) {
            struct StarsSocLogV6 r;
            memcpy(&r, buf + pos, sizeof r);
            printf("S %u 0 %u %u %llu\n", dev, r.taskId, STARS_HEAD_FUNC_TYPE(r.head), (unsigned long long)r.timestamp);
        } else {
            struct StarsSocLog r;
            memcpy(&r, buf + pos, sizeof r);
            printf("S %u %u %u %u %llu\n", dev, r.streamId, r.taskId, STARS_HEAD_FUNC_TYPE(r.head),
                   (unsigned long long)r.timestamp);
        }
    }
    memmove(buf, buf + pos, *fill - pos);
    *fill -= pos;
}

static void drain(unsigned dev, unsigned ch, int chip15, unsigned piece) {
    unsigned char* buf = g_pending[ch == PROF_CHANNEL_TS_FW];
    size_t* fill = &g_fill[ch == PROF_CHANNEL_TS_FW];
    for (;;) {
        int n = prof_channel_read(dev, ch, (char*)buf + *fill, piece);
        CHECK(n >= 0);
        if (n == 0) break;
        *fill += (size_t)n;
        decode(dev, ch, chip15);
    }
    CHECK(*fill == 0);
}

int main(int argc, char** argv) {
    const int per_stream = argc > 1 ? atoi(argv[1]) : 500;
    const int streams = 3;
    uint32_t devices = 0;
    CHECK(drvGetDevNum(&devices) == 0 && devices >= 1);
    int64_t version = 0;
    CHECK(halGetDeviceInfo(0, MODULE_TYPE_SYSTEM, INFO_TYPE_VERSION, &version) == 0);
    const int chip15 = ((version >> 8) & 0xff) == 15;

    /* A poll with nothing started returns 0 after its timeout, without spinning. */
    struct prof_poll_info info[8];
    double t0 = now_ms();
    int ready = prof_channel_poll(info, 8, 1);
    printf("POLL_EMPTY %.0f %d\n", now_ms() - t0, ready);

    for (uint32_t d = 0; d < devices; ++d) {
        channel_list_t list;
        CHECK(prof_drv_get_channels(d, &list) == 0);
        struct TsTsFwProfileConfig ts = {20, 0, 0, 0, 0, 0, 1, 0, 1};
        struct prof_start_para p44 = {PROF_TS_TYPE, 20, 1, &ts, sizeof ts};
        CHECK(prof_drv_start(d, PROF_CHANNEL_TS_FW, &p44) == PROF_OK);
        CHECK(start_stars_channel(d) == PROF_OK);
        CHECK(start_stars_channel(d) == PROF_STARTED_ALREADY);
    }

    static const char image[] = "channel-kernel";
    for (uint32_t d = 0; d < devices; ++d) {
        CHECK(aclrtSetDevice((int32_t)d) == ACL_SUCCESS);
        aclrtFuncHandle fn = load_empty_kernel(image, sizeof image);
        aclrtStream s[3];
        for (int i = 0; i < streams; ++i) CHECK(aclrtCreateStream(&s[i]) == ACL_SUCCESS);
        uint64_t args = 0;
        for (int k = 0; k < per_stream; ++k) {
            for (int i = 0; i < streams; ++i) {
                CHECK(aclrtLaunchKernel(fn, 1, &args, sizeof args, s[i]) == ACL_SUCCESS);
            }
        }
        struct __attribute__((packed)) {
            uint64_t index;
            uint64_t model;
            uint16_t tag;
        } mark = {7 + d, 8, 11};
        CHECK(aclrtProfTrace(&mark, sizeof mark, s[0]) == ACL_SUCCESS);
        for (int i = 0; i < streams; ++i) CHECK(aclrtSynchronizeStream(s[i]) == ACL_SUCCESS);
    }

    /* Data is pending now: a poll reports the channels at once. */
    t0 = now_ms();
    ready = prof_channel_poll(info, 8, 5);
    CHECK(ready > 0 && now_ms() - t0 < 1000);
    for (uint32_t d = 0; d < devices; ++d) {
        unsigned pending = 0;
        CHECK(halProfDataFlush(d, PROF_CHANNEL_STARS_SOC_LOG, &pending) == 0);
        printf("FLUSH %u 50 %u\n", d, pending);
        drain(d, PROF_CHANNEL_STARS_SOC_LOG, chip15, 100); /* 100 bytes: records split across reads */
        drain(d, PROF_CHANNEL_TS_FW, chip15, 30);
        CHECK(halProfDataFlush(d, PROF_CHANNEL_STARS_SOC_LOG, &pending) == 0 && pending == 0);
        CHECK(prof_stop(d, PROF_CHANNEL_TS_FW) == PROF_OK);
        CHECK(prof_stop(d, PROF_CHANNEL_STARS_SOC_LOG) == PROF_OK);
        CHECK(prof_stop(d, PROF_CHANNEL_STARS_SOC_LOG) == PROF_STOPPED_ALREADY);
    }
    CHECK(prof_channel_read(99, PROF_CHANNEL_TS_FW, (char*)g_pending[0], 64) < 0);
    CHECK(prof_drv_start(0, 43, NULL) < 0);
    return 0;
}
