// TaskQueues (the matchers' map from task key to FIFO): per-key order, removal in the middle, and a
// long random run against std::map<key, std::deque> through growth, backward-shift deletion and
// shrinking.
#include "device/task_queues.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "device/stream_task_id.h"

namespace mspti::seam {
namespace {

using Queues = TaskQueues<uint64_t>;

std::vector<uint64_t> QueueOf(const Queues& q, uint64_t key) {
    std::vector<uint64_t> out;
    for (uint32_t n = q.Front(key); n != Queues::kNil; n = q.Next(n)) out.push_back(q.At(n));
    return out;
}

TEST(TaskQueues, EmptyHasNoKey) {
    Queues q;
    EXPECT_TRUE(q.Empty());
    EXPECT_EQ(q.Front(7), Queues::kNil);
    EXPECT_EQ(q.Find(7), Queues::kNoSlot);
    q.PopFront(7);  // nothing to pop: no effect
    q.EraseKey(7);
    EXPECT_TRUE(q.Empty());
    EXPECT_TRUE(q.Keys().empty());
}

TEST(TaskQueues, KeepsEachKeysOrder) {
    Queues q;
    q.PushBack(TaskKey(0, 1, 5), 10);
    q.PushBack(TaskKey(1, 1, 5), 99);  // same stream and task, another device: another key
    q.PushBack(TaskKey(0, 1, 5), 11);
    q.PushBack(TaskKey(0, 1, 5), 12);
    EXPECT_EQ(QueueOf(q, TaskKey(0, 1, 5)), (std::vector<uint64_t>{10, 11, 12}));
    EXPECT_EQ(QueueOf(q, TaskKey(1, 1, 5)), (std::vector<uint64_t>{99}));
    q.PopFront(TaskKey(0, 1, 5));
    EXPECT_EQ(QueueOf(q, TaskKey(0, 1, 5)), (std::vector<uint64_t>{11, 12}));
    q.PopFront(TaskKey(1, 1, 5));  // its last value: the key goes
    EXPECT_FALSE(q.Contains(TaskKey(1, 1, 5)));
    EXPECT_TRUE(q.Contains(TaskKey(0, 1, 5)));
}

TEST(TaskQueues, RemovesFromTheMiddleAndTheEnd) {
    Queues q;
    for (uint64_t v = 1; v <= 4; ++v) q.PushBack(3, v);
    const uint32_t first = q.Front(3);
    const uint32_t second = q.Next(first);
    q.Remove(3, first, second);  // 2 goes
    EXPECT_EQ(QueueOf(q, 3), (std::vector<uint64_t>{1, 3, 4}));
    const uint32_t third = q.Next(first);
    q.Remove(3, third, q.Next(third));  // the tail (4) goes; appends still land at the end
    q.PushBack(3, 5);
    EXPECT_EQ(QueueOf(q, 3), (std::vector<uint64_t>{1, 3, 5}));
    q.EraseKey(3);
    EXPECT_TRUE(q.Empty());
}

TEST(TaskQueues, AgreesWithAMapOfDequesOverARandomRun) {
    Queues q;
    std::map<uint64_t, std::deque<uint64_t>> model;
    std::mt19937_64 rng(20261207);
    uint64_t next_value = 0;
    // Keys from a small range (collisions in the probe runs), a burst phase of many keys that grows
    // the table, then a drain during which ShrinkIfSparse may shrink it.
    auto key_of = [&](uint64_t range) { return TaskKey(rng() % 4, rng() % 64, static_cast<uint32_t>(rng() % range)); };
    for (int step = 0; step < 200000; ++step) {
        const bool burst = step < 60000;
        const bool drain = step >= 120000;
        const uint64_t op = rng() % 10;
        if (!drain && (op < (burst ? 8u : 4u))) {
            const uint64_t key = key_of(burst ? 4096 : 64);
            q.PushBack(key, next_value);
            model[key].push_back(next_value++);
        } else if (!model.empty()) {
            auto it = model.begin();
            std::advance(it, static_cast<long>(rng() % std::min<size_t>(model.size(), 32)));
            const uint64_t key = it->first;
            if (op == 9) {
                q.EraseKey(key);
                model.erase(it);
            } else {
                ASSERT_EQ(q.At(q.Front(key)), it->second.front()) << "step " << step;
                q.PopFront(key);
                it->second.pop_front();
                if (it->second.empty()) model.erase(it);
            }
        }
        if (step % 5000 == 0) q.ShrinkIfSparse();
        if (step % 20000 == 0 || step == 199999) {
            std::vector<uint64_t> keys = q.Keys();
            std::sort(keys.begin(), keys.end());
            std::vector<uint64_t> want;
            for (const auto& [key, values] : model) want.push_back(key);
            ASSERT_EQ(keys, want) << "step " << step;
            for (const auto& [key, values] : model) {
                ASSERT_EQ(QueueOf(q, key), std::vector<uint64_t>(values.begin(), values.end())) << "step " << step;
            }
        }
    }
    EXPECT_EQ(q.Empty(), model.empty());
}

}  // namespace
}  // namespace mspti::seam
