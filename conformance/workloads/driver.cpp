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
//
// The command families are in driver_<family>.cpp, what they share in driver_common.h; this file
// holds the dispatch, the blocks (repeat, threads, fork, on_thread, quiet) and the entry points.
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "driver_common.h"

namespace conformance::driver {
namespace {

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
        std::fprintf(stderr, "driver: line %d: unsupported command '%s' for this target\n", command.line, name.c_str());
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
}  // namespace conformance::driver

using conformance::driver::emit_features;
using conformance::driver::finish_script;
using conformance::driver::run_script;

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
    conformance::Json object(event);
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
