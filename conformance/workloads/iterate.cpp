// Drives msptiActivityGetNextRecord over buffers built by hand (no device, no subscriber).
//
//   iterate basic     NULL buffer, empty buffer, a buffer with one record of each of the 12 kinds,
//                     what follows the end, a record of an unknown kind
//   iterate cursor    the record pointer as the cursor: abandon one buffer half-way, then iterate
//                     another from NULL; restart a buffer with NULL half-way
//   iterate threads   two threads iterate their own buffers at the same time, many times
//   iterate null_out  the out-pointer itself is NULL (a robustness probe; may crash the process)
//
// Every GetNextRecord call is logged as a "call" event with the offset of the returned record.
// Each check runs on a fresh thread, so per-thread iteration state cannot leak between checks.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "collector.h"

namespace {

using conformance::Json;

struct Buffer {
    std::vector<uint64_t> storage;  // 8-aligned backing store
    size_t used = 0;
    std::vector<size_t> offsets;
    std::vector<uint32_t> kinds;

    uint8_t* data() { return reinterpret_cast<uint8_t*>(storage.data()); }

    template <typename Record>
    Record* append(uint32_t kind) {
        size_t size = sizeof(Record);
        if (storage.size() * 8 < used + size) storage.resize((used + size + 7) / 8 + 64, 0);
        auto* record = reinterpret_cast<Record*>(data() + used);
        std::memset(static_cast<void*>(record), 0, size);
        record->kind = static_cast<msptiActivityKind>(kind);
        offsets.push_back(used);
        kinds.push_back(kind);
        used += size;
        return record;
    }

