// Shared pieces of the fuzz targets: input decoding, failure reporting, the process
// environment, a checking buffer collector with per-kind accounting, and the simulated
// runtime objects (device, stream, kernel) the workloads use.
//
// A failed check prints "FUZZ-FAILURE: <what>" and aborts, so libFuzzer saves the input as a
// crash artifact; the campaign runner (fuzz/campaign.py) copies it to fuzz/crashes/.
#pragma once

#include <dlfcn.h>
#include <unistd.h>

#include <acl/acl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <thread>
#include <vector>

#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"
#include "mspti_schema/record_schema.h"

namespace fuzz {

// ---------------------------------------------------------------------------------------------
// Failures

[[noreturn]] inline void Fail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
inline void Fail(const char* fmt, ...) {
    std::va_list ap;
    va_start(ap, fmt);
    std::fputs("FUZZ-FAILURE: ", stderr);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    std::fflush(stderr);
    va_end(ap);
    std::abort();
}

#define FUZZ_CHECK(cond, fmt, ...)                                                              \
    do {                                                                                        \
        if (!(cond)) ::fuzz::Fail("%s:%d: %s: " fmt, __FILE__, __LINE__, #cond, ##__VA_ARGS__); \
    } while (0)

// Checks that an msPTI call returned the documented result.
#define FUZZ_EXPECT_RESULT(call, expected)                                                                           \
    do {                                                                                                             \
        const msptiResult fuzz_got_ = (call);                                                                        \
        const msptiResult fuzz_want_ = (expected);                                                                   \
        if (fuzz_got_ != fuzz_want_)                                                                                 \
            ::fuzz::Fail("%s:%d: %s returned %d (%s), documented %d (%s)", __FILE__, __LINE__, #call,                \
                         static_cast<int>(fuzz_got_), msptiResultGetString(fuzz_got_), static_cast<int>(fuzz_want_), \
                         msptiResultGetString(fuzz_want_));                                                          \
    } while (0)

// ---------------------------------------------------------------------------------------------
// Input decoding: every read succeeds (zeros once the input is used up).

class Input {
public:
    Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    bool empty() const { return pos_ >= size_; }
    size_t remaining() const { return empty() ? 0 : size_ - pos_; }

    uint8_t u8() { return empty() ? 0 : data_[pos_++]; }
    uint16_t u16() { return static_cast<uint16_t>(u8() | (u8() << 8)); }
    uint32_t u32() { return static_cast<uint32_t>(u16()) | (static_cast<uint32_t>(u16()) << 16); }
    uint64_t u64() { return static_cast<uint64_t>(u32()) | (static_cast<uint64_t>(u32()) << 32); }
    bool flag() { return (u8() & 1) != 0; }

    // An enum-like value: mostly from [lo, hi], sometimes any 32-bit value (sweeps both).
    int32_t choice(int32_t lo, int32_t hi) {
        const uint8_t sel = u8();
        if (sel >= 0xF0) return static_cast<int32_t>(u32());
        if (sel >= 0xE0) return (sel & 1) ? lo - 1 : hi + 1;
        return lo + static_cast<int32_t>(sel % static_cast<uint32_t>(hi - lo + 1));
    }

    // Up to `max` raw bytes (any values, NUL included).
    std::vector<uint8_t> bytes(size_t max) {
        const size_t n = std::min<size_t>(u8() % (max + 1), remaining());
        std::vector<uint8_t> out(data_ + pos_, data_ + pos_ + n);
        pos_ += n;
        return out;
    }

    // A C string: short ASCII, raw non-UTF-8 bytes, or long (around the 255-byte name limit).
    std::string text() {
        const uint8_t sel = u8();
        std::string s;
        if (sel < 0xC0) {
            const size_t n = std::min<size_t>(sel % 24, remaining());
            for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(u8()));
        } else {
            static const size_t kLengths[] = {253, 254, 255, 256, 300, 1000, 4096, 70000};
            const size_t n = kLengths[sel % 8];
            const uint8_t fill = u8();
            for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(fill ? fill : 'x'));
        }
        const size_t nul = s.find('\0');
        if (nul != std::string::npos) s.resize(nul);
        return s;
    }

private:
    const uint8_t* data_;
    size_t size_;
    size_t pos_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Environment: the simulator reads NPU_SIM_* and msPTI reads ASCEND_HOME_PATH when they load,
// so a target started without them re-executes itself once with them set. Running a target
// binary by hand on a crash file therefore reproduces the campaign's conditions.

inline std::string LibraryDir() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&msptiActivityEnable), &info) == 0 || info.dli_fname == nullptr) return ".";
    std::string path = info.dli_fname;
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

