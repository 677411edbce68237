#include "root_info.h"

#include <cstring>

namespace npusim::hcomm {

namespace {
constexpr char kMagic[8] = {'H', 'C', 'C', 'L', 'S', 'I', 'M', '\0'};
constexpr uint32_t kVersion = 2;
constexpr size_t kHostOffset = 28, kHostBytes = 64;
constexpr size_t kIdentifierOffset = 92, kIdentifierBytes = 128;
}  // namespace

void encode_root_info(const RootInfo& info, HcclRootInfo* out) {
    std::memset(out, 0, sizeof *out);
    char* p = out->internal;
    std::memcpy(p, kMagic, sizeof kMagic);
    std::memcpy(p + 8, &kVersion, sizeof kVersion);
    std::memcpy(p + 12, &info.port, sizeof info.port);
    std::memcpy(p + 16, &info.uid, sizeof info.uid);
    std::memcpy(p + 24, &info.pid, sizeof info.pid);
    std::strncpy(p + kHostOffset, info.host.c_str(), kHostBytes - 1);
    std::strncpy(p + kIdentifierOffset, info.identifier.c_str(), kIdentifierBytes - 1);
}

bool decode_root_info(const HcclRootInfo* in, RootInfo& out) {
    const char* p = in->internal;
    uint32_t version = 0;
    std::memcpy(&version, p + 8, sizeof version);
    if (std::memcmp(p, kMagic, sizeof kMagic) != 0 || version != kVersion) return false;
    std::memcpy(&out.port, p + 12, sizeof out.port);
    std::memcpy(&out.uid, p + 16, sizeof out.uid);
    std::memcpy(&out.pid, p + 24, sizeof out.pid);
    char host[kHostBytes + 1] = {};
    std::memcpy(host, p + kHostOffset, kHostBytes);
    out.host = host;
    char identifier[kIdentifierBytes + 1] = {};
    std::memcpy(identifier, p + kIdentifierOffset, kIdentifierBytes);
    out.identifier = identifier;
    return out.port != 0 && out.uid != 0 && !out.host.empty() && !out.identifier.empty();
}

}  // namespace npusim::hcomm
