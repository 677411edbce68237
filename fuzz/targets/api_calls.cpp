// Every public msPTI function with arbitrary arguments, in sequences decoded from the input,
// on one thread or on two threads at once, mixed with a workload (memory, copies, fills,
// kernel launches, mstx markers) on the simulated runtime.
//
// Input: [mode] then operations, each [opcode][arguments...]. mode bit 0 runs the operations
// on two threads (opcode bit 7 picks the thread). Checked:
//  - every result is the documented one (mspti_*.h, docs/mspti-deviations.md) for the state a
//    reference model tracks (subscription, handles, kind switches, marker domains, per-thread
//    external-correlation stacks); on two threads, where the model cannot know the
//    interleaving, the result must be one of the documented results of that function;
//  - callbacks: ENTER and EXIT pair per thread with the same correlationData, fields set; an
//    EXIT reaches only the subscription that received its ENTER (each subscription has its own
//    userdata); an ENTER stays without EXIT only when the other thread ended its subscription;
//  - buffers: the collector's contract checks (fuzz_support.h);
//  - accounting per input: MEMORY / MEMCPY / MEMSET records delivered + dropped equal the
//    successful calls made while the kind was on; MARKER and EXTERNAL_CORRELATION at least
//    the host marks / correlation links made while on (kinds switched by the other thread
//    during a two-thread input are not counted).
#include <sys/syscall.h>

#include <thread>

#include "c_calls.h"
#include "fuzz_support.h"
#include "mstx/ms_tools_ext.h"

