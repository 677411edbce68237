// The conformance collector (see collector.h for the log format and the policies).
#include "collector.h"
#include "mspti_schema/record_schema.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace conformance {
namespace {

constexpr unsigned char kCanary = 0xA5;
constexpr size_t kMaxRememberedStrings = 20000;

struct Policy {
    size_t size = 8u << 20;
    size_t max_records = 0;
    uint64_t decline = 0;
    bool always_null = false;
    unsigned slow_ms = 0;
    bool keep = false;
    bool strings = false;
    bool strict_cbdata = false;
    uint64_t reenter_flush = 0;
    uint64_t reenter_call = 0;
};

struct State {
    std::mutex log_mutex;
    int fd = -1;
    uint64_t seq = 0;
    Policy policy;
    std::mutex buffers_mutex;
    std::unordered_map<uintptr_t, size_t> outstanding;  // handed out, not yet completed
    std::vector<std::pair<uint8_t*, size_t>> kept;      // completed buffers holding the canary
    std::mutex strings_mutex;
    std::vector<std::pair<const char*, std::string>> strings;
    std::atomic<uint64_t> requests{0};
    std::atomic<uint64_t> completions{0};
    std::atomic<int> request_inflight{0};
    std::atomic<int> complete_inflight{0};
    std::atomic<uint64_t> cd_token{0};
    std::atomic<ReentryHook> reentry_hook{nullptr};
    std::atomic<uint64_t> reentered_requests{0};
    std::atomic<uint64_t> reentered_completions{0};
    std::atomic<uint64_t> reentered_flushes{0};
};

State& state() {
    static State* instance = new State();  // never destroyed: callbacks may run during exit
    return *instance;
}

int g_userdata_token = 0;
thread_local int t_callback_depth = 0;

size_t parse_size(const std::string& text) {
    char* end = nullptr;
    unsigned long long value = std::strtoull(text.c_str(), &end, 0);
    if (end != nullptr && (*end == 'k' || *end == 'K')) value <<= 10;
    if (end != nullptr && (*end == 'm' || *end == 'M')) value <<= 20;
    return static_cast<size_t>(value);
}

Policy read_policy() {
    Policy policy;
    const char* text = std::getenv("MSPTI_CONFORMANCE_BUFFER");
    std::string spec = text != nullptr ? text : "";
    size_t start = 0;
    while (start <= spec.size()) {
        size_t comma = spec.find(',', start);
        if (comma == std::string::npos) comma = spec.size();
        std::string item = spec.substr(start, comma - start);
        start = comma + 1;
        if (item.empty()) continue;
        size_t eq = item.find('=');
        std::string key = item.substr(0, eq);
        std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
        if (key == "size") policy.size = parse_size(value);
        else if (key == "max") policy.max_records = parse_size(value);
        else if (key == "decline") policy.decline = parse_size(value);
        else if (key == "null") policy.always_null = true;
        else if (key == "slow") policy.slow_ms = static_cast<unsigned>(parse_size(value));
        else if (key == "keep") policy.keep = true;
        else if (key == "strings") policy.strings = true;
        else if (key == "reenter_flush") policy.reenter_flush = parse_size(value);
        else if (key == "reenter_call") policy.reenter_call = parse_size(value);
        else std::fprintf(stderr, "conformance collector: unknown buffer policy item '%s'\n", item.c_str());
    }
    const char* cbdata = std::getenv("MSPTI_CONFORMANCE_CBDATA");
    policy.strict_cbdata = cbdata != nullptr && std::strcmp(cbdata, "strict") == 0;
    return policy;
}

void write_all(int fd, const char* data, size_t size) {
    while (size > 0) {
        ssize_t written = ::write(fd, data, size);
        if (written < 0) {
            if (errno == EINTR) continue;
            return;
        }
        data += written;
        size -= static_cast<size_t>(written);
    }
}

void on_exit_event() {
    Json event("exit");
    emit(event);
}

void remember_string(const char* text) {
    State& s = state();
    if (!s.policy.strings || text == nullptr) return;
    std::lock_guard<std::mutex> lock(s.strings_mutex);
    if (s.strings.size() < kMaxRememberedStrings) s.strings.emplace_back(text, std::string(text));
}

Json& add_string(Json& json, const char* key, const char* value) {
    remember_string(value);
    return json.str(key, value);
}

template <typename T>
T read_at(const unsigned char* at) {
    T value;
    std::memcpy(&value, at, sizeof value);
    return value;
}

uint64_t read_unsigned(const unsigned char* at, uint32_t size) {
    switch (size) {
        case 1: return read_at<uint8_t>(at);
        case 2: return read_at<uint16_t>(at);
        case 4: return read_at<uint32_t>(at);
        default: return read_at<uint64_t>(at);
    }
}

// One field of a record, `at` its first byte: integers (enumerations, a bool's byte) as numbers, a
// double as a number (null when not finite), a string's text (null for NULL), a pointer's address.
void add_field(Json& json, const mspti_schema::FieldSpec& field, const unsigned char* at) {
    switch (field.type) {
        case mspti_schema::FieldType::kFloat:
            json.dbl(field.log_name, field.size == sizeof(float) ? read_at<float>(at) : read_at<double>(at));
            break;
        case mspti_schema::FieldType::kString: add_string(json, field.log_name, read_at<const char*>(at)); break;
        case mspti_schema::FieldType::kPointer:
            json.num(field.log_name, reinterpret_cast<uintptr_t>(read_at<const void*>(at)));
            break;
        case mspti_schema::FieldType::kUint:
        case mspti_schema::FieldType::kBool: json.num(field.log_name, read_unsigned(at, field.size)); break;
    }
}

// Re-entry from inside a buffer callback (THR-07 probe): the hook's instrumented calls, and FlushAll.
void reenter_calls(std::atomic<uint64_t>& counter, const char* site) {
    State& s = state();
    ReentryHook hook = s.reentry_hook.load();
    if (hook == nullptr || s.policy.reenter_call == 0) return;
    if (++counter > s.policy.reenter_call) return;
    hook(site);
}

void reenter_flush() {
    State& s = state();
    if (s.policy.reenter_flush == 0 || ++s.reentered_flushes > s.policy.reenter_flush) return;
    Json before("reenter_begin");
    before.str("site", "complete").str("fn", "msptiActivityFlushAll").num("tid", thread_id()).num("t", now_ns());
    emit(before);
    uint64_t t0 = now_ns();
    msptiResult result = msptiActivityFlushAll(1);
    Json event("reenter");
    event.str("site", "complete").str("fn", "msptiActivityFlushAll").inum("ret", static_cast<int64_t>(result));
    event.num("tid", thread_id()).num("t0", t0).num("t1", now_ns());
    emit(event);
}

void request(char pair, uint8_t** buffer, size_t* size, size_t* max_records) {
    State& s = state();
    int inflight = ++s.request_inflight;
    uint64_t number = ++s.requests;
    Json event("request");
    char pair_name[2] = {pair, 0};
    event.str("pair", pair_name).num("n", number).num("tid", thread_id()).num("t", now_ns()).inum("inflight", inflight);
    event.boolean("args_ok", buffer != nullptr && size != nullptr && max_records != nullptr);
    if (buffer == nullptr || size == nullptr || max_records == nullptr) {
        emit(event);
        --s.request_inflight;
        return;
    }
    const Policy& policy = s.policy;
    if (policy.always_null || number <= policy.decline) {
        *buffer = nullptr;
        *size = 0;
        *max_records = 0;
        event.num("buf", 0).num("size", 0).num("max", 0).boolean("declined", true);
    } else {
        void* memory = nullptr;
        size_t bytes = policy.size == 0 ? 8 : policy.size;
        if (posix_memalign(&memory, 64, bytes) != 0) memory = nullptr;
        {
            std::lock_guard<std::mutex> lock(s.buffers_mutex);
            if (memory != nullptr) s.outstanding[reinterpret_cast<uintptr_t>(memory)] = policy.size;
        }
        *buffer = static_cast<uint8_t*>(memory);
        *size = policy.size;
        *max_records = policy.max_records;
        event.num("buf", reinterpret_cast<uintptr_t>(memory)).num("size", policy.size).num("max", policy.max_records);
        event.boolean("declined", false);
    }
    emit(event);
    reenter_calls(s.reentered_requests, "request");
    --s.request_inflight;
}

void complete(char pair, uint8_t* buffer, size_t size, size_t valid) {
    State& s = state();
    int inflight = ++s.complete_inflight;
    uint64_t number = ++s.completions;
    char pair_name[2] = {pair, 0};
    bool known = false;
    size_t requested_size = 0;
    if (buffer != nullptr) {
        std::lock_guard<std::mutex> lock(s.buffers_mutex);
        auto found = s.outstanding.find(reinterpret_cast<uintptr_t>(buffer));
        if (found != s.outstanding.end()) {
            known = true;
            requested_size = found->second;
            s.outstanding.erase(found);
        }
    }
    Json begin("complete");
    begin.str("pair", pair_name).num("cid", number).num("buf", reinterpret_cast<uintptr_t>(buffer)).num("size", size);
    begin.num("valid", valid)
        .num("tid", thread_id())
        .num("t", now_ns())
        .inum("inflight", inflight)
        .boolean("known", known);
    emit(begin);

    int64_t status = -1;
    uint64_t count = 0;
    uint64_t end_offset = 0;
    if (buffer != nullptr) {
        msptiActivity* record = nullptr;
        // A conforming buffer holds at most valid / 8 records; the bound stops a runaway iterator.
        const uint64_t limit = valid / 8 + 2;
        while (true) {
            msptiResult result = msptiActivityGetNextRecord(buffer, valid, &record);
            status = static_cast<int64_t>(result);
            if (result != MSPTI_SUCCESS) break;
            if (record == nullptr) {
                status = -2;  // success without a record
                break;
            }
            auto offset = reinterpret_cast<uint8_t*>(record) - buffer;
            if (offset < 0 || static_cast<size_t>(offset) >= (valid > 0 ? valid : 1) || count >= limit) {
                status = -3;  // a record outside the valid bytes, or too many records
                Json bad("bad_record");
                bad.num("cid", number).inum("offset", offset).num("count", count);
                emit(bad);
                break;
            }
            log_record(record, number, static_cast<size_t>(offset));
            ++count;
            end_offset = static_cast<uint64_t>(offset) + record_size(static_cast<uint32_t>(record->kind));
        }
    }
    Json end("complete_end");
    end.num("cid", number).inum("status", status).num("count", count).num("end", end_offset).num("t", now_ns());
    emit(end);
    reenter_calls(s.reentered_completions, "complete");
    reenter_flush();

    if (s.policy.slow_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(s.policy.slow_ms));
    if (buffer != nullptr && known) {
        if (s.policy.keep) {
            std::memset(buffer, kCanary, requested_size);
            std::lock_guard<std::mutex> lock(s.buffers_mutex);
            s.kept.emplace_back(buffer, requested_size);
        } else {
            std::free(buffer);
        }
    }
    --s.complete_inflight;
}

template <char Pair>
void request_pair(uint8_t** buffer, size_t* size, size_t* max_records) {
    request(Pair, buffer, size, max_records);
}

template <char Pair>
void complete_pair(uint8_t* buffer, size_t size, size_t valid) {
    complete(Pair, buffer, size, valid);
}

void on_callback(void* userdata, msptiCallbackDomain domain, msptiCallbackId cbid, const msptiCallbackData* data) {
    State& s = state();
    Json event("cb");
    event.inum("domain", static_cast<int64_t>(domain)).num("cbid", cbid);
    event.boolean("ud_ok", userdata == &g_userdata_token).num("tid", thread_id()).num("t", now_ns());
    if (data == nullptr) {
        event.boolean("data_null", true);
        emit(event);
        return;
    }
    int site = static_cast<int>(data->callbackSite);
    event.inum("site", site).str("fn", data->functionName);
    if (site == MSPTI_API_ENTER) ++t_callback_depth;
    event.inum("depth", t_callback_depth);
    if (s.policy.strict_cbdata) {
        event.num("corr", data->correlationId);
        event.boolean("params", data->functionParams != nullptr);
        if (site == MSPTI_API_EXIT) event.boolean("retval", data->functionReturnValue != nullptr);
        event.str("symbol", data->symbolName);
        if (data->correlationData != nullptr) {
            if (site == MSPTI_API_ENTER) {
                uint64_t token = (static_cast<uint64_t>(thread_id()) << 32) | (++s.cd_token & 0xffffffffu);
                *data->correlationData = token;
                event.num("cd_write", token);
            } else {
                event.num("cd_read", *data->correlationData);
            }
        } else {
            event.null("cd_write");
        }
    }
    if (site == MSPTI_API_EXIT) --t_callback_depth;
    emit(event);
}

}  // namespace

