#include "root_info.h"

#include <cstring>

namespace npusim::hcomm {

namespace {
constexpr size_t kIpOffset = 0, kIpBytes = 64;
constexpr size_t kPortOffset = 64, kNicDeployOffset = 68;
constexpr size_t kIdentifierOffset = 72, kIdentifierBytes = 128;
constexpr size_t kRankOffset = 200;
constexpr size_t kSimOffset = 256;
constexpr char kMagic[8] = {'H', 'C', 'C', 'L', 'S', 'I', 'M', '\0'};
constexpr uint32_t kVersion = 3;
constexpr uint32_t kNicDeployHost = 0;
static_assert(kSimOffset + 28 <= HCCL_ROOT_INFO_BYTES, "the root info fits CANN's size");
}  // namespace

void encode_root_info(const RootInfo& info, HcclRootInfo* out) {
    std::memset(out, 0, sizeof *out);
    char* p = out->internal;
    const uint32_t port = info.port, rank = 0;
    std::strncpy(p + kIpOffset, info.host.c_str(), kIpBytes - 1);
    std::memcpy(p + kPortOffset, &port, sizeof port);
    std::memcpy(p + kNicDeployOffset, &kNicDeployHost, sizeof kNicDeployHost);
    std::strncpy(p + kIdentifierOffset, info.identifier.c_str(), kIdentifierBytes - 1);
    std::memcpy(p + kRankOffset, &rank, sizeof rank);
    std::memcpy(p + kSimOffset, kMagic, sizeof kMagic);
    std::memcpy(p + kSimOffset + 8, &kVersion, sizeof kVersion);
    std::memcpy(p + kSimOffset + 16, &info.uid, sizeof info.uid);
    std::memcpy(p + kSimOffset + 24, &info.pid, sizeof info.pid);
}

bool decode_root_info(const HcclRootInfo* in, RootInfo& out) {
    const char* p = in->internal;
    uint32_t version = 0, port = 0;
    std::memcpy(&version, p + kSimOffset + 8, sizeof version);
    if (std::memcmp(p + kSimOffset, kMagic, sizeof kMagic) != 0 || version != kVersion) return false;
    std::memcpy(&port, p + kPortOffset, sizeof port);
    std::memcpy(&out.uid, p + kSimOffset + 16, sizeof out.uid);
    std::memcpy(&out.pid, p + kSimOffset + 24, sizeof out.pid);
    char host[kIpBytes + 1] = {};
    std::memcpy(host, p + kIpOffset, kIpBytes);
    out.host = host;
    char identifier[kIdentifierBytes + 1] = {};
    std::memcpy(identifier, p + kIdentifierOffset, kIdentifierBytes);
    out.identifier = identifier;
    out.port = static_cast<uint16_t>(port);
    return port != 0 && port <= 65535 && out.uid != 0 && !out.host.empty() && !out.identifier.empty();
}

}  // namespace npusim::hcomm
