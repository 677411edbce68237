// The generic scenario driver: executes a small command script and logs what it did.
//
//   driver SCRIPT_FILE
//
// One command per line; words are separated by blanks; '#' starts a comment. A word "@name" labels
// the call so a checker can find it. In every word "%t" becomes the thread index, "%T" the thread
// index plus one and "%i" the index of the innermost repeat. Blocks: "repeat N {", "threads N {",
// "quiet {" ... "}"; "repeat N CMD" repeats a single command. Every command logs a "call" event with the function it called, its
// result ("ret"), the calling thread ("tid") and the CLOCK_REALTIME window ("t0", "t1") around the
// call. Inside "quiet" blocks only per-function totals are logged (stress runs).
//
// msPTI:    subscribe [cb|nocb] [nullptr] | unsubscribe [current|null|bogus|stale]
//           register REQ COMP (A|B|null each) | enable K | disable K | is_enabled K
//           domain_enable NAME | domain_disable NAME | flush FLAG | flush_period MS
//           push EKIND ID | pop EKIND [null] | cb_enable ON DOMAIN CBID [HANDLE] | cb_domain ON DOMAIN [HANDLE]
//           dropped [KIND]   (mspti_ext.h; INVALID = all kinds)
// ACL:      acl_init | acl_finalize | set_device D | reset_device D | create_context V D | destroy_context V
//           set_context V | create_stream V | destroy_stream V | sync V | sync_device
//           malloc V BYTES [plain|cfg|cached|task] | free V | malloc_host V BYTES | free_host V
//           reserve V BYTES | release V | host V BYTES | mem_info | mem_flush V
//           memcpy DST SRC BYTES KIND [STREAM [direct] | direct] | memcpy2d DST SRC WIDTH HEIGHT KIND [STREAM | direct]
//           memset V VALUE BYTES [STREAM [direct] | direct] | launch KERNEL STREAM [plain|v2|config|hostargs|direct] [BLOCKS]
//           (direct: libascendcl's own function, found with dlopen + dlsym, never an interposer)
//           capture_begin STREAM [global|thread|relaxed] | capture_end STREAM MODEL
//           model_execute MODEL STREAM | model_destroy MODEL   (aclmdlRI stream capture and replay)
// aclnn:    aclnn_add STREAM   (aclnnAdd over {4,2} floats, synchronized and checked, like the CANN samples)
// HCCL:     hccl_init_all N | hccl_comm_name RANK | hccl_allreduce RANK STREAM COUNT
//           hccl_broadcast RANK STREAM COUNT [ROOT] | hccl_allgather RANK STREAM COUNT
//           hccl_reducescatter RANK STREAM COUNT | hccl_barrier RANK STREAM | hccl_destroy   (FP32 data)
// mstx:     mark MSG [STREAM] | range_start R MSG [STREAM] | range_end R | domain_create D NAME
//           domain_destroy D | domain_mark D MSG [STREAM] | domain_range_start R D MSG [STREAM]
//           domain_range_end D R
// process:  fork NAME { ... }   the child runs the block, then ends the script and exits 0; its log is
//                               $MSPTI_CONFORMANCE_LOG.NAME (collector_forked_child). The parent waits
//                               for it (at most 20 s, then SIGKILL) and logs a "fork" call with the
//                               child's pid, exit_code or signal, and timed_out
//           exit CODE           std::exit(CODE) on the calling thread, after an "exit_called" event
//           on_thread T { ... } the block runs only on thread index T of a "threads" block
//           wait_launches N     waits (at most 20 s) until the launch commands made reach N
// other:    note TEXT | sleep MS
// Special string words: <null>, <empty>, <long:N> (N characters), <mutable:TEXT> (a message buffer
// that is overwritten right after the call). A range word "id:N" means the literal range id N.
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "collector.h"

#if __has_include("mspti_ext.h")
#include "mspti_ext.h"
#define CONFORMANCE_HAVE_EXT 1
#endif
#if __has_include("acl/acl.h")
#include "acl/acl.h"
#define CONFORMANCE_HAVE_ACL 1
#endif
#if __has_include("aclnnop/aclnn_add.h") && defined(CONFORMANCE_HAVE_ACL)
#include "aclnnop/aclnn_add.h"
#define CONFORMANCE_HAVE_ACLNN 1
#endif
#if __has_include("hccl/hccl.h") && defined(CONFORMANCE_HAVE_ACL)
#include "hccl/hccl.h"
#define CONFORMANCE_HAVE_HCCL 1
#endif
#if __has_include("mstx/ms_tools_ext.h") && defined(CONFORMANCE_HAVE_ACL)
#include "mstx/ms_tools_ext.h"
#define CONFORMANCE_HAVE_MSTX 1
#endif

using conformance::Json;

namespace {

// ---------------------------------------------------------------- script

struct Command {
    std::vector<std::string> words;
    std::vector<Command> body;
    int line = 0;
};

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> words;
    std::istringstream stream(line);
    std::string word;
    while (stream >> word) {
        if (word[0] == '#') break;
        words.push_back(word);
    }
    return words;
}

[[noreturn]] void die(const std::string& message) {
    Json event("driver_error");
    event.str("message", message);
    conformance::emit(event);
    std::fprintf(stderr, "driver: %s\n", message.c_str());
    std::exit(3);
}

std::vector<Command> parse_block(std::vector<std::pair<int, std::string>>& lines, size_t& index, bool nested) {
    std::vector<Command> commands;
    while (index < lines.size()) {
        auto [number, text] = lines[index++];
        std::vector<std::string> words = split(text);
        if (words.empty()) continue;
        if (words.size() == 1 && words[0] == "}") {
            if (!nested) die("line " + std::to_string(number) + ": unmatched '}'");
            return commands;
        }
        Command command;
        command.line = number;
        if (words.back() == "{") {
            words.pop_back();
            command.words = words;
            command.body = parse_block(lines, index, true);
        } else {
            command.words = words;
        }
        commands.push_back(std::move(command));
    }
    if (nested) die("unterminated block at the end of the script");
    return commands;
}

// ---------------------------------------------------------------- execution context

struct Frame {
    int thread = 0;
    long repeat = 0;
};

thread_local bool t_quiet = false;
thread_local std::map<std::string, std::pair<uint64_t, uint64_t>>* t_quiet_totals = nullptr;

std::string substitute(const std::string& word, const Frame& frame) {
    std::string out;
    for (size_t i = 0; i < word.size(); ++i) {
        if (word[i] == '%' && i + 1 < word.size() && word[i + 1] == 't') {
            out += std::to_string(frame.thread);
            ++i;
        } else if (word[i] == '%' && i + 1 < word.size() && word[i + 1] == 'T') {
            out += std::to_string(frame.thread + 1);
            ++i;
        } else if (word[i] == '%' && i + 1 < word.size() && word[i + 1] == 'i') {
            out += std::to_string(frame.repeat);
            ++i;
        } else {
            out += word[i];
        }
    }
    return out;
}

struct Args {
    std::vector<std::string> words;  // without the command name and the label
    std::string label;
    int line = 0;
    size_t size() const { return words.size(); }
    const std::string& at(size_t i) const {
        if (i >= words.size()) die("line " + std::to_string(line) + ": missing argument " + std::to_string(i + 1));
        return words[i];
    }
    std::string opt(size_t i, const std::string& fallback) const { return i < words.size() ? words[i] : fallback; }
};

long long to_int(const std::string& text) {
    char* end = nullptr;
    errno = 0;
    long long value = std::strtoll(text.c_str(), &end, 0);
    if (end == text.c_str() || *end != 0 || errno == ERANGE) {
        errno = 0;
        unsigned long long unsigned_value = std::strtoull(text.c_str(), &end, 0);
        if (end == text.c_str() || *end != 0 || errno == ERANGE) die("not a number: " + text);
        return static_cast<long long>(unsigned_value);
    }
    return value;
}

