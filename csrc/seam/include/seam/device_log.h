/*
 * Byte layouts of the device records that arrive on the profiling channels:
 * STARS SoC logs (channel 50) and TS firmware step traces (channel 44).
 * All little-endian. Chip types 5 (910B/A3) and 7 (310B) share one layout,
 * chip type 15 (Ascend 950) has its own.
 */
#ifndef SEAM_DEVICE_LOG_H
#define SEAM_DEVICE_LOG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SEAM_CHIP_TYPE_910B 5U
#define SEAM_CHIP_TYPE_310B 7U
#define SEAM_CHIP_TYPE_950 15U

/* STARS header word: bits 0-5 funcType, 6-9 cnt, 10-15 taskType. */
#define STARS_FUNC_TYPE_BEGIN 0U
#define STARS_FUNC_TYPE_END 1U
#define STARS_FUNC_TYPE_FFTS_BEGIN 34U
#define STARS_FUNC_TYPE_FFTS_END 35U
#define STARS_HEAD(funcType, cnt, taskType) \
    ((uint16_t)(((funcType) & 0x3FU) | (((cnt) & 0xFU) << 6) | (((taskType) & 0x3FU) << 10)))
#define STARS_HEAD_FUNC_TYPE(head) ((uint16_t)((head) & 0x3FU))

#pragma pack(push, 4)
/* 64-byte ACSQ task log, chip types 5 and 7. */
struct StarsSocLog {
    uint16_t head;
    uint16_t reserve0;
    uint16_t streamId;
    uint16_t taskId;
    uint64_t timestamp; /* device counter */
    uint16_t reserve1;
    uint16_t accAcsq; /* accId:6, acsqId:10 */
    uint8_t reserve2[44];
};

/* 64-byte FFTS+ sub-task log, chip types 5 and 7. */
struct FftsPlusLog {
    uint16_t head;
    uint16_t reserve0;
    uint16_t streamId;
    uint16_t taskId;
    uint64_t timestamp;
    uint16_t subTaskType; /* subTaskType:8, reserve:8 */
    uint16_t subTaskId;
    uint16_t fftsType; /* reserve:13, fftsType:3 */
    uint16_t threadId;
    uint8_t reserve2[40];
};

/* 32-byte ACSQ task log, chip type 15 (no stream id). */
struct StarsSocLogV6 {
    uint16_t head;
    uint16_t reserve0;
    uint32_t taskId;
    uint64_t timestamp;
    uint16_t reserve1;
    uint16_t accAcsq;
    uint8_t reserve2[12];
};

#define TS_RPT_TYPE_STEP_TRACE 10U
#define TS_RPT_TYPE_MEMCPY 11U
#define TS_RPT_TYPE_TASK_TYPE 12U
#define STEP_TRACE_TAG_MARKEX 11U

/* 40-byte TS firmware step trace, chip types 5 and 7. */
struct TsStepTrace {
    uint8_t mode;
    uint8_t rptType;
    uint16_t bufSize;
    uint8_t reserve0[4];
    uint64_t timestamp;
    uint64_t indexId;
    uint64_t modelId;
    uint16_t streamId;
    uint16_t taskId;
    uint16_t tagId;
    uint16_t reserve1;
};

/* 40-byte TS firmware step trace, chip type 15. */
struct TsStepTraceV6 {
    uint8_t mode;
    uint8_t rptType;
    uint16_t bufSize;
    uint8_t reserve0[4];
    uint64_t timestamp;
    uint64_t indexId;
    uint64_t modelId;
    uint16_t tagId;
    uint16_t streamId;
    uint32_t taskId;
};
#pragma pack(pop)

#pragma pack(push, 1)
/* The userdata a profiler hands to aclrtProfTrace: 18 packed bytes. */
struct ProfTraceUserData {
    uint64_t indexId;
    uint64_t modelId;
    uint16_t tagId;
};
#pragma pack(pop)

#ifdef __cplusplus
} /* extern "C" */
static_assert(sizeof(StarsSocLog) == 64, "StarsSocLog is 64 bytes");
static_assert(sizeof(FftsPlusLog) == 64, "FftsPlusLog is 64 bytes");
static_assert(sizeof(StarsSocLogV6) == 32, "StarsSocLogV6 is 32 bytes");
static_assert(sizeof(TsStepTrace) == 40, "TsStepTrace is 40 bytes");
static_assert(sizeof(TsStepTraceV6) == 40, "TsStepTraceV6 is 40 bytes");
static_assert(sizeof(ProfTraceUserData) == 18, "ProfTraceUserData is 18 bytes");
#endif

#endif /* SEAM_DEVICE_LOG_H */
