// What the parts of the delivery engine share (delivery.cpp: instance, fork, routes and sessions;
// delivery_buffers.cpp: the buffer pool and msPTI's buffer callbacks; delivery_consumer.cpp: the
// consumer thread that converts and dispatches records). Not part of the bindings' interface.
#pragma once

#include <Python.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "delivery.h"

namespace mspti_py::delivery_internal {

constexpr size_t kPoolBytes = size_t{256} << 20;  // the pool holds at most this much
constexpr size_t kBatchRecords = 4096;              // records per GIL acquisition at most
constexpr size_t kBufferAlignment = 64;

// Bits of Delivery::wanted_kinds_ beyond the kinds 1..12.
constexpr uint32_t kWantInstant = 1U << 20;
constexpr uint32_t kWantRanges = 1U << 21;

inline bool IsInstant(uint32_t flag) {
    return flag == MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS ||
           flag == MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS_WITH_DEVICE;
}
inline bool IsRangeStart(uint32_t flag) {
    return flag == MSPTI_ACTIVITY_FLAG_MARKER_START || flag == MSPTI_ACTIVITY_FLAG_MARKER_START_WITH_DEVICE;
}
inline bool IsRangeEnd(uint32_t flag) {
    return flag == MSPTI_ACTIVITY_FLAG_MARKER_END || flag == MSPTI_ACTIVITY_FLAG_MARKER_END_WITH_DEVICE;
}

// Route lists, replaced as a whole when a monitor starts or stops. Holds strong references; it is
// created and destroyed only with the GIL held.
struct RouteTable {
    std::vector<PyObject*> lists[kRouteRanges + 1];

    RouteTable() = default;
    RouteTable(const RouteTable& other) {
        for (size_t i = 0; i <= kRouteRanges; ++i) {
            lists[i] = other.lists[i];
            for (PyObject* callable : lists[i]) {
                Py_INCREF(callable);
            }
        }
    }
    RouteTable& operator=(const RouteTable&) = delete;
    ~RouteTable() {
        for (auto& list : lists) {
            for (PyObject* callable : list) {
                Py_DECREF(callable);
            }
        }
    }
};

// The current table and its generation; both only touched with the GIL held.
std::shared_ptr<RouteTable>& CurrentRoutes();
extern uint64_t g_routes_generation;

class GilReleased {
public:
    GilReleased() : state_(PyEval_SaveThread()) {}
    ~GilReleased() { PyEval_RestoreThread(state_); }
    GilReleased(const GilReleased&) = delete;
    GilReleased& operator=(const GilReleased&) = delete;

private:
    PyThreadState* state_;
};

class GilHeld {
public:
    GilHeld() : state_(PyGILState_Ensure()) {}
    ~GilHeld() { PyGILState_Release(state_); }
    GilHeld(const GilHeld&) = delete;
    GilHeld& operator=(const GilHeld&) = delete;

private:
    PyGILState_STATE state_;
};

}  // namespace mspti_py::delivery_internal
