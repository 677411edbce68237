// KernelMatcher: joining task tracks (host halves) with device starts and ends by task key, in launch
// order; device halves that come first; graph tasks and their retirement; copies and fills; the rules
// that count lost host halves as dropped (an end without a start, ordering across the task id's wrap,
// age, a synchronised stream, a stopped device); the kind switch and an unknown device time.
//
// Stand-ins (this executable links none of msPTI's buffer, device or CANN code): the buffer manager's
// out-of-line write keeps the records, the drop counter is a plain one, device times are the counts
// (offset 0) on the devices a test gives a reference, CANN's host times are CLOCK_MONOTONIC_RAW ns on
// a fixed host clock whose realtime and monotonic clocks agree, and chips and stream synchronisations
// are tables the tests set.
#include "device/kernel_matcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "activity/buffer_manager.h"
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "cann/name_cache.h"
#include "common/host_clock.h"
#include "device/device_registry.h"
#include "device/device_time.h"
#include "reports/stream_syncs.h"

namespace {

struct Written {
    int64_t kind;
    std::vector<uint8_t> bytes;
    template <typename Record>
    Record As() const {
        Record record{};
        EXPECT_EQ(bytes.size(), sizeof record);
        std::memcpy(&record, bytes.data(), sizeof record);
        return record;
    }
};
std::vector<Written> g_written;
uint32_t g_chips[mspti::seam::devices::kMaxDevices] = {};
std::map<std::pair<uint32_t, uint32_t>, uint64_t> g_synced;  // (device, stream) -> its last sync

constexpr uint64_t kNowNs = 1'000'000'000'000ULL;
uint64_t g_clock_ns = kNowNs;
uint64_t TestClock() { return g_clock_ns; }
uint64_t ZeroCounter() { return 0; }
// Realtime and monotonic-raw agree: CANN's host times and the records' time base are the same numbers.
const mspti::host_clock::Source kTestClock{TestClock, TestClock, ZeroCounter};

}  // namespace

namespace mspti::activity {
BufferManager::BufferManager() {}
bool BufferManager::Write(int64_t kind, const void* record, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(record);
    g_written.push_back(Written{kind, std::vector<uint8_t>(bytes, bytes + size)});
    return true;
}
DropCounter& Drops() {
    static DropCounter drops;
    return drops;
}
}  // namespace mspti::activity

namespace mspti::seam::device_time::detail {
std::atomic<uint64_t> g_ns_offset[kMaxDevices];
uint64_t ToRecordTimeScaled(uint32_t, uint64_t) { return 0; }  // a device with no reference
}  // namespace mspti::seam::device_time::detail

namespace mspti::seam::host_time::detail {
std::atomic<int> g_decided{1};  // host-frequency mode off
bool DecideHostFreq() { return false; }
uint64_t CounterToRecordTime(uint64_t counter) { return counter; }
}  // namespace mspti::seam::host_time::detail

namespace mspti::seam::devices {
uint32_t Chip(uint32_t device) { return device < kMaxDevices ? g_chips[device] : kChipUnknown; }
}  // namespace mspti::seam::devices

namespace mspti::seam::stream_syncs {
uint64_t ById(uint32_t device, uint32_t stream_id) {
    const auto found = g_synced.find({device, stream_id});
    return found == g_synced.end() ? 0 : found->second;
}
}  // namespace mspti::seam::stream_syncs

namespace mspti::seam {
namespace {

using activity::Drops;

constexpr uint32_t kKernelType = 3;
constexpr uint64_t kSecond = 1'000'000'000ULL;

class KernelMatcherTest : public ::testing::Test {
protected:
    void SetUp() override {
        g_written.clear();
        g_synced.clear();
        g_clock_ns = kNowNs;
        host_clock::SetSource(&kTestClock);
        Drops().ResetAfterFork();
        for (auto kind : {MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_MEMCPY, MSPTI_ACTIVITY_KIND_MEMSET}) {
            activity::Kinds().Set(kind, true);
        }
        std::fill(std::begin(g_chips), std::end(g_chips), 5u);  // 16-bit task ids
        g_chips[1] = 15;                                           // 32-bit task ids
        for (uint32_t device = 0; device < 3; ++device) {
            device_time::detail::g_ns_offset[device].store(device_time::detail::kOffsetFlip);  // offset 0
        }
        NameCache::Instance().RegisterType(MSPROF_REPORT_RUNTIME_LEVEL, kKernelType, "KERNEL_AICORE");
        name_ = NameCache::Instance().HashId("MatMul_kernel");
    }
    void TearDown() override {
        host_clock::SetSource(nullptr);
        SetKernelTaskObserver(nullptr);
    }

