// Per-device facts that the recording paths read without locks: the chip type
// (record formats and id decoding) and whether the device's channels are
// collecting (host halves of device work are kept only when the device half
// can arrive).
#pragma once

#include <cstdint>

namespace mspti::seam::devices {

constexpr uint32_t kMaxDevices = 64;
constexpr uint32_t kChipUnknown = 0;

uint32_t Chip(uint32_t device);
void SetChip(uint32_t device, uint32_t chip);

bool StarsActive(uint32_t device);  // channel 50 collecting
bool TsFwActive(uint32_t device);   // channel 44 collecting
void SetStarsActive(uint32_t device, bool on);
void SetTsFwActive(uint32_t device, bool on);

constexpr bool IsV6(uint32_t chip) { return chip == 15; }

}  // namespace mspti::seam::devices
