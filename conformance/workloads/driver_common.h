// What the driver's command families share: the parsed script, the execution context, argument
// helpers, the logged call, the shared variables and every command's entry point. The script
// language is described in driver.cpp; each family lives in its own driver_<family>.cpp.
#pragma once

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

namespace conformance::driver {

// ---------------------------------------------------------------- script

struct Command {
    std::vector<std::string> words;
    std::vector<Command> body;
    int line = 0;
};

// Logs a "driver_error" event and ends the process with status 3.
[[noreturn]] void die(const std::string& message);

std::vector<Command> parse_block(std::vector<std::pair<int, std::string>>& lines, size_t& index, bool nested);

// ---------------------------------------------------------------- execution context

struct Frame {
    int thread = 0;
    long repeat = 0;
};

extern thread_local bool t_quiet;
extern thread_local std::map<std::string, std::pair<uint64_t, uint64_t>>* t_quiet_totals;

std::string substitute(const std::string& word, const Frame& frame);

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

long long to_int(const std::string& text);

// Strings given by special words stay alive for the whole run (msPTI may keep pointers to them).
struct StringArg {
    const char* pointer = nullptr;
    std::string described;
    char* mutable_buffer = nullptr;
};

StringArg string_arg(const std::string& word);
void release_string(StringArg& arg);

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

void emit_quiet_totals();
void missing(const char* function, const Args& args);

// Resolves a function by name in the process's global scope (so an interposing msPTI is found
// first), typed after the declaration in the target's headers. NULL when the target lacks it.
#define RESOLVE(fn)                                                                      \
    ([]() {                                                                              \
        static auto pointer = reinterpret_cast<decltype(&fn)>(dlsym(RTLD_DEFAULT, #fn)); \
        return pointer;                                                                  \
    }())

// ---------------------------------------------------------------- shared variables

struct Value {
    void* pointer = nullptr;
    size_t size = 0;
    uint64_t id = 0;        // range ids
    int64_t stream_id = -1;  // streams
};

extern std::atomic<uint64_t> g_launches;  // launch commands made, whatever their result (wait_launches)

Value lookup(const std::string& name);
void store(const std::string& name, const Value& value);
void forget(const std::string& name);

#ifdef CONFORMANCE_HAVE_ACL
aclrtStream stream_arg(const std::string& word);
int64_t stream_id_of(const std::string& word);

#define ACL_CALL(fn, args, ...)         \
    auto api = RESOLVE(fn);             \
    if (api == nullptr) {               \
        missing(#fn, args);             \
        return;                         \
    }                                   \
    Call call(#fn, args);               \
    aclError result = api(__VA_ARGS__); \
    call.end(result)
#endif

// ---------------------------------------------------------------- commands, by family

// msPTI (driver_mspti.cpp)
void cmd_kind(const char* function, msptiResult (*api)(msptiActivityKind), const Args& args);
void cmd_domain(const char* function, msptiResult (*api)(const char*), const Args& args);
void cmd_subscribe(const Args& args);
void cmd_unsubscribe(const Args& args);
void cmd_register(const Args& args);
void cmd_is_enabled(const Args& args);
void cmd_flush(const Args& args);
void cmd_flush_period(const Args& args);
void cmd_push(const Args& args);
void cmd_pop(const Args& args);
void cmd_cb_enable(const Args& args);
void cmd_cb_domain(const Args& args);
void cmd_dropped(const Args& args);

// process and script flow (driver_process.cpp)
void cmd_note(const Args& args);
void cmd_sleep(const Args& args);
void cmd_wait_launches(const Args& args);
void cmd_exit(const Args& args);
void cmd_host(const Args& args);

#ifdef CONFORMANCE_HAVE_ACL
// ACL, stream capture and model replay (driver_acl.cpp)
void cmd_acl_init(const Args& args);
void cmd_acl_finalize(const Args& args);
void cmd_set_device(const Args& args);
void cmd_reset_device(const Args& args);
void cmd_create_context(const Args& args);
void cmd_destroy_context(const Args& args);
void cmd_set_context(const Args& args);
void cmd_create_stream(const Args& args);
void cmd_destroy_stream(const Args& args);
void cmd_sync(const Args& args);
void cmd_sync_device(const Args& args);
void cmd_malloc(const Args& args);
void cmd_free(const Args& args);
void cmd_malloc_host(const Args& args);
void cmd_free_host(const Args& args);
void cmd_reserve(const Args& args);
void cmd_release(const Args& args);
void cmd_mem_info(const Args& args);
void cmd_mem_flush(const Args& args);
void cmd_memcpy(const Args& args);
void cmd_memcpy2d(const Args& args);
void cmd_memset(const Args& args);
void cmd_launch(const Args& args);
void cmd_capture_begin(const Args& args);
void cmd_capture_end(const Args& args);
void cmd_model_execute(const Args& args);
void cmd_model_destroy(const Args& args);
#endif
#ifdef CONFORMANCE_HAVE_ACLNN
// aclnn (driver_aclnn.cpp)
void cmd_aclnn_add(const Args& args);
#endif
#ifdef CONFORMANCE_HAVE_HCCL
// HCCL (driver_hccl.cpp)
void cmd_hccl_init_all(const Args& args);
void cmd_hccl_comm_name(const Args& args);
void cmd_hccl_collective(const std::string& op, const Args& args);
void cmd_hccl_destroy(const Args& args);
#endif
#ifdef CONFORMANCE_HAVE_MSTX
// mstx (driver_mstx.cpp)
void cmd_mark(const Args& args);
void cmd_range_start(const Args& args);
void cmd_range_end(const Args& args);
void cmd_domain_create(const Args& args);
void cmd_domain_destroy(const Args& args);
void cmd_domain_mark(const Args& args);
void cmd_domain_range_start(const Args& args);
void cmd_domain_range_end(const Args& args);
#endif

}  // namespace conformance::driver