// Strings given by special words stay alive for the whole run (msPTI may keep pointers to them).
struct StringArg {
    const char* pointer = nullptr;
    std::string described;
    char* mutable_buffer = nullptr;
};

StringArg string_arg(const std::string& word) {
    static std::mutex mutex;
    static std::vector<std::unique_ptr<std::string>> owned;
    StringArg arg;
    if (word == "<null>") {
        arg.described = "<null>";
        return arg;
    }
    std::string value;
    bool is_mutable = false;
    if (word == "<empty>") {
        value = "";
    } else if (word.rfind("<long:", 0) == 0 && word.back() == '>') {
        value = std::string(static_cast<size_t>(to_int(word.substr(6, word.size() - 7))), 'x');
    } else if (word.rfind("<mutable:", 0) == 0 && word.back() == '>') {
        value = word.substr(9, word.size() - 10);
        is_mutable = true;
    } else {
        value = word;
    }
    arg.described = value;
    if (is_mutable) {
        arg.mutable_buffer = static_cast<char*>(std::malloc(value.size() + 1));
        std::memcpy(arg.mutable_buffer, value.c_str(), value.size() + 1);
        arg.pointer = arg.mutable_buffer;
        return arg;
    }
    std::lock_guard<std::mutex> lock(mutex);
    owned.push_back(std::make_unique<std::string>(value));
    arg.pointer = owned.back()->c_str();
    return arg;
}

void release_string(StringArg& arg) {
    if (arg.mutable_buffer != nullptr) {
        std::memset(arg.mutable_buffer, '#', std::strlen(arg.mutable_buffer));
        std::free(arg.mutable_buffer);
        arg.mutable_buffer = nullptr;
    }
}

// A logged call: construct just before the call, end() just after, add fields, then emit().
class Call {
public:
    Call(const char* function, const Args& args) : event_("call"), function_(function) {
        event_.str("fn", function);
        if (!args.label.empty()) event_.str("label", args.label);
        t0_ = conformance::now_ns();
    }
    Call& end(int64_t result) {
        t1_ = conformance::now_ns();
        result_ = result;
        event_.inum("ret", result).num("tid", conformance::thread_id()).num("t0", t0_).num("t1", t1_);
        return *this;
    }
    Json& json() { return event_; }
    void emit(bool failed = false) {
        if (t_quiet && t_quiet_totals != nullptr) {
            auto& totals = (*t_quiet_totals)[function_];
            ++totals.first;
            if (failed || result_ != 0) ++totals.second;
            return;
        }
        conformance::emit(event_);
    }

private:
    Json event_;
    const char* function_;
    uint64_t t0_ = 0;
    uint64_t t1_ = 0;
    int64_t result_ = 0;
};

void emit_quiet_totals() {
    if (t_quiet_totals == nullptr) return;
    for (const auto& [function, totals] : *t_quiet_totals) {
        Json event("quiet");
        event.str("fn", function).num("count", totals.first).num("fails", totals.second);
        event.num("tid", conformance::thread_id());
        conformance::emit(event);
    }
    t_quiet_totals->clear();
}

void missing(const char* function, const Args& args) {
    Json event("call");
    event.str("fn", function);
    if (!args.label.empty()) event.str("label", args.label);
    event.boolean("missing", true).num("tid", conformance::thread_id());
    conformance::emit(event);
}

