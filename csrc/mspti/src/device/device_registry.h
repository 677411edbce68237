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
// The channel is wanted (the device is open, msPTI subscribed and a kind needs it) but could not start
// (the device is not listed, its chip or channel list is unknown, its clock cannot be read, or
// prof_drv_start failed): the device halves of its work can never come, and are counted as dropped
// with reason COLLECTION_FAILED where they would have been owed.
bool StarsFailed(uint32_t device);
bool TsFwFailed(uint32_t device);
void SetStarsFailed(uint32_t device, bool failed);
void SetTsFwFailed(uint32_t device, bool failed);

constexpr bool IsV6(uint32_t chip) { return chip == 15; }

}  // namespace mspti::seam::devices
