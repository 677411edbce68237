#include "objects.h"

#include <cstring>

namespace mspti_py {

namespace {

// Sources of a data-class field in a CompactRecord (see records.h for the per-kind meaning).
enum Field : int {
    kKind,
    kStart,
    kEnd,
    kId,
    kCorrelation,
    kCount,
    kAddress,
    kBandwidth,
    kIsAsync,
    kU0,
    kU1,
    kU2,
    kE0,
    kS0,
    kS1,
    kS2,
    kFlag,             // e0 as MsptiActivityFlag
    kDataType,         // e0 as MsptiCommunicationDataType
    kMemoryOperation,  // e0 as MsptiActivityMemoryOperationType
    kCopyKind,         // e0 as MsptiActivityMemcpyKind
    kExternalKind,     // e0 as MsptiExternalCorrelationKind
    kSourceKind,       // e1 as MsptiActivitySourceKind
    kMemoryKind,       // e1 as MsptiActivityMemoryKind
    kObjectId,         // an MsptiObjectId from e1 (source kind), u0, u1
};

// The enums, by index into ObjectFactory::enums_.
enum EnumIndex : int {
    kEnumKind,
    kEnumFlag,
    kEnumSource,
    kEnumDataType,
    kEnumMemoryOperation,
    kEnumMemoryKind,
    kEnumCopyKind,
    kEnumExternalKind,
    kEnumCount,
};
const char* const kEnumNames[kEnumCount] = {
    "MsptiActivityKind",
    "MsptiActivityFlag",
    "MsptiActivitySourceKind",
    "MsptiCommunicationDataType",
    "MsptiActivityMemoryOperationType",
    "MsptiActivityMemoryKind",
    "MsptiActivityMemcpyKind",
    "MsptiExternalCorrelationKind",
};

struct FieldSpec {
    const char* name;
    Field field;
};
struct ClassSpec {
    const char* name;
    std::vector<FieldSpec> fields;
};

// The data classes, by index into ObjectFactory::classes_. Field names are those of mspti_core.data.
enum ClassIndex : int {
    kKernelData,
    kHcclData,
    kCommunicationData,
    kMarkerData,
    kRangeMarkerData,
    kApiData,
    kMemoryData,
    kMemsetData,
    kMemcpyData,
    kExternalCorrelationData,
    kObjectIdClass,
    kClassCount,
};

const std::vector<ClassSpec>& ClassSpecs() {
    static const std::vector<ClassSpec> specs = {
        {"KernelData",
         {{"kind", kKind},
          {"start", kStart},
          {"end", kEnd},
          {"device_id", kU0},
          {"stream_id", kU1},
          {"correlation_id", kCorrelation},
          {"type", kS1},
          {"name", kS0}}},
        {"HcclData",
         {{"kind", kKind},
          {"start", kStart},
          {"end", kEnd},
          {"device_id", kU0},
          {"stream_id", kU1},
          {"bandwidth", kBandwidth},
          {"name", kS0},
          {"comm_name", kS1}}},
        {"CommunicationData",
         {{"kind", kKind},
          {"data_type", kDataType},
          {"count", kCount},
          {"device_id", kU0},
          {"stream_id", kU1},
          {"start", kStart},
          {"end", kEnd},
          {"alg_type", kS2},
          {"name", kS0},
          {"comm_name", kS1},
          {"correlation_id", kCorrelation}}},
        {"MarkerData",
         {{"kind", kKind},
          {"flag", kFlag},
          {"source_kind", kSourceKind},
          {"timestamp", kStart},
          {"id", kId},
          {"object_id", kObjectId},
          {"name", kS0},
          {"domain", kS1}}},
        {"RangeMarkerData",
         {{"kind", kKind},
          {"source_kind", kSourceKind},
          {"id", kId},
          {"object_id", kObjectId},
          {"name", kS0},
          {"domain", kS1},
          {"start", kStart},
          {"end", kEnd}}},
        {"ApiData",
         {{"kind", kKind},
          {"start", kStart},
          {"end", kEnd},
          {"process_id", kU0},
          {"thread_id", kU1},
          {"correlation_id", kCorrelation},
          {"name", kS0}}},
        {"MemoryData",
         {{"kind", kKind},
          {"memory_operation_type", kMemoryOperation},
          {"memory_kind", kMemoryKind},
          {"correlation_id", kCorrelation},
          {"start", kStart},
          {"end", kEnd},
          {"address", kAddress},
          {"bytes", kCount},
          {"process_id", kU0},
          {"device_id", kU1},
          {"stream_id", kU2}}},
        {"MemsetData",
         {{"kind", kKind},
          {"value", kE0},
          {"bytes", kCount},
          {"start", kStart},
          {"end", kEnd},
          {"device_id", kU0},
          {"stream_id", kU1},
          {"correlation_id", kCorrelation},
          {"is_async", kIsAsync}}},
        {"MemcpyData",
         {{"kind", kKind},
          {"copy_kind", kCopyKind},
          {"bytes", kCount},
          {"start", kStart},
          {"end", kEnd},
          {"device_id", kU0},
          {"stream_id", kU1},
          {"correlation_id", kCorrelation},
          {"is_async", kIsAsync}}},
        {"ExternalCorrelationData",
         {{"kind", kKind}, {"external_kind", kExternalKind}, {"external_id", kId}, {"correlation_id", kCorrelation}}},
        {"MsptiObjectId", {{"process_id", kU0}, {"thread_id", kU1}, {"device_id", kU0}, {"stream_id", kU1}}},
    };
    return specs;
}

PyObject* FromU64(uint64_t value) { return PyLong_FromUnsignedLongLong(value); }

// A slot set through its member descriptor; `value` is a new reference (consumed).
bool SetSlot(PyObject* descriptor, PyObject* object, PyObject* value) {
    if (value == nullptr) {
        return false;
    }
    int rc = Py_TYPE(descriptor)->tp_descr_set(descriptor, object, value);
    Py_DECREF(value);
    return rc == 0;
}

}  // namespace

std::string ObjectFactory::Bind(PyObject* types) {
    if (!PyDict_Check(types)) {
        return "types must be a dict of name -> class";
    }
    const auto& specs = ClassSpecs();
    std::vector<ClassInfo> classes(kClassCount);
    std::vector<EnumInfo> enums(kEnumCount);
    for (int c = 0; c < kClassCount; ++c) {
        const ClassSpec& spec = specs[static_cast<size_t>(c)];
        PyObject* type = PyDict_GetItemString(types, spec.name);  // borrowed
        if (type == nullptr || !PyType_Check(type)) {
            return std::string("missing data class ") + spec.name;
        }
        ClassInfo& info = classes[static_cast<size_t>(c)];
        info.type = type;
        for (const FieldSpec& field : spec.fields) {
            PyObject* descriptor = PyObject_GetAttrString(type, field.name);
            if (descriptor == nullptr) {
                PyErr_Clear();
                return std::string(spec.name) + " has no field " + field.name;
            }
            bool is_slot = PyObject_TypeCheck(descriptor, &PyMemberDescr_Type) != 0;
            Py_DECREF(descriptor);  // the class keeps it alive
            if (!is_slot) {
                return std::string(spec.name) + "." + field.name + " is not a slot (use @dataclass(slots=True))";
            }
            info.descriptors.push_back(descriptor);
            info.fields.push_back(field.field);
        }
    }
    for (int e = 0; e < kEnumCount; ++e) {
        PyObject* type = PyDict_GetItemString(types, kEnumNames[e]);
        if (type == nullptr || !PyType_Check(type)) {
            return std::string("missing enum ") + kEnumNames[e];
        }
        enums[static_cast<size_t>(e)].type = type;
    }
    Clear();
    for (auto& info : classes) {
        Py_INCREF(info.type);
        for (PyObject* descriptor : info.descriptors) {
            Py_INCREF(descriptor);
        }
    }
    for (auto& info : enums) {
        Py_INCREF(info.type);
    }
    classes_ = std::move(classes);
    enums_ = std::move(enums);
    if (empty_args_ == nullptr) {
        empty_args_ = PyTuple_New(0);
    }
    bound_ = true;
    return {};
}

void ObjectFactory::Clear() {
    for (auto& info : classes_) {
        for (PyObject* descriptor : info.descriptors) {
            Py_DECREF(descriptor);
        }
        Py_XDECREF(info.type);
    }
    for (auto& info : enums_) {
        for (auto& member : info.members) {
            Py_DECREF(member.second);
        }
        Py_XDECREF(info.type);
    }
    for (PyObject* text : strings_) {
        Py_XDECREF(text);
    }
    classes_.clear();
    enums_.clear();
    strings_.clear();
    bound_ = false;
}

ObjectFactory::ClassInfo* ObjectFactory::ClassFor(uint32_t kind) {
    int index = -1;
    switch (kind) {
        case MSPTI_ACTIVITY_KIND_KERNEL: index = kKernelData; break;
        case MSPTI_ACTIVITY_KIND_HCCL: index = kHcclData; break;
        case MSPTI_ACTIVITY_KIND_COMMUNICATION: index = kCommunicationData; break;
        case MSPTI_ACTIVITY_KIND_MARKER: index = kMarkerData; break;
        case kRangeKind: index = kRangeMarkerData; break;
        case MSPTI_ACTIVITY_KIND_API:
        case MSPTI_ACTIVITY_KIND_ACL_API:
        case MSPTI_ACTIVITY_KIND_NODE_API:
        case MSPTI_ACTIVITY_KIND_RUNTIME_API: index = kApiData; break;
        case MSPTI_ACTIVITY_KIND_MEMORY: index = kMemoryData; break;
        case MSPTI_ACTIVITY_KIND_MEMSET: index = kMemsetData; break;
        case MSPTI_ACTIVITY_KIND_MEMCPY: index = kMemcpyData; break;
        case MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: index = kExternalCorrelationData; break;
        default: return nullptr;
    }
    return &classes_[static_cast<size_t>(index)];
}

PyObject* ObjectFactory::New(const ClassInfo& info) {
    auto* type = reinterpret_cast<PyTypeObject*>(info.type);
    PyObject* object = type->tp_new(type, empty_args_, nullptr);
    // Records hold only numbers, strings, enum members and other records: they cannot be part of
    // a reference cycle, so the cyclic GC need not track them (keeping millions of records in a
    // list would otherwise make every full collection walk all of them).
    if (object != nullptr && PyObject_IS_GC(object) && PyObject_GC_IsTracked(object)) {
        PyObject_GC_UnTrack(object);
    }
    return object;
}

PyObject* ObjectFactory::Enum(int which, int64_t value) {
    EnumInfo& info = enums_[static_cast<size_t>(which)];
    auto found = info.members.find(value);
    if (found != info.members.end()) {
        Py_INCREF(found->second);
        return found->second;
    }
    PyObject* number = PyLong_FromLongLong(value);
    if (number == nullptr) {
        return nullptr;
    }
    PyObject* member = PyObject_CallOneArg(info.type, number);
    if (member == nullptr) {
        // Not a member (e.g. a communication data type this package does not know): the number.
        PyErr_Clear();
        member = number;
    } else {
        Py_DECREF(number);
    }
    info.members.emplace(value, member);
    Py_INCREF(member);
    return member;
}

PyObject* ObjectFactory::String(uint32_t id, const Batch& batch, const StringTable& strings) {
    if ((id & kArenaBit) != 0U) {
        const char* text = batch.arena.data() + (id & ~kArenaBit);
        return PyUnicode_DecodeUTF8(text, static_cast<Py_ssize_t>(std::strlen(text)), "replace");
    }
    if (id >= strings_.size()) {
        strings_.resize(strings.Size(), nullptr);
    }
    PyObject*& cached = strings_[id];
    if (cached == nullptr) {
        const std::string& text = strings.Get(id);
        cached = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
        if (cached == nullptr) {
            return nullptr;
        }
    }
    Py_INCREF(cached);
    return cached;
}

PyObject* ObjectFactory::ObjectId(const CompactRecord& r) {
    ClassInfo& info = classes_[kObjectIdClass];
    PyObject* object = New(info);
    if (object == nullptr) {
        return nullptr;
    }
    // Host records identify a process and thread, device records a device and stream; the other
    // pair is -1.
    bool device = r.e1 == MSPTI_ACTIVITY_SOURCE_KIND_DEVICE;
    PyObject* values[4] = {
        device ? PyLong_FromLong(-1) : PyLong_FromUnsignedLong(r.u0),
        device ? PyLong_FromLong(-1) : PyLong_FromUnsignedLong(r.u1),
        device ? PyLong_FromUnsignedLong(r.u0) : PyLong_FromLong(-1),
        device ? PyLong_FromUnsignedLong(r.u1) : PyLong_FromLong(-1),
    };
    bool ok = true;
    for (size_t i = 0; i < 4; ++i) {
        ok = ok && SetSlot(info.descriptors[i], object, values[i]);
        if (!ok && i + 1 < 4) {
            for (size_t j = i + 1; j < 4; ++j) {
                Py_XDECREF(values[j]);
            }
            break;
        }
    }
    if (!ok) {
        Py_DECREF(object);
        return nullptr;
    }
    return object;
}

PyObject* ObjectFactory::Field(int field, const CompactRecord& r, const Batch& batch, const StringTable& strings) {
    switch (field) {
        case kKind:
            return Enum(kEnumKind, r.kind == kRangeKind ? static_cast<uint32_t>(MSPTI_ACTIVITY_KIND_MARKER) : r.kind);
        case kStart: return FromU64(r.start);
        case kEnd: return FromU64(r.end);
        case kId: return FromU64(r.id);
        case kCorrelation: return FromU64(r.correlation);
        case kCount: return FromU64(r.count);
        case kAddress: return FromU64(r.address);
        case kBandwidth: return PyFloat_FromDouble(r.bandwidth);
        case kIsAsync: return PyBool_FromLong(r.flag_bool);
        case kU0: return PyLong_FromUnsignedLong(r.u0);
        case kU1: return PyLong_FromUnsignedLong(r.u1);
        case kU2: return PyLong_FromUnsignedLong(r.u2);
        case kE0: return PyLong_FromUnsignedLong(r.e0);
        case kS0: return String(r.s0, batch, strings);
        case kS1: return String(r.s1, batch, strings);
        case kS2: return String(r.s2, batch, strings);
        case kFlag: return Enum(kEnumFlag, r.e0);
        case kDataType: return Enum(kEnumDataType, r.e0);
        case kMemoryOperation: return Enum(kEnumMemoryOperation, r.e0);
        case kCopyKind: return Enum(kEnumCopyKind, r.e0);
        case kExternalKind: return Enum(kEnumExternalKind, r.e0);
        case kSourceKind: return Enum(kEnumSource, r.e1);
        case kMemoryKind: return Enum(kEnumMemoryKind, r.e1);
        case kObjectId: return ObjectId(r);
        default: PyErr_SetString(PyExc_SystemError, "mspti_core: unknown field source"); return nullptr;
    }
}

PyObject* ObjectFactory::Build(const CompactRecord& record, const Batch& batch, const StringTable& strings) {
    ClassInfo* info = ClassFor(record.kind);
    if (info == nullptr) {
        PyErr_Format(PyExc_SystemError, "mspti_core: no data class for record kind %u", record.kind);
        return nullptr;
    }
    PyObject* object = New(*info);
    if (object == nullptr) {
        return nullptr;
    }
    for (size_t i = 0; i < info->fields.size(); ++i) {
        if (!SetSlot(info->descriptors[i], object, Field(info->fields[i], record, batch, strings))) {
            Py_DECREF(object);
            return nullptr;
        }
    }
    return object;
}

}  // namespace mspti_py