    // A raw record of an arbitrary kind value, sized like a marker.
    void append_raw(uint32_t kind) {
        auto* record = append<msptiActivityMarker>(kind);
        record->kind = static_cast<msptiActivityKind>(kind);
    }
};

Buffer markers(int count, uint64_t first_id) {
    Buffer buffer;
    for (int i = 0; i < count; ++i) {
        auto* marker = buffer.append<msptiActivityMarker>(MSPTI_ACTIVITY_KIND_MARKER);
        marker->flag = MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS;
        marker->id = first_id + static_cast<uint64_t>(i);
        marker->name = "hand-built";
        marker->domain = "hand-built";
    }
    return buffer;
}

Buffer all_kinds() {
    Buffer buffer;
    uint64_t n = 100;
    buffer.append<msptiActivityMarker>(MSPTI_ACTIVITY_KIND_MARKER)->id = ++n;
    buffer.append<msptiActivityKernel>(MSPTI_ACTIVITY_KIND_KERNEL)->correlationId = ++n;
    buffer.append<msptiActivityApi>(MSPTI_ACTIVITY_KIND_API)->correlationId = ++n;
    buffer.append<msptiActivityHccl>(MSPTI_ACTIVITY_KIND_HCCL)->bandWidth = 1.5;
    buffer.append<msptiActivityMemory>(MSPTI_ACTIVITY_KIND_MEMORY)->correlationId = ++n;
    buffer.append<msptiActivityMemset>(MSPTI_ACTIVITY_KIND_MEMSET)->correlationId = ++n;
    buffer.append<msptiActivityMemcpy>(MSPTI_ACTIVITY_KIND_MEMCPY)->correlationId = ++n;
    buffer.append<msptiActivityExternalCorrelation>(MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION)->correlationId = ++n;
    buffer.append<msptiActivityCommunication>(MSPTI_ACTIVITY_KIND_COMMUNICATION)->correlationId = ++n;
    buffer.append<msptiActivityApi>(MSPTI_ACTIVITY_KIND_ACL_API)->correlationId = ++n;
    buffer.append<msptiActivityApi>(MSPTI_ACTIVITY_KIND_NODE_API)->correlationId = ++n;
    buffer.append<msptiActivityApi>(MSPTI_ACTIVITY_KIND_RUNTIME_API)->correlationId = ++n;
    return buffer;
}

// One GetNextRecord call, logged with the label, the cursor passed in and what came back.
msptiResult next(const std::string& label, uint8_t* base, size_t valid, msptiActivity** record) {
    Json event("call");
    int64_t cursor_in = (record == nullptr || *record == nullptr)
                            ? -1
                            : static_cast<int64_t>(reinterpret_cast<uint8_t*>(*record) - base);
    uint64_t t0 = conformance::now_ns();
    msptiResult result = msptiActivityGetNextRecord(base, valid, record);
    event.str("fn", "msptiActivityGetNextRecord").str("label", label).inum("ret", result);
    event.num("tid", conformance::thread_id()).num("t0", t0).num("t1", conformance::now_ns());
    event.inum("cursor_in", cursor_in).num("valid", valid);
    if (result == MSPTI_SUCCESS && record != nullptr && *record != nullptr && base != nullptr) {
        event.inum("offset", static_cast<int64_t>(reinterpret_cast<uint8_t*>(*record) - base));
        event.num("kind", static_cast<uint32_t>((*record)->kind));
    }
    conformance::emit(event);
    return result;
}

void describe(const std::string& name, const Buffer& buffer) {
    Json event("buffer");
    event.str("name", name).num("used", buffer.used);
    std::string offsets;
    std::string kinds;
    for (size_t i = 0; i < buffer.offsets.size(); ++i) {
        offsets += (i ? "," : "") + std::to_string(buffer.offsets[i]);
        kinds += (i ? "," : "") + std::to_string(buffer.kinds[i]);
    }
    event.str("offsets", offsets).str("kinds", kinds);
    conformance::emit(event);
}

// Runs a check on a fresh thread.
void isolated(const std::function<void()>& body) {
    std::thread thread(body);
    thread.join();
}

// Iterates to the end (bounded), logging every call under the label.
void drain(const std::string& label, Buffer& buffer, size_t limit) {
    msptiActivity* record = nullptr;
    for (size_t i = 0; i < limit; ++i) {
        if (next(label, buffer.data(), buffer.used, &record) != MSPTI_SUCCESS) return;
    }
}

void mode_basic() {
    isolated([] {
        msptiActivity* record = nullptr;
        next("null_buffer", nullptr, 64, &record);
        record = nullptr;
        next("null_buffer_zero", nullptr, 0, &record);
    });
    isolated([] {
        Buffer buffer = markers(1, 1);
        msptiActivity* record = nullptr;
        next("empty_valid", buffer.data(), 0, &record);
    });
    isolated([] {
        Buffer buffer = all_kinds();
        describe("all_kinds", buffer);
        drain("all_kinds", buffer, buffer.kinds.size() + 2);
    });
    isolated([] {
        Buffer buffer = markers(3, 1);
        describe("restart", buffer);
        drain("restart_first_pass", buffer, 5);
        // After the end: pass the last record (not NULL) and see where the next call starts.
        msptiActivity* record = reinterpret_cast<msptiActivity*>(buffer.data() + buffer.offsets.back());
        next("after_end_last", buffer.data(), buffer.used, &record);
    });
    isolated([] {
        Buffer buffer;
        auto* first = buffer.append<msptiActivityMarker>(MSPTI_ACTIVITY_KIND_MARKER);
        first->id = 1;
        buffer.append_raw(77);
        buffer.append<msptiActivityMarker>(MSPTI_ACTIVITY_KIND_MARKER)->id = 3;
        describe("unknown_kind", buffer);
        msptiActivity* record = nullptr;
        next("unknown_kind_1", buffer.data(), buffer.used, &record);
        next("unknown_kind_2", buffer.data(), buffer.used, &record);
    });
}

void mode_cursor() {
    isolated([] {
        Buffer a = markers(5, 1);
        Buffer b = markers(3, 101);
        describe("a", a);
        describe("b", b);
        msptiActivity* record = nullptr;
        next("abandon_a_1", a.data(), a.used, &record);
        next("abandon_a_2", a.data(), a.used, &record);
        record = nullptr;
        next("then_b_1", b.data(), b.used, &record);
    });
    isolated([] {
        Buffer a = markers(5, 1);
        describe("a2", a);
        msptiActivity* record = nullptr;
        next("restart_a_1", a.data(), a.used, &record);
        next("restart_a_2", a.data(), a.used, &record);
        next("restart_a_3", a.data(), a.used, &record);
        record = nullptr;
        next("restart_a_null", a.data(), a.used, &record);
    });
    isolated([] {
        Buffer a = markers(5, 1);
        describe("a3", a);
        msptiActivity* record = nullptr;
        next("explicit_1", a.data(), a.used, &record);
        // Continue from the fourth record: the next call must return the fifth.
        record = reinterpret_cast<msptiActivity*>(a.data() + a.offsets[3]);
        next("explicit_from_4", a.data(), a.used, &record);
    });
}

void mode_threads() {
    constexpr int kPasses = 10000;
    std::atomic<uint64_t> mismatches{0};
    std::atomic<uint64_t> passes{0};
    auto worker = [&](uint64_t first_id, int count) {
        Buffer buffer = markers(count, first_id);
        for (int pass = 0; pass < kPasses; ++pass) {
            msptiActivity* record = nullptr;
            int seen = 0;
            while (msptiActivityGetNextRecord(buffer.data(), buffer.used, &record) == MSPTI_SUCCESS) {
                auto* marker = reinterpret_cast<msptiActivityMarker*>(record);
                if (seen >= count || marker->id != first_id + static_cast<uint64_t>(seen)) {
                    ++mismatches;
                    break;
                }
                ++seen;
            }
            if (seen != count) ++mismatches;
            ++passes;
        }
    };
    std::thread one(worker, 1, 4);
    std::thread two(worker, 1001, 7);
    one.join();
    two.join();
    Json event("threads_result");
    event.num("passes", passes.load()).num("mismatches", mismatches.load());
    conformance::emit(event);
}

void mode_null_out() {
    Buffer buffer = markers(2, 1);
    Json before("note");
    before.str("text", "calling with a NULL out-pointer");
    conformance::emit(before);
    next("null_out", buffer.data(), buffer.used, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
    conformance::collector_init();
    std::string mode = argc > 1 ? argv[1] : "basic";
    if (mode == "basic") mode_basic();
    else if (mode == "cursor") mode_cursor();
    else if (mode == "threads") mode_threads();
    else if (mode == "null_out") mode_null_out();
    else {
        std::fprintf(stderr, "iterate: unknown mode %s\n", mode.c_str());
        return 2;
    }
    Json done("script_done");
    done.num("t", conformance::now_ns());
    conformance::emit(done);
    conformance::collector_finish();
    return 0;
}
