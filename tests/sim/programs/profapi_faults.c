/* Three reports and three type registrations, for fault plans aimed at libprofapi. */
#include <stdio.h>
#include <string.h>

#include "seam/profapi.h"

static int g_delivered;
static int32_t on_api(uint32_t aging, const struct MsprofApi* api) {
    (void)aging;
    (void)api;
    ++g_delivered;
    return 0;
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("reg=%d\n", MsprofRegisterProfileCallback(PROFILE_REPORT_API_C_CALLBACK, (void*)on_api, sizeof(void*)));
    struct MsprofApi api;
    memset(&api, 0, sizeof api);
    for (int i = 1; i <= 3; ++i) printf("report %d rc=%d\n", i, MsprofReportApi(0, &api));
    printf("delivered=%d\n", g_delivered);
    for (int i = 1; i <= 3; ++i)
        printf("regtype %d rc=%d\n", i, MsprofRegTypeInfo(MSPROF_REPORT_ACL_LEVEL, (uint32_t)i, "n"));
    printf("hash=%llu\n", (unsigned long long)MsprofGetHashId("abc", 3));
    return 0;
}
