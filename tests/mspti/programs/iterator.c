/* msptiActivityGetNextRecord over hand-built buffers: cursor from the record pointer, bounds, kinds. */
#include "collector.h"

static size_t put(uint8_t* buffer, size_t offset, int kind) {
    const size_t size = collector_record_size(kind);
    memset(buffer + offset, 0, size);
    memcpy(buffer + offset, &kind, sizeof kind);
    return offset + size;
}

int main(void) {
    uint8_t a[1024] __attribute__((aligned(8)));
    uint8_t b[1024] __attribute__((aligned(8)));
    size_t na = 0, nb = 0;
    /* Buffer A holds one record of every kind (API family included). */
    for (int k = 1; k <= 12; ++k) na = put(a, na, k);
    nb = put(b, nb, MSPTI_ACTIVITY_KIND_MEMCPY);
    nb = put(b, nb, MSPTI_ACTIVITY_KIND_MARKER);

    /* Walk A fully: strides follow each kind's size, the end is MAX_LIMIT_REACHED. */
    msptiActivity* r = NULL;
    size_t expected = 0;
    for (int k = 1; k <= 12; ++k) {
        CHECK_EQ(msptiActivityGetNextRecord(a, na, &r), MSPTI_SUCCESS);
        CHECK_EQ((uint8_t*)r - a, expected);
        CHECK_EQ(r->kind, k);
        expected += collector_record_size(k);
    }
    CHECK_EQ(msptiActivityGetNextRecord(a, na, &r), MSPTI_ERROR_MAX_LIMIT_REACHED);
    CHECK_EQ(msptiActivityGetNextRecord(a, na, &r), MSPTI_ERROR_MAX_LIMIT_REACHED); /* the end is sticky */

    /* Abandon A after two records, then walk B from NULL: B's first record (no hidden cursor). */
    r = NULL;
    CHECK_EQ(msptiActivityGetNextRecord(a, na, &r), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityGetNextRecord(a, na, &r), MSPTI_SUCCESS);
    msptiActivity* rb = NULL;
    CHECK_EQ(msptiActivityGetNextRecord(b, nb, &rb), MSPTI_SUCCESS);
    CHECK(rb == (msptiActivity*)b && rb->kind == MSPTI_ACTIVITY_KIND_MEMCPY);
    /* ...and continue A where it was. */
    CHECK_EQ(msptiActivityGetNextRecord(a, na, &r), MSPTI_SUCCESS);
    CHECK_EQ(r->kind, MSPTI_ACTIVITY_KIND_API);
    /* NULL restarts at the first record. */
    r = NULL;
    CHECK_EQ(msptiActivityGetNextRecord(a, na, &r), MSPTI_SUCCESS);
    CHECK(r == (msptiActivity*)a);

    /* A valid size ending inside a record: only whole records are returned. */
    r = NULL;
    CHECK_EQ(msptiActivityGetNextRecord(b, collector_record_size(MSPTI_ACTIVITY_KIND_MEMCPY) + 8, &r), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityGetNextRecord(b, collector_record_size(MSPTI_ACTIVITY_KIND_MEMCPY) + 8, &r),
             MSPTI_ERROR_MAX_LIMIT_REACHED);
    r = NULL;
    CHECK_EQ(msptiActivityGetNextRecord(b, 2, &r), MSPTI_ERROR_MAX_LIMIT_REACHED);
    CHECK_EQ(msptiActivityGetNextRecord(b, 40, &r), MSPTI_ERROR_MAX_LIMIT_REACHED); /* memcpy is 56 bytes */

    /* Unknown kinds stop the walk with INNER, and do not advance. */
    uint8_t c[256] __attribute__((aligned(8)));
    size_t nc = put(c, 0, MSPTI_ACTIVITY_KIND_MARKER);
    const int bogus = 77;
    memset(c + nc, 0, 64);
    memcpy(c + nc, &bogus, sizeof bogus);
    nc += 64;
    r = NULL;
    CHECK_EQ(msptiActivityGetNextRecord(c, nc, &r), MSPTI_SUCCESS);
    msptiActivity* before = r;
    CHECK_EQ(msptiActivityGetNextRecord(c, nc, &r), MSPTI_ERROR_INNER);
    CHECK(r == before);
    const int invalid = 0;
    memcpy(c, &invalid, sizeof invalid);
    r = NULL;
    CHECK_EQ(msptiActivityGetNextRecord(c, nc, &r), MSPTI_ERROR_INNER);

    /* A record pointer outside the buffer is refused. */
    r = (msptiActivity*)(b + 512);
    CHECK_EQ(msptiActivityGetNextRecord(b, nb, &r), MSPTI_ERROR_INVALID_PARAMETER);
    r = (msptiActivity*)(a + 0) - 1;
    CHECK_EQ(msptiActivityGetNextRecord(a, na, &r), MSPTI_ERROR_INVALID_PARAMETER);
    printf("P done=1\n");
    return 0;
}
