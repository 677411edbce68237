// TaskQueues (csrc/mspti/src/device/task_queues.h) against a plain model: bursts of keys grow the
// table far past its shrink threshold, draining them and then shrinking (as the matcher's sweep
// does) brings it back, and through it all every
// key's queue holds exactly the model's values in order. Prints "OK operations peak_keys" or the
// first mismatch.
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>

#include "device/task_queues.h"

using mspti::seam::TaskQueues;

namespace {

std::map<uint64_t, std::deque<uint64_t>> g_model;
TaskQueues<uint64_t> g_queues;
uint64_t g_operations = 0;

bool Same(uint64_t key) {
    const auto it = g_model.find(key);
    uint32_t n = g_queues.Front(key);
    if (it == g_model.end()) return n == TaskQueues<uint64_t>::kNil && !g_queues.Contains(key);
    for (const uint64_t v : it->second) {
        if (n == TaskQueues<uint64_t>::kNil || g_queues.At(n) != v) return false;
        n = g_queues.Next(n);
    }
    return n == TaskQueues<uint64_t>::kNil;
}

bool Push(uint64_t key, uint64_t value) {
    ++g_operations;
    g_queues.PushBack(key, value);
    g_model[key].push_back(value);
    return Same(key);
}

bool Pop(uint64_t key) {
    ++g_operations;
    g_queues.PopFront(key);
    auto it = g_model.find(key);
    if (it != g_model.end()) {
        it->second.pop_front();
        if (it->second.empty()) g_model.erase(it);
    }
    return Same(key);
}

uint64_t Key(uint32_t stream, uint32_t task) { return (uint64_t{1} << 48) | (uint64_t{stream} << 32) | task; }

}  // namespace

int main() {
    size_t peak = 0;
    uint64_t value = 0;
    for (uint32_t round = 0; round < 6; ++round) {
        // A burst: 4 streams, tasks in order (as a reader that fell behind sees them), some keys twice.
        const uint32_t burst = round % 2 == 0 ? 40000 : 3000;
        for (uint32_t t = 0; t < burst; ++t) {
            for (uint32_t s = 0; s < 4; ++s) {
                if (!Push(Key(s, (round * 50000 + t) & 0xFFFF), ++value)) {
                    std::printf("MISMATCH push round %u task %u stream %u\n", round, t, s);
                    return 1;
                }
            }
        }
        peak = g_model.size() > peak ? g_model.size() : peak;
        // Drain in launch order, leaving a few keys behind.
        for (uint32_t t = 0; t + 10 < burst; ++t) {
            for (uint32_t s = 0; s < 4; ++s) {
                const uint64_t key = Key(s, (round * 50000 + t) & 0xFFFF);
                if (!Pop(key)) {
                    std::printf("MISMATCH pop round %u task %u stream %u\n", round, t, s);
                    return 1;
                }
            }
        }
        g_queues.ShrinkIfSparse();
        for (const auto& entry : g_model) {
            if (!Same(entry.first)) {
                std::printf("MISMATCH after round %u\n", round);
                return 1;
            }
        }
    }
    // Empty it completely, then check nothing is left.
    while (!g_model.empty()) {
        const uint64_t key = g_model.begin()->first;
        if (!Pop(key)) return 1;
    }
    if (!g_queues.Empty() || !g_queues.Keys().empty()) {
        std::printf("MISMATCH not empty\n");
        return 1;
    }
    std::printf("OK %llu %zu\n", static_cast<unsigned long long>(g_operations), peak);
    return 0;
}
