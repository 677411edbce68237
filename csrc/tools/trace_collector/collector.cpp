// The collector: at load it registers buffer callbacks with msPTI, subscribes (device and marker
// records are produced only while a subscriber exists) and enables the configured activity kinds;
// every completed buffer is appended to the capture of the current process with each string
// pointer replaced by its string id. At exit it flushes msPTI and writes the metadata file.
//
// Environment: NPU_SIM_TRACE_DIR (capture directory, default ./npu-sim-trace), NPU_SIM_TRACE_KINDS
// (comma-separated kind names or "all", the default), NPU_SIM_TRACE_SUBSCRIBE=0 (leave the single
// msPTI subscription to the program), NPU_SIM_TRACE_BUFFER_KB (buffer size, default 4096).
//
// Preloaded before libmspti.so (LD_PRELOAD="libnpusim_trace.so libmspti.so"), it also stands in
// for msptiSubscribe: a program whose own subscription is refused because the collector holds the
// only slot is told so on stderr, and the capture's metadata counts it (refused_subscriptions).
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "capture_files.h"
#include "mspti/mspti.h"
#include "mspti_schema/record_schema.h"
#include "string_table.h"
#include "text/json_string.h"

namespace npusim::trace {
namespace {

constexpr uint32_t kFirstKind = MSPTI_ACTIVITY_KIND_MARKER;
constexpr uint32_t kLastKind = MSPTI_ACTIVITY_KIND_RUNTIME_API;
constexpr size_t kKindCount = kLastKind - kFirstKind + 1;
constexpr size_t kDefaultBufferBytes = 4u << 20;

// The layout facts of each kind, from the record schema (whose static_asserts check them against the
// public record types). Trivially destructible on purpose: buffers can still be delivered after this
// library's static objects were destroyed at exit.
struct KindInfo {
    const char* name;
    uint32_t size;
    mspti_schema::StringFields strings;  // the `const char*` fields
};

const KindInfo& Info(uint32_t kind) {
    static constexpr KindInfo kinds[kKindCount] = {
#define NPUSIM_TRACE_KIND(value, name, type, size) \
    {mspti_schema::KindName(value), size, mspti_schema::StringFieldsOf(value)},
        MSPTI_SCHEMA_RECORD_KINDS(NPUSIM_TRACE_KIND)
#undef NPUSIM_TRACE_KIND
    };
    return kinds[kind - kFirstKind];
}

using DroppedFn = msptiResult (*)(msptiActivityKind, uint64_t*);
using SubscribeFn = msptiResult (*)(msptiSubscriberHandle*, msptiCallbackFunc, void*);

// msPTI's msptiSubscribe. This library exports its own msptiSubscribe, which is what the program
// calls when the collector is preloaded before libmspti.so (as the launchers do), so that a
// subscription the collector's refuses is diagnosed; the collector's own call goes to msPTI's.
SubscribeFn RealSubscribe() {
    static const SubscribeFn real = [] {
        auto next = reinterpret_cast<SubscribeFn>(::dlsym(RTLD_NEXT, "msptiSubscribe"));
        if (next == nullptr) next = reinterpret_cast<SubscribeFn>(::dlsym(RTLD_DEFAULT, "msptiSubscribe"));
        return next;
    }();
    return real;
}

class Collector {
public:
    static Collector& Instance() {
        static Collector* collector = new Collector();  // never destroyed: callbacks may come late
        return *collector;
    }

    void Start();
    void Finish();
    void OnBuffer(uint8_t* buffer, size_t valid_size);
    void OnForkChild();
    void OnProgramSubscribe(msptiResult rc);
    size_t buffer_bytes() const { return buffer_bytes_; }

private:
    bool EnsureOpen();  // under mutex_
    void WriteMeta(bool complete);  // under mutex_
    std::string MetaJson(bool complete) const;

