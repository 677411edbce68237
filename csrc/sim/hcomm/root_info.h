// HcclRootInfo (HCCL_ROOT_INFO_BYTES = 4108 opaque bytes) as CANN lays out its root handle
// (hicann/hcomm HcclRootHandle), followed by the simulator's own fields:
//   @0 char ip[64] (NUL-terminated; the address the root rank listens on), @64 u32 port,
//   @68 u32 NIC deployment (0: host), @72 char identifier[128] (the communicators' default
//   name), @200 u32 the root's rank id (0);
//   @256 "HCCLSIM" + NUL, @264 u32 format version (3), @272 u64 communicator unique id,
//   @280 u32 pid of the hosting process; the rest zero.
// A program that hands the bytes to other hosts (MPI_Bcast, a file) needs no more than this.
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
