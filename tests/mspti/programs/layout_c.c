/* C11 view of the public headers: layouts (compile time) and the 15 + 11 functions (link time). */
#include <stdio.h>

#include "layout_check.h"

typedef void (*any_fn)(void);

int main(void) {
    any_fn fns[] = {
        (any_fn)msptiSubscribe,
        (any_fn)msptiUnsubscribe,
        (any_fn)msptiEnableCallback,
        (any_fn)msptiEnableDomain,
        (any_fn)msptiActivityRegisterCallbacks,
        (any_fn)msptiActivityEnable,
        (any_fn)msptiActivityDisable,
        (any_fn)msptiActivityIsEnabled,
        (any_fn)msptiActivityEnableMarkerDomain,
        (any_fn)msptiActivityDisableMarkerDomain,
        (any_fn)msptiActivityGetNextRecord,
        (any_fn)msptiActivityFlushAll,
        (any_fn)msptiActivityFlushPeriod,
        (any_fn)msptiActivityPushExternalCorrelationId,
        (any_fn)msptiActivityPopExternalCorrelationId,
        (any_fn)msptiResultGetString,
        (any_fn)msptiGetVersion,
        (any_fn)msptiActivityGetDroppedRecords,
        (any_fn)msptiGetTimestamp,
        (any_fn)msptiActivityGetStructSize,
        (any_fn)msptiActivityGetEnabledKinds,
        (any_fn)msptiActivityGetNumDroppedRecords,
        (any_fn)msptiActivityRegisterTimestampCallback,
        (any_fn)msptiActivitySetAttribute,
        (any_fn)msptiActivityGetAttribute,
        (any_fn)msptiGetResultString,
    };
    unsigned n = 0;
    for (unsigned i = 0; i < sizeof fns / sizeof fns[0]; ++i) n += fns[i] != NULL;
    printf("functions %u\n", n);
    return n == sizeof fns / sizeof fns[0] ? 0 : 1;
}