    std::mutex mutex_;
    std::string dir_;
    size_t buffer_bytes_ = kDefaultBufferBytes;
    bool enabled_[kKindCount] = {};
    bool subscribe_ = true;
    msptiSubscriberHandle subscriber_ = nullptr;
    CaptureFiles files_;
    StringTable strings_;
    std::vector<uint8_t> staged_[kKindCount];
    uint64_t records_[kKindCount] = {};
    uint64_t buffers_ = 0;
    uint64_t write_errors_ = 0;
    uint64_t unknown_records_ = 0;
    uint64_t refused_subscriptions_ = 0;  // the program's msptiSubscribe calls refused while we held the slot
    bool finished_ = false;
    bool failed_open_ = false;
};

void Warn(const std::string& message) { std::fprintf(stderr, "npu-sim-trace: %s\n", message.c_str()); }

std::string Env(const char* name, const char* fallback) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? value : fallback;
}

std::string JsonOptional(const char* env_name) {
    const char* value = std::getenv(env_name);
    return value != nullptr && *value != '\0' ? npusim::text::json_string(value) : "null";
}

std::string CommandLine() {
    FILE* file = std::fopen("/proc/self/cmdline", "rb");
    if (file == nullptr) return "[]";
    std::string raw;
    char chunk[4096];
    size_t n = 0;
    while ((n = std::fread(chunk, 1, sizeof(chunk), file)) > 0) raw.append(chunk, n);
    std::fclose(file);
    std::string out = "[";
    size_t start = 0;
    while (start < raw.size()) {
        size_t end = raw.find('\0', start);
        if (end == std::string::npos) end = raw.size();
        if (out.size() > 1) out += ", ";
        out += npusim::text::json_string(raw.substr(start, end - start));
        start = end + 1;
    }
    return out + "]";
}

void RequestBuffer(uint8_t** buffer, size_t* size, size_t* max_records) {
    const size_t bytes = Collector::Instance().buffer_bytes();
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, bytes));
    *size = *buffer != nullptr ? bytes : 0;
    *max_records = 0;
}

void CompleteBuffer(uint8_t* buffer, size_t /*size*/, size_t valid_size) {
    Collector::Instance().OnBuffer(buffer, valid_size);
    std::free(buffer);
}

void Collector::Start() {
    dir_ = Env("NPU_SIM_TRACE_DIR", "npu-sim-trace");
    subscribe_ = Env("NPU_SIM_TRACE_SUBSCRIBE", "1") != "0";
    const std::string kb = Env("NPU_SIM_TRACE_BUFFER_KB", "");
    if (!kb.empty()) {
        const long value = std::strtol(kb.c_str(), nullptr, 10);
        if (value >= 4) buffer_bytes_ = static_cast<size_t>(value) * 1024u;
    }
    const std::string kinds = Env("NPU_SIM_TRACE_KINDS", "all");
    size_t start = 0;
    while (start <= kinds.size()) {
        size_t end = kinds.find(',', start);
        if (end == std::string::npos) end = kinds.size();
        std::string token = kinds.substr(start, end - start);
        for (char& c : token) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        bool known = token.empty();
        for (uint32_t kind = kFirstKind; kind <= kLastKind; ++kind) {
            if (token == "all" || token == Info(kind).name) {
                enabled_[kind - kFirstKind] = true;
                known = true;
            }
        }
        if (!known) Warn("ignoring unknown activity kind '" + token + "' in NPU_SIM_TRACE_KINDS");
        start = end + 1;
    }

    msptiResult rc = msptiActivityRegisterCallbacks(&RequestBuffer, &CompleteBuffer);
    if (rc != MSPTI_SUCCESS) {
        Warn("msptiActivityRegisterCallbacks failed (" + std::to_string(rc) + "); nothing is captured");
        return;
    }
    if (subscribe_) {
        const SubscribeFn subscribe = RealSubscribe();
        rc = subscribe != nullptr ? subscribe(&subscriber_, nullptr, nullptr) : MSPTI_ERROR_INNER;
        if (rc != MSPTI_SUCCESS) {
            Warn("msptiSubscribe failed (" + std::to_string(rc) + "); device records may be missing");
            subscriber_ = nullptr;
        }
    }
    for (uint32_t kind = kFirstKind; kind <= kLastKind; ++kind) {
        if (!enabled_[kind - kFirstKind]) continue;
        rc = msptiActivityEnable(static_cast<msptiActivityKind>(kind));
        if (rc != MSPTI_SUCCESS) {
            Warn(std::string("msptiActivityEnable(") + Info(kind).name + ") failed (" + std::to_string(rc) + ")");
        }
    }
    // The files are created with the first delivered buffer: a process that produces no record
    // (a shell that starts the real program, say) leaves no capture behind.
}

