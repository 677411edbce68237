// msPTI's device-channel parsers fed arbitrary STARS (channel 50) and TS_FW (channel 44) byte
// streams, through the seam: msPTI is subscribed with the device kinds on, so it polls and reads
// the simulated driver's channels; the input's bytes are written into those channels with the
// simulator core's ChannelHub::push, in chunks the reader may see partially, optionally with the
// driver's reads cut short (fault plan "prof_channel_read:short=N").
//
// Input: [flags][short][launches][garble][chunks: (length, bytes)...]
//   flags bits 0-1: channel 50, 44, or both (chunks alternate); bit 2: short reads;
//   bit 3: real kernels launched before the bytes; bit 4: a second real phase whose reads the
//   fault plan garbles ("prof_channel_read:garble@every=N").
// After the bytes each channel is padded with zeros to a whole number of records (so inputs
// stay independent), and FlushAll drains them. Then a clean real phase (kernel launches, a
// device marker) must be accounted: KERNEL records delivered + dropped >= launches.
// Failures: crashes and sanitizer reports, hangs (libFuzzer -timeout), accounting mismatches,
// and buffer-contract violations. Each input runs in its own subscription (unsubscribing stops the
// channels and drops what is left), so an input replays alone exactly as it ran in the campaign.
//
// NPU_SIM_SOC selects the chip: e.g. Ascend910B1 (64-byte STARS logs) or Ascend950PR_950z
// (chip type 15: 32-byte logs, wide task ids).
#include <thread>

#include "core/channels.h"
#include "core/fault_plan.h"
#include "core/platform.h"
#include "fuzz_support.h"
#include "mstx/ms_tools_ext.h"
#include "seam/device_log.h"

namespace {

using fuzz::Collector;
using fuzz::Input;
using fuzz::kKinds;
using fuzz::Runtime;

constexpr uint32_t kStars = PROF_CHANNEL_STARS_SOC_LOG;
constexpr uint32_t kTsFw = PROF_CHANNEL_TS_FW;

size_t g_stars_record = sizeof(StarsSocLog);
msptiSubscriberHandle g_subscriber = nullptr;

void SetPlan(const std::string& plan) {
    std::string error;
    FUZZ_CHECK(npusim::set_fault_plan(plan, error), "fault plan '%s': %s", plan.c_str(), error.c_str());
}

void Push(uint32_t channel, const uint8_t* data, size_t len) {
    if (len == 0) return;
    const bool pushed = npusim::Platform::instance().channels().push(0, channel, data, len);
    FUZZ_CHECK(pushed, "channel %u of device 0 is not collecting: nothing would be injected", channel);
    fuzz::Stats::Instance().bytes_injected += len;
}

// Real work whose device records go through the same channels.
void LaunchWork(int launches) {
    Runtime& rt = Runtime::Instance();
    for (int i = 0; i < launches; ++i) FUZZ_CHECK(rt.Launch() == ACL_SUCCESS, "kernel launch failed");
    mstxMarkA("fuzz-device-marker", rt.stream);
    FUZZ_CHECK(aclrtSynchronizeStream(rt.stream) == ACL_SUCCESS, "stream synchronisation failed");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** argv) {
    fuzz::EnsureEnvironment(*argv);
    std::atexit(fuzz::Stats::Print);
    Runtime::Instance();
    FUZZ_EXPECT_RESULT(msptiActivityRegisterCallbacks(Collector::Request, Collector::Complete), MSPTI_SUCCESS);
    for (int k = 1; k < kKinds; ++k)
        FUZZ_EXPECT_RESULT(msptiActivityEnable(static_cast<msptiActivityKind>(k)), MSPTI_SUCCESS);
    npusim::Device* dev = npusim::Platform::instance().device(0);
    FUZZ_CHECK(dev != nullptr, "no device 0");
    if (dev->soc().chip_type == SEAM_CHIP_TYPE_950) g_stars_record = sizeof(StarsSocLogV6);
    std::fprintf(stderr, "channel_bytes: chip type %u, STARS records of %zu bytes\n", dev->soc().chip_type,
                 g_stars_record);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 4) return 0;
    fuzz::Stats::Instance().inputs++;
    Input in(data, size);
    const uint8_t flags = in.u8();
    const uint8_t short_sel = in.u8();
    const int launches = in.u8() % 5;
    const uint8_t garble_every = static_cast<uint8_t>(1 + in.u8() % 8);

    FUZZ_EXPECT_RESULT(msptiSubscribe(&g_subscriber, nullptr, nullptr), MSPTI_SUCCESS);
    auto& hub = npusim::Platform::instance().channels();
    FUZZ_CHECK(hub.active(0, kStars) && hub.active(0, kTsFw), "msPTI did not start channels 44 and 50 of device 0");
    FUZZ_EXPECT_RESULT(msptiActivityFlushAll(0), MSPTI_SUCCESS);

    // Phase 1: the input's bytes (optionally behind real records), read with short reads.
    const std::string short_plan =
        (flags & 4) ? "prof_channel_read:short=" + std::to_string(1 + short_sel % 130) : std::string();
    SetPlan(short_plan);
    if (flags & 8) {
        Runtime& rt = Runtime::Instance();
        for (int i = 0; i < launches; ++i) (void)rt.Launch();
    }
    size_t pushed[2] = {0, 0};  // stars, tsfw
    const int channels = flags & 3;
    int chunk = 0;
    while (!in.empty()) {
        const std::vector<uint8_t> bytes = in.bytes(255);
        const bool to_stars = channels == 0 || (channels >= 2 && chunk % 2 == 0);
        Push(to_stars ? kStars : kTsFw, bytes.data(), bytes.size());
        pushed[to_stars ? 0 : 1] += bytes.size();
        ++chunk;
        if (chunk % 3 == 0) std::this_thread::yield();  // let the reader see a part
    }
    // Whole records again, so the next input starts on a record boundary.
    const size_t record[2] = {g_stars_record, sizeof(TsStepTrace)};
    const uint32_t channel_id[2] = {kStars, kTsFw};
    for (int c = 0; c < 2; ++c) {
        const size_t rest = pushed[c] % record[c];
        if (rest != 0) {
            const std::vector<uint8_t> zeros(record[c] - rest, 0);
            Push(channel_id[c], zeros.data(), zeros.size());
        }
    }
    if (flags & 8) FUZZ_CHECK(aclrtSynchronizeStream(Runtime::Instance().stream) == ACL_SUCCESS, "sync failed");
    FUZZ_EXPECT_RESULT(msptiActivityFlushAll(0), MSPTI_SUCCESS);

    // Phase 2 (optional): real work whose reads are garbled; only robustness is checked.
    if (flags & 16) {
        SetPlan(short_plan + ";prof_channel_read:garble@every=" + std::to_string(garble_every));
        LaunchWork(launches);
        FUZZ_EXPECT_RESULT(msptiActivityFlushAll(0), MSPTI_SUCCESS);
    }

    // Phase 3: clean real work after the garbage; every kernel is delivered or counted.
    SetPlan(short_plan);
    fuzz::Window window;
    LaunchWork(launches);
    uint64_t expected[kKinds] = {};
    bool tracked[kKinds] = {};
    bool exact[kKinds] = {};
    expected[MSPTI_ACTIVITY_KIND_KERNEL] = static_cast<uint64_t>(launches);
    tracked[MSPTI_ACTIVITY_KIND_KERNEL] = true;
    window.Check(expected, tracked, exact, "kernels after injected channel bytes");
    SetPlan("");
    FUZZ_EXPECT_RESULT(msptiUnsubscribe(g_subscriber), MSPTI_SUCCESS);
    return 0;
}
