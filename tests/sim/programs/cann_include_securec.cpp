// A translation unit that includes securec.h and nothing else, as CANN's samples do (the msPTI
// samples' helper header): it calls the C library through what securec.h makes visible.
#include "securec.h"

int securec_user(void) {
    const char text[] = "securec";
    char* copy = static_cast<char*>(malloc(sizeof text));  // <stdlib.h>
    if (copy == nullptr) return 1;
    if (memcpy_s(copy, sizeof text, text, sizeof text) != EOK) return 1;
    const int same = strcmp(copy, text) == 0 && strlen(copy) == 7;  // <string.h>
    printf("securec_user %s\n", same ? "ok" : "differs");           // <stdio.h>
    free(copy);
    return same ? 0 : 1;
}