    TrackEvent Track(uint64_t correlation, uint64_t launch_ns, uint32_t task, uint16_t stream = 2, uint16_t device = 0,
                     bool graph = false, uint16_t blocks = 0) const {
        return TrackEvent{correlation, launch_ns, name_,  kKernelType,
                          task,        device,    stream, static_cast<uint16_t>(graph ? 0 : 1),
                          blocks};
    }
    void Add(const TrackEvent& track) { matcher_.AddTracks(&track, 1); }
    std::vector<msptiActivityKernel> Kernels() const {
        std::vector<msptiActivityKernel> out;
        for (const Written& w : g_written) {
            EXPECT_EQ(w.kind, MSPTI_ACTIVITY_KIND_KERNEL);
            out.push_back(w.As<msptiActivityKernel>());
        }
        return out;
    }
    static uint64_t Lost(msptiActivityKind kind = MSPTI_ACTIVITY_KIND_KERNEL) {
        return Drops().Get(kind, MSPTI_DROP_REASON_DEVICE_HALF_LOST);
    }

    KernelMatcher matcher_;
    uint64_t name_ = 0;
};

TEST_F(KernelMatcherTest, JoinsATrackWithItsDeviceStartAndEnd) {
    Add(Track(7, 1000, 5));
    matcher_.OnTask(0, 2, 5, true, 2000);
    EXPECT_TRUE(g_written.empty());  // a start alone writes nothing
    matcher_.OnTask(0, 2, 5, false, 3000);
    const auto kernels = Kernels();
    ASSERT_EQ(kernels.size(), 1u);
    const msptiActivityKernel& k = kernels[0];
    EXPECT_EQ(k.kind, MSPTI_ACTIVITY_KIND_KERNEL);
    EXPECT_EQ(k.start, 2000u);
    EXPECT_EQ(k.end, 3000u);
    EXPECT_EQ(k.ds.deviceId, 0u);
    EXPECT_EQ(k.ds.streamId, 2u);
    EXPECT_EQ(k.correlationId, 7u);
    EXPECT_STREQ(k.type, "KERNEL_AICORE");
    EXPECT_STREQ(k.name, "MatMul_kernel");
    matcher_.OnTask(0, 2, 5, false, 4000);  // a second end: its track is gone, nothing more is written
    EXPECT_EQ(g_written.size(), 1u);
    EXPECT_EQ(Lost(), 0u);
}

TEST_F(KernelMatcherTest, ASpanIsAStartThenAnEndAndAnEndBeforeItsStartIsClamped) {
    Add(Track(1, 1000, 5));
    matcher_.OnSpan(0, 2, 5, 5000, 4000);
    const auto kernels = Kernels();
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].start, 5000u);
    EXPECT_EQ(kernels[0].end, 5000u);
}

TEST_F(KernelMatcherTest, TracksOfOneKeyJoinInLaunchOrderAndOtherKeysApart) {
    Add(Track(1, 1000, 5));
    Add(Track(2, 1100, 5));
    Add(Track(3, 1200, 6));
    matcher_.OnSpan(0, 2, 6, 1500, 1600);
    matcher_.OnSpan(0, 2, 5, 2000, 2100);
    matcher_.OnSpan(0, 2, 5, 3000, 3100);
    const auto kernels = Kernels();
    ASSERT_EQ(kernels.size(), 3u);
    EXPECT_EQ(kernels[0].correlationId, 3u);
    EXPECT_EQ(kernels[1].correlationId, 1u);
    EXPECT_EQ(kernels[1].start, 2000u);
    EXPECT_EQ(kernels[2].correlationId, 2u);
    EXPECT_EQ(kernels[2].start, 3000u);
}

TEST_F(KernelMatcherTest, ADeviceHalfBeforeItsTrackJoinsWhenTheTrackArrives) {
    matcher_.OnTask(0, 2, 5, true, 2000);
    matcher_.OnTask(0, 2, 5, false, 2500);
    EXPECT_TRUE(g_written.empty());
    Add(Track(4, 1000, 5));
    const auto kernels = Kernels();
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].correlationId, 4u);
    EXPECT_EQ(kernels[0].start, 2000u);
    EXPECT_EQ(kernels[0].end, 2500u);
}

