#include "library.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>

#include <vector>

namespace mspti_py {

namespace {

template <typename Fn>
void Resolve(void* handle, const char* name, Fn& slot, std::vector<std::string>* missing) {
    slot = reinterpret_cast<Fn>(dlsym(handle, name));
    if (slot == nullptr && missing != nullptr) {
        missing->emplace_back(name);
    }
}

// Two paths name the same file when their device and inode agree.
bool SameFile(const std::string& a, const std::string& b) {
    struct stat sa{};
    struct stat sb{};
    return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace

Library& Library::Instance() {
    static Library* instance = new Library();
    return *instance;
}

std::string Library::Load(const std::string& path) {
    if (loaded_) {
        if (path == path_ || SameFile(path, path_)) {
            return {};
        }
        return "an msPTI library is already loaded from " + path_ + "; cannot also load " + path +
               " in the same process";
    }
    dlerror();
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle == nullptr) {
        const char* error = dlerror();
        return "cannot load the msPTI library " + path + ": " + (error != nullptr ? error : "unknown dlopen error");
    }
    Api api;
    std::vector<std::string> missing;
    Resolve(handle, "msptiActivityRegisterCallbacks", api.RegisterCallbacks, &missing);
    Resolve(handle, "msptiActivityEnable", api.Enable, &missing);
    Resolve(handle, "msptiActivityDisable", api.Disable, &missing);
    Resolve(handle, "msptiActivityIsEnabled", api.IsEnabled, &missing);
    Resolve(handle, "msptiActivityEnableMarkerDomain", api.EnableMarkerDomain, &missing);
    Resolve(handle, "msptiActivityDisableMarkerDomain", api.DisableMarkerDomain, &missing);
    Resolve(handle, "msptiActivityGetNextRecord", api.GetNextRecord, &missing);
    Resolve(handle, "msptiActivityFlushAll", api.FlushAll, &missing);
    Resolve(handle, "msptiActivityFlushPeriod", api.FlushPeriod, &missing);
    Resolve(handle, "msptiActivityPushExternalCorrelationId", api.PushExternalCorrelationId, &missing);
    Resolve(handle, "msptiActivityPopExternalCorrelationId", api.PopExternalCorrelationId, &missing);
    Resolve(handle, "msptiSubscribe", api.Subscribe, &missing);
    Resolve(handle, "msptiUnsubscribe", api.Unsubscribe, &missing);
    Resolve(handle, "msptiEnableCallback", api.EnableCallback, &missing);
    Resolve(handle, "msptiEnableDomain", api.EnableDomain, &missing);
    Resolve(handle, "msptiResultGetString", api.ResultGetString, nullptr);
    Resolve(handle, "msptiGetVersion", api.GetVersion, nullptr);
    Resolve(handle, "msptiActivityGetDroppedRecords", api.GetDroppedRecords, nullptr);
    Resolve(handle, "msptiGetTimestamp", api.GetTimestamp, nullptr);
    Resolve(handle, "msptiActivityGetDroppedRecordsByReason", api.GetDroppedRecordsByReason, nullptr);
    // msptiActivityIsEnabled is missing from older CANN releases; everything else is required.
    if (!missing.empty() && !(missing.size() == 1 && missing[0] == "msptiActivityIsEnabled")) {
        std::string names;
        for (const auto& name : missing) {
            names += (names.empty() ? "" : ", ") + name;
        }
        dlclose(handle);
        return path + " is not an msPTI library: it lacks " + names;
    }
    api_ = api;
    handle_ = handle;
    path_ = path;
    loaded_ = true;
    return {};
}

std::string Library::FindLoaded() {
    void* handle = dlopen("libmspti.so", RTLD_NOW | RTLD_NOLOAD);
    if (handle == nullptr) {
        return {};
    }
    std::string file;
    struct link_map* map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr && map->l_name != nullptr) {
        file = map->l_name;
    }
    dlclose(handle);  // drops only the reference RTLD_NOLOAD added
    return file;
}

}  // namespace mspti_py
