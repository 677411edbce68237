// Correlation ids (activity/correlation.h): scopes and their nesting, implicit groups of tracks
// outside any scope, the API-report rule (earliest call inside the report, a kernel's call first;
// whole intervals, so a call that ends where a report begins is not its), launch scopes and the
// ring of recent calls. Each case runs on a thread of its own (the state is per thread), with a
// fake CANN clock and EXTERNAL_CORRELATION reports caught by a stand-in for external_correlation.cpp.
#include "activity/correlation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace mspti::activity {

std::vector<uint64_t> g_reported;  // ids given to ReportExternalCorrelation

void ReportExternalCorrelation(uint64_t correlation_id) { g_reported.push_back(correlation_id); }

namespace {

uint64_t g_now = 0;
uint64_t Clock() { return g_now; }

// Runs `body` on a new thread (fresh thread-local state), then joins it.
void OnNewThread(const std::function<void()>& body) {
    std::thread thread(body);
    thread.join();
}

TEST(Correlation, ScopesNestAndRestore) {
    OnNewThread([] {
        EXPECT_EQ(CurrentScopeId(), 0u);
        EXPECT_TRUE(CurrentScopeTracked());
        g_now = 100;
        CorrelationScope outer(&Clock);
        EXPECT_EQ(CurrentScopeId(), outer.id());
        EXPECT_FALSE(CurrentScopeTracked());
        {
            CorrelationScope inner(&Clock);
            EXPECT_GT(inner.id(), outer.id());
            EXPECT_EQ(CorrelationForTrack(110), inner.id());
            EXPECT_TRUE(CurrentScopeTracked());
            EXPECT_EQ(CorrelationForApi(105, 115), inner.id());
        }
        EXPECT_EQ(CurrentScopeId(), outer.id());
        EXPECT_FALSE(CurrentScopeTracked());  // the inner call's track was the inner call's
        EXPECT_EQ(CorrelationForCopyTrack(120), outer.id());
        EXPECT_FALSE(CurrentScopeTracked());  // a copy's track is not a kernel's
    });
}

TEST(Correlation, TracksOutsideAScopeFormAGroupUntilAReport) {
    OnNewThread([] {
        const uint64_t group = CorrelationForTrack(1000);
        EXPECT_EQ(CorrelationForTrack(1010), group);
        EXPECT_TRUE(ReportAwaited());
        // The report of the call that launched them contains the first track: it is the group's.
        EXPECT_EQ(ClaimApi(990, 1020), group);
        EXPECT_FALSE(ReportAwaited());
        const uint64_t next = CorrelationForTrack(1030);
        EXPECT_GT(next, group);
    });
}

TEST(Correlation, AReportTakesTheEarliestCallInsideItAKernelsFirst) {
    OnNewThread([] {
        uint64_t plain = 0;
        uint64_t launched = 0;
        {
            g_now = 10;
            CorrelationScope call(&Clock);
            plain = call.id();
            g_now = 20;
        }
        {
            g_now = 30;
            CorrelationScope call(&Clock);
            launched = call.id();
            CorrelationForTrack(35);
            g_now = 40;
        }
        EXPECT_EQ(CorrelationForApi(5, 50), launched);
        EXPECT_EQ(CorrelationForApi(5, 25), plain);
        // No call lies inside; the earliest that began inside it.
        EXPECT_EQ(CorrelationForApi(15, 32), launched);
    });
}

TEST(Correlation, ACallEndingWhereAReportBeginsIsNotItsCall) {
    OnNewThread([] {
        uint64_t call_id = 0;
        {
            g_now = 10;
            CorrelationScope call(&Clock);
            call_id = call.id();
            g_now = 20;
        }
        const uint64_t report = CorrelationForApi(20, 30);
        EXPECT_NE(report, call_id);
        EXPECT_GT(report, call_id);
        // The report became a call of its own: a report inside it takes its id.
        EXPECT_EQ(CorrelationForApi(20, 30), report);
    });
}

TEST(Correlation, ALaunchScopeTakesItsFirstReportsInterval) {
    OnNewThread([] {
        uint64_t launch = 0;
        {
            LaunchScope scope;
            launch = CurrentScopeId();
            EXPECT_NE(launch, 0u);
            EXPECT_TRUE(ReportAwaited());
            EXPECT_EQ(ClaimApi(200, 210), launch);
            EXPECT_FALSE(ReportAwaited());
            EXPECT_EQ(ClaimApi(500, 600), launch);  // later reports inside the scope change nothing
        }
        EXPECT_EQ(CurrentScopeId(), 0u);
        EXPECT_EQ(CorrelationForApi(190, 220), launch);  // e.g. the operator's node launch around it
    });
}

TEST(Correlation, ALaunchWithoutReportOrTrackIsNotClaimedLater) {
    OnNewThread([] {
        uint64_t launch = 0;
        {
            LaunchScope scope;
            launch = CurrentScopeId();
        }
        const uint64_t report = CorrelationForApi(0, UINT64_MAX - 1);
        EXPECT_NE(report, launch);
    });
}

TEST(Correlation, ALaunchWithoutReportTakesItsTracksTime) {
    OnNewThread([] {
        uint64_t launch = 0;
        {
            LaunchScope scope;
            launch = CurrentScopeId();
            EXPECT_EQ(CorrelationForTrack(700), launch);
        }
        EXPECT_EQ(CorrelationForApi(650, 750), launch);
        EXPECT_NE(CorrelationForApi(701, 750), launch);
    });
}

TEST(Correlation, TheRingForgetsTheOldestCalls) {
    OnNewThread([] {
        std::vector<uint64_t> ids;
        for (uint64_t i = 0; i < detail::kRecentCalls + 1; ++i) {
            g_now = 1000 + 10 * i;
            CorrelationScope call(&Clock);
            ids.push_back(call.id());
            g_now += 5;
        }
        // The ring holds the last kRecentCalls: the second call is still found...
        EXPECT_EQ(CorrelationForApi(1010, 1015), ids[1]);
        // ...the first one's slot was reused: a report around only it finds none and makes a call.
        const uint64_t report = CorrelationForApi(1000, 1005);
        EXPECT_NE(report, ids.front());
        EXPECT_GT(report, ids.back());
    });
}

TEST(Correlation, EachIdIsReportedAsExternalCorrelationWhileThatKindIsOn) {
    g_reported.clear();
    Kinds().Set(MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, true);
    const uint64_t first = AllocateCorrelationId();
    const uint64_t second = AllocateCorrelationId();
    Kinds().Set(MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, false);
    const uint64_t third = AllocateCorrelationId();
    EXPECT_EQ(second, first + 1);
    EXPECT_EQ(third, second + 1);
    EXPECT_EQ(g_reported, (std::vector<uint64_t>{first, second}));
}

TEST(Correlation, IdsAreUniqueAcrossThreads) {
    std::vector<uint64_t> a;
    std::vector<uint64_t> b;
    std::thread ta([&] {
        for (int i = 0; i < 1000; ++i) a.push_back(AllocateCorrelationId());
    });
    std::thread tb([&] {
        for (int i = 0; i < 1000; ++i) b.push_back(AllocateCorrelationId());
    });
    ta.join();
    tb.join();
    std::vector<uint64_t> all = a;
    all.insert(all.end(), b.begin(), b.end());
    std::sort(all.begin(), all.end());
    EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
    EXPECT_NE(all.front(), 0u);
}

}  // namespace
}  // namespace mspti::activity
