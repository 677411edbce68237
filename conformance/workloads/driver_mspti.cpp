// The driver's msPTI commands (subscribe, activity kinds, marker domains, flush, external ids,
// callbacks, dropped-record counts).
#include "driver_common.h"

namespace conformance::driver {

static msptiSubscriberHandle g_subscriber = nullptr;
static msptiSubscriberHandle g_stale = nullptr;

static int enum_value(const std::string& word, const std::map<std::string, int>& names) {
    auto found = names.find(word);
    return found != names.end() ? found->second : static_cast<int>(to_int(word));
}

const std::map<std::string, int> kKinds = {
    {"INVALID", 0},       {"MARKER", 1},   {"KERNEL", 2},
    {"API", 3},           {"HCCL", 4},     {"MEMORY", 5},
    {"MEMSET", 6},        {"MEMCPY", 7},   {"EXTERNAL_CORRELATION", 8},
    {"COMMUNICATION", 9}, {"ACL_API", 10}, {"NODE_API", 11},
    {"RUNTIME_API", 12},  {"COUNT", 13},   {"FORCE_INT", 0x7fffffff},
};
const std::map<std::string, int> kExternalKinds = {
    {"INVALID", 0},
    {"UNKNOWN", 1},
    {"CUSTOM0", 2},
    {"CUSTOM1", 3},
    {"CUSTOM2", 4},
    {"SIZE", 5},
    {"FORCE_INT", 0x7fffffff},
};
const std::map<std::string, int> kDomains = {{"INVALID", 0}, {"RUNTIME", 1}, {"HCCL", 2}, {"SIZE", 3}};

static msptiSubscriberHandle handle_arg(const std::string& word) {
    if (word == "current") return g_subscriber;
    if (word == "null") return nullptr;
    if (word == "stale") return g_stale;
    static int bogus = 0;
    return reinterpret_cast<msptiSubscriberHandle>(&bogus);
}

void cmd_subscribe(const Args& args) {
    bool with_callback = args.opt(0, "cb") != "nocb";
    bool null_handle = args.opt(1, "") == "nullptr";
    msptiSubscriberHandle handle = nullptr;
    Call call("msptiSubscribe", args);
    msptiResult result =
        msptiSubscribe(null_handle ? nullptr : &handle, with_callback ? conformance::api_callback() : nullptr,
                       conformance::callback_userdata());
    call.end(result).json().boolean("callback", with_callback).boolean("null_handle", null_handle);
    call.json().boolean("handle_set", handle != nullptr);
    if (result == MSPTI_SUCCESS && !null_handle) {
        g_subscriber = handle;
        g_stale = handle;
    }
    call.emit();
}

void cmd_unsubscribe(const Args& args) {
    std::string which = args.opt(0, "current");
    msptiSubscriberHandle handle = handle_arg(which);
    Call call("msptiUnsubscribe", args);
    msptiResult result = msptiUnsubscribe(handle);
    call.end(result).json().str("handle", which);
    if (result == MSPTI_SUCCESS && which == "current") g_subscriber = nullptr;
    call.emit();
}

void cmd_register(const Args& args) {
    auto pick_request = [](const std::string& word) {
        return word == "null" ? nullptr : conformance::request_callback(word == "B" ? 'B' : 'A');
    };
    auto pick_complete = [](const std::string& word) {
        return word == "null" ? nullptr : conformance::complete_callback(word == "B" ? 'B' : 'A');
    };
    std::string request = args.opt(0, "A");
    std::string complete = args.opt(1, request);
    Call call("msptiActivityRegisterCallbacks", args);
    msptiResult result = msptiActivityRegisterCallbacks(pick_request(request), pick_complete(complete));
    call.end(result).json().str("request", request).str("complete", complete);
    call.emit();
}

void cmd_kind(const char* function, msptiResult (*api)(msptiActivityKind), const Args& args) {
    int kind = enum_value(args.at(0), kKinds);
    Call call(function, args);
    msptiResult result = api(static_cast<msptiActivityKind>(kind));
    call.end(result).json().inum("kind", kind);
    call.emit();
}

void cmd_is_enabled(const Args& args) {
    int kind = enum_value(args.at(0), kKinds);
    Call call("msptiActivityIsEnabled", args);
    bool value = msptiActivityIsEnabled(static_cast<msptiActivityKind>(kind));
    call.end(0).json().inum("kind", kind).boolean("value", value);
    call.emit();
}

void cmd_domain(const char* function, msptiResult (*api)(const char*), const Args& args) {
    StringArg name = string_arg(args.at(0));
    Call call(function, args);
    msptiResult result = api(name.pointer);
    call.end(result).json().str("name", name.pointer == nullptr ? nullptr : name.described.c_str());
    call.json().num("length", name.described.size());
    call.emit();
}

void cmd_flush(const Args& args) {
    auto flag = static_cast<uint32_t>(to_int(args.opt(0, "1")));
    Call call("msptiActivityFlushAll", args);
    msptiResult result = msptiActivityFlushAll(flag);
    call.end(result).json().num("flag", flag);
    call.emit();
}

void cmd_flush_period(const Args& args) {
    auto period = static_cast<uint32_t>(to_int(args.at(0)));
    Call call("msptiActivityFlushPeriod", args);
    msptiResult result = msptiActivityFlushPeriod(period);
    call.end(result).json().num("period", period);
    call.emit();
}

void cmd_push(const Args& args) {
    int kind = enum_value(args.at(0), kExternalKinds);
    auto id = static_cast<uint64_t>(to_int(args.at(1)));
    Call call("msptiActivityPushExternalCorrelationId", args);
    msptiResult result = msptiActivityPushExternalCorrelationId(static_cast<msptiExternalCorrelationKind>(kind), id);
    call.end(result).json().inum("ekind", kind).num("id", id);
    call.emit();
}

void cmd_pop(const Args& args) {
    int kind = enum_value(args.at(0), kExternalKinds);
    bool null_out = args.opt(1, "") == "null";
    const uint64_t sentinel = 0xC0FFEEC0FFEEull;
    uint64_t value = sentinel;
    Call call("msptiActivityPopExternalCorrelationId", args);
    msptiResult result = msptiActivityPopExternalCorrelationId(static_cast<msptiExternalCorrelationKind>(kind),
                                                               null_out ? nullptr : &value);
    call.end(result).json().inum("ekind", kind).boolean("null_out", null_out);
    call.json().boolean("written", value != sentinel);
    if (value != sentinel) call.json().num("value", value);
    call.emit();
}

void cmd_cb_enable(const Args& args) {
    auto enable = static_cast<uint32_t>(to_int(args.at(0)));
    int domain = enum_value(args.at(1), kDomains);
    auto cbid = static_cast<uint32_t>(to_int(args.at(2)));
    std::string which = args.opt(3, "current");
    Call call("msptiEnableCallback", args);
    msptiResult result = msptiEnableCallback(enable, handle_arg(which), static_cast<msptiCallbackDomain>(domain), cbid);
    call.end(result).json().num("enable", enable).inum("domain", domain).num("cbid", cbid).str("handle", which);
    call.emit();
}

void cmd_cb_domain(const Args& args) {
    auto enable = static_cast<uint32_t>(to_int(args.at(0)));
    int domain = enum_value(args.at(1), kDomains);
    std::string which = args.opt(2, "current");
    Call call("msptiEnableDomain", args);
    msptiResult result = msptiEnableDomain(enable, handle_arg(which), static_cast<msptiCallbackDomain>(domain));
    call.end(result).json().num("enable", enable).inum("domain", domain).str("handle", which);
    call.emit();
}

void cmd_dropped(const Args& args) {
#ifdef CONFORMANCE_HAVE_EXT
    auto api = RESOLVE(msptiActivityGetDroppedRecords);
    if (api != nullptr) {
        int kind = enum_value(args.opt(0, "INVALID"), kKinds);
        uint64_t dropped = 0;
        Call call("msptiActivityGetDroppedRecords", args);
        msptiResult result = api(static_cast<msptiActivityKind>(kind), &dropped);
        call.end(result).json().num("value", dropped).boolean("available", true).inum("kind", kind);
        call.emit();
        return;
    }
#endif
    Json event("call");
    event.str("fn", "msptiActivityGetDroppedRecords").boolean("available", false);
    if (!args.label.empty()) event.str("label", args.label);
    conformance::emit(event);
}

}  // namespace conformance::driver
