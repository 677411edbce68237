/*
 * msPTI result codes.
 *
 * Part of the msPTI C API of this project. Names, values and layouts are
 * ABI-compatible with CANN's msPTI so that programs built against either set of
 * headers run with either library.
 */
#ifndef MSPTI_RESULT_H
#define MSPTI_RESULT_H

/* Symbol visibility of the public functions: exported by the library build, plain declarations otherwise. */
#ifndef MSPTI_API
#if defined(MSPTI_LIB) && defined(__GNUC__)
#define MSPTI_API __attribute__((visibility("default")))
#else
#define MSPTI_API
#endif
#endif

/*
 * The enums a caller passes to msPTI (results, activity kinds, callback domains, external
 * correlation kinds) take int as their underlying type in C++, so that any int a C caller passes,
 * valid or not, is a value of the enum inside the library (msPTI then refuses it). C gives these
 * enums an int-sized type as well: the ABI is the same in both languages.
 */
#ifndef MSPTI_ENUM_INT
#ifdef __cplusplus
#define MSPTI_ENUM_INT : int
#else
#define MSPTI_ENUM_INT
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum MSPTI_ENUM_INT {
    MSPTI_SUCCESS = 0,
    MSPTI_ERROR_INVALID_PARAMETER = 1,
    MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED = 2,
    MSPTI_ERROR_MAX_LIMIT_REACHED = 3,
    MSPTI_ERROR_DEVICE_OFFLINE = 4,
    MSPTI_ERROR_QUEUE_EMPTY = 5,
    MSPTI_ERROR_WITHOUT_LD_PRELOAD = 6,
    MSPTI_ERROR_NOT_INITIALIZED = 7,
    MSPTI_ERROR_INVALID_KIND = 8,
    MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT = 9,
    MSPTI_ERROR_INNER = 999,
    MSPTI_ERROR_FORCE_INT = 0x7fffffff
} msptiResult;

/*
 * Stores in *str a static description of `result` (the caller must not free it). INVALID_PARAMETER
 * when str is NULL or result is not a code of this enumeration (FORCE_INT included); *str is then
 * left as it was.
 */
MSPTI_API msptiResult msptiGetResultString(msptiResult result, const char **str);

#ifdef __cplusplus
}
#endif

#endif /* MSPTI_RESULT_H */
