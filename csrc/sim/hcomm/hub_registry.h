// The rendezvous hosts of this process, found by unique id (root info) or by rendezvous key
// (rank-table communicators), and the ids they get.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "hub_server.h"

namespace npusim::hcomm {

// Hubs hosted by this process, by unique id and by rendezvous key (rank-table communicators).
void register_hub(const std::shared_ptr<HubServer>& hub, const std::string& key);
std::shared_ptr<HubServer> find_hub(uint64_t uid);
std::shared_ptr<HubServer> find_hub_by_key(const std::string& key);
void unregister_hub(uint64_t uid);

// A fresh, process-unique and (with overwhelming probability) host-unique non-zero id.
uint64_t new_unique_id();

}  // namespace npusim::hcomm
