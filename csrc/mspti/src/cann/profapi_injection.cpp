#include "cann/profapi_injection.h"

#include "common/log.h"
#include "interpose/report_route.h"
#include "markers/mstx_functions.h"
#include "cann/cann_api.h"
#include "cann/device_task_manager.h"
#include "cann/host_time.h"
#include "reports/report_handlers.h"

namespace mspti::seam::profapi {
namespace {

// `Fn` is CANN's callback type for `type`, named at each call: libprofapi calls the callback through
// that type, so a handler of any other type does not compile (calling through a mismatched function
// type is undefined behaviour).
template <typename Fn>
bool Register(int32_t type, Fn fn) {
    auto reg = cann::MsprofRegisterProfileCallback.get();
    if (reg == nullptr) return false;
    const int32_t rc = reg(type, reinterpret_cast<void*>(fn), static_cast<uint32_t>(sizeof(void*)));
    if (rc != 0) MSPTI_LOGW("MsprofRegisterProfileCallback(%d) returned %d", type, rc);
    return rc == 0;
}

void Unregister(int32_t type) {
    auto reg = cann::MsprofRegisterProfileCallback.get();
    if (reg != nullptr) reg(type, nullptr, static_cast<uint32_t>(sizeof(void*)));
}

void EnableMstx(uint32_t module) {
    auto enable = cann::ProfEnableMstxFunc.get();
    if (enable == nullptr) {
        MSPTI_LOGW("ProfEnableMstxFunc unavailable: mstx markers are not routed to msPTI");
        return;
    }
    enable(module);
}

}  // namespace

void OnLoad() {
    if (!cann::MsprofRegisterProfileCallback) {
        MSPTI_LOGW("libprofapi unavailable: no CANN data will be collected");
        return;
    }
    Register<ProfRegTypeInfoCFunc>(PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK, &handlers::OnRegTypeInfo);
    Register<ProfGetHashIdCFunc>(PROFILE_REPORT_GET_HASH_ID_C_CALLBACK, &handlers::OnGetHashId);
    auto reg_mstx = cann::ProfRegisterMstxFunc.get();
    if (reg_mstx != nullptr) {
        reg_mstx(&markers::InitMstxInjection, PROF_MODULE_MSPTI);
    } else {
        MSPTI_LOGW("ProfRegisterMstxFunc unavailable: no marker records");
    }
}

void OnSubscribe() {
    host_time::UseCannClock();
    host_time::Resync();
    // Collection on before the device-state callback is registered: libprofapi replays the open
    // devices from inside the registration.
    DeviceTaskManager::Instance().OnSubscribe();
    Register<ProfRegTypeInfoCFunc>(PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK, &handlers::OnRegTypeInfo);
    Register<ProfGetHashIdCFunc>(PROFILE_REPORT_GET_HASH_ID_C_CALLBACK, &handlers::OnGetHashId);
    Register<ProfHostFreqIsEnableCFunc>(PROFILE_HOST_FREQ_IS_ENABLE_C_CALLBACK, &handlers::OnHostFreqIsEnable);
    Register<ProfReportApiCFunc>(PROFILE_REPORT_API_C_CALLBACK, &handlers::OnApi);
    Register<ProfReportEventCFunc>(PROFILE_REPORT_EVENT_C_CALLBACK, &handlers::OnEvent);
    const bool tracks = Register<ProfReportCompactFunc>(PROFILE_REPORT_COMPACT_CALLBACK, &handlers::OnCompact);
    Register<ProfReportAdditionalFunc>(PROFILE_REPORT_ADDITIONAL_CALLBACK, &handlers::OnAdditional);
    const bool devices = Register<ProfDeviceStateCFunc>(PROFILE_DEVICE_STATE_C_CALLBACK, &handlers::OnDeviceState);
    // Without the task tracks, or without knowing which devices are open, no kernel is reported.
    interpose::report_route::SetRegistrationFailed(cann::MsprofRegisterProfileCallback && !(tracks && devices));
    EnableMstx(PROF_MODULE_MSPTI);
}

void OnUnsubscribe() {
    DeviceTaskManager::Instance().OnUnsubscribe();
    interpose::report_route::Reset();
    EnableMstx(PROF_MODULE_MSPROF);
    Unregister(PROFILE_HOST_FREQ_IS_ENABLE_C_CALLBACK);
    Unregister(PROFILE_REPORT_API_C_CALLBACK);
    Unregister(PROFILE_REPORT_EVENT_C_CALLBACK);
    Unregister(PROFILE_REPORT_COMPACT_CALLBACK);
    Unregister(PROFILE_REPORT_ADDITIONAL_CALLBACK);
    Unregister(PROFILE_DEVICE_STATE_C_CALLBACK);
}

}  // namespace mspti::seam::profapi
