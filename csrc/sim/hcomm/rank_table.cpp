#include "rank_table.h"

#include <fstream>
#include <map>
#include <sstream>

#include "json_lite.h"

namespace npusim::hcomm {

bool parse_rank_table(const std::string& json, RankTable& out, std::string& error) {
    JsonValue doc;
    if (!parse_json(json, doc, error)) return false;
    const JsonValue* servers = doc.get("server_list");
    if (servers == nullptr || servers->kind != JsonValue::Kind::Array || servers->items.empty()) {
        error = "no server_list array";
        return false;
    }
    std::map<unsigned long long, RankTable::Rank> by_rank;
    out = RankTable{};
    for (size_t s = 0; s < servers->items.size(); ++s) {
        const JsonValue& server = servers->items[s];
        const JsonValue* id = server.get("server_id");
        out.server_ids.push_back(id != nullptr ? id->text : std::to_string(s));
        const JsonValue* devices = server.get("device");
        if (devices == nullptr || devices->kind != JsonValue::Kind::Array) {
            error = "server_list[" + std::to_string(s) + "] has no device array";
            return false;
        }
        for (size_t d = 0; d < devices->items.size(); ++d) {
            const JsonValue& dev = devices->items[d];
            unsigned long long rank = 0, device = 0;
            const JsonValue* r = dev.get("rank_id");
            const JsonValue* did = dev.get("device_id");
            const std::string where = "server_list[" + std::to_string(s) + "].device[" + std::to_string(d) + "]";
            if (r == nullptr || !r->as_uint(rank)) {
                error = where + ": rank_id missing or not an integer";
                return false;
            }
            if (did == nullptr || !did->as_uint(device)) {
                error = where + ": device_id missing or not an integer";
                return false;
            }
            if (!by_rank.emplace(rank, RankTable::Rank{uint32_t(s), uint32_t(device)}).second) {
                error = where + ": rank_id " + std::to_string(rank) + " appears twice";
                return false;
            }
        }
    }
    uint32_t expect = 0;
    for (const auto& [rank, info] : by_rank) {
        if (rank != expect++) {
            error = "rank ids are not 0.." + std::to_string(by_rank.size() - 1);
            return false;
        }
        out.ranks.push_back(info);
    }
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
    return true;
}

}  // namespace npusim::hcomm
