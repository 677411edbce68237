/*
 * Byte layouts of the device records that arrive on the profiling channels:
 * STARS SoC logs (channel 50), TS firmware step traces (channel 44) and the
 * FFTS profile channel's per-task PMU records (channel 53).
 * All little-endian. Chip types 5 (910B/A3) and 7 (310B) share one layout,
 * chip type 15 (Ascend 950) has its own.
 */
#ifndef SEAM_DEVICE_LOG_H
#define SEAM_DEVICE_LOG_H

#include <stddef.h>
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
/* 128-byte ContextPmu record of the FFTS profile channel (53), chip types 5 and 7: one per AI Core
 * task (per context of an FFTS+ task): its cycles and the eight PMU counters of the events the
 * profiler programmed, in that order. Layout of CANN's record as msprof parses it. */
#define FFTS_PMU_FUNC_TYPE_CONTEXT 40U /* funcType (low 6 bits of head) */
#define FFTS_PMU_COUNTERS 8U
#define FFTS_TYPE_AIC_ONLY 0U
#define FFTS_TYPE_AIV_ONLY 1U
#define FFTS_TYPE_FFTS_PLUS 4U
#define FFTS_SUBTASK_MIX_AIC 6U
#define FFTS_SUBTASK_MIX_AIV 7U
struct ContextPmu {
    uint16_t head; /* funcType:6, cnt:4, reserve:6 */
    uint16_t reserve0;
    uint16_t streamId;
    uint16_t taskId;
    uint64_t reserve1;
    uint16_t subTaskType; /* subTaskType:8, reserve:2, ovFlag:1, reserve:5 */
    uint16_t subTaskId;   /* the context id of an FFTS+ task */
    uint16_t fftsType;    /* reserve:13, fftsType:3 */
    uint16_t reserve2;
    uint64_t reserve3;
    uint64_t totalCycle;
    uint64_t reserve4;
    uint64_t pmuList[FFTS_PMU_COUNTERS];
    uint64_t timeList[2]; /* device counter at the context's start and end */
};

/* The userdata a profiler passes when it starts channel 53 (the simulator's own block): the
 * PMU events to count on the cube cores and on the vector cores, FFTS_PMU_COUNTERS each. */
struct FftsProfileConfig {
    uint16_t aicEvents[FFTS_PMU_COUNTERS];
    uint16_t aivEvents[FFTS_PMU_COUNTERS];
};

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
static_assert(sizeof(ContextPmu) == 128, "ContextPmu is 128 bytes");
static_assert(offsetof(ContextPmu, totalCycle) == 32, "ContextPmu.totalCycle at byte 32");
static_assert(offsetof(ContextPmu, timeList) == 112, "ContextPmu.timeList at byte 112");
static_assert(sizeof(FftsProfileConfig) == 32, "FftsProfileConfig is 32 bytes");
static_assert(sizeof(ProfTraceUserData) == 18, "ProfTraceUserData is 18 bytes");
#endif

#endif /* SEAM_DEVICE_LOG_H */