inline void EnsureEnvironment(char** argv) {
    if (std::getenv("MSPTI_FUZZ_ENV") != nullptr) return;
    const std::string lib64 = LibraryDir();
    const std::string home = lib64.substr(0, lib64.rfind('/'));
    setenv("ASCEND_HOME_PATH", home.c_str(), 1);
    const char* ld = std::getenv("LD_LIBRARY_PATH");
    setenv("LD_LIBRARY_PATH", (lib64 + (ld != nullptr && *ld ? ":" + std::string(ld) : "")).c_str(), 1);
    setenv("MSTX_INJECTION_PATH", (lib64 + "/libprofapi.so").c_str(), 1);
    setenv("NPU_SIM_CLOCK", "virtual", 0);
    setenv("NPU_SIM_LOG_LEVEL", "off", 0);
    setenv("MSPTI_FUZZ_ENV", "1", 1);
    execv("/proc/self/exe", argv);
    Fail("cannot re-execute with the fuzz environment: %s", std::strerror(errno));
}

// ---------------------------------------------------------------------------------------------
// Record sizes, from the record schema (whose static_asserts check them against the public header).

inline size_t RecordSize(int32_t kind) { return mspti_schema::RecordSize(kind); }

constexpr int kKinds = MSPTI_ACTIVITY_KIND_COUNT;  // slots 1..13 used

// ---------------------------------------------------------------------------------------------
// Collector: hands out heap buffers of exactly the announced size (so ASan catches any write
// past it), checks every completed buffer (requested before, completed once, same size,
// validSize <= size, whole records back to back at the header's sizes) and counts the records
// per kind. The buffer policy is switchable at any time.

enum class BufferPolicy : uint8_t { Normal, Small, Decline, Tiny, MaxRecords, Count };

struct Counts {
    uint64_t by_kind[kKinds] = {};
    uint64_t total() const {
        uint64_t t = 0;
        for (uint64_t v : by_kind) t += v;
        return t;
    }
};

class Collector {
public:
    static Collector& Instance() {
        static Collector* c = new Collector();  // used by msPTI threads until exit
        return *c;
    }

    static void Request(uint8_t** buffer, size_t* size, size_t* max_records) {
        Instance().OnRequest(buffer, size, max_records);
    }
    static void Complete(uint8_t* buffer, size_t size, size_t valid) { Instance().OnComplete(buffer, size, valid); }

    void SetPolicy(BufferPolicy p, size_t param = 0) {
        std::lock_guard<std::mutex> lock(mutex_);
        policy_ = p;
        param_ = param;
    }

    Counts Delivered() {
        std::lock_guard<std::mutex> lock(mutex_);
        return delivered_;
    }
    uint64_t Requests() { return requests_.load(); }
    uint64_t Completes() { return completes_.load(); }
    uint64_t DeliveredTotal() { return delivered_total_.load(); }

private:
    void OnRequest(uint8_t** buffer, size_t* size, size_t* max_records) {
        FUZZ_CHECK(buffer != nullptr && size != nullptr && max_records != nullptr,
                   "RequestFunc got a NULL out-pointer");
        requests_.fetch_add(1);
        std::lock_guard<std::mutex> lock(mutex_);
        *buffer = nullptr;
        *size = 0;
        *max_records = 0;
        size_t n = 0;
        switch (policy_) {
            case BufferPolicy::Normal: n = 64 * 1024; break;
            case BufferPolicy::Small: n = 72 + param_ % 512; break;
            case BufferPolicy::Decline: return;
            case BufferPolicy::Tiny: n = 1 + param_ % 23; break;  // smaller than any record
            case BufferPolicy::MaxRecords:
                n = 4096;
                *max_records = 1 + param_ % 5;
                break;
            case BufferPolicy::Count: return;
        }
        auto* b = static_cast<uint8_t*>(std::malloc(n));
        FUZZ_CHECK(b != nullptr, "out of memory");
        std::memset(b, 0xCD, n);
        outstanding_[b] = n;
        *buffer = b;
        *size = n;
    }

