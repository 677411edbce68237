// Socket addresses of either family, from the simulator's one transport layer (transport/address.h)
// under hcomm's names.
#pragma once

#include "transport/address.h"

namespace npusim::hcomm {

using transport::any_address_like;
using transport::join_host_port;
using transport::resolve_address;
using transport::SocketAddress;

}  // namespace npusim::hcomm
