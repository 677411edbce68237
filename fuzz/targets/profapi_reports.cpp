// msPTI's profapi callbacks fed arbitrary reports: the target calls libprofapi's exported
// report functions (MsprofReportApi, MsprofReportCompactInfo, MsprofReportEvent,
// MsprofReportAdditionalInfo, MsprofRegTypeInfo, MsprofGetHashId, MsprofNotifySetDevice) with
// structs decoded from the input, while msPTI is subscribed with every activity kind on, so
// libprofapi hands each report synchronously to msPTI's callbacks. Real kernel launches are mixed
// in. With mode bit 0 the operations run on two threads.
//
// Each input runs in its own subscription, so it replays alone exactly as it ran in the campaign.
// Checked: crashes, sanitizer reports, hangs, the buffer contract (strings of delivered records
// are read: a dangling name pointer is an ASan report), and accounting: every API report at
// level 20000 / 5000 / 10000 yields an ACL_API / RUNTIME_API / NODE_API and API record, or is
// counted as dropped (docs/mspti-deviations.md §8: unnamed reports are dropped and counted).
#include <sys/syscall.h>

#include <thread>

#include "fuzz_support.h"
#include "seam/hal.h"
#include "seam/profapi.h"

namespace {

using fuzz::Collector;
using fuzz::Input;
using fuzz::kKinds;
using fuzz::Runtime;

enum Op : uint8_t { kRegType, kHash, kApi, kCompact, kEvent, kAdditional, kDevice, kLaunch, kFlush, kOpCount };

msptiSubscriberHandle g_subscriber = nullptr;
uint32_t g_chip = 5;
std::mutex g_ids_mutex;
std::vector<uint64_t> g_hash_ids;  // ids msPTI handed out (plus one unknown)
std::vector<uint32_t> g_types;     // registered type ids

uint32_t Tid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

uint16_t Level(Input& in) {
    static const uint16_t kLevels[] = {MSPROF_REPORT_ACL_LEVEL, MSPROF_REPORT_RUNTIME_LEVEL, MSPROF_REPORT_NODE_LEVEL,
                                       MSPROF_REPORT_HCCL_NODE_LEVEL};
    const uint8_t sel = in.u8();
    return sel < 0xF0 ? kLevels[sel % 4] : in.u16();
}

uint32_t Type(Input& in) {
    const uint8_t sel = in.u8();
    if (sel < 0x80) {
        std::lock_guard<std::mutex> lock(g_ids_mutex);
        if (!g_types.empty()) return g_types[sel % g_types.size()];
    }
    static const uint32_t kTypes[] = {MSPROF_REPORT_RUNTIME_TASK_TRACK_TYPE,
                                      MSPROF_REPORT_NODE_LAUNCH_TYPE,
                                      MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE,
                                      MSPROF_REPORT_RUNTIME_EXPAND_SPEC_TYPE,
                                      MSPROF_REPORT_RUNTIME_MEMCPY_INFO_TYPE,
                                      MSPROF_REPORT_HCCL_MASTER_TYPE,
                                      0,
                                      1};
    return sel < 0xF0 ? kTypes[sel % 8] : in.u32();
}

uint64_t HashId(Input& in) {
    const uint8_t sel = in.u8();
    if (sel < 0xC0) {
        std::lock_guard<std::mutex> lock(g_ids_mutex);
        if (!g_hash_ids.empty()) return g_hash_ids[sel % g_hash_ids.size()];
    }
    return in.u64();
}

std::string Name(Input& in) {
    static const char* const kNames[] = {"KERNEL_AICORE", "KERNEL_AIVEC",  "KERNEL_MIX_AIC", "KERNEL",
                                         "aclnnAdd",      "HcclAllReduce", "RING-1",         ""};
    const uint8_t sel = in.u8();
    return sel < 0x80 ? std::string(kNames[sel % 8]) : in.text();
}

struct Produced {
    uint64_t api_reports[kKinds] = {};  // per record kind an API report at its level should give
};

void Execute(Input& in, uint8_t op, Produced& produced) {
    fuzz::Stats::Instance().reports_sent++;
    const uint32_t aging = in.u8() & 1;
    switch (op % kOpCount) {
        case kRegType: {
            const uint16_t level = Level(in);
            uint32_t type = 0;
            if (in.u8() < 0x80) {
                type = in.u8() % 8;
                if (in.flag()) type += MSPROF_REPORT_RUNTIME_API_BASE_TYPE;
            } else {
                type = in.u32();
            }
            const std::string name = Name(in);
            const bool null_name = (in.u8() & 15) == 15;
            (void)MsprofRegTypeInfo(level, type, null_name ? nullptr : name.c_str());
            std::lock_guard<std::mutex> lock(g_ids_mutex);
            if (g_types.size() < 64) g_types.push_back(type);
            break;
        }
        case kHash: {
            const std::string info = Name(in);
            const size_t len = in.u8() < 0xF0 ? info.size() : in.u8() % (info.size() + 1);
            const uint64_t id = MsprofGetHashId(info.c_str(), len);
            std::lock_guard<std::mutex> lock(g_ids_mutex);
            if (g_hash_ids.size() < 64) g_hash_ids.push_back(id);
            break;
        }
        case kApi: {
            MsprofApi api{};
            api.magicNumber = in.u8() < 0xF0 ? MSPROF_REPORT_DATA_MAGIC_NUM : in.u16();
            api.level = Level(in);
            api.type = Type(in);
            api.threadId = in.u8() < 0xE0 ? Tid() : in.u32();
            api.reserve = in.u8();
            const uint64_t now = MsprofSysCycleTime();
            api.beginTime = in.u8() < 0xF0 ? now - in.u16() : in.u64();
            api.endTime = in.u8() < 0xF0 ? api.beginTime + in.u16() : in.u64();
            api.itemId = HashId(in);
            (void)MsprofReportApi(aging, &api);
            switch (api.level) {
                case MSPROF_REPORT_ACL_LEVEL: produced.api_reports[MSPTI_ACTIVITY_KIND_ACL_API]++; break;
                case MSPROF_REPORT_RUNTIME_LEVEL: produced.api_reports[MSPTI_ACTIVITY_KIND_RUNTIME_API]++; break;
                case MSPROF_REPORT_NODE_LEVEL:
                    produced.api_reports[MSPTI_ACTIVITY_KIND_NODE_API]++;
                    produced.api_reports[MSPTI_ACTIVITY_KIND_API]++;
                    break;
                default: break;
            }
            break;
        }
        case kCompact: {
            MsprofCompactInfo info{};
            info.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
            const uint8_t shape = in.u8();
            switch (shape % 5) {
                case 0:
                    info.level = MSPROF_REPORT_RUNTIME_LEVEL, info.type = MSPROF_REPORT_RUNTIME_TASK_TRACK_TYPE;
                    break;
                case 1: info.level = MSPROF_REPORT_NODE_LEVEL, info.type = MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE; break;
                case 2:
                    info.level = MSPROF_REPORT_RUNTIME_LEVEL, info.type = MSPROF_REPORT_RUNTIME_EXPAND_SPEC_TYPE;
                    break;
                case 3:
                    info.level = MSPROF_REPORT_RUNTIME_LEVEL, info.type = MSPROF_REPORT_RUNTIME_MEMCPY_INFO_TYPE;
                    break;
                default: info.level = Level(in), info.type = Type(in); break;
            }
            info.threadId = in.u8() < 0xE0 ? Tid() : in.u32();
            info.dataLen = in.u8() < 0xF0 ? MSPROF_COMPACT_INFO_DATA_LENGTH : in.u32();
            info.timeStamp = in.u8() < 0xF0 ? MsprofSysCycleTime() : in.u64();
            if (shape % 5 == 0) {
                MsprofRuntimeTrack& t = info.data.runtimeTrack;
                t.deviceId = in.u8() < 0xE0 ? 0 : in.u16();
                t.streamId = in.u16();
                t.taskId = in.u32();
                t.taskType = Type(in);
                t.kernelName = HashId(in);
            } else if (shape % 5 == 1) {
                MsprofHcclOpInfo& h = info.data.hcclopInfo;
                h.flags = in.u8();
                h.dataType = in.u8();
                h.algType = HashId(in);
                h.count = in.u64();
                h.groupName = HashId(in);
            } else {
                for (uint8_t& b : info.data.info) b = in.u8();
            }
            (void)MsprofReportCompactInfo(aging, &info, sizeof info);
            break;
        }
        case kEvent: {
            MsprofEvent ev{};
            ev.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
            ev.level = Level(in);
            ev.type = Type(in);
            ev.threadId = Tid();
            ev.requestId = in.u32();
            ev.timeStamp = MsprofSysCycleTime();
            ev.itemId = HashId(in);
            (void)MsprofReportEvent(aging, &ev);
            break;
        }
        case kAdditional: {
            MsprofAdditionalInfo add{};
            add.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
            add.level = Level(in);
            add.type = Type(in);
            add.threadId = Tid();
            add.dataLen = in.u32();
            for (size_t i = 0; i < 32; ++i) add.data[i] = in.u8();
            (void)MsprofReportAdditionalInfo(aging, &add, sizeof add);
            break;
        }
        case kDevice: {
            const uint8_t sel = in.u8();
            static const uint32_t kDevices[] = {0, 1, 7, 63, 64, 65, 1000, 0xFFFFFFFFu};
            const uint32_t device = kDevices[sel % 8];
            const uint32_t chip = (sel & 0x80) ? in.u32() : g_chip;
            (void)MsprofNotifySetDevice(chip, device, (in.u8() & 3) != 0);
            break;
        }
        case kLaunch: (void)Runtime::Instance().Launch(); break;
        case kFlush: FUZZ_EXPECT_RESULT(msptiActivityFlushAll(0), MSPTI_SUCCESS); break;
        default: break;
    }
}

void Run(const uint8_t* data, size_t size, Produced& produced) {
    Input in(data, size);
    for (int n = 0; !in.empty() && n < 256; ++n) Execute(in, in.u8(), produced);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** argv) {
    fuzz::EnsureEnvironment(*argv);
    std::atexit(fuzz::Stats::Print);
    Runtime::Instance();
    FUZZ_EXPECT_RESULT(msptiActivityRegisterCallbacks(Collector::Request, Collector::Complete), MSPTI_SUCCESS);
    for (int k = 1; k < kKinds; ++k)
        FUZZ_EXPECT_RESULT(msptiActivityEnable(static_cast<msptiActivityKind>(k)), MSPTI_SUCCESS);
    int64_t version = 0;
    if (halGetDeviceInfo(0, 0, 1, &version) == 0) g_chip = static_cast<uint32_t>((version >> 8) & 0xFF);
    g_hash_ids.push_back(0x1234567890ABCDEFULL);  // never handed out
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    fuzz::Stats::Instance().inputs++;
    FUZZ_EXPECT_RESULT(msptiSubscribe(&g_subscriber, nullptr, nullptr), MSPTI_SUCCESS);
    FUZZ_EXPECT_RESULT(msptiActivityFlushAll(0), MSPTI_SUCCESS);
    fuzz::Window window;
    Produced produced[2];
    if ((data[0] & 1) == 0) {
        Run(data + 1, size - 1, produced[0]);
    } else {
        // Two threads, each on its half of the operations.
        fuzz::Stats::Instance().threaded_inputs++;
        const size_t half = (size - 1) / 2;
        std::thread other([&] { Run(data + 1 + half, size - 1 - half, produced[1]); });
        Run(data + 1, half, produced[0]);
        other.join();
    }
    // Device 0 open again (an input may have closed it), then the accounting of this input.
    (void)MsprofNotifySetDevice(g_chip, 0, true);
    uint64_t expected[kKinds] = {};
    bool tracked[kKinds] = {};
    bool exact[kKinds] = {};
    for (int k : {MSPTI_ACTIVITY_KIND_ACL_API, MSPTI_ACTIVITY_KIND_RUNTIME_API, MSPTI_ACTIVITY_KIND_NODE_API,
                  MSPTI_ACTIVITY_KIND_API}) {
        expected[k] = produced[0].api_reports[k] + produced[1].api_reports[k];
        tracked[k] = true;
    }
    window.Check(expected, tracked, exact, "API reports");
    FUZZ_EXPECT_RESULT(msptiUnsubscribe(g_subscriber), MSPTI_SUCCESS);
    return 0;
}