    // Reads every string a record points to: they must live as long as the process.
    static size_t TouchStrings(const msptiActivity* record) {
        size_t n = 0;
        auto touch = [&n](const char* s) { n += s != nullptr ? std::strlen(s) : 0; };
        switch (record->kind) {
            case MSPTI_ACTIVITY_KIND_MARKER: {
                const auto* m = reinterpret_cast<const msptiActivityMarker*>(record);
                touch(m->name), touch(m->domain);
                break;
            }
            case MSPTI_ACTIVITY_KIND_KERNEL: {
                const auto* k = reinterpret_cast<const msptiActivityKernel*>(record);
                touch(k->type), touch(k->name);
                break;
            }
            case MSPTI_ACTIVITY_KIND_API:
            case MSPTI_ACTIVITY_KIND_ACL_API:
            case MSPTI_ACTIVITY_KIND_NODE_API:
            case MSPTI_ACTIVITY_KIND_RUNTIME_API: touch(reinterpret_cast<const msptiActivityApi*>(record)->name); break;
            case MSPTI_ACTIVITY_KIND_HCCL: {
                const auto* h = reinterpret_cast<const msptiActivityHccl*>(record);
                touch(h->name), touch(h->commName);
                break;
            }
            case MSPTI_ACTIVITY_KIND_COMMUNICATION: {
                const auto* c = reinterpret_cast<const msptiActivityCommunication*>(record);
                touch(c->algType), touch(c->name), touch(c->commName);
                break;
            }
            default: break;
        }
        return n;
    }

    void OnComplete(uint8_t* buffer, size_t size, size_t valid) {
        completes_.fetch_add(1);
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = outstanding_.find(buffer);
        FUZZ_CHECK(it != outstanding_.end(), "CompleteFunc got buffer %p that was not handed out (or twice)",
                   static_cast<void*>(buffer));
        FUZZ_CHECK(it->second == size, "CompleteFunc size %zu, requested %zu", size, it->second);
        FUZZ_CHECK(valid <= size, "validSize %zu > size %zu", valid, size);
        outstanding_.erase(it);
        msptiActivity* record = nullptr;
        size_t walked = 0;
        msptiResult rc;
        while ((rc = msptiActivityGetNextRecord(buffer, valid, &record)) == MSPTI_SUCCESS) {
            const size_t offset = static_cast<size_t>(reinterpret_cast<uint8_t*>(record) - buffer);
            FUZZ_CHECK(offset == walked, "record at offset %zu, expected %zu", offset, walked);
            int32_t kind = 0;
            std::memcpy(&kind, record, sizeof kind);
            const size_t rs = RecordSize(kind);
            FUZZ_CHECK(rs != 0, "record of unknown kind %d", kind);
            walked = offset + rs;
            FUZZ_CHECK(walked <= valid, "record of kind %d ends past validSize", kind);
            TouchStrings(record);
            delivered_.by_kind[kind]++;
            delivered_total_.fetch_add(1);
        }
        FUZZ_CHECK(rc == MSPTI_ERROR_MAX_LIMIT_REACHED, "iteration of a completed buffer ended with %d", rc);
        FUZZ_CHECK(walked == valid, "records cover %zu of %zu valid bytes", walked, valid);
        std::free(buffer);  // msPTI must never touch a completed buffer again (ASan watches)
    }

