/*
 * The bounds-checked memory and string functions of CANN's libc_sec (the "secure C" library
 * CANN programs and samples include as <securec.h>), with CANN's signatures.
 *
 * Every function takes the capacity of its destination (destMax) and reports, instead of
 * overrunning it, through its return value: EOK on success, an errno_t code otherwise. The
 * formatted-output functions return the number of characters written, or -1.
 *
 * Return codes of the errno_t functions (as CANN's library gives them):
 *   EOK (0)             success;
 *   EINVAL (22)         an argument is invalid and the destination is untouched;
 *   ERANGE (34)         destMax is 0 or larger than SECUREC_STRING_MAX_LEN / SECUREC_MEM_MAX_LEN;
 *   EINVAL_AND_RESET,   the same errors after the destination was cleared (its first byte, or
 *   ERANGE_AND_RESET,   destMax bytes for memcpy_s);
 *   EOVERLAP_AND_RESET  source and destination overlap (memcpy_s, strcpy_s, strcat_s, ...).
 * Programs link with -lc_sec.
 */
#ifndef NPU_SIM_SECUREC_H
#define NPU_SIM_SECUREC_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef SECUREC_ERRNO_T_DEFINED
#define SECUREC_ERRNO_T_DEFINED
typedef int errno_t;
#endif

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET (22 | 128)
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET (34 | 128)
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET (54 | 128)
#endif

/* Largest destMax the string and memory functions accept. */
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL

errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);
errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);
errno_t memset_s(void *dest, size_t destMax, int c, size_t count);

errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
char *strtok_s(char *strToken, const char *strDelimit, char **context);

/* Formatted output: the number of characters written (without the terminator), or -1 when the
 * output does not fit in destMax (or count) characters or an argument is invalid. */
int sprintf_s(char *strDest, size_t destMax, const char *format, ...) __attribute__((format(printf, 3, 4)));
int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList)
    __attribute__((format(printf, 3, 0)));
int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list argList)
    __attribute__((format(printf, 4, 0)));

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_SECUREC_H */
