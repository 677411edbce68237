// The rendezvous's TCP plumbing, from the simulator's one transport layer (transport/socket.h,
// transport/address.h) under hcomm's names.
#pragma once

#include "transport/address.h"
#include "transport/socket.h"

namespace npusim::hcomm {

using transport::accept_tcp;
using transport::connect_tcp;
using transport::Deadline;
using transport::Fd;
using transport::IoStatus;
using transport::is_local_address;
using transport::listen_tcp;
using transport::peer_address;
using transport::read_all;
using transport::skip_bytes;
using transport::split_host_port;
using transport::SteadyTime;
using transport::wait_readable;
using transport::write_all;

}  // namespace npusim::hcomm
