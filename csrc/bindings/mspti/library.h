// The msPTI library as seen by mspti_core: loaded by path with dlopen, its public functions
// resolved by name. Nothing links against libmspti, so any implementation with CANN's ABI works
// (ours, or the vendor's on Atlas hardware).
#pragma once

#include <string>

#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"

namespace mspti_py {

struct Api {
    // The 15 functions of the public API (all required).
    decltype(&msptiActivityRegisterCallbacks) RegisterCallbacks = nullptr;
    decltype(&msptiActivityEnable) Enable = nullptr;
    decltype(&msptiActivityDisable) Disable = nullptr;
    decltype(&msptiActivityIsEnabled) IsEnabled = nullptr;
    decltype(&msptiActivityEnableMarkerDomain) EnableMarkerDomain = nullptr;
    decltype(&msptiActivityDisableMarkerDomain) DisableMarkerDomain = nullptr;
    decltype(&msptiActivityGetNextRecord) GetNextRecord = nullptr;
    decltype(&msptiActivityFlushAll) FlushAll = nullptr;
    decltype(&msptiActivityFlushPeriod) FlushPeriod = nullptr;
    decltype(&msptiActivityPushExternalCorrelationId) PushExternalCorrelationId = nullptr;
    decltype(&msptiActivityPopExternalCorrelationId) PopExternalCorrelationId = nullptr;
    decltype(&msptiSubscribe) Subscribe = nullptr;
    decltype(&msptiUnsubscribe) Unsubscribe = nullptr;
    decltype(&msptiEnableCallback) EnableCallback = nullptr;
    decltype(&msptiEnableDomain) EnableDomain = nullptr;
    // Extensions of our implementation (mspti_ext.h); null when the library lacks them.
    decltype(&msptiResultGetString) ResultGetString = nullptr;
    decltype(&msptiGetVersion) GetVersion = nullptr;
    decltype(&msptiActivityGetDroppedRecords) GetDroppedRecords = nullptr;
    decltype(&msptiGetTimestamp) GetTimestamp = nullptr;
    decltype(&msptiActivityGetDroppedRecordsByReason) GetDroppedRecordsByReason = nullptr;
};

class Library {
public:
    // The process-wide instance (never destroyed: libmspti may call back during exit).
    static Library& Instance();

    // Loads `path` and resolves the API. Returns "" on success, else what went wrong, naming the
    // path (dlopen error, missing functions). Loading the same file again is a no-op; loading
    // another one while a library is loaded is an error.
    std::string Load(const std::string& path);
    bool Loaded() const { return loaded_; }
    const std::string& Path() const { return path_; }
    bool HasExtensions() const { return api_.ResultGetString && api_.GetDroppedRecords; }
    // The API; only valid once Loaded().
    const Api& api() const { return api_; }

    // The file of an msPTI library already in the process (e.g. through LD_PRELOAD), or "".
    static std::string FindLoaded();

private:
    Library() = default;
    bool loaded_ = false;
    void* handle_ = nullptr;
    std::string path_;
    Api api_;
};

}  // namespace mspti_py