Json::Json(const char* event) : text_("{\"ev\":") { text_ += json_quote(event); }

void Json::key(const char* name) {
    text_ += ',';
    text_ += json_quote(name);
    text_ += ':';
}

Json& Json::str(const char* key_name, const char* value) {
    key(key_name);
    text_ += value == nullptr ? std::string("null") : json_quote(value);
    return *this;
}

Json& Json::str(const char* key_name, const std::string& value) { return str(key_name, value.c_str()); }

Json& Json::num(const char* key_name, uint64_t value) {
    key(key_name);
    text_ += std::to_string(value);
    return *this;
}

Json& Json::inum(const char* key_name, int64_t value) {
    key(key_name);
    text_ += std::to_string(value);
    return *this;
}

Json& Json::dbl(const char* key_name, double value) {
    key(key_name);
    if (!std::isfinite(value)) {
        text_ += "null";
        return *this;
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    text_ += buffer;
    return *this;
}

Json& Json::boolean(const char* key_name, bool value) {
    key(key_name);
    text_ += value ? "true" : "false";
    return *this;
}

Json& Json::null(const char* key_name) {
    key(key_name);
    text_ += "null";
    return *this;
}

Json& Json::raw(const char* fields) {
    if (fields != nullptr && *fields != 0) {
        text_ += ',';
        text_ += fields;
    }
    return *this;
}

std::string json_quote(const char* text) {
    std::string out = "\"";
    for (const unsigned char* p = reinterpret_cast<const unsigned char*>(text); *p != 0; ++p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c >= 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
        } else {
            out += static_cast<char>(c);
        }
    }
    out += '"';
    return out;
}

