#include "transfer_path.h"

#include "core/log.h"

#ifdef NPU_SIM_NO_NLOHMANN_JSON
#error "nlohmann/json was not found when the build was configured: see its warning (cmake/third_party.cmake)"
#endif
#include <nlohmann/json.hpp>

namespace hixl {

namespace {

using Json = nlohmann::json;

const char* option(const std::map<AscendString, AscendString>& options, const char* key) {
    const auto it = options.find(AscendString(key));
    return it == options.end() ? nullptr : it->second.GetString();
}

bool parse(const char* key, const char* text, Json& out) {
    out = Json::parse(text, nullptr, false);
    if (!out.is_discarded()) return true;
    npusim::log_message(npusim::LogLevel::Error, "HIXL Initialize: option %s is not JSON: '%s'", key, text);
    return false;
}

// GlobalResourceConfig's "comm_resource_config.protocol_desc": a non-empty string or list.
bool names_protocol_desc(const Json& config) {
    if (!config.is_object()) return false;
    const auto it = config.find("comm_resource_config.protocol_desc");
    if (it == config.end()) return false;
    if (it->is_string()) return !it->get<std::string>().empty();
    return it->is_array() && !it->empty();
}

}  // namespace

Status select_transfer_path(const std::map<AscendString, AscendString>& options, const std::string& soc_name,
                            TransferPath& path) {
    path = TransferPath::CommDomain;
    if (const char* fabric = option(options, OPTION_ENABLE_USE_FABRIC_MEM)) {
        const std::string value(fabric);
        if (value == "1" || value == "true") {
            path = TransferPath::ClientServer;  // the fabric-memory engine: not modelled apart
            return SUCCESS;
        }
    }
    const char* local_comm_res = option(options, OPTION_LOCAL_COMM_RES);
    if (local_comm_res != nullptr && *local_comm_res != '\0') {
        Json res;
        if (!parse(OPTION_LOCAL_COMM_RES, local_comm_res, res)) return PARAM_INVALID;
        const bool v13 = res.is_object() && res.contains("version") && res["version"] == "1.3";
        path = v13 ? TransferPath::ClientServer : TransferPath::CommDomain;
        return SUCCESS;
    }
    if (const char* global = option(options, OPTION_GLOBAL_RESOURCE_CONFIG)) {
        Json config;
        if (!parse(OPTION_GLOBAL_RESOURCE_CONFIG, global, config)) return PARAM_INVALID;
        if (names_protocol_desc(config)) {
            path = TransferPath::ClientServer;
            return SUCCESS;
        }
    }
    if (soc_name.find("Ascend950") != std::string::npos) path = TransferPath::ClientServer;
    return SUCCESS;
}

const char* transfer_path_name(TransferPath path) {
    return path == TransferPath::ClientServer ? "hixl_cs" : "communication domain";
}

}  // namespace hixl