TEST_F(KernelMatcherTest, ADeviceHalfOlderThanTheLaunchIsAnotherTasks) {
    matcher_.OnSpan(0, 2, 5, 1000, 1100);  // a task with the same key, long before the launch
    Add(Track(4, 10 * 1'000'000, 5));       // 10 ms later: beyond the 1 ms slack of the clocks
    EXPECT_TRUE(g_written.empty());
    matcher_.OnSpan(0, 2, 5, 11 * 1'000'000, 12 * 1'000'000);  // its own device half
    const auto kernels = Kernels();
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].start, 11u * 1'000'000);
    // Within the slack (device and host clocks), a device half slightly before the launch is its own.
    matcher_.OnSpan(0, 2, 6, 20 * 1'000'000 - 500'000, 21 * 1'000'000);
    Add(Track(5, 20 * 1'000'000, 6));
    EXPECT_EQ(Kernels().size(), 2u);
}

TEST_F(KernelMatcherTest, AKeyKeepsAtMostFourDeviceHalvesWaiting) {
    for (uint64_t start : {100, 200, 300, 400, 500}) matcher_.OnTask(0, 2, 5, true, start);
    Add(Track(1, 50, 5));  // the oldest kept start is 200: 100 was let go for 500
    matcher_.OnTask(0, 2, 5, false, 600);
    const auto kernels = Kernels();
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].start, 200u);
    EXPECT_EQ(kernels[0].end, 600u);
}

TEST_F(KernelMatcherTest, SweepForgetsDeviceHalvesAfterTwoSeconds) {
    matcher_.OnSpan(0, 2, 5, 1000, 1100);
    matcher_.OnSpan(0, 2, 6, 1000, 1100);
    matcher_.Sweep(kNowNs + 2 * kSecond - 1);  // not yet
    Add(Track(1, 900, 5));
    EXPECT_EQ(Kernels().size(), 1u);
    matcher_.Sweep(kNowNs + 2 * kSecond + 1);
    Add(Track(2, 900, 6));
    EXPECT_EQ(Kernels().size(), 1u);  // forgotten: the track waits
}

