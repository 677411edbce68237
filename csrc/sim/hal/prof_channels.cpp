// The profiling-channel functions of the simulated driver, over the core's ChannelHub.
#include <cstring>

#include "core/device.h"
#include "core/fault_plan.h"
#include "core/log.h"
#include "core/platform.h"
#include "seam/device_log.h"
#include "seam/hal.h"

using npusim::Platform;

NPUSIM_C_EXPORT int prof_drv_get_channels(unsigned int deviceId, channel_list_t* channels) {
    NPUSIM_FAULT_RETURN_ARGS("prof_drv_get_channels", int, deviceId, channels);
    Platform& p = Platform::instance();
    npusim::Device* dev = p.device(deviceId);
    if (dev == nullptr || channels == nullptr) return PROF_ERROR;
    std::memset(channels, 0, sizeof *channels);
    channels->chip_type = dev->soc().chip_type;
    static const struct {
        const char* name;
        unsigned int id;
    } kOffered[] = {{"tsfw", PROF_CHANNEL_TS_FW},
                    {"stars_soc_log_buffer", PROF_CHANNEL_STARS_SOC_LOG},
                    {"ffts_profile_buffer_task", PROF_CHANNEL_FFTS_PROFILE}};
    for (const auto& c : kOffered) {
        // Chip type 15's PMU records have another layout, which the model does not write.
        if (c.id == PROF_CHANNEL_FFTS_PROFILE && dev->wide_task_ids()) continue;
        channel_info& info = channels->channel[channels->channel_num++];
        std::strncpy(info.channel_name, c.name, sizeof info.channel_name - 1);
        info.channel_type = PROF_TS_TYPE;
        info.channel_id = c.id;
    }
    return PROF_OK;
}

NPUSIM_C_EXPORT int prof_drv_start(unsigned int deviceId, unsigned int channelId, struct prof_start_para* para) {
    NPUSIM_FAULT_RETURN_ARGS("prof_drv_start", int, deviceId, channelId, para);
    if (para == nullptr || (para->user_data_size > 0 && para->user_data == nullptr)) return PROF_ERROR;
    // The configuration block selects what a real device records; the model records every task. On
    // channel 53 it names the PMU events the records count (FftsProfileConfig); none: they count 0.
    if (channelId == PROF_CHANNEL_FFTS_PROFILE) {
        npusim::Device* dev = Platform::instance().device(deviceId);
        if (dev == nullptr || dev->wide_task_ids()) return PROF_ERROR;
        if (para->user_data_size != 0 && para->user_data_size != sizeof(FftsProfileConfig)) return PROF_ERROR;
        FftsProfileConfig config{};
        if (para->user_data_size != 0) std::memcpy(&config, para->user_data, sizeof config);
        dev->program_pmu(config.aicEvents, config.aivEvents);
    }
    return Platform::instance().channels().start(deviceId, channelId);
}

NPUSIM_C_EXPORT int prof_stop(unsigned int deviceId, unsigned int channelId) {
    NPUSIM_FAULT_RETURN_ARGS("prof_stop", int, deviceId, channelId);
    return Platform::instance().channels().stop(deviceId, channelId);
}

NPUSIM_C_EXPORT int prof_channel_poll(struct prof_poll_info* out, int num, int timeoutSec) {
    NPUSIM_FAULT_RETURN_ARGS("prof_channel_poll", int, out, num, timeoutSec);
    return Platform::instance().channels().poll(out, num, timeoutSec);
}

NPUSIM_C_EXPORT int prof_channel_read(unsigned int deviceId, unsigned int channelId, char* buf, unsigned int bufSize) {
    const npusim::FaultDecision fault = NPUSIM_FAULT_ARGS("prof_channel_read", deviceId, channelId, buf, bufSize);
    if (fault.fail) return static_cast<int>(fault.error);
    const unsigned int limit = bufSize < fault.short_bytes ? bufSize : fault.short_bytes;
    const int n = Platform::instance().channels().read(deviceId, channelId, buf, limit);
    if (n > 0 && fault.garble) npusim::garble_bytes(buf, static_cast<size_t>(n), fault.garble_seed);
    return n;
}

NPUSIM_C_EXPORT int halProfDataFlush(unsigned int deviceId, unsigned int channelId, unsigned int* dataLen) {
    NPUSIM_FAULT_RETURN_ARGS("halProfDataFlush", int, deviceId, channelId, dataLen);
    return Platform::instance().channels().flush(deviceId, channelId, dataLen);
}
