// Python objects from compact records: the data classes of mspti_core.data are slotted
// dataclasses; an instance is created without running __init__ and its slots are filled through
// their member descriptors, which is several times cheaper than calling the class.
//
// What goes into which slot is not written here: mspti_core.data derives a field table from the
// record schema (each slot's offset in the C record, its size and type, its enum) and binds it, and
// Build walks that table. A new field of a record reaches Python with no change to this code.
#pragma once

#include <Python.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "records.h"

namespace mspti_py {

// Every method needs the GIL.
class ObjectFactory {
public:
    // Binds the field tables (mspti_core.data._native_types: "kinds" -> {kind: (class, fields)},
    // "range" -> (class, fields), "object_id" -> (class, fields, default); a field is (slot name,
    // source, offset, size, enum type or None, selector offset, selector value)). Returns "" on
    // success, otherwise what is wrong. Rebinding replaces the tables.
    std::string Bind(PyObject* types);
    bool Bound() const { return bound_; }

    // A new reference to the data-class object of `record`, or nullptr with a Python error set.
    PyObject* Build(const CompactRecord& record, const Batch& batch, const StringTable& strings);

    // Drops cached objects (before the interpreter goes away).
    void Clear();

    // Where a slot's value comes from.
    enum class Source : uint8_t { kUint, kBool, kFloat, kString, kEnum, kObjectId, kRangeEnd };

private:
    struct EnumInfo {
        PyObject* type = nullptr;
        std::unordered_map<int64_t, PyObject*> members;
    };
    struct Slot {
        PyObject* descriptor = nullptr;
        Source source = Source::kUint;
        uint32_t offset = 0;
        uint32_t size = 0;
        int enum_index = -1;            // kEnum: index into enums_
        uint32_t selector_offset = 0;   // kObjectId: the field choosing the view, and
        uint32_t selector_value = 0;    // the value of it that means the device view
        bool device_view = false;       // object id slots: the slot belongs to the device view
    };
    struct ClassInfo {
        PyObject* type = nullptr;
        std::vector<Slot> slots;
    };

    std::string BindClass(PyObject* spec, const char* what, ClassInfo* info,
                          std::unordered_map<PyObject*, int>* enum_index);
    PyObject* New(const ClassInfo& info);
    PyObject* Value(const Slot& slot, const CompactRecord& r, const Batch& batch, const StringTable& strings);
    PyObject* String(uint32_t id, const Batch& batch, const StringTable& strings);
    PyObject* Enum(int which, int64_t value);
    PyObject* ObjectId(const Slot& slot, const CompactRecord& r);
    ClassInfo* ClassFor(uint32_t kind);
    void ReleaseTables();

    bool bound_ = false;
    std::vector<ClassInfo> kinds_;  // by record kind (0..kMaxKind); an empty type: no class
    ClassInfo range_;
    ClassInfo object_id_;
    long object_id_default_ = -1;   // the view that does not apply
    std::vector<EnumInfo> enums_;
    std::vector<PyObject*> strings_;  // Python str per interned id (lazily created)
    PyObject* empty_args_ = nullptr;
};

}  // namespace mspti_py