TEST_F(KernelMatcherTest, AGraphTaskGivesARecordPerExecutionUntilAnOrdinaryLaunchRetiresIt) {
    Add(Track(9, 1000, 5, 2, 0, /*graph=*/true));
    matcher_.OnSpan(0, 2, 5, 2000, 2100);
    matcher_.OnTask(0, 2, 5, true, 3000);
    matcher_.OnTask(0, 2, 5, false, 3100);
    Add(Track(10, 10'000, 5));                  // reuses the key: the graph's model is gone
    matcher_.OnSpan(0, 2, 5, 5000, 5100);       // began before that launch: still the graph's
    matcher_.OnSpan(0, 2, 5, 20'000, 20'100);   // after it: the new task's
    matcher_.OnSpan(0, 2, 5, 30'000, 30'100);   // nothing waits any more
    const auto kernels = Kernels();
    ASSERT_EQ(kernels.size(), 4u);
    EXPECT_EQ(kernels[0].correlationId, 9u);
    EXPECT_EQ(kernels[1].correlationId, 9u);
    EXPECT_EQ(kernels[1].start, 3000u);
    EXPECT_EQ(kernels[2].correlationId, 9u);
    EXPECT_EQ(kernels[2].start, 5000u);
    EXPECT_EQ(kernels[3].correlationId, 10u);
    EXPECT_EQ(kernels[3].start, 20'000u);
    EXPECT_EQ(Lost(), 0u);  // a graph task is never owed a record
    matcher_.DropDevice(0);
    EXPECT_EQ(Lost(), 0u);
}

TEST_F(KernelMatcherTest, AnEndWithoutAStartLosesTheWaitingKernel) {
    Add(Track(1, 1000, 5));
    matcher_.OnTask(0, 2, 5, false, 2000);
    EXPECT_TRUE(g_written.empty());
    EXPECT_EQ(Lost(), 1u);
    matcher_.OnSpan(0, 2, 5, 3000, 3100);  // the track is gone
    EXPECT_TRUE(g_written.empty());
}

TEST_F(KernelMatcherTest, AKindSwitchedOffOrAnUnknownDeviceTimeIsCountedNotWritten) {
    activity::Kinds().Set(MSPTI_ACTIVITY_KIND_KERNEL, false);
    Add(Track(1, 1000, 5));
    matcher_.OnSpan(0, 2, 5, 2000, 2100);
    EXPECT_EQ(Drops().Get(MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_DROP_REASON_KIND_DISABLED), 1u);
    activity::Kinds().Set(MSPTI_ACTIVITY_KIND_KERNEL, true);
    Add(Track(2, 1000, 5, 2, /*device=*/3));  // device 3 has no time reference
    matcher_.OnSpan(3, 2, 5, 2000, 2100);
    EXPECT_EQ(Lost(), 1u);
    EXPECT_TRUE(g_written.empty());
}

TEST_F(KernelMatcherTest, CopyAndFillTracksGiveMemcpyAndMemsetRecords) {
    matcher_.AddCopyTrack(
        CopyTrackEvent{Track(11, 1000, 5), 4096, MSPTI_ACTIVITY_KIND_MEMCPY, MSPTI_ACTIVITY_MEMCPY_KIND_HTOD, false});
    matcher_.AddCopyTrack(CopyTrackEvent{Track(12, 1000, 6), 128, MSPTI_ACTIVITY_KIND_MEMSET, 7, true});
    matcher_.OnSpan(0, 2, 5, 2000, 2500);
    matcher_.OnSpan(0, 2, 6, 3000, 3500);
    ASSERT_EQ(g_written.size(), 2u);
    ASSERT_EQ(g_written[0].kind, MSPTI_ACTIVITY_KIND_MEMCPY);
    const auto copy = g_written[0].As<msptiActivityMemcpy>();
    EXPECT_EQ(copy.copyKind, MSPTI_ACTIVITY_MEMCPY_KIND_HTOD);
    EXPECT_EQ(copy.bytes, 4096u);
    EXPECT_EQ(copy.start, 2000u);
    EXPECT_EQ(copy.end, 2500u);
    EXPECT_EQ(copy.streamId, 2u);
    EXPECT_EQ(copy.correlationId, 11u);
    EXPECT_EQ(copy.isAsync, 1);
    ASSERT_EQ(g_written[1].kind, MSPTI_ACTIVITY_KIND_MEMSET);
    const auto fill = g_written[1].As<msptiActivityMemset>();
    EXPECT_EQ(fill.value, 7u);
    EXPECT_EQ(fill.bytes, 128u);
    EXPECT_EQ(fill.streamId, MSPTI_INVALID_STREAM_ID);  // a synchronous call's task is no stream work
    EXPECT_EQ(fill.isAsync, 0);
    // A copy's lost device half is counted under its own kind.
    matcher_.AddCopyTrack(
        CopyTrackEvent{Track(13, 1000, 7), 8, MSPTI_ACTIVITY_KIND_MEMCPY, MSPTI_ACTIVITY_MEMCPY_KIND_DTOH, false});
    matcher_.DropDevice(0);
    EXPECT_EQ(Lost(MSPTI_ACTIVITY_KIND_MEMCPY), 1u);
    EXPECT_EQ(Lost(), 0u);
}

TEST_F(KernelMatcherTest, AKernelOvertakenOnItsStreamIsLostAfterOneMoreExpiryPass) {
    Add(Track(1, 1000, 5));
    Add(Track(2, 1100, 6));
    matcher_.OnSpan(0, 2, 6, 2000, 2100);  // the later task ended: task 5 will get no device half
    matcher_.ExpireLost(0, 3000);          // the pass during which it ended leaves it that time
    EXPECT_EQ(Lost(), 0u);
    matcher_.ExpireLost(0, 3000);
    EXPECT_EQ(Lost(), 1u);
    matcher_.OnSpan(0, 2, 5, 1500, 1600);  // too late: it was counted and freed
    EXPECT_EQ(Kernels().size(), 1u);
}

TEST_F(KernelMatcherTest, ATrackReportedAfterTheLaterTaskEndedIsNotOvertaken) {
    // Launched first on another thread, its track came after the later task's end was parsed.
    Add(Track(2, 1100, 6));
    matcher_.OnSpan(0, 2, 6, 2000, 2100);
    Add(Track(1, 1000, 5));
    matcher_.ExpireLost(0, 3000);
    matcher_.ExpireLost(0, 3000);
    EXPECT_EQ(Lost(), 0u);
    matcher_.OnSpan(0, 2, 5, 2200, 2300);
    EXPECT_EQ(Kernels().size(), 2u);
}

TEST_F(KernelMatcherTest, OrderingFollowsTheTaskIdAcrossItsWrapAndStaysOnItsStream) {
    Add(Track(1, 1000, 0xFFFF));  // the last 16-bit id, then the first ones after the wrap
    Add(Track(2, 1100, 0x0001));
    Add(Track(3, 1050, 0x0009, /*stream=*/4));  // another stream: not overtaken
    // An id more than half the id space ahead is behind (the ended task is the older one's past).
    Add(Track(4, 1000, 0x0001, /*stream=*/5));
    Add(Track(5, 1100, 0xFFFF, /*stream=*/5));
    matcher_.OnSpan(0, 2, 0x0001, 2000, 2100);
    matcher_.OnSpan(0, 5, 0xFFFF, 2000, 2100);
    matcher_.ExpireLost(0, 3000);
    matcher_.ExpireLost(0, 3000);
    EXPECT_EQ(Lost(), 1u);
    matcher_.OnSpan(0, 4, 0x0009, 2500, 2600);
    matcher_.OnSpan(0, 5, 0x0001, 2500, 2600);
    const auto kernels = Kernels();
    ASSERT_EQ(kernels.size(), 4u);
    EXPECT_EQ(kernels[2].correlationId, 3u);
    EXPECT_EQ(kernels[3].correlationId, 4u);
}

TEST_F(KernelMatcherTest, AKernelWaitingAMinuteAfterItsLaunchIsLost) {
    Add(Track(1, 5 * kSecond, 5));
    matcher_.ExpireLost(0, 65 * kSecond);  // exactly a minute: not yet
    EXPECT_EQ(Lost(), 0u);
    matcher_.ExpireLost(0, 65 * kSecond + 1);
    EXPECT_EQ(Lost(), 1u);
}

TEST_F(KernelMatcherTest, AKernelOfAStreamSynchronisedBeforeTheFlushIsLost) {
    Add(Track(1, 1000, 5));
    Add(Track(2, 1000, 5, /*stream=*/3));
    g_synced[{0, 2}] = 5000;
    g_synced[{0, 3}] = 500;             // synchronised before the launch: proves nothing
    matcher_.ExpireSynced(0, 4000);     // a flush before the synchronisation began
    EXPECT_EQ(Lost(), 0u);
    matcher_.ExpireSynced(1, 6000);     // another device's flush
    EXPECT_EQ(Lost(), 0u);
    matcher_.ExpireSynced(0, 6000);
    EXPECT_EQ(Lost(), 1u);
    matcher_.OnSpan(0, 3, 5, 7000, 7100);
    EXPECT_EQ(Kernels().size(), 1u);
}

TEST_F(KernelMatcherTest, StoppingADeviceLosesItsWaitingKernelsOnly) {
    Add(Track(1, 1000, 5));
    Add(Track(2, 1000, 6));
    Add(Track(3, 1000, 5, 2, /*device=*/2));
    matcher_.DropDevice(0);
    EXPECT_EQ(Lost(), 2u);
    matcher_.OnSpan(2, 2, 5, 2000, 2100);
    const auto kernels = Kernels();
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].ds.deviceId, 2u);
}

TEST_F(KernelMatcherTest, ChipType15MatchesOnTheWholeTaskIdAloneAndObserversSeeIt) {
    static uint32_t observed_task = 0;
    SetKernelTaskObserver([](const void*, uint32_t task, uint64_t, uint64_t, uint32_t) { observed_task = task; });
    Add(Track(1, 1000, 0x12345, /*stream=*/9, /*device=*/1));  // 32-bit task ids; logs carry no stream
    matcher_.OnSpan(1, 0, 0x12345, 2000, 2100);
    const auto kernels = Kernels();
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].ds.streamId, 9u);  // the track's stream
    EXPECT_EQ(observed_task, 0x12345u);
}

