// The driver's process and script-flow commands: note, sleep, host, wait_launches, exit.
#include "driver_common.h"

namespace conformance::driver {

void cmd_note(const Args& args) {
    std::string text;
    for (const auto& word : args.words) text += (text.empty() ? "" : " ") + word;
    Json event("note");
    event.str("text", text).num("tid", conformance::thread_id()).num("t", conformance::now_ns());
    conformance::emit(event);
}

void cmd_sleep(const Args& args) { std::this_thread::sleep_for(std::chrono::milliseconds(to_int(args.at(0)))); }

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

}  // namespace conformance::driver
