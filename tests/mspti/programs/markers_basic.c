/* Host markers: marks and ranges in the default domain and in named domains, domain switches. */
#include <unistd.h>

#include "collector.h"
#include "mstx/ms_tools_ext.h"

int main(void) {
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK(collector_register());
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);

    mstxMarkA("mark-1", NULL);
    mstxRangeId r1 = mstxRangeStartA("range-1", NULL);
    CHECK(r1 != 0);
    mstxRangeEnd(r1);
    mstxRangeEnd(r1);     /* already ended: nothing */
    mstxRangeEnd(999999); /* unknown: nothing */

    /* Disabled before the domain exists: applies when it is created. */
    CHECK_EQ(msptiActivityDisableMarkerDomain("late"), MSPTI_SUCCESS);
    mstxDomainHandle_t a = mstxDomainCreateA("alpha");
    mstxDomainHandle_t ab = mstxDomainCreateA("alphabet"); /* "alpha" is a prefix: still its own domain */
    mstxDomainHandle_t late = mstxDomainCreateA("late");
    CHECK(a != NULL && ab != NULL && late != NULL && a != ab);
    /* (Whether creating "alpha" again gives the same front-end handle is libprofapi's business.) */
    mstxDomainMarkA(a, "in-alpha", NULL);
    mstxDomainMarkA(ab, "in-alphabet", NULL);
    mstxDomainMarkA(late, "in-late", NULL); /* disabled */
    CHECK_EQ(msptiActivityEnableMarkerDomain("late"), MSPTI_SUCCESS);
    mstxDomainMarkA(late, "in-late-2", NULL);

    CHECK_EQ(msptiActivityDisableMarkerDomain("alpha"), MSPTI_SUCCESS);
    mstxDomainMarkA(a, "alpha-off", NULL);
    CHECK(mstxDomainRangeStartA(a, "alpha-range-off", NULL) == 0);
    mstxDomainMarkA(ab, "alphabet-on", NULL);
    CHECK_EQ(msptiActivityEnableMarkerDomain("alpha"), MSPTI_SUCCESS);
    mstxRangeId r2 = mstxDomainRangeStartA(a, "alpha-range", NULL);
    mstxDomainRangeEnd(a, r2);

    /* The default domain by name. */
    CHECK_EQ(msptiActivityDisableMarkerDomain("default"), MSPTI_SUCCESS);
    mstxMarkA("default-off", NULL);
    CHECK_EQ(msptiActivityEnableMarkerDomain("default"), MSPTI_SUCCESS);

    /* Message limits: 254 characters pass, 255 do not. */
    char msg[300];
    memset(msg, 'x', sizeof msg);
    msg[254] = '\0';
    mstxMarkA(msg, NULL);
    msg[254] = 'x';
    msg[255] = '\0';
    mstxMarkA(msg, NULL);
    mstxMarkA(NULL, NULL);

    /* The record's name is msPTI's copy. */
    char mutable_msg[16] = "volatile";
    mstxMarkA(mutable_msg, NULL);
    strcpy(mutable_msg, "changed!");

    mstxDomainDestroy(ab);
    mstxDomainMarkA(ab, "after-destroy", NULL);

    /* MARKER off: nothing, range start returns 0. */
    CHECK_EQ(msptiActivityDisable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    mstxMarkA("marker-off", NULL);
    CHECK(mstxRangeStartA("range-off", NULL) == 0);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    mstxMarkA("last", NULL);

    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    printf("P pid=%d\n", (int)getpid());
    collector_summary();
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    return 0;
}
