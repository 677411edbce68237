// Python objects from compact records: the data classes of mspti_core.data are slotted
// dataclasses; an instance is created without running __init__ and its slots are filled through
// their member descriptors, which is several times cheaper than calling the class.
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
    // The data classes and enums, by their Python names (see kClassFields / kEnumNames in
    // objects.cpp). Returns "" on success, otherwise what is wrong. Rebinding replaces the types.
    std::string Bind(PyObject* types);
    bool Bound() const { return bound_; }

    // A new reference to the data-class object of `record`, or nullptr with a Python error set.
    PyObject* Build(const CompactRecord& record, const Batch& batch, const StringTable& strings);

    // Drops cached objects (before the interpreter goes away).
    void Clear();

private:
    struct ClassInfo {
        PyObject* type = nullptr;
        std::vector<PyObject*> descriptors;  // one per field, in the order of the field table
        std::vector<int> fields;             // field ids
    };
    struct EnumInfo {
        PyObject* type = nullptr;
        std::unordered_map<int64_t, PyObject*> members;
    };

    PyObject* New(const ClassInfo& info);
    PyObject* Field(int field, const CompactRecord& r, const Batch& batch, const StringTable& strings);
    PyObject* String(uint32_t id, const Batch& batch, const StringTable& strings);
    PyObject* Enum(int which, int64_t value);
    PyObject* ObjectId(const CompactRecord& r);
    ClassInfo* ClassFor(uint32_t kind);

    bool bound_ = false;
    std::vector<ClassInfo> classes_;
    std::vector<EnumInfo> enums_;
    std::vector<PyObject*> strings_;  // Python str per interned id (lazily created)
    PyObject* empty_args_ = nullptr;
};

}  // namespace mspti_py