// Resolves a function by name in the process's global scope (so an interposing msPTI is found
// first), typed after the declaration in the target's headers. NULL when the target lacks it.
#define RESOLVE(fn) \
    ([]() { static auto pointer = reinterpret_cast<decltype(&fn)>(dlsym(RTLD_DEFAULT, #fn)); return pointer; }())

// ---------------------------------------------------------------- shared variables

struct Value {
    void* pointer = nullptr;
    size_t size = 0;
    uint64_t id = 0;        // range ids
    int64_t stream_id = -1;  // streams
};

// Never destroyed, like every table a command reads: threads may still run commands while
// another thread's exit() runs the static destructors (the exit command).
std::mutex& g_vars_mutex = *new std::mutex();
std::map<std::string, Value>& g_vars = *new std::map<std::string, Value>();
std::atomic<uint64_t> g_launches{0};  // launch commands made, whatever their result (wait_launches)

Value lookup(const std::string& name) {
    std::lock_guard<std::mutex> lock(g_vars_mutex);
    auto found = g_vars.find(name);
    if (found == g_vars.end()) die("unknown variable " + name);
    return found->second;
}

void store(const std::string& name, const Value& value) {
    std::lock_guard<std::mutex> lock(g_vars_mutex);
    g_vars[name] = value;
}

void forget(const std::string& name) {
    std::lock_guard<std::mutex> lock(g_vars_mutex);
    g_vars.erase(name);
}

// ---------------------------------------------------------------- msPTI commands

msptiSubscriberHandle g_subscriber = nullptr;
msptiSubscriberHandle g_stale = nullptr;

int enum_value(const std::string& word, const std::map<std::string, int>& names) {
    auto found = names.find(word);
    return found != names.end() ? found->second : static_cast<int>(to_int(word));
}

const std::map<std::string, int> kKinds = {
    {"INVALID", 0}, {"MARKER", 1}, {"KERNEL", 2}, {"API", 3}, {"HCCL", 4}, {"MEMORY", 5}, {"MEMSET", 6},
    {"MEMCPY", 7}, {"EXTERNAL_CORRELATION", 8}, {"COMMUNICATION", 9}, {"ACL_API", 10}, {"NODE_API", 11},
    {"RUNTIME_API", 12}, {"COUNT", 13}, {"FORCE_INT", 0x7fffffff},
};
const std::map<std::string, int> kExternalKinds = {
    {"INVALID", 0}, {"UNKNOWN", 1}, {"CUSTOM0", 2}, {"CUSTOM1", 3}, {"CUSTOM2", 4}, {"SIZE", 5},
    {"FORCE_INT", 0x7fffffff},
};
const std::map<std::string, int> kDomains = {{"INVALID", 0}, {"RUNTIME", 1}, {"HCCL", 2}, {"SIZE", 3}};

msptiSubscriberHandle handle_arg(const std::string& word) {
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
    msptiResult result = msptiSubscribe(null_handle ? nullptr : &handle,
                                        with_callback ? conformance::api_callback() : nullptr,
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
    msptiResult result =
        msptiActivityPopExternalCorrelationId(static_cast<msptiExternalCorrelationKind>(kind), null_out ? nullptr : &value);
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
    msptiResult result =
        msptiEnableCallback(enable, handle_arg(which), static_cast<msptiCallbackDomain>(domain), cbid);
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

// ---------------------------------------------------------------- ACL commands

#ifdef CONFORMANCE_HAVE_ACL
aclrtStream stream_arg(const std::string& word) {
    if (word == "null" || word == "default") return nullptr;
    return lookup(word).pointer;
}

int64_t stream_id_of(const std::string& word) {
    if (word == "null" || word == "default" || word == "none") return -1;
    return lookup(word).stream_id;
}

#define ACL_CALL(fn, args, ...)                                            \
    auto api = RESOLVE(fn);                                                \
    if (api == nullptr) {                                                  \
        missing(#fn, args);                                                \
        return;                                                            \
    }                                                                      \
    Call call(#fn, args);                                                  \
    aclError result = api(__VA_ARGS__);                                    \
    call.end(result)

void cmd_acl_init(const Args& args) {
    ACL_CALL(aclInit, args, nullptr);
    call.emit();
}

void cmd_acl_finalize(const Args& args) {
    ACL_CALL(aclFinalize, args);
    call.emit();
}

void cmd_set_device(const Args& args) {
    auto device = static_cast<int32_t>(to_int(args.at(0)));
    ACL_CALL(aclrtSetDevice, args, device);
    call.json().inum("device", device);
    call.emit();
}

void cmd_reset_device(const Args& args) {
    auto device = static_cast<int32_t>(to_int(args.at(0)));
    ACL_CALL(aclrtResetDevice, args, device);
    call.json().inum("device", device);
    call.emit();
}

void cmd_create_context(const Args& args) {
    aclrtContext context = nullptr;
    auto device = static_cast<int32_t>(to_int(args.at(1)));
    ACL_CALL(aclrtCreateContext, args, &context, device);
    call.json().str("var", args.at(0)).inum("device", device);
    if (result == 0) store(args.at(0), Value{context, 0, 0, -1});
    call.emit();
}

void cmd_destroy_context(const Args& args) {
    void* context = lookup(args.at(0)).pointer;
    ACL_CALL(aclrtDestroyContext, args, context);
    call.json().str("var", args.at(0));
    call.emit();
}

void cmd_set_context(const Args& args) {
    void* context = lookup(args.at(0)).pointer;
    ACL_CALL(aclrtSetCurrentContext, args, context);
    call.json().str("var", args.at(0));
    call.emit();
}

void cmd_create_stream(const Args& args) {
    aclrtStream stream = nullptr;
    {
        ACL_CALL(aclrtCreateStream, args, &stream);
        call.json().str("var", args.at(0));
        call.emit();
        if (result != 0) return;
    }
    int32_t id = -1;
    if (auto get_id = RESOLVE(aclrtStreamGetId); get_id != nullptr) get_id(stream, &id);
    store(args.at(0), Value{stream, 0, 0, id});
    Json event("stream");
    event.str("var", args.at(0)).inum("stream_id", id).num("tid", conformance::thread_id());
    conformance::emit(event);
}

void cmd_destroy_stream(const Args& args) {
    aclrtStream stream = stream_arg(args.at(0));
    ACL_CALL(aclrtDestroyStream, args, stream);
    call.json().str("stream", args.at(0));
    call.emit();
}

void cmd_sync(const Args& args) {
    aclrtStream stream = stream_arg(args.at(0));
    ACL_CALL(aclrtSynchronizeStream, args, stream);
    call.json().str("stream", args.at(0)).inum("stream_id", stream_id_of(args.at(0)));
    call.emit();
}

void cmd_sync_device(const Args& args) {
    ACL_CALL(aclrtSynchronizeDevice, args);
    call.emit();
}

void log_memory(Call& call, const std::string& var, void* pointer, size_t size) {
    call.json().str("var", var).num("ptr", reinterpret_cast<uintptr_t>(pointer)).num("bytes", size);
}

void cmd_malloc(const Args& args) {
    const std::string& var = args.at(0);
    auto size = static_cast<size_t>(to_int(args.at(1)));
    std::string variant = args.opt(2, "plain");
    void* pointer = nullptr;
    if (variant == "cfg") {
        ACL_CALL(aclrtMallocWithCfg, args, &pointer, size, ACL_MEM_MALLOC_HUGE_FIRST, nullptr);
        log_memory(call, var, pointer, size);
        if (result == 0) store(var, Value{pointer, size, 0, -1});
        call.emit();
    } else if (variant == "cached") {
        ACL_CALL(aclrtMallocCached, args, &pointer, size, ACL_MEM_MALLOC_HUGE_FIRST);
        log_memory(call, var, pointer, size);
        if (result == 0) store(var, Value{pointer, size, 0, -1});
        call.emit();
    } else if (variant == "task") {
        ACL_CALL(aclrtMallocForTaskScheduler, args, &pointer, size, ACL_MEM_MALLOC_HUGE_FIRST, nullptr);
        log_memory(call, var, pointer, size);
        if (result == 0) store(var, Value{pointer, size, 0, -1});
        call.emit();
    } else {
        ACL_CALL(aclrtMalloc, args, &pointer, size, ACL_MEM_MALLOC_HUGE_FIRST);
        log_memory(call, var, pointer, size);
        if (result == 0) store(var, Value{pointer, size, 0, -1});
        call.emit();
    }
}

void cmd_free(const Args& args) {
    Value value = lookup(args.at(0));
    ACL_CALL(aclrtFree, args, value.pointer);
    log_memory(call, args.at(0), value.pointer, value.size);
    if (result == 0) forget(args.at(0));
    call.emit();
}

void cmd_malloc_host(const Args& args) {
    auto size = static_cast<size_t>(to_int(args.at(1)));
    void* pointer = nullptr;
    ACL_CALL(aclrtMallocHost, args, &pointer, size);
    log_memory(call, args.at(0), pointer, size);
    if (result == 0) store(args.at(0), Value{pointer, size, 0, -1});
    call.emit();
}

void cmd_free_host(const Args& args) {
    Value value = lookup(args.at(0));
    ACL_CALL(aclrtFreeHost, args, value.pointer);
    log_memory(call, args.at(0), value.pointer, value.size);
    if (result == 0) forget(args.at(0));
    call.emit();
}

void cmd_reserve(const Args& args) {
    auto size = static_cast<size_t>(to_int(args.at(1)));
    void* pointer = nullptr;
    ACL_CALL(aclrtReserveMemAddress, args, &pointer, size, 0, nullptr, 0);
    log_memory(call, args.at(0), pointer, size);
    if (result == 0) store(args.at(0), Value{pointer, size, 0, -1});
    call.emit();
}

void cmd_release(const Args& args) {
    Value value = lookup(args.at(0));
    ACL_CALL(aclrtReleaseMemAddress, args, value.pointer);
    log_memory(call, args.at(0), value.pointer, value.size);
    if (result == 0) forget(args.at(0));
    call.emit();
}

void cmd_mem_info(const Args& args) {
    size_t free_bytes = 0;
    size_t total = 0;
    ACL_CALL(aclrtGetMemInfo, args, ACL_HBM_MEM, &free_bytes, &total);
    call.emit();
}

void cmd_mem_flush(const Args& args) {
    Value value = lookup(args.at(0));
    ACL_CALL(aclrtMemFlush, args, value.pointer, value.size);
    call.emit();
}

aclrtMemcpyKind copy_kind(const std::string& word) {
    static const std::map<std::string, aclrtMemcpyKind> kinds = {
        {"h2h", ACL_MEMCPY_HOST_TO_HOST}, {"h2d", ACL_MEMCPY_HOST_TO_DEVICE}, {"d2h", ACL_MEMCPY_DEVICE_TO_HOST},
        {"d2d", ACL_MEMCPY_DEVICE_TO_DEVICE}, {"default", ACL_MEMCPY_DEFAULT},
        {"h2b2d", ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE}, {"inner_d2d", ACL_MEMCPY_INNER_DEVICE_TO_DEVICE},
        {"inter_d2d", ACL_MEMCPY_INTER_DEVICE_TO_DEVICE},
    };
    auto found = kinds.find(word);
    if (found == kinds.end()) die("unknown memcpy kind " + word);
    return found->second;
}

// libascendcl's own `name`, as a program that opens the library itself gets it (ctypes, plugin
// loaders): never a profiler's interposer. nullptr if the library or the function is missing.
void* direct_function(const char* name) {
    static void* const acl = dlopen("libascendcl.so", RTLD_NOW | RTLD_LOCAL);
    return acl != nullptr ? dlsym(acl, name) : nullptr;
}

void cmd_memcpy(const Args& args) {
    Value dst = lookup(args.at(0));
    Value src = lookup(args.at(1));
    auto count = static_cast<size_t>(to_int(args.at(2)));
    aclrtMemcpyKind kind = copy_kind(args.at(3));
    if (args.size() > 5 && args.at(5) == "direct") {
        aclrtStream stream = stream_arg(args.at(4));
        const auto direct = reinterpret_cast<decltype(&aclrtMemcpyAsync)>(direct_function("aclrtMemcpyAsync"));
        if (direct == nullptr) {
            missing("aclrtMemcpyAsync", args);
            return;
        }
        Call call("aclrtMemcpyAsync", args);
        call.end(direct(dst.pointer, dst.size, src.pointer, count, kind, stream));
        call.json().num("bytes", count).str("copy", args.at(3)).str("stream", args.at(4)).boolean("direct", true);
        call.json().inum("stream_id", stream_id_of(args.at(4)));
        call.emit();
    } else if (args.size() == 5 && args.at(4) == "direct") {
        const auto direct = reinterpret_cast<decltype(&aclrtMemcpy)>(direct_function("aclrtMemcpy"));
        if (direct == nullptr) {
            missing("aclrtMemcpy", args);
            return;
        }
        Call call("aclrtMemcpy", args);
        call.end(direct(dst.pointer, dst.size, src.pointer, count, kind));
        call.json().num("bytes", count).str("copy", args.at(3)).boolean("direct", true);
        call.emit();
    } else if (args.size() > 4) {
        aclrtStream stream = stream_arg(args.at(4));
        ACL_CALL(aclrtMemcpyAsync, args, dst.pointer, dst.size, src.pointer, count, kind, stream);
        call.json().num("bytes", count).str("copy", args.at(3)).str("stream", args.at(4));
        call.json().inum("stream_id", stream_id_of(args.at(4)));
        call.emit();
    } else {
        ACL_CALL(aclrtMemcpy, args, dst.pointer, dst.size, src.pointer, count, kind);
        call.json().num("bytes", count).str("copy", args.at(3));
        call.emit();
    }
}

void cmd_memcpy2d(const Args& args) {
    Value dst = lookup(args.at(0));
    Value src = lookup(args.at(1));
    auto width = static_cast<size_t>(to_int(args.at(2)));
    auto height = static_cast<size_t>(to_int(args.at(3)));
    aclrtMemcpyKind kind = copy_kind(args.at(4));
    if (args.size() > 5 && args.at(5) == "direct") {
        const auto direct = reinterpret_cast<decltype(&aclrtMemcpy2d)>(direct_function("aclrtMemcpy2d"));
        if (direct == nullptr) {
            missing("aclrtMemcpy2d", args);
            return;
        }
        Call call("aclrtMemcpy2d", args);
        call.end(direct(dst.pointer, width, src.pointer, width, width, height, kind));
        call.json().num("bytes", width * height).str("copy", args.at(4)).boolean("direct", true);
        call.emit();
    } else if (args.size() > 5) {
        aclrtStream stream = stream_arg(args.at(5));
        ACL_CALL(aclrtMemcpy2dAsync, args, dst.pointer, width, src.pointer, width, width, height, kind, stream);
        call.json().num("bytes", width * height).str("copy", args.at(4)).str("stream", args.at(5));
        call.json().inum("stream_id", stream_id_of(args.at(5)));
        call.emit();
    } else {
        ACL_CALL(aclrtMemcpy2d, args, dst.pointer, width, src.pointer, width, width, height, kind);
        call.json().num("bytes", width * height).str("copy", args.at(4));
        call.emit();
    }
}

void cmd_memset(const Args& args) {
    Value target = lookup(args.at(0));
    auto value = static_cast<int32_t>(to_int(args.at(1)));
    auto count = static_cast<size_t>(to_int(args.at(2)));
    if (args.size() > 4 && args.at(4) == "direct") {
        aclrtStream stream = stream_arg(args.at(3));
        const auto direct = reinterpret_cast<decltype(&aclrtMemsetAsync)>(direct_function("aclrtMemsetAsync"));
        if (direct == nullptr) {
            missing("aclrtMemsetAsync", args);
            return;
        }
        Call call("aclrtMemsetAsync", args);
        call.end(direct(target.pointer, target.size, value, count, stream));
        call.json().inum("value", value).num("bytes", count).str("stream", args.at(3)).boolean("direct", true);
        call.json().inum("stream_id", stream_id_of(args.at(3)));
        call.emit();
    } else if (args.size() == 4 && args.at(3) == "direct") {
        const auto direct = reinterpret_cast<decltype(&aclrtMemset)>(direct_function("aclrtMemset"));
        if (direct == nullptr) {
            missing("aclrtMemset", args);
            return;
        }
        Call call("aclrtMemset", args);
        call.end(direct(target.pointer, target.size, value, count));
        call.json().inum("value", value).num("bytes", count).boolean("direct", true);
        call.emit();
    } else if (args.size() > 3) {
        aclrtStream stream = stream_arg(args.at(3));
        ACL_CALL(aclrtMemsetAsync, args, target.pointer, target.size, value, count, stream);
        call.json().inum("value", value).num("bytes", count).str("stream", args.at(3));
        call.json().inum("stream_id", stream_id_of(args.at(3)));
        call.emit();
    } else {
        ACL_CALL(aclrtMemset, args, target.pointer, target.size, value, count);
        call.json().inum("value", value).num("bytes", count);
        call.emit();
    }
}

aclrtFuncHandle kernel_function(const std::string& name, const Args& launch_args) {
    Args args;  // the loading calls are logged without the launch's label
    args.line = launch_args.line;
    static std::mutex& mutex = *new std::mutex();
    static auto& functions = *new std::map<std::string, aclrtFuncHandle>();
    static aclrtBinHandle binary = nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    auto found = functions.find(name);
    if (found != functions.end()) return found->second;
    if (binary == nullptr) {
        static std::vector<char>& data = *new std::vector<char>();
        const char* path = std::getenv("MSPTI_CONFORMANCE_KERNEL_BIN");
        if (path != nullptr && *path != 0) {
            std::ifstream file(path, std::ios::binary);
            data.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
        } else {
            const char blob[] = "mspti-conformance opaque kernel binary";
            data.assign(blob, blob + sizeof blob);
        }
        auto load = RESOLVE(aclrtBinaryLoadFromData);
        if (load == nullptr) {
            missing("aclrtBinaryLoadFromData", args);
            return nullptr;
        }
        Call call("aclrtBinaryLoadFromData", args);
        aclError result = load(data.data(), data.size(), nullptr, &binary);
        call.end(result).emit();
        if (result != 0) return nullptr;
    }
    auto get = RESOLVE(aclrtBinaryGetFunction);
    if (get == nullptr) {
        missing("aclrtBinaryGetFunction", args);
        return nullptr;
    }
    aclrtFuncHandle function = nullptr;
    Call call("aclrtBinaryGetFunction", args);
    aclError result = get(binary, name.c_str(), &function);
    call.end(result).json().str("kernel", name);
    call.emit();
    if (result != 0) return nullptr;
    functions[name] = function;
    return function;
}

void cmd_launch(const Args& args) {
    const std::string& name = args.at(0);
    aclrtStream stream = stream_arg(args.at(1));
    std::string variant = args.opt(2, "plain");
    auto blocks = static_cast<uint32_t>(to_int(args.opt(3, "1")));
    aclrtFuncHandle function = kernel_function(name, args);
    if (function == nullptr) {
        Json event("call");
        event.str("fn", "launch").str("kernel", name).boolean("no_function", true);
        conformance::emit(event);
        return;
    }
    uint64_t kernel_args[4] = {0, 0, 0, 0};
    auto annotate = [&](Call& call) {
        g_launches.fetch_add(1, std::memory_order_relaxed);
        call.json().str("kernel", name).str("stream", args.at(1)).inum("stream_id", stream_id_of(args.at(1)));
        call.json().num("blocks", blocks).str("variant", variant);
    };
    if (variant == "v2") {
        ACL_CALL(aclrtLaunchKernelV2, args, function, blocks, kernel_args, sizeof kernel_args, nullptr, stream);
        annotate(call);
        call.emit();
    } else if (variant == "config") {
        aclrtArgsHandle handle = nullptr;
        if (auto init = RESOLVE(aclrtKernelArgsInit); init != nullptr) init(function, &handle);
        if (auto finalize = RESOLVE(aclrtKernelArgsFinalize); finalize != nullptr && handle != nullptr) finalize(handle);
        ACL_CALL(aclrtLaunchKernelWithConfig, args, function, blocks, stream, nullptr, handle, nullptr);
        annotate(call);
        call.emit();
    } else if (variant == "hostargs") {
        ACL_CALL(aclrtLaunchKernelWithHostArgs, args, function, blocks, stream, nullptr, kernel_args,
                 sizeof kernel_args, nullptr, 0);
        annotate(call);
        call.emit();
    } else if (variant == "direct") {
        static const auto direct = reinterpret_cast<decltype(&aclrtLaunchKernel)>(direct_function("aclrtLaunchKernel"));
        if (direct == nullptr) {
            missing("aclrtLaunchKernel", args);
            return;
        }
        Call call("aclrtLaunchKernel", args);
        call.end(direct(function, blocks, kernel_args, sizeof kernel_args, stream));
        annotate(call);
        call.emit();
    } else {
        ACL_CALL(aclrtLaunchKernel, args, function, blocks, kernel_args, sizeof kernel_args, stream);
        annotate(call);
        call.emit();
    }
}
// Stream capture into a model run instance and its executions (aclmdlRI*). These are looked up by
// name with their C signatures spelled out here, so the driver also builds against CANN headers
// older than the capture API; a runtime without it logs the calls as missing.
using CaptureBeginFn = aclError (*)(aclrtStream, int32_t);
using CaptureEndFn = aclError (*)(aclrtStream, void**);
using ModelExecuteFn = aclError (*)(void*, aclrtStream);
using ModelDestroyFn = aclError (*)(void*);

#define ACL_CALL_AS(type, fn, args, ...)                                                                         \
    auto api = []() {                                                                                           \
        static auto pointer = reinterpret_cast<type>(dlsym(RTLD_DEFAULT, #fn));                                 \
        return pointer;                                                                                         \
    }();                                                                                                        \
    if (api == nullptr) {                                                                                       \
        missing(#fn, args);                                                                                     \
        return;                                                                                                 \
    }                                                                                                           \
    Call call(#fn, args);                                                                                       \
    aclError result = api(__VA_ARGS__);                                                                         \
    call.end(result)

void cmd_capture_begin(const Args& args) {
    aclrtStream stream = stream_arg(args.at(0));
    const std::string mode_word = args.opt(1, "global");
    // aclmdlRICaptureMode: GLOBAL 0, THREAD_LOCAL 1, RELAXED 2.
    const int32_t mode = mode_word == "relaxed" ? 2 : mode_word == "thread" ? 1 : 0;
    ACL_CALL_AS(CaptureBeginFn, aclmdlRICaptureBegin, args, stream, mode);
    call.json().str("stream", args.at(0)).str("mode", mode_word);
    call.emit();
}

void cmd_capture_end(const Args& args) {
    aclrtStream stream = stream_arg(args.at(0));
    void* model = nullptr;
    {
        ACL_CALL_AS(CaptureEndFn, aclmdlRICaptureEnd, args, stream, &model);
        call.json().str("stream", args.at(0)).str("var", args.at(1));
        call.emit();
        if (result != 0) return;
    }
    store(args.at(1), Value{model, 0, 0, -1});
}

void cmd_model_execute(const Args& args) {
    void* model = lookup(args.at(0)).pointer;
    aclrtStream stream = stream_arg(args.at(1));
    ACL_CALL_AS(ModelExecuteFn, aclmdlRIExecuteAsync, args, model, stream);
    call.json().str("model", args.at(0)).str("stream", args.at(1)).inum("stream_id", stream_id_of(args.at(1)));
    call.emit();
}

void cmd_model_destroy(const Args& args) {
    void* model = lookup(args.at(0)).pointer;
    ACL_CALL_AS(ModelDestroyFn, aclmdlRIDestroy, args, model);
    call.json().str("model", args.at(0));
    call.emit();
}
#ifdef CONFORMANCE_HAVE_ACLNN
// aclnnAdd on three {4, 2} float tensors (out = self + 1.2 * other), as the CANN samples do it:
// allocations and copies in, the operator on STREAM, synchronize, copy the result out and check it.
void cmd_aclnn_add(const Args& args) {
    aclrtStream stream = stream_arg(args.at(0));
    auto malloc_fn = RESOLVE(aclrtMalloc);
    auto free_fn = RESOLVE(aclrtFree);
    auto copy_fn = RESOLVE(aclrtMemcpy);
    auto sync_fn = RESOLVE(aclrtSynchronizeStream);
    auto create_tensor = RESOLVE(aclCreateTensor);
    auto create_scalar = RESOLVE(aclCreateScalar);
    auto destroy_tensor = RESOLVE(aclDestroyTensor);
    auto destroy_scalar = RESOLVE(aclDestroyScalar);
    auto workspace_size = RESOLVE(aclnnAddGetWorkspaceSize);
    auto add = RESOLVE(aclnnAdd);
    if (!malloc_fn || !free_fn || !copy_fn || !sync_fn || !create_tensor || !create_scalar || !destroy_tensor ||
        !destroy_scalar || !workspace_size || !add) {
        missing("aclnnAdd", args);
        return;
    }
    const int64_t shape[2] = {4, 2};
    const int64_t strides[2] = {2, 1};
    const float inputs[2][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 1, 1, 2, 2, 2, 3, 3}};
    float host[8] = {0};
    void* device[3] = {nullptr, nullptr, nullptr};
    aclTensor* tensors[3] = {nullptr, nullptr, nullptr};
    for (int i = 0; i < 3; ++i) {
        malloc_fn(&device[i], sizeof host, ACL_MEM_MALLOC_HUGE_FIRST);
        copy_fn(device[i], sizeof host, i < 2 ? inputs[i] : host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE);
        tensors[i] = create_tensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, device[i]);
    }
    float alpha_value = 1.2f;
    aclScalar* alpha = create_scalar(&alpha_value, ACL_FLOAT);
    uint64_t workspace_bytes = 0;
    aclOpExecutor* executor = nullptr;
    aclnnStatus prepared = workspace_size(tensors[0], tensors[1], alpha, tensors[2], &workspace_bytes, &executor);
    void* workspace = nullptr;
    if (workspace_bytes > 0) malloc_fn(&workspace, workspace_bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    Call call("aclnnAdd", args);
    aclnnStatus result = prepared == 0 ? add(workspace, workspace_bytes, executor, stream) : prepared;
    call.end(result);
    aclError synced = sync_fn(stream);
    copy_fn(host, sizeof host, device[2], sizeof host, ACL_MEMCPY_DEVICE_TO_HOST);
    bool correct = synced == 0 && result == 0;
    for (int i = 0; i < 8; ++i) {
        float expected = inputs[0][i] + alpha_value * inputs[1][i];
        if (host[i] < expected - 1e-3f || host[i] > expected + 1e-3f) correct = false;
    }
    call.json().str("stream", args.at(0)).inum("stream_id", stream_id_of(args.at(0)));
    call.json().num("workspace", workspace_bytes).boolean("result_ok", correct).num("t_synced", conformance::now_ns());
    call.emit();
    for (int i = 0; i < 3; ++i) {
        destroy_tensor(tensors[i]);
        free_fn(device[i]);
    }
    destroy_scalar(alpha);
    if (workspace != nullptr) free_fn(workspace);
}
#endif  // CONFORMANCE_HAVE_ACLNN

#ifdef CONFORMANCE_HAVE_HCCL
// One communicator per rank of a single-process job (HcclCommInitAll over devices 0..N-1), and per
// rank a pair of 1 MiB device buffers allocated on first use (on the calling thread's device).
constexpr size_t kHcclBufferBytes = 1u << 20;
std::mutex g_hccl_mutex;
std::vector<HcclComm> g_comms;
std::map<int, std::pair<void*, void*>> g_hccl_buffers;

// NULL when there is no communicator for the rank (hccl_init_all failed or was not called).
HcclComm comm_arg(const std::string& word) {
    std::lock_guard<std::mutex> lock(g_hccl_mutex);
    auto rank = static_cast<size_t>(to_int(word));
    return rank < g_comms.size() ? g_comms[rank] : nullptr;
}

bool have_comm(HcclComm comm, const char* function, const Args& args) {
    if (comm != nullptr) return true;
    Json event("call");
    event.str("fn", function).boolean("no_communicator", true).num("tid", conformance::thread_id());
    if (!args.label.empty()) event.str("label", args.label);
    conformance::emit(event);
    return false;
}

std::pair<void*, void*> hccl_buffers(int rank) {
    std::lock_guard<std::mutex> lock(g_hccl_mutex);
    auto found = g_hccl_buffers.find(rank);
    if (found != g_hccl_buffers.end()) return found->second;
    std::pair<void*, void*> buffers{nullptr, nullptr};
    if (auto malloc_fn = RESOLVE(aclrtMalloc); malloc_fn != nullptr) {
        malloc_fn(&buffers.first, kHcclBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST);
        malloc_fn(&buffers.second, kHcclBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    }
    g_hccl_buffers[rank] = buffers;
    return buffers;
}

void cmd_hccl_init_all(const Args& args) {
    auto count = static_cast<uint32_t>(to_int(args.at(0)));
    std::vector<int32_t> devices(count);
    for (uint32_t i = 0; i < count; ++i) devices[i] = static_cast<int32_t>(i);
    std::vector<HcclComm> comms(count, nullptr);
    ACL_CALL(HcclCommInitAll, args, count, devices.data(), comms.data());
    call.json().num("ranks", count);
    if (result == 0) {
        std::lock_guard<std::mutex> lock(g_hccl_mutex);
        g_comms = comms;
    }
    call.emit();
}

void cmd_hccl_comm_name(const Args& args) {
    HcclComm comm = comm_arg(args.at(0));
    if (!have_comm(comm, "HcclGetCommName", args)) return;
    char name[512] = {0};
    ACL_CALL(HcclGetCommName, args, comm, name);
    call.json().inum("rank", to_int(args.at(0))).str("name", name);
    uint32_t size = 0;
    if (auto rank_size = RESOLVE(HcclGetRankSize); rank_size != nullptr) rank_size(comm, &size);
    call.json().num("rank_size", size);
    call.emit();
}

void hccl_annotate(Call& call, const Args& args, uint64_t count) {
    call.json().inum("rank", to_int(args.at(0))).str("stream", args.at(1)).inum("stream_id", stream_id_of(args.at(1)));
    call.json().num("count", count).num("dtype_bytes", 4);
}

void cmd_hccl_collective(const std::string& op, const Args& args) {
    int rank = static_cast<int>(to_int(args.at(0)));
    HcclComm comm = comm_arg(args.at(0));
    if (!have_comm(comm, ("hccl_" + op).c_str(), args)) return;
    aclrtStream stream = stream_arg(args.at(1));
    auto [send, recv] = hccl_buffers(rank);
    if (op == "barrier") {
        ACL_CALL(HcclBarrier, args, comm, stream);
        hccl_annotate(call, args, 0);
        call.emit();
        return;
    }
    auto count = static_cast<uint64_t>(to_int(args.at(2)));
    if (op == "allreduce") {
        ACL_CALL(HcclAllReduce, args, send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream);
        hccl_annotate(call, args, count);
        call.emit();
    } else if (op == "broadcast") {
        auto root = static_cast<uint32_t>(to_int(args.opt(3, "0")));
        ACL_CALL(HcclBroadcast, args, send, count, HCCL_DATA_TYPE_FP32, root, comm, stream);
        hccl_annotate(call, args, count);
        call.emit();
    } else if (op == "allgather") {
        ACL_CALL(HcclAllGather, args, send, recv, count, HCCL_DATA_TYPE_FP32, comm, stream);
        hccl_annotate(call, args, count);
        call.emit();
    } else if (op == "reducescatter") {
        ACL_CALL(HcclReduceScatter, args, send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream);
        hccl_annotate(call, args, count);
        call.emit();
    } else {
        die("unknown HCCL operation " + op);
    }
}

void cmd_hccl_destroy(const Args& args) {
    std::vector<HcclComm> comms;
    {
        std::lock_guard<std::mutex> lock(g_hccl_mutex);
        comms.swap(g_comms);
    }
    for (HcclComm comm : comms) {
        ACL_CALL(HcclCommDestroy, args, comm);
        call.emit();
    }
}
#endif  // CONFORMANCE_HAVE_HCCL
#endif  // CONFORMANCE_HAVE_ACL

// ---------------------------------------------------------------- mstx commands

#ifdef CONFORMANCE_HAVE_MSTX
void mstx_annotate(Call& call, const StringArg& message, const std::string& stream) {
    call.json().str("msg", message.pointer == nullptr ? nullptr : message.described.c_str());
    call.json().num("length", message.described.size()).str("stream", stream);
    call.json().inum("stream_id", stream_id_of(stream));
}

void cmd_mark(const Args& args) {
    StringArg message = string_arg(args.at(0));
    std::string stream_name = args.opt(1, "none");
    aclrtStream stream = stream_name == "none" ? nullptr : stream_arg(stream_name);
    Call call("mstxMarkA", args);
    mstxMarkA(message.pointer, stream);
    call.end(0);
    release_string(message);
    mstx_annotate(call, message, stream_name);
    call.emit();
}

uint64_t range_arg(const std::string& word) {
    if (word.rfind("id:", 0) == 0) return static_cast<uint64_t>(to_int(word.substr(3)));
    return lookup(word).id;
}

void cmd_range_start(const Args& args) {
    StringArg message = string_arg(args.at(1));
    std::string stream_name = args.opt(2, "none");
    aclrtStream stream = stream_name == "none" ? nullptr : stream_arg(stream_name);
    Call call("mstxRangeStartA", args);
    mstxRangeId id = mstxRangeStartA(message.pointer, stream);
    call.end(0);
    release_string(message);
    mstx_annotate(call, message, stream_name);
    call.json().num("id", id).str("var", args.at(0));
    store(args.at(0), Value{nullptr, 0, id, -1});
    call.emit();
}

void cmd_range_end(const Args& args) {
    uint64_t id = range_arg(args.at(0));
    Call call("mstxRangeEnd", args);
    mstxRangeEnd(id);
    call.end(0).json().num("id", id).str("var", args.at(0));
    call.emit();
}

void cmd_domain_create(const Args& args) {
    StringArg name = string_arg(args.at(1));
    Call call("mstxDomainCreateA", args);
    mstxDomainHandle_t domain = mstxDomainCreateA(name.pointer);
    call.end(0).json().str("name", name.pointer == nullptr ? nullptr : name.described.c_str());
    call.json().num("handle", reinterpret_cast<uintptr_t>(domain)).str("var", args.at(0));
    store(args.at(0), Value{reinterpret_cast<void*>(domain), 0, 0, -1});
    call.emit();
}

void cmd_domain_destroy(const Args& args) {
    auto domain = reinterpret_cast<mstxDomainHandle_t>(lookup(args.at(0)).pointer);
    Call call("mstxDomainDestroy", args);
    mstxDomainDestroy(domain);
    call.end(0).json().str("var", args.at(0));
    call.emit();
}

void cmd_domain_mark(const Args& args) {
    auto domain = reinterpret_cast<mstxDomainHandle_t>(lookup(args.at(0)).pointer);
    StringArg message = string_arg(args.at(1));
    std::string stream_name = args.opt(2, "none");
    aclrtStream stream = stream_name == "none" ? nullptr : stream_arg(stream_name);
    Call call("mstxDomainMarkA", args);
    mstxDomainMarkA(domain, message.pointer, stream);
    call.end(0);
    release_string(message);
    mstx_annotate(call, message, stream_name);
    call.json().str("domain", args.at(0));
    call.emit();
}

void cmd_domain_range_start(const Args& args) {
    auto domain = reinterpret_cast<mstxDomainHandle_t>(lookup(args.at(1)).pointer);
    StringArg message = string_arg(args.at(2));
    std::string stream_name = args.opt(3, "none");
    aclrtStream stream = stream_name == "none" ? nullptr : stream_arg(stream_name);
    Call call("mstxDomainRangeStartA", args);
    mstxRangeId id = mstxDomainRangeStartA(domain, message.pointer, stream);
    call.end(0);
    release_string(message);
    mstx_annotate(call, message, stream_name);
    call.json().num("id", id).str("var", args.at(0)).str("domain", args.at(1));
    store(args.at(0), Value{nullptr, 0, id, -1});
    call.emit();
}

void cmd_domain_range_end(const Args& args) {
    auto domain = reinterpret_cast<mstxDomainHandle_t>(lookup(args.at(0)).pointer);
    uint64_t id = range_arg(args.at(1));
    Call call("mstxDomainRangeEnd", args);
    mstxDomainRangeEnd(domain, id);
    call.end(0).json().num("id", id).str("var", args.at(1)).str("domain", args.at(0));
    call.emit();
}
#endif  // CONFORMANCE_HAVE_MSTX

// ---------------------------------------------------------------- other commands

void cmd_note(const Args& args) {
    std::string text;
    for (const auto& word : args.words) text += (text.empty() ? "" : " ") + word;
    Json event("note");
    event.str("text", text).num("tid", conformance::thread_id()).num("t", conformance::now_ns());
    conformance::emit(event);
}

void cmd_sleep(const Args& args) {
    std::this_thread::sleep_for(std::chrono::milliseconds(to_int(args.at(0))));
}

void cmd_wait_launches(const Args& args) {
    const auto wanted = static_cast<uint64_t>(to_int(args.at(0)));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (g_launches.load(std::memory_order_relaxed) < wanted) {
        if (std::chrono::steady_clock::now() > deadline) die("wait_launches: fewer than " + args.at(0) + " in 20 s");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    Json event("waited");
    event.num("launches", g_launches.load()).num("tid", conformance::thread_id()).num("t", conformance::now_ns());
    if (!args.label.empty()) event.str("label", args.label);
    conformance::emit(event);
}

void cmd_exit(const Args& args) {
    const int code = static_cast<int>(to_int(args.opt(0, "0")));
    Json event("exit_called");
    event.inum("code", code).num("launches", g_launches.load()).num("tid", conformance::thread_id());
    event.num("t", conformance::now_ns());
    if (!args.label.empty()) event.str("label", args.label);
    conformance::emit(event);
    std::exit(code);
}

void cmd_host(const Args& args) {
    auto size = static_cast<size_t>(to_int(args.at(1)));
    void* memory = std::calloc(1, size == 0 ? 1 : size);
    store(args.at(0), Value{memory, size, 0, -1});
}

using Handler = std::function<void(const Args&)>;

const std::map<std::string, Handler>& handlers() {
    static const auto& table = *new std::map<std::string, Handler>{
        {"subscribe", cmd_subscribe},
        {"unsubscribe", cmd_unsubscribe},
        {"register", cmd_register},
        {"enable", [](const Args& a) { cmd_kind("msptiActivityEnable", msptiActivityEnable, a); }},
        {"disable", [](const Args& a) { cmd_kind("msptiActivityDisable", msptiActivityDisable, a); }},
        {"is_enabled", cmd_is_enabled},
        {"domain_enable",
         [](const Args& a) { cmd_domain("msptiActivityEnableMarkerDomain", msptiActivityEnableMarkerDomain, a); }},
        {"domain_disable",
         [](const Args& a) { cmd_domain("msptiActivityDisableMarkerDomain", msptiActivityDisableMarkerDomain, a); }},
        {"flush", cmd_flush},
        {"flush_period", cmd_flush_period},
        {"push", cmd_push},
        {"pop", cmd_pop},
        {"cb_enable", cmd_cb_enable},
        {"cb_domain", cmd_cb_domain},
        {"dropped", cmd_dropped},
        {"note", cmd_note},
        {"sleep", cmd_sleep},
        {"host", cmd_host},
        {"wait_launches", cmd_wait_launches},
        {"exit", cmd_exit},
#ifdef CONFORMANCE_HAVE_ACL
        {"acl_init", cmd_acl_init},
        {"acl_finalize", cmd_acl_finalize},
        {"set_device", cmd_set_device},
        {"reset_device", cmd_reset_device},
        {"create_context", cmd_create_context},
        {"destroy_context", cmd_destroy_context},
        {"set_context", cmd_set_context},
        {"create_stream", cmd_create_stream},
        {"destroy_stream", cmd_destroy_stream},
        {"sync", cmd_sync},
        {"sync_device", cmd_sync_device},
        {"malloc", cmd_malloc},
        {"free", cmd_free},
        {"malloc_host", cmd_malloc_host},
        {"free_host", cmd_free_host},
        {"reserve", cmd_reserve},
        {"release", cmd_release},
        {"mem_info", cmd_mem_info},
        {"mem_flush", cmd_mem_flush},
        {"memcpy", cmd_memcpy},
        {"memcpy2d", cmd_memcpy2d},
        {"memset", cmd_memset},
        {"launch", cmd_launch},
        {"capture_begin", cmd_capture_begin},
        {"capture_end", cmd_capture_end},
        {"model_execute", cmd_model_execute},
        {"model_destroy", cmd_model_destroy},
#endif
#ifdef CONFORMANCE_HAVE_ACLNN
        {"aclnn_add", cmd_aclnn_add},
#endif
#ifdef CONFORMANCE_HAVE_HCCL
        {"hccl_init_all", cmd_hccl_init_all},
        {"hccl_comm_name", cmd_hccl_comm_name},
        {"hccl_allreduce", [](const Args& a) { cmd_hccl_collective("allreduce", a); }},
        {"hccl_broadcast", [](const Args& a) { cmd_hccl_collective("broadcast", a); }},
        {"hccl_allgather", [](const Args& a) { cmd_hccl_collective("allgather", a); }},
        {"hccl_reducescatter", [](const Args& a) { cmd_hccl_collective("reducescatter", a); }},
        {"hccl_barrier", [](const Args& a) { cmd_hccl_collective("barrier", a); }},
        {"hccl_destroy", cmd_hccl_destroy},
#endif
#ifdef CONFORMANCE_HAVE_MSTX
        {"mark", cmd_mark},
        {"range_start", cmd_range_start},
        {"range_end", cmd_range_end},
        {"domain_create", cmd_domain_create},
        {"domain_destroy", cmd_domain_destroy},
        {"domain_mark", cmd_domain_mark},
        {"domain_range_start", cmd_domain_range_start},
        {"domain_range_end", cmd_domain_range_end},
#endif
    };
    return table;
}

void run_block(const std::vector<Command>& commands, Frame frame);
void finish_script();

// fork NAME { ... }: see the header. The child never returns from here.
void run_fork(const Command& command, const std::string& child, const std::string& label, Frame frame) {
    std::fflush(nullptr);
    Args args;
    args.label = label;
    args.line = command.line;
    Call call("fork", args);
    const pid_t pid = ::fork();
    if (pid < 0) {
        call.end(-1).json().str("child", child).inum("errno", errno);
        call.emit();
        return;
    }
    if (pid == 0) {
        conformance::collector_forked_child(child.c_str());
        Json event("forked");
        event.str("child", child).num("pid", static_cast<uint64_t>(::getpid()));
        event.num("parent", static_cast<uint64_t>(::getppid())).num("tid", conformance::thread_id());
        event.num("t", conformance::now_ns());
        conformance::emit(event);
        run_block(command.body, frame);
        finish_script();
        std::exit(0);
    }
    int status = 0;
    bool timed_out = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            timed_out = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    call.end(0).json().str("child", child).num("pid", static_cast<uint64_t>(pid)).boolean("timed_out", timed_out);
    if (WIFEXITED(status)) call.json().inum("exit_code", WEXITSTATUS(status));
    if (WIFSIGNALED(status)) call.json().inum("signal", WTERMSIG(status));
    call.emit();
}

void run_threads(const Command& command, long count, Frame frame) {
    std::mutex mutex;
    std::condition_variable ready;
    long waiting = 0;
    bool go = false;
    bool quiet = t_quiet;
    std::vector<std::thread> threads;
    for (long index = 0; index < count; ++index) {
        threads.emplace_back([&, index] {
            std::map<std::string, std::pair<uint64_t, uint64_t>> totals;
            t_quiet = quiet;
            t_quiet_totals = &totals;
            {
                std::unique_lock<std::mutex> lock(mutex);
                ++waiting;
                ready.notify_all();
                ready.wait(lock, [&] { return go; });
            }
            Frame inner = frame;
            inner.thread = static_cast<int>(index);
            Json event("thread_start");
            event.inum("index", index).num("tid", conformance::thread_id()).num("t", conformance::now_ns());
            conformance::emit(event);
            run_block(command.body, inner);
            if (quiet) emit_quiet_totals();
            t_quiet_totals = nullptr;
        });
    }
    {
        std::unique_lock<std::mutex> lock(mutex);
        ready.wait(lock, [&] { return waiting == count; });
        go = true;
        ready.notify_all();
    }
    for (auto& thread : threads) thread.join();
}

void run_command(const Command& command, Frame frame) {
    std::vector<std::string> words;
    std::string label;
    for (const auto& raw : command.words) {
        std::string word = substitute(raw, frame);
        if (word.size() > 1 && word[0] == '@') {
            label = word.substr(1);
        } else {
            words.push_back(word);
        }
    }
    if (words.empty()) return;
    const std::string name = words[0];
    if (name == "repeat") {
        long count = static_cast<long>(to_int(words.at(1)));
        if (command.body.empty()) {
            Command single;
            single.words.assign(command.words.begin() + 2, command.words.end());
            single.line = command.line;
            for (long i = 0; i < count; ++i) {
                Frame inner = frame;
                inner.repeat = i;
                run_command(single, inner);
            }
        } else {
            for (long i = 0; i < count; ++i) {
                Frame inner = frame;
                inner.repeat = i;
                run_block(command.body, inner);
            }
        }
        return;
    }
    if (name == "threads") {
        run_threads(command, static_cast<long>(to_int(words.at(1))), frame);
        return;
    }
    if (name == "fork") {
        run_fork(command, words.size() > 1 ? words[1] : "child", label, frame);
        return;
    }
    if (name == "on_thread") {
        if (frame.thread == to_int(words.at(1))) run_block(command.body, frame);
        return;
    }
    if (name == "quiet") {
        std::map<std::string, std::pair<uint64_t, uint64_t>> totals;
        auto* previous = t_quiet_totals;
        bool was_quiet = t_quiet;
        t_quiet = true;
        t_quiet_totals = &totals;
        run_block(command.body, frame);
        emit_quiet_totals();
        t_quiet = was_quiet;
        t_quiet_totals = previous;
        return;
    }
    auto found = handlers().find(name);
    if (found == handlers().end()) {
        Json event("unsupported");
        event.str("command", name).inum("line", command.line);
        conformance::emit(event);
        std::fprintf(stderr, "driver: line %d: unsupported command '%s' for this target\n", command.line,
                     name.c_str());
        std::exit(4);
    }
    Args args;
    args.words.assign(words.begin() + 1, words.end());
    args.label = label;
    args.line = command.line;
    found->second(args);
}

void run_block(const std::vector<Command>& commands, Frame frame) {
    for (const auto& command : commands) run_command(command, frame);
}

#ifdef CONFORMANCE_HAVE_ACL
// The instrumented calls the THR-07 probe makes from inside buffer callbacks (collector policy
// reenter_call): make device 0 current, allocate and free 4 KiB.
void reentry_calls(const char* site) {
    auto set_device = RESOLVE(aclrtSetDevice);
    auto malloc_fn = RESOLVE(aclrtMalloc);
    auto free_fn = RESOLVE(aclrtFree);
    Json event("reenter");
    event.str("site", site).str("fn", "aclrtMalloc").num("tid", conformance::thread_id());
    if (set_device == nullptr || malloc_fn == nullptr || free_fn == nullptr) {
        event.boolean("missing", true);
        conformance::emit(event);
        return;
    }
    uint64_t t0 = conformance::now_ns();
    aclError device = set_device(0);
    void* pointer = nullptr;
    aclError allocated = malloc_fn(&pointer, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    aclError freed = pointer != nullptr ? free_fn(pointer) : -1;
    event.inum("ret", allocated).inum("ret_set_device", device).inum("ret_free", freed);
    event.num("t0", t0).num("t1", conformance::now_ns());
    conformance::emit(event);
}
#endif

void emit_features() {
#ifdef CONFORMANCE_HAVE_ACL
    conformance::set_reentry_hook(reentry_calls);
#endif
    Json features("features");
#ifdef CONFORMANCE_HAVE_ACL
    features.boolean("acl", true);
#else
    features.boolean("acl", false);
#endif
#ifdef CONFORMANCE_HAVE_MSTX
    features.boolean("mstx", true);
#else
    features.boolean("mstx", false);
#endif
#ifdef CONFORMANCE_HAVE_EXT
    features.boolean("ext", true);
#else
    features.boolean("ext", false);
#endif
    features.num("pid", static_cast<uint64_t>(::getpid()));
    conformance::emit(features);
}

void run_script(std::istream& input) {
    std::vector<std::pair<int, std::string>> lines;
    std::string text;
    int number = 0;
    while (std::getline(input, text)) lines.emplace_back(++number, text);
    size_t index = 0;
    std::vector<Command> commands = parse_block(lines, index, false);
    run_block(commands, Frame{});
}

void finish_script() {
    Json done("script_done");
    done.num("t", conformance::now_ns()).num("tid", conformance::thread_id());
    conformance::emit(done);
    conformance::collector_finish();
}

}  // namespace

#ifdef CONFORMANCE_DRIVER_LIBRARY
// The driver as a shared library, for scenario drivers written in Python: the Python program runs
// script fragments in its own process (so a Python msPTI package sees the same runtime calls) and
// writes its own events through the same log, in one sequence with the collector's.
extern "C" {

__attribute__((visibility("default"))) void conformance_driver_init() {
    static bool started = false;
    conformance::collector_init();
    if (!started) {
        started = true;
        emit_features();
    }
}

// Runs a script (the text of a script file); a failing command ends the process as in the program.
__attribute__((visibility("default"))) void conformance_driver_run(const char* script) {
    conformance_driver_init();
    std::istringstream input(script != nullptr ? script : "");
    run_script(input);
}

// Logs {"ev": EVENT, FIELDS..., "seq": N}; FIELDS are JSON object members without the braces.
__attribute__((visibility("default"))) void conformance_driver_emit(const char* event, const char* fields) {
    conformance_driver_init();
    Json object(event);
    object.raw(fields);
    conformance::emit(object);
}

__attribute__((visibility("default"))) void conformance_driver_finish() { finish_script(); }

// In the child of a fork() made by the Python program, first thing: a log of its own
// ($MSPTI_CONFORMANCE_LOG.NAME) and new locks, as the fork command does for a script.
__attribute__((visibility("default"))) void conformance_driver_forked(const char* name) {
    conformance::collector_forked_child(name);
}

}  // extern "C"
#else
int main(int argc, char** argv) {
    conformance::collector_init();
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s SCRIPT\n", argv[0]);
        return 2;
    }
    std::ifstream file(argv[1]);
    if (!file) {
        std::fprintf(stderr, "driver: cannot read %s\n", argv[1]);
        return 2;
    }
    emit_features();
    run_script(file);
    finish_script();
    return 0;
}
#endif  // CONFORMANCE_DRIVER_LIBRARY
