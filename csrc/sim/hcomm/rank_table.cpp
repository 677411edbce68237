#include "rank_table.h"

#include <limits.h>
#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#ifdef NPU_SIM_NO_NLOHMANN_JSON
#error "nlohmann/json was not found when the build was configured: see its warning (cmake/third_party.cmake)"
#endif
#include <nlohmann/json.hpp>

namespace npusim::hcomm {

uint64_t fnv1a(const std::string& text) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

namespace {

using Json = nlohmann::json;

const Json* member(const Json& object, const char* key) {
    if (!object.is_object()) return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

bool is_array(const Json* value) { return value != nullptr && value->is_array(); }

// A string or number as its text (rank tables write ids either way); "" for anything else.
std::string text_of(const Json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number()) return value.dump();
    return {};
}

// A non-negative integer, written as a number or as a string of decimal digits.
bool as_uint(const Json& value, unsigned long long& out) {
    if (value.is_number_unsigned()) return out = value.get<unsigned long long>(), true;
    if (!value.is_string()) return false;
    const std::string& text = value.get_ref<const std::string&>();
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
    errno = 0;
    out = std::strtoull(text.c_str(), nullptr, 10);
    return errno == 0;
}

struct Builder {
    RankTable& out;
    std::map<std::string, uint32_t> server_index;
    std::map<unsigned long long, RankTable::Rank> by_rank;

    uint32_t server(const Json& entry, size_t position) {
        const Json* id = member(entry, "server_id");
        const std::string name = id != nullptr ? text_of(*id) : std::to_string(position);
        const auto [it, inserted] = server_index.emplace(name, uint32_t(out.server_ids.size()));
        if (inserted) {
            const Json* host_ip = member(entry, "host_ip");
            const std::string address = host_ip != nullptr ? text_of(*host_ip) : std::string();
            out.server_ids.push_back(name);
            out.server_addresses.push_back(!address.empty() ? address : name);
        }
        return it->second;
    }

    // One device entry; `implicit_rank` for template 2 (no rank_id).
    bool device(const Json& dev, uint32_t server, const std::string& where, const unsigned long long* implicit_rank,
                std::string& error) {
        unsigned long long rank = 0, device = 0, port = 0;
        const Json* r = member(dev, "rank_id");
        const Json* did = member(dev, "device_id");
        const Json* hp = member(dev, "host_port");
        if (implicit_rank != nullptr) {
            rank = *implicit_rank;
        } else if (r == nullptr || !as_uint(*r, rank)) {
            error = where + ": rank_id missing or not an integer";
            return false;
        }
        if (did == nullptr || !as_uint(*did, device)) {
            error = where + ": device_id missing or not an integer";
            return false;
        }
        if (hp != nullptr && (!as_uint(*hp, port) || port == 0 || port > 65535)) {
            error = where + ": host_port is not a port number";
            return false;
        }
        if (!by_rank.emplace(rank, RankTable::Rank{server, uint32_t(device), uint16_t(port)}).second) {
            error = where + ": rank_id " + std::to_string(rank) + " appears twice";
            return false;
        }
        return true;
    }
};

bool from_server_list(const Json& servers, Builder& b, std::string& error) {
    for (size_t s = 0; s < servers.size(); ++s) {
        const Json& server = servers[s];
        const uint32_t index = b.server(server, s);
        const Json* devices = member(server, "device");
        if (!is_array(devices)) {
            error = "server_list[" + std::to_string(s) + "] has no device array";
            return false;
        }
        for (size_t d = 0; d < devices->size(); ++d) {
            const std::string where = "server_list[" + std::to_string(s) + "].device[" + std::to_string(d) + "]";
            if (!b.device((*devices)[d], index, where, nullptr, error)) return false;
        }
    }
    return true;
}

bool from_group_list(const Json& groups, Builder& b, std::string& error) {
    if (groups.size() != 1) {
        error = "group_list must hold one group (hccl_world_group)";
        return false;
    }
    const Json* instances = member(groups[0], "instance_list");
    if (!is_array(instances) || instances->empty()) {
        error = "group_list[0] has no instance_list array";
        return false;
    }
    unsigned long long next_rank = 0;
    for (size_t i = 0; i < instances->size(); ++i) {
        const Json& instance = (*instances)[i];
        const uint32_t index = b.server(instance, i);
        const Json* devices = member(instance, "devices");
        if (!is_array(devices)) {
            error = "instance_list[" + std::to_string(i) + "] has no devices array";
            return false;
        }
        for (size_t d = 0; d < devices->size(); ++d) {
            const std::string where = "instance_list[" + std::to_string(i) + "].devices[" + std::to_string(d) + "]";
            if (!b.device((*devices)[d], index, where, &next_rank, error)) return false;
            ++next_rank;
        }
    }
    return true;
}

}  // namespace

bool parse_rank_table(const std::string& json, RankTable& out, std::string& error) {
    Json doc;
    try {
        doc = Json::parse(json);
    } catch (const Json::parse_error& e) {
        // e.what() names the line and column: "[json.exception.parse_error.101] parse error at line 3, ...".
        error = std::string("not valid JSON: ") + e.what();
        return false;
    }
    out = RankTable{};
    Builder b{out, {}, {}};
    const Json* servers = member(doc, "server_list");
    const Json* groups = member(doc, "group_list");
    if (is_array(servers) && !servers->empty()) {
        if (!from_server_list(*servers, b, error)) return false;
    } else if (is_array(groups) && !groups->empty()) {
        if (!from_group_list(*groups, b, error)) return false;
    } else {
        error = "no server_list (or group_list) array";
        return false;
    }
    uint32_t expect = 0;
    for (const auto& [rank, info] : b.by_rank) {
        if (rank != expect++) {
            error = "rank ids are not 0.." + std::to_string(b.by_rank.size() - 1);
            return false;
        }
        out.ranks.push_back(info);
    }
    if (out.ranks.empty()) {
        error = "the table lists no device";
        return false;
    }
    out.fingerprint = fnv1a(json) | 1;  // never 0 (a root info's key)
    return true;
}

bool load_rank_table(const std::string& path, RankTable& out, std::string& error) {
    std::ifstream in(path);
    if (!in) {
        error = "cannot open '" + path + "'";
        return false;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    if (!parse_rank_table(ss.str(), out, error)) {
        error = path + ": " + error;
        return false;
    }
    char resolved[PATH_MAX];
    out.path = ::realpath(path.c_str(), resolved) ? std::string(resolved) : path;
    return true;
}

}  // namespace npusim::hcomm
