// Engine names: "ip" (connects out only) or "ip:port"; IPv4, or IPv6 in brackets ("[::1]:port").
// The parser is the transport layer's (transport/address.h).
#pragma once

#include "transport/address.h"

namespace hixl {

using npusim::transport::Endpoint;
using npusim::transport::parse_endpoint;

}  // namespace hixl
