/*
 * The driver seam of CANN (libascend_hal): device enumeration, device info and
 * the profiling channels, declared in our own words with CANN's ABI.
 */
#ifndef SEAM_HAL_H
#define SEAM_HAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t drvError_t;
#define DRV_ERROR_NONE 0
#define DRV_ERROR_NO_DEVICE 1
#define DRV_ERROR_INVALID_DEVICE 2
#define DRV_ERROR_INVALID_VALUE 3
#define DRV_ERROR_INNER_ERR 7
#define DRV_ERROR_NOT_SUPPORT 0xfffe

/* halGetDeviceInfo module and info types. */
#define MODULE_TYPE_SYSTEM 0
#define INFO_TYPE_ENV 0
#define INFO_TYPE_VERSION 1
#define INFO_TYPE_CORE_NUM 3
#define INFO_TYPE_SYS_COUNT 13
#define INFO_TYPE_PHY_CHIP_ID 18
#define INFO_TYPE_HOST_OSC_FREQUE 24
#define INFO_TYPE_DEV_OSC_FREQUE 25

/* halGetAPIVersion threshold at which host timestamps may be raw counters. */
#define SEAM_HAL_HOST_FREQ_API_VERSION 0x071905

/* Return codes of the prof_* functions. */
#define PROF_OK 0
#define PROF_ERROR (-1)
#define PROF_TIMEOUT (-2)
#define PROF_STARTED_ALREADY (-3)
#define PROF_STOPPED_ALREADY (-4)
#define PROF_ERESTARTSYS (-5)

/* Channel ids the profiler uses. */
#define PROF_CHANNEL_TS_FW 44U
#define PROF_CHANNEL_STARS_SOC_LOG 50U
#define PROF_CHANNEL_FFTS_PROFILE 53U /* per-task AI Core PMU records (ContextPmu, seam/device_log.h) */
#define PROF_CHANNEL_NUM_MAX 160U

#define PROF_CHANNEL_NAME_LEN 32
struct channel_info {
    char channel_name[PROF_CHANNEL_NAME_LEN];
    unsigned int channel_type;
    unsigned int channel_id;
};

typedef struct channel_list {
    unsigned int chip_type;
    unsigned int channel_num;
    struct channel_info channel[PROF_CHANNEL_NUM_MAX];
} channel_list_t;

typedef struct prof_poll_info {
    unsigned int device_id;
    unsigned int channel_id;
} prof_poll_info_t;

#define PROF_TS_TYPE 0U
#define PROF_PERIPHERAL_TYPE 1U
typedef struct prof_start_para {
    unsigned int channel_type;
    unsigned int sample_period;
    unsigned int real_time;
    void* user_data;
    unsigned int user_data_size;
} prof_start_para_t;

/* Configuration block a profiler passes when it starts channel 44. */
struct TsTsFwProfileConfig {
    uint32_t period;
    uint32_t tsTaskTrack;
    uint32_t tsCpuUsage;
    uint32_t aiCoreStatus;
    uint32_t tsTimeline;
    uint32_t aiVectorStatus;
    uint32_t tsKeypoint;
    uint32_t tsMemcpy;
    uint32_t tsBlockdim;
};

/* Configuration block a profiler passes when it starts channel 50. */
struct StarsSocLogConfig {
    uint32_t acsqTask;
    uint32_t accPmu;
    uint32_t cdqmReg;
    uint32_t dvppVpcBlock;
    uint32_t dvppJpegdBlock;
    uint32_t dvppJpegeBlock;
    uint32_t fftsThreadTask;
    uint32_t fftsBlock;
    uint32_t sdmaDmu;
    uint32_t tag;
    uint32_t blockShinkFlag;
};

drvError_t drvGetDevNum(uint32_t* numDev);
drvError_t drvGetDevIDs(uint32_t* devices, uint32_t len);
drvError_t halGetDeviceInfo(uint32_t devId, int32_t moduleType, int32_t infoType, int64_t* value);
drvError_t halGetAPIVersion(int32_t* apiVersion);
int prof_drv_get_channels(unsigned int deviceId, channel_list_t* channels);
int prof_drv_start(unsigned int deviceId, unsigned int channelId, struct prof_start_para* para);
int prof_stop(unsigned int deviceId, unsigned int channelId);
int prof_channel_poll(struct prof_poll_info* out, int num, int timeoutSec);
int prof_channel_read(unsigned int deviceId, unsigned int channelId, char* buf, unsigned int bufSize);
int halProfDataFlush(unsigned int deviceId, unsigned int channelId, unsigned int* dataLen);

#ifdef __cplusplus
} /* extern "C" */
static_assert(sizeof(channel_list_t) == 6408, "channel_list_t is 6408 bytes");
static_assert(sizeof(prof_start_para_t) == 32, "prof_start_para_t is 32 bytes");
static_assert(sizeof(TsTsFwProfileConfig) == 36, "TsTsFwProfileConfig is 36 bytes");
static_assert(sizeof(StarsSocLogConfig) == 44, "StarsSocLogConfig is 44 bytes");
#endif

#endif /* SEAM_HAL_H */