namespace {

using fuzz::BufferPolicy;
using fuzz::Collector;
using fuzz::Input;
using fuzz::kKinds;
using fuzz::Runtime;

constexpr size_t kMaxNameLength = 255;  // names and messages must be shorter (deviations doc §6)

bool ValidName(const std::string& s, bool is_null) { return !is_null && !s.empty() && s.size() < kMaxNameLength; }

enum Op : uint8_t {
    kSubscribe,
    kUnsubscribe,
    kEnableCallback,
    kEnableDomain,
    kRegisterCallbacks,
    kActivityEnable,
    kActivityDisable,
    kIsEnabled,
    kEnableMarkerDomain,
    kDisableMarkerDomain,
    kGetNextRecordBadArgs,
    kFlushAll,
    kFlushPeriod,
    kPushExternal,
    kPopExternal,
    kGetDropped,
    kResultString,
    kVersion,
    kTimestamp,
    kSetPolicy,
    kMalloc,
    kFree,
    kMemcpy,
    kMemset,
    kLaunch,
    kSync,
    kMark,
    kRangeStart,
    kRangeEnd,
    kDomainCreate,
    kDomainMark,
    kOpCount
};

struct Operation {
    uint8_t op = 0;
    uint8_t sel = 0;  // variant selector
    int32_t a = 0, b = 0;
    uint32_t c = 0;
    uint64_t d = 0;
    std::string text;
};

Operation Decode(Input& in, uint8_t opcode) {
    Operation o;
    o.op = static_cast<uint8_t>((opcode & 0x7F) % kOpCount);
    o.sel = in.u8();
    switch (o.op) {
        case kEnableCallback:
            o.a = in.choice(0, 3);    // domain
            o.c = in.u8() == 0xFF ? in.u32() : in.u8() % 40;  // cbid
            o.b = static_cast<int32_t>(in.u8() % 3);  // enable value: 0, 1, 2
            break;
        case kEnableDomain:
            o.a = in.choice(0, 3);
            o.b = static_cast<int32_t>(in.u8() % 3);
            break;
        case kActivityEnable:
        case kActivityDisable:
        case kIsEnabled:
        case kGetDropped:
            o.a = in.choice(0, MSPTI_ACTIVITY_KIND_COUNT);  // every kind and one past the last
            // OVERHEAD is never enabled: its records come from buffer requests and flushes, which the
            // model does not count; enabling it probes the kind past the last instead.
            if (o.op == kActivityEnable && o.a == MSPTI_ACTIVITY_KIND_OVERHEAD) o.a = MSPTI_ACTIVITY_KIND_COUNT;
            break;
        case kEnableMarkerDomain:
        case kDisableMarkerDomain:
        case kMark:
        case kRangeStart:
        case kDomainCreate:
        case kDomainMark: o.text = in.text(); break;
        case kFlushAll: o.c = in.u32(); break;
        case kFlushPeriod: o.c = in.u8() % 4 == 0 ? in.u32() : in.u8() % 8; break;
        case kPushExternal:
        case kPopExternal:
            o.a = in.choice(0, 5);
            o.d = in.u64();
            break;
        case kResultString: o.a = in.choice(0, 7); break;
        case kSetPolicy: o.c = in.u16(); break;
        case kMalloc: o.c = in.u32() % (1u << 20); break;
        case kMemcpy:
            o.a = in.choice(0, 6);  // aclrtMemcpyKind
            o.c = in.u16() % 4097;
            break;
        case kMemset:
            o.a = static_cast<int32_t>(in.u32());
            o.c = in.u16() % 4097;
            break;
        default: break;
    }
    return o;
}

// ---------------------------------------------------------------------------------------------
// Callbacks: ENTER/EXIT pairing per thread.

// Every msptiSubscribe passes a userdata tag of its own, so a callback names its subscription.
constexpr uintptr_t kTagBase = uintptr_t{0xF022} << 32;
std::atomic<uintptr_t> g_next_tag{kTagBase};
uintptr_t NewTag() { return ++g_next_tag; }

struct CallbackFrame {
    uint32_t domain;
    uint32_t cbid;
    uint64_t* data;
    uint64_t token;
    uintptr_t tag;  // the subscription that received the ENTER
};
thread_local std::vector<CallbackFrame> t_frames;
std::atomic<uint64_t> g_callbacks{0};
std::atomic<uint64_t> g_token{0};

void OnCallback(void* userdata, msptiCallbackDomain domain, msptiCallbackId cbid, const msptiCallbackData* data) {
    g_callbacks++;
    const uintptr_t tag = reinterpret_cast<uintptr_t>(userdata);
    FUZZ_CHECK((tag >> 32) == (kTagBase >> 32), "callback userdata %p", userdata);
    FUZZ_CHECK(data != nullptr && data->functionName != nullptr, "callback data or its functionName is NULL");
    FUZZ_CHECK(domain == MSPTI_CB_DOMAIN_RUNTIME || domain == MSPTI_CB_DOMAIN_HCCL, "callback domain %d", domain);
    FUZZ_CHECK(data->correlationData != nullptr, "correlationData is NULL (%s)", data->functionName);
    if (data->callbackSite == MSPTI_API_ENTER) {
        FUZZ_CHECK(data->functionReturnValue == nullptr, "functionReturnValue set at ENTER of %s", data->functionName);
        const uint64_t token = ++g_token;
        *data->correlationData = token;
        t_frames.push_back({static_cast<uint32_t>(domain), cbid, data->correlationData, token, tag});
    } else {
        FUZZ_CHECK(data->callbackSite == MSPTI_API_EXIT, "callbackSite %d", data->callbackSite);
        FUZZ_CHECK(data->functionReturnValue != nullptr, "functionReturnValue NULL at EXIT of %s", data->functionName);
        // Calls on one thread nest, never interleave: the innermost open ENTER is this call's, unless
        // msPTI delivered the ENTER elsewhere (an ended subscription) or not at all.
        FUZZ_CHECK(!t_frames.empty() && t_frames.back().tag == tag,
                   "EXIT of %s reached subscription %#llx without its ENTER there (%s)", data->functionName,
                   static_cast<unsigned long long>(tag - kTagBase),
                   t_frames.empty() ? "no ENTER open on this thread" : "the open ENTER went to another subscription");
        const CallbackFrame f = t_frames.back();
        t_frames.pop_back();
        FUZZ_CHECK(f.domain == static_cast<uint32_t>(domain) && f.cbid == cbid, "EXIT of %s pairs with another ENTER",
                   data->functionName);
        FUZZ_CHECK(f.data == data->correlationData && *f.data == f.token, "correlationData differs at EXIT of %s",
                   data->functionName);
        fuzz::Stats::Instance().callbacks_paired++;
    }
}

// ---------------------------------------------------------------------------------------------
// The reference model of the state msPTI's results depend on.

struct ThreadState {
    int index = 0;  // which copy buffers of the Runtime this thread uses
    std::vector<uint64_t> external[MSPTI_EXTERNAL_CORRELATION_KIND_SIZE];
    std::vector<void*> allocations;
    std::vector<mstxRangeId> ranges;
    std::vector<std::pair<mstxDomainHandle_t, std::string>> domains;
    uint64_t produced[kKinds] = {};  // records this thread caused, counted only while the model knows
    uint64_t non_empty_external() const {
        uint64_t n = 0;
        for (int k = MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN; k < MSPTI_EXTERNAL_CORRELATION_KIND_SIZE; ++k)
            n += !external[k].empty();
        return n;
    }
};

struct Model {
    std::mutex mutex;
    bool threaded = false;
    bool subscribed = false;
    // From an Unsubscribe to the next Subscribe no kind produces records. Every input starts halted
    // (LLVMFuzzerInitialize subscribes and unsubscribes once; each input ends unsubscribed), so an
    // input replays alone exactly as it ran in a campaign.
    bool halted = true;
    msptiSubscriberHandle current = nullptr;
    uintptr_t current_tag = 0;  // the userdata tag of the current subscription
    std::vector<msptiSubscriberHandle> stale;
    bool enabled[kKinds] = {};
    bool kind_touched[kKinds] = {};  // switched while two threads ran
    bool marker_state_touched = false;
    bool subscription_touched = false;  // a subscribe or unsubscribe succeeded while two threads ran
    std::vector<std::string> disabled_domains;

