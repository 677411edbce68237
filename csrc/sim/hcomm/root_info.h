// The simulator's content of HcclRootInfo (4108 opaque bytes in the ABI):
//   @0 "HCCLSIM" + NUL, @8 u32 format version (2), @12 u16 port, @16 u64 communicator
//   unique id, @24 u32 pid of the hosting process, @28 char host[64] (NUL-terminated),
//   @92 char identifier[128] (the communicators' default name, NUL-terminated), the rest
//   zero. The hosting process listens on host:port.
#pragma once

#include <cstdint>
#include <string>

#include "hccl/hccl_types.h"

namespace npusim::hcomm {

struct RootInfo {
    std::string host;
    uint16_t port = 0;
    uint64_t uid = 0;
    uint32_t pid = 0;
    std::string identifier;  // CANN's form, see host_nic.h
};

void encode_root_info(const RootInfo& info, HcclRootInfo* out);
// False when the bytes are not a root info this library wrote.
bool decode_root_info(const HcclRootInfo* in, RootInfo& out);

}  // namespace npusim::hcomm
