#include "core/fakes.h"

#include <pthread.h>

#include <atomic>
#include <map>
#include <mutex>
#include <new>
#include <string_view>

namespace npusim {

namespace {

struct Installed {
    FakeBehaviour behaviour;
    uint64_t id = 0;
    uint64_t calls = 0;
    uint64_t acted = 0;
};

struct FakeRegistry {
    std::mutex mutex;
    std::map<std::string, Installed, std::less<>> fakes;
    uint64_t next_id = 1;
};

FakeRegistry& fake_registry() {
    static FakeRegistry* r = new FakeRegistry();  // never destroyed: fault points may fire during exit
    return *r;
}

std::atomic<FakeHook> g_hook{nullptr};

void forget_in_child() {
    FakeRegistry& r = fake_registry();
    new (&r.mutex) std::mutex();  // another thread of the parent may have held it
    r.fakes.clear();
    forget_fakes_in_child();
}

void register_fork_handler() {
    static const bool registered = pthread_atfork(nullptr, nullptr, &forget_in_child) == 0;
    (void)registered;
}

}  // namespace

void set_fake_hook(FakeHook hook) { g_hook.store(hook, std::memory_order_release); }

uint64_t install_fake(const std::string& function, const FakeBehaviour& behaviour) {
    register_fork_handler();
    FakeRegistry& r = fake_registry();
    uint64_t id = 0;
    {
        std::lock_guard<std::mutex> lock(r.mutex);
        Installed& entry = r.fakes[function];
        entry = Installed{behaviour, r.next_id++, 0, 0};
        id = entry.id;
    }
    set_fakes_installed(true);
    return id;
}

bool remove_fake(const std::string& function) {
    FakeRegistry& r = fake_registry();
    bool removed = false;
    bool empty = false;
    {
        std::lock_guard<std::mutex> lock(r.mutex);
        removed = r.fakes.erase(function) > 0;
        empty = r.fakes.empty();
    }
    if (empty) set_fakes_installed(false);
    return removed;
}

void clear_fakes() {
    FakeRegistry& r = fake_registry();
    {
        std::lock_guard<std::mutex> lock(r.mutex);
        r.fakes.clear();
    }
    set_fakes_installed(false);
}

FakeCounts fake_counts(const std::string& function) {
    FakeRegistry& r = fake_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.fakes.find(function);
    if (it == r.fakes.end()) return {};
    return {it->second.calls, it->second.acted, true};
}

std::vector<std::string> faked_functions() {
    FakeRegistry& r = fake_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<std::string> names;
    names.reserve(r.fakes.size());
    for (const auto& [name, entry] : r.fakes) names.push_back(name);
    return names;
}

bool FaultSite::apply_fake(const uint64_t* args, size_t argc, FaultDecision& out) {
    FakeRegistry& r = fake_registry();
    FakeCallInfo call{name_, 0, 0, false, args, argc};
    FakeBehaviour behaviour;
    {
        std::lock_guard<std::mutex> lock(r.mutex);
        auto it = r.fakes.find(std::string_view(name_));
        if (it == r.fakes.end()) return false;
        Installed& entry = it->second;
        behaviour = entry.behaviour;
        call.fake_id = entry.id;
        call.call = ++entry.calls;
        call.acting = call.call > behaviour.after && (behaviour.times == 0 || entry.acted < behaviour.times);
        if (call.acting) ++entry.acted;
    }
    int64_t result = 0;
    const FakeHook hook = g_hook.load(std::memory_order_acquire);
    const bool to_hook = hook != nullptr && (behaviour.observe || (call.acting && behaviour.hooked));
    if (to_hook && hook(call, &result) && call.acting) {
        out = FaultDecision{};
        out.fail = true;
        out.error = result;
        return true;
    }
    if (call.acting && behaviour.replace_code) {
        out = FaultDecision{};
        out.fail = true;
        out.error = behaviour.code;
        return true;
    }
    return false;
}

}  // namespace npusim