    bool DomainEnabled(const std::string& name) {
        for (const auto& d : disabled_domains)
            if (d == name) return false;
        return true;
    }
};

Model g_model;

bool Exact() { return !g_model.threaded; }

// A result returned as int by the C wrappers, as the msptiResult it is.
msptiResult R(int result) { return static_cast<msptiResult>(result); }

#define EXPECT_ONE_OF(call, ...)                                                                         \
    do {                                                                                                 \
        const msptiResult got_ = (call);                                                                 \
        const msptiResult allowed_[] = {__VA_ARGS__};                                                    \
        bool ok_ = false;                                                                                \
        for (msptiResult r_ : allowed_) ok_ = ok_ || r_ == got_;                                         \
        if (!ok_)                                                                                        \
            fuzz::Fail("%s:%d: %s returned %d (%s), not a documented result", __FILE__, __LINE__, #call, \
                       static_cast<int>(got_), msptiResultGetString(got_));                              \
    } while (0)

// Runs `call` and checks it against `want` (exact, single thread) or any of the documented results.
#define CHECKED(call, want, ...)              \
    do {                                      \
        if (Exact()) {                        \
            FUZZ_EXPECT_RESULT(call, want);   \
        } else {                              \
            EXPECT_ONE_OF(call, __VA_ARGS__); \
        }                                     \
    } while (0)

void SetPolicyFrom(uint32_t v) {
    Collector::Instance().SetPolicy(static_cast<BufferPolicy>(v % static_cast<unsigned>(BufferPolicy::Count)), v >> 3);
}

void RecordIfOn(ThreadState& ts, int kind, uint64_t n = 1) {
    std::lock_guard<std::mutex> lock(g_model.mutex);
    if (g_model.enabled[kind] && !g_model.halted) ts.produced[kind] += n;
}

// The external-correlation links an interposed call makes (one per non-empty stack).
void InterposedCall(ThreadState& ts) {
    RecordIfOn(ts, MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, ts.non_empty_external());
}

void HostMark(ThreadState& ts, const std::string& domain, const std::string& message) {
    if (message.empty() || message.size() >= kMaxNameLength) return;  // such messages are ignored
    std::lock_guard<std::mutex> lock(g_model.mutex);
    if (g_model.subscribed && g_model.enabled[MSPTI_ACTIVITY_KIND_MARKER] && g_model.DomainEnabled(domain))
        ts.produced[MSPTI_ACTIVITY_KIND_MARKER]++;
}

void Execute(const Operation& o, ThreadState& ts) {
    fuzz::Stats::Instance().api_calls++;
    Runtime& rt = Runtime::Instance();
    switch (o.op) {
        case kSubscribe: {
            msptiSubscriberHandle h = nullptr;
            const bool null_out = (o.sel & 3) == 3;
            msptiCallbackFunc cb = (o.sel & 4) ? nullptr : OnCallback;
            std::unique_lock<std::mutex> lock(g_model.mutex);
            const msptiResult want = null_out             ? MSPTI_ERROR_INVALID_PARAMETER
                                     : g_model.subscribed ? MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                                                          : MSPTI_SUCCESS;
            if (Exact()) lock.unlock();  // single thread: nothing races; two threads: keep the model in step
            const uintptr_t tag = NewTag();
            const msptiResult got = msptiSubscribe(null_out ? nullptr : &h, cb, reinterpret_cast<void*>(tag));
            if (Exact()) {
                FUZZ_CHECK(got == want, "msptiSubscribe returned %d, documented %d", got, want);
                lock.lock();
            } else {
                FUZZ_CHECK(got == MSPTI_SUCCESS || got == MSPTI_ERROR_INVALID_PARAMETER ||
                               got == MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
                           "msptiSubscribe returned %d", got);
            }
            if (got == MSPTI_SUCCESS) {
                FUZZ_CHECK(h != nullptr, "msptiSubscribe succeeded with a NULL handle");
                g_model.subscription_touched = g_model.subscription_touched || g_model.threaded;
                g_model.subscribed = true;
                g_model.halted = false;
                g_model.current = h;
                g_model.current_tag = tag;
                g_model.marker_state_touched = true;
            }
            break;
        }
        case kUnsubscribe: {
            std::unique_lock<std::mutex> lock(g_model.mutex);
            msptiSubscriberHandle h = nullptr;
            switch (o.sel & 3) {
                case 0: h = g_model.current; break;
                case 1: h = nullptr; break;
                case 2:
                    h = g_model.stale.empty() ? g_model.current : g_model.stale[o.sel % g_model.stale.size()];
                    break;
                default: h = reinterpret_cast<msptiSubscriberHandle>(&g_model); break;  // never a handle
            }
            const bool match = g_model.subscribed && h == g_model.current && h != nullptr;
            if (Exact()) lock.unlock();
            const msptiResult got = msptiUnsubscribe(h);
            if (Exact()) {
                FUZZ_CHECK(got == (match ? MSPTI_SUCCESS : MSPTI_ERROR_INVALID_PARAMETER),
                           "msptiUnsubscribe returned %d, documented %d (handle %s)", got,
                           match ? MSPTI_SUCCESS : MSPTI_ERROR_INVALID_PARAMETER,
                           (o.sel & 3) == 2   ? "stale"
                           : (o.sel & 3) == 3 ? "foreign"
                                              : "current/NULL");
                lock.lock();
            } else {
                FUZZ_CHECK(got == MSPTI_SUCCESS || got == MSPTI_ERROR_INVALID_PARAMETER, "msptiUnsubscribe returned %d",
                           got);
            }
            if (got == MSPTI_SUCCESS) {
                g_model.subscription_touched = g_model.subscription_touched || g_model.threaded;
                g_model.stale.push_back(g_model.current);
                g_model.subscribed = false;
                g_model.halted = true;
                g_model.current = nullptr;
                g_model.current_tag = 0;
                g_model.marker_state_touched = true;
            }
            break;
        }
        case kEnableCallback:
        case kEnableDomain: {
            msptiSubscriberHandle h;
            bool ok;
            {
                std::lock_guard<std::mutex> lock(g_model.mutex);
                h = (o.sel & 1) ? g_model.current : reinterpret_cast<msptiSubscriberHandle>(o.sel & 2 ? 0 : 0x40);
                ok = g_model.subscribed && h == g_model.current && h != nullptr;
            }
            const bool domain_ok = o.a == MSPTI_CB_DOMAIN_RUNTIME || o.a == MSPTI_CB_DOMAIN_HCCL;
            if (o.op == kEnableDomain) {
                const msptiResult want = domain_ok && ok ? MSPTI_SUCCESS : MSPTI_ERROR_INVALID_PARAMETER;
                CHECKED(R(fz_enable_domain(static_cast<uint32_t>(o.b), h, o.a)), want, MSPTI_SUCCESS,
                        MSPTI_ERROR_INVALID_PARAMETER);
            } else {
                const uint32_t size = o.a == MSPTI_CB_DOMAIN_RUNTIME ? MSPTI_CBID_RUNTIME_SIZE : MSPTI_CBID_HCCL_SIZE;
                const bool cbid_ok = o.c >= 1 && o.c < size;
                const msptiResult want = domain_ok && ok && cbid_ok ? MSPTI_SUCCESS : MSPTI_ERROR_INVALID_PARAMETER;
                CHECKED(R(fz_enable_callback(static_cast<uint32_t>(o.b), h, o.a, o.c)), want, MSPTI_SUCCESS,
                        MSPTI_ERROR_INVALID_PARAMETER);
            }
            break;
        }
        case kRegisterCallbacks: {
            const bool req = (o.sel & 1) == 0, comp = (o.sel & 2) == 0;
            const msptiResult want = req && comp ? MSPTI_SUCCESS : MSPTI_ERROR_INVALID_PARAMETER;
            FUZZ_EXPECT_RESULT(msptiActivityRegisterCallbacks(req ? Collector::Request : nullptr,
                                                              comp ? Collector::Complete : nullptr),
                               want);
            break;
        }
        case kActivityEnable:
        case kActivityDisable: {
            const bool valid = o.a >= 1 && o.a < MSPTI_ACTIVITY_KIND_COUNT;
            const bool on = o.op == kActivityEnable;
            {
                std::lock_guard<std::mutex> lock(g_model.mutex);
                if (valid) {
                    if (g_model.threaded) g_model.kind_touched[o.a] = true;
                    if (o.a == MSPTI_ACTIVITY_KIND_MARKER) g_model.marker_state_touched = true;
                }
            }
            FUZZ_EXPECT_RESULT(R(on ? fz_activity_enable(o.a) : fz_activity_disable(o.a)),
                               valid ? MSPTI_SUCCESS : MSPTI_ERROR_INVALID_PARAMETER);
            if (valid) {
                std::lock_guard<std::mutex> lock(g_model.mutex);
                g_model.enabled[o.a] = on;
            }
            break;
        }
        case kIsEnabled: {
            const bool got = fz_activity_is_enabled(o.a) != 0;
            const bool valid = o.a >= 1 && o.a < MSPTI_ACTIVITY_KIND_COUNT;
            if (!valid) FUZZ_CHECK(!got, "msptiActivityIsEnabled(%d) is true", o.a);
            if (valid && Exact()) FUZZ_CHECK(got == g_model.enabled[o.a], "msptiActivityIsEnabled(%d) is %d", o.a, got);
            break;
        }
        case kEnableMarkerDomain:
        case kDisableMarkerDomain: {
            const bool is_null = (o.sel & 7) == 7;
            const bool valid = ValidName(o.text, is_null);
            const char* name = is_null ? nullptr : o.text.c_str();
            const bool on = o.op == kEnableMarkerDomain;
            FUZZ_EXPECT_RESULT(on ? msptiActivityEnableMarkerDomain(name) : msptiActivityDisableMarkerDomain(name),
                               valid ? MSPTI_SUCCESS : MSPTI_ERROR_INVALID_PARAMETER);
            if (valid) {
                std::lock_guard<std::mutex> lock(g_model.mutex);
                g_model.marker_state_touched = true;
                auto& d = g_model.disabled_domains;
                for (auto it = d.begin(); it != d.end();) it = *it == o.text ? d.erase(it) : it + 1;
                if (!on) d.push_back(o.text);
            }
            break;
        }
        case kGetNextRecordBadArgs: {
            msptiActivity* record = nullptr;
            uint8_t one[8] = {};
            FUZZ_EXPECT_RESULT(msptiActivityGetNextRecord(nullptr, o.sel, &record), MSPTI_ERROR_INVALID_PARAMETER);
            FUZZ_EXPECT_RESULT(msptiActivityGetNextRecord(one, sizeof one, nullptr), MSPTI_ERROR_INVALID_PARAMETER);
            break;
        }
        case kFlushAll: FUZZ_EXPECT_RESULT(msptiActivityFlushAll(o.c), MSPTI_SUCCESS); break;
        case kFlushPeriod: FUZZ_EXPECT_RESULT(msptiActivityFlushPeriod(o.c), MSPTI_SUCCESS); break;
        case kPushExternal: {
            const bool valid =
                o.a >= MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN && o.a < MSPTI_EXTERNAL_CORRELATION_KIND_SIZE;
            FUZZ_EXPECT_RESULT(R(fz_push_external(o.a, o.d)), valid ? MSPTI_SUCCESS : MSPTI_ERROR_INVALID_PARAMETER);
            if (valid) ts.external[o.a].push_back(o.d);
            break;
        }
        case kPopExternal: {
            const bool valid =
                o.a >= MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN && o.a < MSPTI_EXTERNAL_CORRELATION_KIND_SIZE;
            uint64_t last = 0xDEADBEEF;
            const bool null_out = (o.sel & 3) == 3;
            const msptiResult want = !valid                     ? MSPTI_ERROR_INVALID_PARAMETER
                                     : ts.external[o.a].empty() ? MSPTI_ERROR_QUEUE_EMPTY
                                                                : MSPTI_SUCCESS;
            FUZZ_EXPECT_RESULT(R(fz_pop_external(o.a, null_out ? nullptr : &last)), want);
            if (want == MSPTI_SUCCESS) {
                if (!null_out)
                    FUZZ_CHECK(last == ts.external[o.a].back(), "popped %llu, pushed %llu",
                               static_cast<unsigned long long>(last),
                               static_cast<unsigned long long>(ts.external[o.a].back()));
                ts.external[o.a].pop_back();
            }
            break;
        }
        case kGetDropped: {
            uint64_t n = 0;
            const bool valid = o.a >= 0 && o.a < MSPTI_ACTIVITY_KIND_COUNT;
            FUZZ_EXPECT_RESULT(R(fz_dropped(o.a, (o.sel & 1) ? nullptr : &n)),
                               (o.sel & 1) || !valid ? MSPTI_ERROR_INVALID_PARAMETER : MSPTI_SUCCESS);
            break;
        }
        case kResultString: {
            const char* s = fz_result_string(o.a == 7 ? 999 : o.a);
            FUZZ_CHECK(s != nullptr && std::strlen(s) > 0, "msptiResultGetString(%d) is empty", o.a);
            break;
        }
        case kVersion: {
            uint32_t v = 0;
            FUZZ_EXPECT_RESULT(msptiGetVersion(o.sel & 1 ? nullptr : &v),
                               o.sel & 1 ? MSPTI_ERROR_INVALID_PARAMETER : MSPTI_SUCCESS);
            break;
        }
        case kTimestamp: {
            uint64_t t = 0;
            FUZZ_EXPECT_RESULT(msptiGetTimestamp(o.sel & 1 ? nullptr : &t),
                               o.sel & 1 ? MSPTI_ERROR_INVALID_PARAMETER : MSPTI_SUCCESS);
            if (!(o.sel & 1)) FUZZ_CHECK(t > 0, "msptiGetTimestamp gave 0");
            break;
        }
        case kSetPolicy: SetPolicyFrom(o.c); break;
        case kMalloc: {
            void* p = nullptr;
            InterposedCall(ts);
            if (aclrtMalloc(&p, o.c, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS) {
                ts.allocations.push_back(p);
                RecordIfOn(ts, MSPTI_ACTIVITY_KIND_MEMORY);
            }
            break;
        }
        case kFree: {
            void* p = nullptr;
            if (!ts.allocations.empty()) {
                p = ts.allocations.back();
                ts.allocations.pop_back();
            }
            InterposedCall(ts);
            if (aclrtFree(p) == ACL_SUCCESS) RecordIfOn(ts, MSPTI_ACTIVITY_KIND_MEMORY);
            break;
        }
        case kMemcpy: {
            void* dst = rt.host_dst[ts.index].data();
            const void* src = rt.host_src[ts.index].data();
            auto* dev = static_cast<uint8_t*>(rt.device_buffer[ts.index]);
            size_t n = o.c;
            if (o.a == ACL_MEMCPY_HOST_TO_DEVICE || o.a == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) dst = dev;
            if (o.a == ACL_MEMCPY_DEVICE_TO_HOST) src = dev;
            if (o.a == ACL_MEMCPY_DEVICE_TO_DEVICE) {
                dst = dev;
                src = dev + Runtime::kBytes / 2;
                n /= 2;
            }
            InterposedCall(ts);
            if (fz_memcpy(o.sel & 3, dst, Runtime::kBytes, src, n, o.a, rt.stream) == ACL_SUCCESS)
                RecordIfOn(ts, MSPTI_ACTIVITY_KIND_MEMCPY);
            break;
        }
        case kMemset: {
            InterposedCall(ts);
            void* dev = rt.device_buffer[ts.index];
            const aclError rc = (o.sel & 1) ? aclrtMemsetAsync(dev, Runtime::kBytes, o.a, o.c, rt.stream)
                                            : aclrtMemset(dev, Runtime::kBytes, o.a, o.c);
            if (rc == ACL_SUCCESS) RecordIfOn(ts, MSPTI_ACTIVITY_KIND_MEMSET);
            break;
        }
        case kLaunch:
            InterposedCall(ts);
            (void)rt.Launch();
            break;
        case kSync:
            InterposedCall(ts);
            (void)aclrtSynchronizeStream(rt.stream);
            break;
        case kMark:
            if (o.sel & 1) {
                mstxMarkA(o.text.c_str(), rt.stream);  // with a device marker (not counted)
            } else {
                HostMark(ts, "default", o.text);
                mstxMarkA(o.text.c_str(), nullptr);
            }
            break;
        case kRangeStart: {
            const mstxRangeId id = mstxRangeStartA(o.text.c_str(), (o.sel & 1) ? rt.stream : nullptr);
            if (id != 0) ts.ranges.push_back(id);
            break;
        }
        case kRangeEnd:
            if (!ts.ranges.empty()) {
                mstxRangeEnd(ts.ranges[o.sel % ts.ranges.size()]);
                ts.ranges.erase(ts.ranges.begin() + static_cast<std::ptrdiff_t>(o.sel % ts.ranges.size()));
            } else {
                mstxRangeEnd(static_cast<mstxRangeId>(o.sel));  // an id that was never started
            }
            break;
        case kDomainCreate: {
            mstxDomainHandle_t d = mstxDomainCreateA(o.text.c_str());
            if (d != nullptr) ts.domains.emplace_back(d, o.text);
            break;
        }
        case kDomainMark:
            if (!ts.domains.empty()) {
                const auto& [handle, name] = ts.domains[o.sel % ts.domains.size()];
                // A domain whose name msPTI refuses (too long) may still have a handle when it was
                // created before msPTI subscribed; its marks are ignored like over-long messages.
                if (name.size() < kMaxNameLength) HostMark(ts, name, o.text);
                mstxDomainMarkA(handle, o.text.c_str(), nullptr);
            }
            break;
        default: break;
    }
}

void Cleanup(ThreadState& ts) {
    InterposedCall(ts);
    (void)aclrtSynchronizeStream(Runtime::Instance().stream);  // asynchronous copies are done
    for (mstxRangeId id : ts.ranges) mstxRangeEnd(id);
    ts.ranges.clear();
    for (void* p : ts.allocations) {
        InterposedCall(ts);
        if (aclrtFree(p) == ACL_SUCCESS) RecordIfOn(ts, MSPTI_ACTIVITY_KIND_MEMORY);
    }
    ts.allocations.clear();
    for (int k = MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN; k < MSPTI_EXTERNAL_CORRELATION_KIND_SIZE; ++k) {
        while (!ts.external[k].empty()) {
            uint64_t last = 0;
            FUZZ_EXPECT_RESULT(
                msptiActivityPopExternalCorrelationId(static_cast<msptiExternalCorrelationKind>(k), &last),
                MSPTI_SUCCESS);
            FUZZ_CHECK(last == ts.external[k].back(), "external id stack out of order");
            ts.external[k].pop_back();
        }
        FUZZ_EXPECT_RESULT(msptiActivityPopExternalCorrelationId(static_cast<msptiExternalCorrelationKind>(k), nullptr),
                           MSPTI_ERROR_QUEUE_EMPTY);
    }
    for (const auto& d : ts.domains) mstxDomainDestroy(d.first);
    ts.domains.clear();
    // Pairs balance within a subscription (docs/mspti-deviations.md §4; an EXIT without its ENTER
    // fails at once, in OnCallback). An ENTER may stay open only when the other thread ended its
    // subscription while the call was in flight: msPTI withholds the EXIT then (finding F-7).
    // The model's lock is held across a two-thread Subscribe/Unsubscribe, so current_tag is exact.
    bool may_withhold;
    uintptr_t current_tag;
    {
        std::lock_guard<std::mutex> lock(g_model.mutex);
        may_withhold = g_model.threaded && g_model.subscription_touched;
        current_tag = g_model.current_tag;
    }
    for (const CallbackFrame& f : t_frames) {
        FUZZ_CHECK(may_withhold && f.tag != current_tag,
                   "callback ENTER (domain %u, cbid %u) without EXIT in subscription %#llx, %s", f.domain, f.cbid,
                   static_cast<unsigned long long>(f.tag - kTagBase),
                   may_withhold ? "which is still the current one" : "and no subscription ended meanwhile");
    }
    fuzz::Stats::Instance().exits_withheld += t_frames.size();
    t_frames.clear();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** argv) {
    fuzz::EnsureEnvironment(*argv);
    std::atexit(fuzz::Stats::Print);
    Runtime::Instance();
    FUZZ_EXPECT_RESULT(msptiActivityRegisterCallbacks(Collector::Request, Collector::Complete), MSPTI_SUCCESS);
    // The start state of every input: halted (see Model::halted).
    msptiSubscriberHandle h = nullptr;
    FUZZ_EXPECT_RESULT(msptiSubscribe(&h, nullptr, nullptr), MSPTI_SUCCESS);
    FUZZ_EXPECT_RESULT(msptiUnsubscribe(h), MSPTI_SUCCESS);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    fuzz::Stats::Instance().inputs++;
    Input in(data, size);
    const uint8_t mode = in.u8();
    const bool threaded = (mode & 1) != 0;

    std::vector<Operation> ops[2];
    while (!in.empty() && ops[0].size() + ops[1].size() < 256) {
        const uint8_t opcode = in.u8();
        ops[threaded ? opcode >> 7 : 0].push_back(Decode(in, opcode));
    }

    // Start of every input: no subscriber, every kind off, the collector's callbacks.
    FUZZ_EXPECT_RESULT(msptiActivityFlushAll(0), MSPTI_SUCCESS);
    fuzz::Window window;
    g_model.threaded = false;
    g_model.stale.clear();
    std::fill(std::begin(g_model.kind_touched), std::end(g_model.kind_touched), false);
    g_model.marker_state_touched = false;
    g_model.subscription_touched = false;

    ThreadState main_state;
    bool marker_countable = true;
    if (!threaded) {
        for (const Operation& o : ops[0]) Execute(o, main_state);
        Cleanup(main_state);
    } else {
        fuzz::Stats::Instance().threaded_inputs++;
        // The model's switches as both threads start; what either thread switches is not counted.
        g_model.threaded = true;
        ThreadState second_state;
        second_state.index = 1;
        std::atomic<int> ready{0};
        auto run = [&](int t, ThreadState& ts) {
            ready++;
            while (ready.load() < 2) std::this_thread::yield();
            for (const Operation& o : ops[t]) Execute(o, ts);
            Cleanup(ts);
        };
        std::thread other(run, 1, std::ref(second_state));
        run(0, main_state);
        other.join();
        g_model.threaded = false;
        marker_countable = !g_model.marker_state_touched;
        for (int k = 1; k < kKinds; ++k) main_state.produced[k] += second_state.produced[k];
    }

    // Back to the start state, then the accounting of this input.
    if (g_model.subscribed) FUZZ_EXPECT_RESULT(msptiUnsubscribe(g_model.current), MSPTI_SUCCESS);
    g_model.subscribed = false;
    g_model.halted = true;
    g_model.current = nullptr;
    for (int k = 1; k < kKinds; ++k) {
        FUZZ_EXPECT_RESULT(msptiActivityDisable(static_cast<msptiActivityKind>(k)), MSPTI_SUCCESS);
        g_model.enabled[k] = false;
    }
    for (const auto& name : g_model.disabled_domains)
        FUZZ_EXPECT_RESULT(msptiActivityEnableMarkerDomain(name.c_str()), MSPTI_SUCCESS);
    g_model.disabled_domains.clear();
    FUZZ_EXPECT_RESULT(msptiActivityRegisterCallbacks(Collector::Request, Collector::Complete), MSPTI_SUCCESS);
    FUZZ_EXPECT_RESULT(msptiActivityFlushPeriod(0), MSPTI_SUCCESS);
    Collector::Instance().SetPolicy(BufferPolicy::Normal);

    uint64_t expected[kKinds] = {};
    bool tracked[kKinds] = {};
    bool exact[kKinds] = {};
    for (int k : {MSPTI_ACTIVITY_KIND_MEMORY, MSPTI_ACTIVITY_KIND_MEMCPY, MSPTI_ACTIVITY_KIND_MEMSET}) {
        // A subscription ended or started by the other thread halts or restarts collection at a point
        // the model does not know.
        tracked[k] = !g_model.kind_touched[k] && !g_model.subscription_touched;
        exact[k] = true;
    }
    tracked[MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION] =
        !g_model.kind_touched[MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION] && !g_model.subscription_touched;
    tracked[MSPTI_ACTIVITY_KIND_MARKER] = marker_countable;
    for (int k = 1; k < kKinds; ++k) expected[k] = main_state.produced[k];
    window.Check(expected, tracked, exact, threaded ? "two threads" : "one thread");
    return 0;
}
