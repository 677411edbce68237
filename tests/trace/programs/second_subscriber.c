/* A program that subscribes to msPTI itself: under the trace collector its subscription is refused
 * (msPTI has one subscriber slot), and it says what it got. */
#include <stdio.h>

#include "mspti/mspti.h"

int main(void) {
    msptiSubscriberHandle subscriber = NULL;
    const msptiResult rc = msptiSubscribe(&subscriber, NULL, NULL);
    printf("msptiSubscribe: %d\n", (int)rc);
    if (rc == MSPTI_SUCCESS) msptiUnsubscribe(subscriber);
    return rc == MSPTI_SUCCESS ? 0 : 1;
}