void Collector::Finish() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (finished_) return;
    }
    // Disable, unsubscribe, then flush: the flush then delivers every record of finished work.
    for (uint32_t kind = kFirstKind; kind <= kLastKind; ++kind) {
        if (enabled_[kind - kFirstKind]) msptiActivityDisable(static_cast<msptiActivityKind>(kind));
    }
    if (subscriber_ != nullptr) {
        msptiUnsubscribe(subscriber_);
        subscriber_ = nullptr;
    }
    msptiActivityFlushAll(1);
    std::lock_guard<std::mutex> lock(mutex_);
    finished_ = true;
    if (files_.IsOpen() && files_.pid() == ::getpid()) {
        WriteMeta(true);
        files_.Close();
    }
}

bool Collector::EnsureOpen() {
    const pid_t pid = ::getpid();
    if (files_.IsOpen() && files_.pid() == pid) return true;
    if (finished_ && files_.pid() == pid && files_.Reopen()) return true;  // a delivery after the exit flush
    if (failed_open_ && files_.pid() == pid) return false;
    KindSize sizes[kKindCount];
    for (uint32_t kind = kFirstKind; kind <= kLastKind; ++kind) sizes[kind - kFirstKind] = {kind, Info(kind).size};
    if (!files_.Open(dir_, pid, sizes, kKindCount)) {
        failed_open_ = true;
        Warn("cannot write the capture in '" + dir_ + "': " + std::strerror(errno));
        return false;
    }
    failed_open_ = false;
    return true;
}

void Collector::OnForkChild() {
    // The child starts its own capture (trace-<child pid>.*) with its own string ids.
    new (&mutex_) std::mutex();
    files_.Close();
    strings_.Clear();
    for (auto& staged : staged_) staged.clear();
    for (auto& count : records_) count = 0;
    buffers_ = write_errors_ = unknown_records_ = refused_subscriptions_ = 0;
    finished_ = false;
}

void Collector::OnProgramSubscribe(msptiResult rc) {
    if (rc != MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED || subscriber_ == nullptr) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (refused_subscriptions_++ == 0) {
        Warn(
            "the program's msptiSubscribe failed (MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED): the trace "
            "collector holds msPTI's only subscriber slot; capture this program with NPU_SIM_TRACE_SUBSCRIBE=0");
    }
}

