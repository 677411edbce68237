// Device time conversion: a device's counter (SYS_COUNT) against its frequency (DEV_OSC_FREQUE,
// counts per ms) and the host clock at the reference, through a fake driver and a fixed host clock.
#include "device/device_time.h"

#include <gtest/gtest.h>

#include <cstring>

#include "cann/cann_api.h"
#include "common/host_clock.h"

namespace {

// The fake driver behind halGetDeviceInfo.
struct FakeDriver {
    int64_t freq_per_ms = 1000000;
    drvError_t freq_rc = DRV_ERROR_NONE;
    int64_t count = 0;
    drvError_t count_rc = DRV_ERROR_NONE;
};
FakeDriver g_driver;

drvError_t FakeGetDeviceInfo(uint32_t, int32_t module, int32_t info, int64_t* value) {
    if (module != MODULE_TYPE_SYSTEM) return static_cast<drvError_t>(1);
    if (info == INFO_TYPE_DEV_OSC_FREQUE) {
        *value = g_driver.freq_per_ms;
        return g_driver.freq_rc;
    }
    if (info == INFO_TYPE_SYS_COUNT) {
        *value = g_driver.count;
        return g_driver.count_rc;
    }
    return static_cast<drvError_t>(1);
}

// A host clock that stands still: the reference's host time is exactly kHostNs.
constexpr uint64_t kHostNs = 1'700'000'000'000'000'000ULL;
constexpr uint64_t kMonoNs = 5'000'000'000ULL;
uint64_t FixedRealtime() { return kHostNs; }
uint64_t FixedMonoRaw() { return kMonoNs; }
uint64_t FixedCounter() { return 0; }
const mspti::host_clock::Source kFixedClock{FixedRealtime, FixedMonoRaw, FixedCounter};

}  // namespace

// The test's stand-in for the CANN library loader (cann/library_loader.cpp is not linked): the one
// function device_time asks for is the fake driver's.
namespace mspti::seam {
void* LibrarySymbol(CannLibrary lib, const char* name) {
    if (lib == CannLibrary::kHal && std::strcmp(name, "halGetDeviceInfo") == 0) {
        return reinterpret_cast<void*>(&FakeGetDeviceInfo);
    }
    return nullptr;
}
}  // namespace mspti::seam

namespace mspti::seam::device_time {
namespace {

class DeviceTime : public ::testing::Test {
protected:
    void SetUp() override {
        host_clock::SetSource(&kFixedClock);
        g_driver = FakeDriver{};
    }
    void TearDown() override { host_clock::SetSource(nullptr); }
};

TEST_F(DeviceTime, NoReferenceMeansZero) {
    EXPECT_EQ(ToRecordTime(40, 123), 0u);  // never synced
    EXPECT_EQ(ToRecordTime(kMaxDevices, 123), 0u);
    EXPECT_FALSE(Sync(kMaxDevices));
}

TEST_F(DeviceTime, NanosecondCounterIsAnOffset) {
    g_driver.count = 1'000'000;
    ASSERT_TRUE(Sync(1));
    EXPECT_EQ(ToRecordTime(1, 1'000'000), kHostNs);
    EXPECT_EQ(ToRecordTime(1, 1'000'250), kHostNs + 250);
    EXPECT_EQ(ToRecordTime(1, 999'000), kHostNs - 1000);  // before the reference
    uint64_t start = 0, end = 0;
    ToRecordTimes(1, 1'000'010, 1'000'020, &start, &end);
    EXPECT_EQ(start, kHostNs + 10);
    EXPECT_EQ(end, kHostNs + 20);
}

TEST_F(DeviceTime, OtherFrequenciesScale) {
    g_driver.freq_per_ms = 50'000;  // 20 ns per count
    g_driver.count = 7'000;
    ASSERT_TRUE(Sync(2));
    EXPECT_EQ(ToRecordTime(2, 7'000), kHostNs);
    EXPECT_EQ(ToRecordTime(2, 8'000), kHostNs + 20'000);
    EXPECT_EQ(ToRecordTime(2, 6'500), kHostNs - 10'000);
    uint64_t start = 0, end = 0;
    ToRecordTimes(2, 7'001, 7'003, &start, &end);
    EXPECT_EQ(start, kHostNs + 20);
    EXPECT_EQ(end, kHostNs + 60);
}

TEST_F(DeviceTime, MissingFrequencyAssumesNanoseconds) {
    g_driver.freq_rc = static_cast<drvError_t>(1);
    g_driver.count = 100;
    ASSERT_TRUE(Sync(3));
    EXPECT_EQ(ToRecordTime(3, 600), kHostNs + 500);
}

TEST_F(DeviceTime, NoCounterLeavesTheDeviceUnconverted) {
    g_driver.count_rc = static_cast<drvError_t>(1);
    EXPECT_FALSE(Sync(4));
    EXPECT_EQ(ToRecordTime(4, 600), 0u);
}

TEST_F(DeviceTime, ResyncFollowsTheCounter) {
    g_driver.count = 0;
    ASSERT_TRUE(Sync(5));
    g_driver.count = 1'000;  // the counter drifted 1000 ns behind the host clock
    ResyncAll();
    EXPECT_EQ(ToRecordTime(5, 1'000), kHostNs);
}

}  // namespace
}  // namespace mspti::seam::device_time