    std::mutex mutex_;
    BufferPolicy policy_ = BufferPolicy::Normal;
    size_t param_ = 0;
    std::unordered_map<uint8_t*, size_t> outstanding_;
    Counts delivered_;
    std::atomic<uint64_t> requests_{0}, completes_{0}, delivered_total_{0};
};

inline Counts Dropped() {
    Counts c;
    for (int k = 1; k < kKinds; ++k) {
        uint64_t n = 0;
        FUZZ_EXPECT_RESULT(msptiActivityGetDroppedRecords(static_cast<msptiActivityKind>(k), &n), MSPTI_SUCCESS);
        c.by_kind[k] = n;
    }
    return c;
}

inline const char* KindName(int kind) {
    static const char* const kNames[] = {"INVALID",       "MARKER",  "KERNEL",
                                         "API",           "HCCL",    "MEMORY",
                                         "MEMSET",        "MEMCPY",  "EXTERNAL_CORRELATION",
                                         "COMMUNICATION", "ACL_API", "NODE_API",
                                         "RUNTIME_API"};
    return kind >= 0 && kind < kKinds ? kNames[kind] : "?";
}

// ---------------------------------------------------------------------------------------------
// The simulated runtime: one device, one stream, one kernel, and 4 KiB copy buffers for each
// of two workload threads (device and host, source and destination: copies never overlap).

struct Runtime {
    static constexpr size_t kBytes = 4096;
    aclrtStream stream = nullptr;
    aclrtFuncHandle kernel = nullptr;
    void* device_buffer[2] = {};
    std::vector<uint8_t> host_dst[2] = {std::vector<uint8_t>(kBytes), std::vector<uint8_t>(kBytes)};
    std::vector<uint8_t> host_src[2] = {std::vector<uint8_t>(kBytes, 1), std::vector<uint8_t>(kBytes, 2)};

    static Runtime& Instance() {
        static Runtime* r = new Runtime();
        return *r;
    }

