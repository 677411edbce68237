#include "hub_registry.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <random>

#include "core/immortal.h"

namespace npusim::hcomm {

namespace {

struct HubRegistry {
    std::mutex mutex;
    std::map<uint64_t, std::shared_ptr<HubServer>> by_uid;
    std::map<std::string, uint64_t> by_key;
};

HubRegistry& registry() {
    static Immortal<HubRegistry> r;  // hub threads may outlive static destruction
    return r.get();
}

}  // namespace

void register_hub(const std::shared_ptr<HubServer>& hub, const std::string& key) {
    auto& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.by_uid[hub->uid()] = hub;
    if (!key.empty()) r.by_key[key] = hub->uid();
}

std::shared_ptr<HubServer> find_hub(uint64_t uid) {
    auto& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.by_uid.find(uid);
    return it == r.by_uid.end() ? nullptr : it->second;
}

std::shared_ptr<HubServer> find_hub_by_key(const std::string& key) {
    auto& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.by_key.find(key);
    if (it == r.by_key.end()) return nullptr;
    auto hub = r.by_uid.find(it->second);
    return hub == r.by_uid.end() ? nullptr : hub->second;
}

void unregister_hub(uint64_t uid) {
    auto& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.by_uid.erase(uid);
    for (auto it = r.by_key.begin(); it != r.by_key.end();) {
        if (it->second == uid) it = r.by_key.erase(it);
        else ++it;
    }
}

uint64_t new_unique_id() {
    static std::atomic<uint64_t> counter{0};
    std::random_device rd;
    uint64_t v = (uint64_t(rd()) << 32) ^ rd();
    v ^= uint64_t(::getpid()) << 20;
    v ^= static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    v += 0x9E3779B97F4A7C15ULL * (counter.fetch_add(1) + 1);
    return v == 0 ? 1 : v;
}

}  // namespace npusim::hcomm
