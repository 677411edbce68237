/* The logging seam of CANN (libascendalog). */
#ifndef SEAM_ALOG_H
#define SEAM_ALOG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLOG_DEBUG 0
#define DLOG_INFO 1
#define DLOG_WARN 2
#define DLOG_ERROR 3
#define DLOG_NULL 4

/* Returns 1 when a message of this module and level is to be logged. */
int32_t CheckLogLevelForC(int32_t moduleId, int32_t logLevel);
void DlogInnerForC(int32_t moduleId, int32_t level, const char* fmt, ...);

#ifdef __cplusplus
}
#endif

#endif /* SEAM_ALOG_H */
