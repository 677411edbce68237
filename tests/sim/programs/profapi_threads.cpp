// Reports from 8 threads x 100k calls: every report is delivered exactly once on
// its own thread, or counted as not collected when no callback is registered.
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "profapi/profapi_internal.h"
#include "seam/profapi.h"

namespace {

constexpr int kThreads = 8;
constexpr int kPerThread = 100000;  // a quarter of them of each report kind

std::atomic<uint64_t> g_calls[4];
std::atomic<uint64_t> g_wrong_thread{0};

uint32_t tid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

void check(uint32_t reported) {
    if (reported != tid()) g_wrong_thread.fetch_add(1, std::memory_order_relaxed);
}
int32_t on_api(uint32_t, const MsprofApi* api) {
    check(api->threadId);
    g_calls[0].fetch_add(1, std::memory_order_relaxed);
    return 0;
}
int32_t on_event(uint32_t, const MsprofEvent* event) {
    check(event->threadId);
    g_calls[1].fetch_add(1, std::memory_order_relaxed);
    return 0;
}
int32_t on_compact(uint32_t, const void* data, uint32_t) {
    check(static_cast<const MsprofCompactInfo*>(data)->threadId);
    g_calls[2].fetch_add(1, std::memory_order_relaxed);
    return 0;
}
int32_t on_additional(uint32_t, const void* data, uint32_t) {
    check(static_cast<const MsprofAdditionalInfo*>(data)->threadId);
    g_calls[3].fetch_add(1, std::memory_order_relaxed);
    return 0;
}

// Returns how many reports failed.
uint64_t run_threads(double& ns_per_report) {
    std::atomic<uint64_t> failures{0};
    std::vector<std::thread> threads;
    const auto begin = std::chrono::steady_clock::now();
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&failures] {
            MsprofApi api{};
            MsprofEvent event{};
            MsprofCompactInfo compact{};
            MsprofAdditionalInfo additional{};
            api.threadId = event.threadId = compact.threadId = additional.threadId = tid();
            uint64_t failed = 0;
            for (int i = 0; i < kPerThread; ++i) {
                int32_t rc = 0;
                switch (i & 3) {
                    case 0: rc = MsprofReportApi(1, &api); break;
                    case 1: rc = MsprofReportEvent(1, &event); break;
                    case 2: rc = MsprofReportCompactInfo(1, &compact, sizeof compact); break;
                    default: rc = MsprofReportAdditionalInfo(1, &additional, sizeof additional); break;
                }
                if (rc != 0) ++failed;
            }
            failures.fetch_add(failed);
        });
    }
    for (auto& th : threads) th.join();
    const auto elapsed = std::chrono::steady_clock::now() - begin;
    ns_per_report = static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()) /
                    (static_cast<double>(kThreads) * kPerThread);
    return failures.load();
}

void print_uncollected(const char* phase) {
    using npusim::profapi::ReportKind;
    using npusim::profapi::uncollected_reports;
    std::printf("%s uncollected api=%llu event=%llu compact=%llu additional=%llu\n", phase,
                static_cast<unsigned long long>(uncollected_reports(ReportKind::Api)),
                static_cast<unsigned long long>(uncollected_reports(ReportKind::Event)),
                static_cast<unsigned long long>(uncollected_reports(ReportKind::Compact)),
                static_cast<unsigned long long>(uncollected_reports(ReportKind::Additional)));
}

int reg(int32_t type, void* cb) { return MsprofRegisterProfileCallback(type, cb, sizeof(void*)); }

}  // namespace

int main() {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    double ns = 0;
    std::printf("bare failures=%llu\n", static_cast<unsigned long long>(run_threads(ns)));
    print_uncollected("bare");
    std::printf("bare ns_per_report=%.1f\n", ns);

    reg(PROFILE_REPORT_API_C_CALLBACK, reinterpret_cast<void*>(on_api));
    reg(PROFILE_REPORT_EVENT_C_CALLBACK, reinterpret_cast<void*>(on_event));
    reg(PROFILE_REPORT_COMPACT_CALLBACK, reinterpret_cast<void*>(on_compact));
    reg(PROFILE_REPORT_ADDITIONAL_CALLBACK, reinterpret_cast<void*>(on_additional));
    npusim::profapi::reset_uncollected_reports();
    std::printf("traced failures=%llu\n", static_cast<unsigned long long>(run_threads(ns)));
    print_uncollected("traced");
    std::printf("traced delivered api=%llu event=%llu compact=%llu additional=%llu wrong_thread=%llu\n",
                static_cast<unsigned long long>(g_calls[0].load()), static_cast<unsigned long long>(g_calls[1].load()),
                static_cast<unsigned long long>(g_calls[2].load()), static_cast<unsigned long long>(g_calls[3].load()),
                static_cast<unsigned long long>(g_wrong_thread.load()));
    std::printf("traced ns_per_report=%.1f\n", ns);
    return 0;
}