void emit(Json& object) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.log_mutex);
    if (s.fd < 0) return;
    std::string line = object.text();
    line += ",\"seq\":" + std::to_string(++s.seq) + "}\n";
    write_all(s.fd, line.data(), line.size());
}

uint64_t now_ns() {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Bumped in a forked child, whose forking thread has a new tid.
std::atomic<uint32_t> g_fork_generation{0};

uint32_t thread_id() {
    thread_local uint32_t tid = static_cast<uint32_t>(::syscall(SYS_gettid));
    thread_local uint32_t generation = 0;
    const uint32_t now = g_fork_generation.load(std::memory_order_relaxed);
    if (generation != now) {
        generation = now;
        tid = static_cast<uint32_t>(::syscall(SYS_gettid));
    }
    return tid;
}

void set_reentry_hook(ReentryHook hook) { state().reentry_hook.store(hook); }

std::string log_path() {
    const char* path = std::getenv("MSPTI_CONFORMANCE_LOG");
    return path != nullptr && *path != 0 ? path : "conformance.log";
}

void open_log(State& s, const std::string& path) {
    s.fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (s.fd < 0) std::perror("conformance collector: cannot open the log");
    Json start("start");
    start.num("pid", static_cast<uint64_t>(::getpid())).num("tid", thread_id()).num("t", now_ns());
    start.num("buffer_size", s.policy.size).num("max_records", s.policy.max_records);
    start.boolean("strict_cbdata", s.policy.strict_cbdata);
    emit(start);
}

void collector_init() {
    static std::once_flag once;
    std::call_once(once, [] {
        State& s = state();
        s.policy = read_policy();
        std::atexit(on_exit_event);
        open_log(s, log_path());
    });
}

void collector_forked_child(const char* name) {
    State& s = state();
    // Only this thread exists now: the parent's locks are replaced, not unlocked.
    new (&s.log_mutex) std::mutex();
    new (&s.buffers_mutex) std::mutex();
    new (&s.strings_mutex) std::mutex();
    g_fork_generation.fetch_add(1, std::memory_order_relaxed);
    if (s.fd >= 0) ::close(s.fd);
    s.fd = -1;
    s.seq = 0;
    open_log(s, log_path() + "." + (name != nullptr ? name : "child"));
}

msptiBuffersCallbackRequestFunc request_callback(char pair) {
    return pair == 'B' ? &request_pair<'B'> : &request_pair<'A'>;
}

msptiBuffersCallbackCompleteFunc complete_callback(char pair) {
    return pair == 'B' ? &complete_pair<'B'> : &complete_pair<'A'>;
}

msptiCallbackFunc api_callback() { return &on_callback; }

void* callback_userdata() { return &g_userdata_token; }

size_t record_size(uint32_t kind) { return mspti_schema::RecordSize(kind); }

void log_record(const msptiActivity* record, uint64_t completion, size_t offset) {
    const uint32_t kind = static_cast<uint32_t>(record->kind);
    Json event("record");
    event.num("cid", completion).num("off", offset);
    // Every field of the kind's record, as the record schema lays it out (record_schema.h); a kind
    // without a record is logged by its kind alone.
    const mspti_schema::RecordFields fields = mspti_schema::FieldsOf(kind);
    if (fields.count == 0) event.num("kind", kind);
    const auto* bytes = reinterpret_cast<const unsigned char*>(record);
    for (uint32_t i = 0; i < fields.count; ++i) add_field(event, fields.fields[i], bytes + fields.fields[i].offset);
    emit(event);
}

void collector_finish() {
    State& s = state();
    uint64_t kept = 0;
    uint64_t damaged = 0;
    {
        std::lock_guard<std::mutex> lock(s.buffers_mutex);
        for (const auto& [buffer, size] : s.kept) {
            ++kept;
            for (size_t i = 0; i < size; ++i) {
                if (buffer[i] != kCanary) {
                    ++damaged;
                    break;
                }
            }
        }
    }
    if (s.policy.keep) {
        Json canary("canary");
        canary.num("buffers", kept).num("damaged", damaged);
        emit(canary);
    }
    if (s.policy.strings) {
        uint64_t checked = 0;
        uint64_t changed = 0;
        std::lock_guard<std::mutex> lock(s.strings_mutex);
        for (const auto& [pointer, copy] : s.strings) {
            ++checked;
            if (copy != pointer) ++changed;
        }
        Json strings("strings");
        strings.num("checked", checked).num("changed", changed);
        emit(strings);
    }
    uint64_t outstanding = 0;
    {
        std::lock_guard<std::mutex> lock(s.buffers_mutex);
        outstanding = s.outstanding.size();
    }
    Json finish("finish");
    finish.num("requests", s.requests.load()).num("completions", s.completions.load()).num("outstanding", outstanding);
    finish.num("t", now_ns());
    emit(finish);
}

}  // namespace conformance
