#include "rank_table.h"

#include <limits.h>
#include <stdlib.h>

#include <fstream>
#include <map>
#include <sstream>

#include "json_lite.h"

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

struct Builder {
    RankTable& out;
    std::map<std::string, uint32_t> server_index;
    std::map<unsigned long long, RankTable::Rank> by_rank;

    uint32_t server(const JsonValue& entry, size_t position) {
        const JsonValue* id = entry.get("server_id");
        const std::string name = id != nullptr ? id->text : std::to_string(position);
        const auto [it, inserted] = server_index.emplace(name, uint32_t(out.server_ids.size()));
        if (inserted) {
            const JsonValue* host_ip = entry.get("host_ip");
            out.server_ids.push_back(name);
            out.server_addresses.push_back(host_ip != nullptr && !host_ip->text.empty() ? host_ip->text : name);
        }
        return it->second;
    }

    // One device entry; `implicit_rank` for template 2 (no rank_id).
    bool device(const JsonValue& dev, uint32_t server, const std::string& where,
                const unsigned long long* implicit_rank, std::string& error) {
        unsigned long long rank = 0, device = 0, port = 0;
        const JsonValue* r = dev.get("rank_id");
        const JsonValue* did = dev.get("device_id");
        const JsonValue* hp = dev.get("host_port");
        if (implicit_rank != nullptr) {
            rank = *implicit_rank;
        } else if (r == nullptr || !r->as_uint(rank)) {
            error = where + ": rank_id missing or not an integer";
            return false;
        }
        if (did == nullptr || !did->as_uint(device)) {
            error = where + ": device_id missing or not an integer";
            return false;
        }
        if (hp != nullptr && (!hp->as_uint(port) || port == 0 || port > 65535)) {
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

bool from_server_list(const JsonValue& servers, Builder& b, std::string& error) {
    for (size_t s = 0; s < servers.items.size(); ++s) {
        const JsonValue& server = servers.items[s];
        const uint32_t index = b.server(server, s);
        const JsonValue* devices = server.get("device");
        if (devices == nullptr || devices->kind != JsonValue::Kind::Array) {
            error = "server_list[" + std::to_string(s) + "] has no device array";
            return false;
        }
        for (size_t d = 0; d < devices->items.size(); ++d) {
            const std::string where = "server_list[" + std::to_string(s) + "].device[" + std::to_string(d) + "]";
            if (!b.device(devices->items[d], index, where, nullptr, error)) return false;
        }
    }
    return true;
}

bool from_group_list(const JsonValue& groups, Builder& b, std::string& error) {
    if (groups.items.size() != 1) {
        error = "group_list must hold one group (hccl_world_group)";
        return false;
    }
    const JsonValue* instances = groups.items[0].get("instance_list");
    if (instances == nullptr || instances->kind != JsonValue::Kind::Array || instances->items.empty()) {
        error = "group_list[0] has no instance_list array";
        return false;
    }
    unsigned long long next_rank = 0;
    for (size_t i = 0; i < instances->items.size(); ++i) {
        const JsonValue& instance = instances->items[i];
        const uint32_t index = b.server(instance, i);
        const JsonValue* devices = instance.get("devices");
        if (devices == nullptr || devices->kind != JsonValue::Kind::Array) {
            error = "instance_list[" + std::to_string(i) + "] has no devices array";
            return false;
        }
        for (size_t d = 0; d < devices->items.size(); ++d) {
            const std::string where = "instance_list[" + std::to_string(i) + "].devices[" + std::to_string(d) + "]";
            if (!b.device(devices->items[d], index, where, &next_rank, error)) return false;
            ++next_rank;
        }
    }
    return true;
}

}  // namespace

bool parse_rank_table(const std::string& json, RankTable& out, std::string& error) {
    JsonValue doc;
    if (!parse_json(json, doc, error)) return false;
    out = RankTable{};
    Builder b{out, {}, {}};
    const JsonValue* servers = doc.get("server_list");
    const JsonValue* groups = doc.get("group_list");
    if (servers != nullptr && servers->kind == JsonValue::Kind::Array && !servers->items.empty()) {
        if (!from_server_list(*servers, b, error)) return false;
    } else if (groups != nullptr && groups->kind == JsonValue::Kind::Array && !groups->items.empty()) {
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
