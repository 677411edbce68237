// The internal C++ view of libprofapi (profapi/profapi_internal.h) follows the C API.
#include <cstdio>
#include <cstring>

#include "core/fault_plan.h"
#include "profapi/profapi_internal.h"
#include "seam/profapi.h"

namespace pa = npusim::profapi;

namespace {
int32_t on_api(uint32_t, const MsprofApi*) { return 0; }
int32_t on_device(void*, uint32_t) { return 0; }
int32_t on_command(uint32_t, void*, uint32_t) { return 0; }
int on_init(MstxGetModuleFuncTableFunc get) {
    MstxFuncPointer** table = nullptr;
    uint32_t size = 0;
    get(1, &table, &size);
    *table[1] = reinterpret_cast<MstxFuncPointer>(on_device);  // any function: only attachment is observed
    return 0;
}
void send(uint32_t type, uint64_t bits, uint32_t device) {
    static MsprofCommandHandle cmd;
    std::memset(&cmd, 0, sizeof cmd);
    cmd.type = type;
    cmd.profSwitch = bits;
    cmd.devNums = 1;
    cmd.devIdList[0] = device;
    profSetProfCommand(&cmd, sizeof cmd);
}
}  // namespace

int main() {
    npusim::set_call_counting(true);  // no fault plan here: the counts below are asked for
    std::printf("callback none=%d\n", pa::registered_callback(PROFILE_REPORT_API_C_CALLBACK) == nullptr);
    MsprofRegisterProfileCallback(PROFILE_REPORT_API_C_CALLBACK, reinterpret_cast<void*>(on_api), sizeof(void*));
    MsprofRegisterProfileCallback(PROFILE_DEVICE_STATE_C_CALLBACK, reinterpret_cast<void*>(on_device), sizeof(void*));
    std::printf("callback api=%d device=%d out_of_range=%d\n",
                pa::registered_callback(PROFILE_REPORT_API_C_CALLBACK) == reinterpret_cast<void*>(on_api),
                pa::registered_callback(PROFILE_DEVICE_STATE_C_CALLBACK) == reinterpret_cast<void*>(on_device),
                pa::registered_callback(17) == nullptr && pa::registered_callback(-1) == nullptr);

    MsprofNotifySetDevice(5, 1, true);
    MsprofNotifySetDevice(5, 2, true);
    MsprofNotifySetDevice(5, 2, false);
    std::printf("open 0=%d 1=%d 2=%d 64=%d\n", pa::device_is_open(0), pa::device_is_open(1), pa::device_is_open(2),
                pa::device_is_open(64));

    MsprofRegisterCallback(48, on_command);
    MsprofRegisterCallback(7, on_command);
    send(PROF_COMMANDHANDLE_TYPE_START, 0x801, 1);
    send(PROF_COMMANDHANDLE_TYPE_START, 0x100, 3);
    send(PROF_COMMANDHANDLE_TYPE_STOP, 0x100, 3);
    const auto modules = pa::command_modules();
    std::printf("modules=");
    for (size_t i = 0; i < modules.size(); ++i) std::printf("%s%u", i ? "," : "", modules[i]);
    std::printf("\nstarted 1=%d switch=0x%llx 3=%d switch=0x%llx\n", pa::device_is_started(1),
                static_cast<unsigned long long>(pa::device_prof_switch(1)), pa::device_is_started(3),
                static_cast<unsigned long long>(pa::device_prof_switch(3)));

    MsprofRegTypeInfo(5000, 0, "KERNEL_AICORE");
    MsprofRegTypeInfo(5000, 0, "KERNEL_AIVEC");
    MsprofRegTypeInfo(20000, 0x30001, "aclrtSetDevice");
    std::printf("types count=%zu 5000/0=%s 20000/0x30001=%s unknown='%s'\n", pa::type_name_count(),
                pa::type_name(5000, 0).c_str(), pa::type_name(20000, 0x30001).c_str(), pa::type_name(1, 1).c_str());

    std::printf("hash same=%d empty=%llu\n", pa::own_hash_id("kernel", 6) == MsprofGetHashId("kernel", 6),
                static_cast<unsigned long long>(pa::own_hash_id("", 0)));

    MsprofApi api{};
    MsprofRegisterProfileCallback(PROFILE_REPORT_API_C_CALLBACK, nullptr, sizeof(void*));
    MsprofReportApi(0, &api);
    MsprofReportApi(0, &api);
    MsprofReportApi(0, nullptr);  // invalid: not a report
    std::printf("uncollected api=%llu event=%llu\n",
                static_cast<unsigned long long>(pa::uncollected_reports(pa::ReportKind::Api)),
                static_cast<unsigned long long>(pa::uncollected_reports(pa::ReportKind::Event)));
    pa::reset_uncollected_reports();
    std::printf("after reset api=%llu\n",
                static_cast<unsigned long long>(pa::uncollected_reports(pa::ReportKind::Api)));

    std::printf("mstx current=%u attached1=%d attached2=%d\n", pa::current_mstx_module(), pa::mstx_tool_attached(1),
                pa::mstx_tool_attached(2));
    ProfRegisterMstxFunc(on_init, PROF_MODULE_MSPTI);
    ProfEnableMstxFunc(PROF_MODULE_MSPTI);
    std::printf("mstx current=%u attached1=%d attached2=%d\n", pa::current_mstx_module(), pa::mstx_tool_attached(1),
                pa::mstx_tool_attached(2));

    // Every exported function is a fault site that counts its calls, void ones included.
    std::printf("calls report=%llu enable=%llu register_mstx=%llu id2str=%llu\n",
                static_cast<unsigned long long>(npusim::fault_site_calls("MsprofReportApi")),
                static_cast<unsigned long long>(npusim::fault_site_calls("ProfEnableMstxFunc")),
                static_cast<unsigned long long>(npusim::fault_site_calls("ProfRegisterMstxFunc")),
                static_cast<unsigned long long>(npusim::fault_site_calls("MsprofId2Str")));
    return 0;
}