TEST_F(KernelMatcherTest, ObserversSeeTheBlockDimOfEachKernelsTrack) {
    static std::vector<uint32_t> observed;
    observed.clear();
    SetKernelTaskObserver(
        [](const void*, uint32_t, uint64_t, uint64_t, uint32_t blocks) { observed.push_back(blocks); });
    Add(Track(1, 1000, 5, 2, 0, false, /*blocks=*/7));
    Add(Track(2, 1000, 6, 2, 0, false, /*blocks=*/0));  // a track without MsprofKernelInfo
    matcher_.OnSpan(0, 2, 5, 2000, 2100);
    matcher_.OnSpan(0, 2, 6, 2200, 2300);
    EXPECT_EQ(observed, (std::vector<uint32_t>{7, 0}));
}

TEST_F(KernelMatcherTest, ExpandedStreamIdsDecodeTheSameOnBothHalves) {
    // The runtime borrows stream bit 0x1000 to carry task-id bits: stream 0x1002 is stream 2.
    Add(Track(1, 1000, 0x0005, /*stream=*/0x1002));
    matcher_.OnSpan(0, 2, 0x0005, 2000, 2100);
    const auto kernels = Kernels();
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].ds.streamId, 2u);
}

}  // namespace
}  // namespace mspti::seam