void Collector::OnBuffer(uint8_t* buffer, size_t valid_size) {
    if (buffer == nullptr || valid_size == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    const bool first = files_.pid() != ::getpid();
    if (!EnsureOpen()) return;
    if (first) WriteMeta(false);  // "complete": false until the exit flush has run
    ++buffers_;
    msptiActivity* record = nullptr;
    while (true) {
        const msptiResult rc = msptiActivityGetNextRecord(buffer, valid_size, &record);
        if (rc == MSPTI_ERROR_MAX_LIMIT_REACHED) break;
        if (rc != MSPTI_SUCCESS || record == nullptr) {
            ++unknown_records_;
            break;
        }
        const uint32_t kind = static_cast<uint32_t>(record->kind);
        if (kind < kFirstKind || kind > kLastKind) {
            ++unknown_records_;
            break;
        }
        const KindInfo& info = Info(kind);
        std::vector<uint8_t>& staged = staged_[kind - kFirstKind];
        const size_t at = staged.size();
        staged.resize(at + info.size);
        uint8_t* copy = staged.data() + at;
        std::memcpy(copy, record, info.size);
        for (uint32_t field = 0; field < info.strings.count; ++field) {
            const uint32_t offset = info.strings.offsets[field];
            const char* text = nullptr;
            std::memcpy(&text, copy + offset, sizeof(text));
            const uint64_t id = strings_.Intern(text);
            std::memcpy(copy + offset, &id, sizeof(id));
        }
    }
    // Strings first, so every id in the records file is already defined in the strings file.
    bool ok = files_.AppendStrings(strings_.TakePending());
    for (uint32_t kind = kFirstKind; kind <= kLastKind; ++kind) {
        std::vector<uint8_t>& staged = staged_[kind - kFirstKind];
        if (staged.empty()) continue;
        const uint32_t size = Info(kind).size;
        const uint64_t count = staged.size() / size;
        ok = files_.AppendChunk(kind, size, staged.data(), count) && ok;
        records_[kind - kFirstKind] += count;
        staged.clear();
    }
    if (!ok) ++write_errors_;
    if (finished_) {  // a delivery after the exit flush
        WriteMeta(true);
        files_.Close();
    }
}

std::string Collector::MetaJson(bool complete) const {
    std::string json = "{\n  \"format\": \"npu-sim-trace\",\n";
    json += "  \"version\": " + std::to_string(kFormatVersion) + ",\n";
    json += "  \"pid\": " + std::to_string(::getpid()) + ",\n";
    json += "  \"ppid\": " + std::to_string(::getppid()) + ",\n";
    json += "  \"argv\": " + CommandLine() + ",\n";
    json += "  \"soc\": " + JsonOptional("NPU_SIM_SOC") + ",\n";
    json += "  \"clock\": " + JsonOptional("NPU_SIM_CLOCK") + ",\n";
    json += "  \"devices\": " + JsonOptional("NPU_SIM_DEVICES") + ",\n";
    json += "  \"time_base\": \"unix_epoch_ns\",\n";
    json += std::string("  \"subscribed\": ") + (subscribe_ ? "true" : "false") + ",\n";
    json += "  \"kinds_enabled\": [";
    bool first = true;
    for (uint32_t kind = kFirstKind; kind <= kLastKind; ++kind) {
        if (!enabled_[kind - kFirstKind]) continue;
        json += (first ? "" : ", ") + npusim::text::json_string(Info(kind).name);
        first = false;
    }
    json += "],\n  \"records\": {";
    for (uint32_t kind = kFirstKind; kind <= kLastKind; ++kind) {
        json += (kind == kFirstKind ? "" : ", ") + npusim::text::json_string(Info(kind).name) + ": " +
                std::to_string(records_[kind - kFirstKind]);
    }
    json += "},\n  \"dropped\": ";
    // msptiActivityGetDroppedRecords is an extension of our msPTI; another library may lack it.
    auto dropped_fn = reinterpret_cast<DroppedFn>(::dlsym(RTLD_DEFAULT, "msptiActivityGetDroppedRecords"));
    if (dropped_fn == nullptr) {
        json += "null";
    } else {
        json += "{";
        for (uint32_t kind = kFirstKind; kind <= kLastKind; ++kind) {
            uint64_t dropped = 0;
            const bool known = dropped_fn(static_cast<msptiActivityKind>(kind), &dropped) == MSPTI_SUCCESS;
            json += (kind == kFirstKind ? "" : ", ") + npusim::text::json_string(Info(kind).name) + ": " +
                    (known ? std::to_string(dropped) : "null");
        }
        json += "}";
    }
    json += ",\n  \"buffers\": " + std::to_string(buffers_) + ",\n";
    json += "  \"strings\": " + std::to_string(strings_.size()) + ",\n";
    json += "  \"unreadable_buffers\": " + std::to_string(unknown_records_) + ",\n";
    json += "  \"refused_subscriptions\": " + std::to_string(refused_subscriptions_) + ",\n";
    json += "  \"write_errors\": " + std::to_string(write_errors_) + ",\n";
    json += std::string("  \"complete\": ") + (complete ? "true" : "false") + "\n}\n";
    return json;
}

void Collector::WriteMeta(bool complete) {
    if (!files_.WriteMeta(MetaJson(complete))) ++write_errors_;
}

void AtExit() { Collector::Instance().Finish(); }

void ForkChild() { Collector::Instance().OnForkChild(); }

__attribute__((constructor)) void OnLoad() {
    Collector::Instance().Start();
    // Registered after msPTI's own exit handler (msptiActivityRegisterCallbacks installs it), so
    // this one runs first, while msPTI and CANN are still alive.
    std::atexit(&AtExit);
    pthread_atfork(nullptr, nullptr, &ForkChild);
}

}  // namespace
}  // namespace npusim::trace

// The program's msptiSubscribe (see RealSubscribe): msPTI's, with a refusal caused by the
// collector's own subscription diagnosed on stderr and counted in the capture's metadata.
extern "C" __attribute__((visibility("default"))) msptiResult msptiSubscribe(msptiSubscriberHandle* subscriber,
                                                                             msptiCallbackFunc callback,
                                                                             void* userdata) {
    const npusim::trace::SubscribeFn real = npusim::trace::RealSubscribe();
    if (real == nullptr || real == &msptiSubscribe) return MSPTI_ERROR_INNER;
    const msptiResult rc = real(subscriber, callback, userdata);
    npusim::trace::Collector::Instance().OnProgramSubscribe(rc);
    return rc;
}
