#include "device/device_registry.h"

#include <atomic>

namespace mspti::seam::devices {
namespace {

std::atomic<uint32_t> g_chip[kMaxDevices] = {};
std::atomic<bool> g_stars[kMaxDevices] = {};
std::atomic<bool> g_tsfw[kMaxDevices] = {};
std::atomic<bool> g_stars_failed[kMaxDevices] = {};
std::atomic<bool> g_tsfw_failed[kMaxDevices] = {};

}  // namespace

uint32_t Chip(uint32_t device) { return device < kMaxDevices ? g_chip[device].load(std::memory_order_acquire) : 0; }
void SetChip(uint32_t device, uint32_t chip) {
    if (device < kMaxDevices) g_chip[device].store(chip, std::memory_order_release);
}
bool StarsActive(uint32_t device) { return device < kMaxDevices && g_stars[device].load(std::memory_order_acquire); }
bool TsFwActive(uint32_t device) { return device < kMaxDevices && g_tsfw[device].load(std::memory_order_acquire); }
void SetStarsActive(uint32_t device, bool on) {
    if (device < kMaxDevices) g_stars[device].store(on, std::memory_order_release);
}
void SetTsFwActive(uint32_t device, bool on) {
    if (device < kMaxDevices) g_tsfw[device].store(on, std::memory_order_release);
}

bool StarsFailed(uint32_t device) {
    return device < kMaxDevices && g_stars_failed[device].load(std::memory_order_acquire);
}
bool TsFwFailed(uint32_t device) {
    return device < kMaxDevices && g_tsfw_failed[device].load(std::memory_order_acquire);
}
void SetStarsFailed(uint32_t device, bool failed) {
    if (device < kMaxDevices) g_stars_failed[device].store(failed, std::memory_order_release);
}
void SetTsFwFailed(uint32_t device, bool failed) {
    if (device < kMaxDevices) g_tsfw_failed[device].store(failed, std::memory_order_release);
}

}  // namespace mspti::seam::devices
