// The delivery engine's buffer pool and msPTI's buffer callbacks (see delivery.h).
#include "delivery_internal.h"

#include <cstdlib>
#include <new>

namespace mspti_py {

using namespace delivery_internal;

// ---- pool -----------------------------------------------------------------------------------

uint8_t* Delivery::TakeBuffer(size_t* size) {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    *size = pool_buffer_size_;
    if (!free_buffers_.empty()) {
        uint8_t* data = free_buffers_.back();
        free_buffers_.pop_back();
        return data;
    }
    if (pool_buffer_size_ == 0 || pool_allocated_ >= pool_capacity_) {
        return nullptr;
    }
    auto* data = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlignment, pool_buffer_size_));
    if (data != nullptr) {
        ++pool_allocated_;
    }
    return data;
}

void Delivery::ReturnBuffer(uint8_t* data, size_t size) {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    if (size != pool_buffer_size_) {
        std::free(data);  // from a session with another buffer size
        return;
    }
    free_buffers_.push_back(data);
}

void Delivery::ReleaseIdleBuffers() {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    for (uint8_t* data : free_buffers_) {
        std::free(data);
    }
    pool_allocated_ -= std::min(pool_allocated_, free_buffers_.size());
    free_buffers_.clear();
}

bool Delivery::SetBufferSize(size_t bytes) {
    if (bytes == 0 || bytes > kPoolBytes) {
        return false;
    }
    next_buffer_size_.store(bytes);
    return true;
}

// ---- msPTI callbacks (producer threads; no Python, no waiting) --------------------------------

void Delivery::OnRequest(uint8_t** buffer, size_t* size, size_t* max_records) {
    Delivery& self = Instance();
    size_t granted = 0;
    uint8_t* data = self.TakeBuffer(&granted);
    *buffer = data;
    *size = data != nullptr ? granted : 0;
    *max_records = 0;
    if (data == nullptr) {
        self.buffers_declined_.fetch_add(1, std::memory_order_relaxed);
    }
}

void Delivery::OnComplete(uint8_t* buffer, size_t size, size_t valid) {
    if (buffer == nullptr) {
        return;
    }
    Delivery& self = Instance();
    self.buffers_completed_.fetch_add(1, std::memory_order_relaxed);
    if (valid > 0) {
        std::lock_guard<std::mutex> lock(self.queue_mutex_);
        if (!self.shut_down_) {
            self.queue_.push_back(Filled{buffer, size, valid, ++self.enqueued_});
            self.queue_cv_.notify_one();
            return;
        }
    }
    self.ReturnBuffer(buffer, size);
}

}  // namespace mspti_py
