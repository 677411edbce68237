/* Two threads iterating their own buffers at the same time (no shared iteration state). */
#include "collector.h"

static void* walk(void* arg) {
    const int kind = (int)(intptr_t)arg;
    uint8_t buffer[56 * 16] __attribute__((aligned(8)));
    const size_t size = collector_record_size(kind);
    size_t n = 0;
    while (n + size <= sizeof buffer) {
        memset(buffer + n, 0, size);
        memcpy(buffer + n, &kind, sizeof kind);
        n += size;
    }
    long bad = 0;
    for (int round = 0; round < 10000; ++round) {
        msptiActivity* r = NULL;
        size_t count = 0;
        while (msptiActivityGetNextRecord(buffer, n, &r) == MSPTI_SUCCESS) {
            if ((int)r->kind != kind) bad++;
            count++;
        }
        if (count != n / size) bad++;
    }
    return (void*)bad;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, NULL, walk, (void*)(intptr_t)MSPTI_ACTIVITY_KIND_MARKER);
    pthread_create(&t2, NULL, walk, (void*)(intptr_t)MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
    void *r1 = NULL, *r2 = NULL;
    pthread_join(t1, &r1);
    pthread_join(t2, &r2);
    CHECK(r1 == NULL && r2 == NULL);
    printf("P done=1\n");
    return 0;
}
