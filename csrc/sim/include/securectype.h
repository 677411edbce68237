/*
 * The types, limits and standard headers of CANN's libc_sec ("secure C" library), which securec.h
 * includes first. As CANN's, it makes <stdio.h>, <string.h>, <stdlib.h> and <stddef.h> visible to
 * every file that includes securec.h: CANN programs and samples call malloc, free, memcpy and printf
 * after including securec.h alone.
 */
#ifndef NPU_SIM_SECURECTYPE_H
#define NPU_SIM_SECURECTYPE_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest destMax the string and memory functions accept (a program may define smaller ones first). */
#ifndef SECUREC_STRING_MAX_LEN
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#endif
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif

#endif /* NPU_SIM_SECURECTYPE_H */