    aclError Launch() {
        uint64_t args[2] = {reinterpret_cast<uintptr_t>(device_buffer[0]), kBytes};
        return aclrtLaunchKernel(kernel, 2, args, sizeof args, stream);
    }

private:
    Runtime() {
        FUZZ_CHECK(aclInit(nullptr) == ACL_SUCCESS, "aclInit failed");
        FUZZ_CHECK(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice failed");
        FUZZ_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream failed");
        static const char image[] = "fuzz kernel image";
        aclrtBinHandle bin = nullptr;
        FUZZ_CHECK(aclrtBinaryLoadFromData(image, sizeof image, nullptr, &bin) == ACL_SUCCESS, "binary load failed");
        FUZZ_CHECK(aclrtBinaryGetFunction(bin, "fuzz_kernel", &kernel) == ACL_SUCCESS, "get function failed");
        for (void*& b : device_buffer)
            FUZZ_CHECK(aclrtMalloc(&b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc failed");
    }
};

// Figures printed when the fuzzer exits (the campaign runner collects the "FUZZ-STATS" line).
struct Stats {
    std::atomic<uint64_t> inputs{0}, api_calls{0}, records_expected{0}, records_accounted{0}, bytes_injected{0},
        reports_sent{0}, threaded_inputs{0}, callbacks_paired{0}, exits_withheld{0}, late_flushes{0};
    static Stats& Instance() {
        static Stats* s = new Stats();
        return *s;
    }
    static void Print() {
        Stats& s = Instance();
        Collector& c = Collector::Instance();
        uint64_t dropped = 0;
        msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_INVALID, &dropped);
        std::string by_kind;
        for (int k = 1; k < kKinds; ++k) {
            uint64_t n = 0;
            msptiActivityGetDroppedRecords(static_cast<msptiActivityKind>(k), &n);
            if (n != 0) by_kind += (by_kind.empty() ? "" : ",") + std::string(KindName(k)) + ":" + std::to_string(n);
        }
        std::fprintf(
            stderr,
            "FUZZ-STATS inputs=%llu api_calls=%llu threaded_inputs=%llu records_expected=%llu "
            "records_accounted=%llu records_delivered=%llu records_dropped=%llu buffers_requested=%llu "
            "buffers_completed=%llu bytes_injected=%llu reports_sent=%llu callbacks_paired=%llu exits_withheld=%llu "
            "late_flushes=%llu dropped_by_kind=%s\n",
            static_cast<unsigned long long>(s.inputs.load()), static_cast<unsigned long long>(s.api_calls.load()),
            static_cast<unsigned long long>(s.threaded_inputs.load()),
            static_cast<unsigned long long>(s.records_expected.load()),
            static_cast<unsigned long long>(s.records_accounted.load()),
            static_cast<unsigned long long>(c.DeliveredTotal()), static_cast<unsigned long long>(dropped),
            static_cast<unsigned long long>(c.Requests()), static_cast<unsigned long long>(c.Completes()),
            static_cast<unsigned long long>(s.bytes_injected.load()),
            static_cast<unsigned long long>(s.reports_sent.load()),
            static_cast<unsigned long long>(s.callbacks_paired.load()),
            static_cast<unsigned long long>(s.exits_withheld.load()),
            static_cast<unsigned long long>(s.late_flushes.load()), by_kind.empty() ? "-" : by_kind.c_str());
    }
};

// Per-kind accounting over a window: records delivered + dropped must cover what was produced.
class Window {
public:
    Window() : delivered_(Collector::Instance().Delivered()), dropped_(Dropped()) {}

    // Flushes, then checks every tracked kind: delivered + dropped >= expected (== when exact).
    void Check(const uint64_t (&expected)[kKinds], const bool (&tracked)[kKinds], const bool (&exact)[kKinds],
               const char* what) {
        FUZZ_EXPECT_RESULT(msptiActivityFlushAll(0), MSPTI_SUCCESS);
        // FlushAll waits at most 50 ms for a device channel that msPTI's reader thread is reading;
        // then the reader's records follow later (docs/mspti-deviations.md §1, FlushAll). A slow
        // reader (short driver reads, a TSan build) can take longer, so KERNEL records still missing
        // get up to 5 s of further flushes; host records get none (FlushAll delivers them all).
        // Measured with 2-byte reads delayed 2 ms each: the records came 150-250 ms later.
        for (int round = 0; round < 100 && KernelsShort(expected, tracked); ++round) {
            if (round == 0) Stats::Instance().late_flushes++;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            FUZZ_EXPECT_RESULT(msptiActivityFlushAll(0), MSPTI_SUCCESS);
        }
        const Counts delivered = Collector::Instance().Delivered();
        const Counts dropped = Dropped();
        for (int k = 1; k < kKinds; ++k) {
            if (!tracked[k]) continue;
            const uint64_t got_delivered = delivered.by_kind[k] - delivered_.by_kind[k];
            const uint64_t got_dropped = dropped.by_kind[k] - dropped_.by_kind[k];
            const uint64_t accounted = got_delivered + got_dropped;
            Stats::Instance().records_expected += expected[k];
            Stats::Instance().records_accounted += accounted;
            if (accounted < expected[k] || (exact[k] && accounted != expected[k])) {
                Fail("accounting mismatch (%s) for %s: produced %llu, delivered %llu + dropped %llu", what, KindName(k),
                     static_cast<unsigned long long>(expected[k]), static_cast<unsigned long long>(got_delivered),
                     static_cast<unsigned long long>(got_dropped));
            }
        }
    }

private:
    bool KernelsShort(const uint64_t (&expected)[kKinds], const bool (&tracked)[kKinds]) const {
        constexpr int k = MSPTI_ACTIVITY_KIND_KERNEL;
        if (!tracked[k]) return false;
        const uint64_t accounted = Collector::Instance().Delivered().by_kind[k] - delivered_.by_kind[k] +
                                   Dropped().by_kind[k] - dropped_.by_kind[k];
        return accounted < expected[k];
    }

    Counts delivered_;
    Counts dropped_;
};

}  // namespace fuzz
