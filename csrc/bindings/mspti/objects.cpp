#include "objects.h"

#include <cstring>

namespace mspti_py {

namespace {

// A slot set through its member descriptor; `value` is a new reference (consumed).
bool SetSlot(PyObject* descriptor, PyObject* object, PyObject* value) {
    if (value == nullptr) {
        return false;
    }
    int rc = Py_TYPE(descriptor)->tp_descr_set(descriptor, object, value);
    Py_DECREF(value);
    return rc == 0;
}

bool SourceNamed(const char* name, ObjectFactory::Source* source) {
    static const struct {
        const char* name;
        ObjectFactory::Source source;
    } kSources[] = {
        {"uint", ObjectFactory::Source::kUint},          {"pointer", ObjectFactory::Source::kUint},
        {"bool", ObjectFactory::Source::kBool},          {"float", ObjectFactory::Source::kFloat},
        {"string", ObjectFactory::Source::kString},      {"enum", ObjectFactory::Source::kEnum},
        {"object_id", ObjectFactory::Source::kObjectId}, {"range_end", ObjectFactory::Source::kRangeEnd},
    };
    for (const auto& entry : kSources) {
        if (std::strcmp(entry.name, name) == 0) {
            *source = entry.source;
            return true;
        }
    }
    return false;
}

// An unsigned integer of `size` bytes at `offset`.
uint64_t UintAt(const CompactRecord& r, uint32_t offset, uint32_t size) {
    switch (size) {
        case 1: return r.At<uint8_t>(offset);
        case 2: return r.At<uint16_t>(offset);
        case 4: return r.At<uint32_t>(offset);
        default: return r.At<uint64_t>(offset);
    }
}

}  // namespace

std::string ObjectFactory::BindClass(PyObject* spec, const char* what, ClassInfo* info,
                                     std::unordered_map<PyObject*, int>* enum_index) {
    PyObject* type = nullptr;
    PyObject* fields = nullptr;
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) < 2 || !PyType_Check(type = PyTuple_GET_ITEM(spec, 0)) ||
        !PyList_Check(fields = PyTuple_GET_ITEM(spec, 1))) {
        return std::string(what) + ": expected (class, [fields])";
    }
    const char* class_name = reinterpret_cast<PyTypeObject*>(type)->tp_name;
    info->type = type;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(fields); ++i) {
        PyObject* item = PyList_GET_ITEM(fields, i);
        const char* name = nullptr;
        const char* source = nullptr;
        unsigned int offset = 0;
        unsigned int size = 0;
        PyObject* enum_type = nullptr;
        unsigned int selector_offset = 0;
        unsigned int selector_value = 0;
        if (!PyTuple_Check(item) || PyArg_ParseTuple(item, "ssIIOII", &name, &source, &offset, &size, &enum_type,
                                                     &selector_offset, &selector_value) == 0) {
            PyErr_Clear();
            return std::string(class_name) +
                   ": a field must be (name, source, offset, size, enum, selector "
                   "offset, selector value)";
        }
        Slot slot;
        if (!SourceNamed(source, &slot.source)) {
            return std::string(class_name) + "." + name + ": unknown source " + source;
        }
        if (slot.source != Source::kRangeEnd && (offset + size > sizeof(CompactRecord::bytes) || size > 8)) {
            return std::string(class_name) + "." + name + ": offset or size out of the record";
        }
        slot.offset = offset;
        slot.size = size;
        slot.selector_offset = selector_offset;
        slot.selector_value = selector_value;
        slot.device_view = selector_value != 0;
        if (slot.source == Source::kEnum) {
            if (!PyType_Check(enum_type)) {
                return std::string(class_name) + "." + name + ": an enum field needs its enum type";
            }
            auto found = enum_index->find(enum_type);
            if (found == enum_index->end()) {
                found = enum_index->emplace(enum_type, static_cast<int>(enum_index->size())).first;
            }
            slot.enum_index = found->second;
        }
        PyObject* descriptor = PyObject_GetAttrString(type, name);
        if (descriptor == nullptr) {
            PyErr_Clear();
            return std::string(class_name) + " has no field " + name;
        }
        bool is_slot = PyObject_TypeCheck(descriptor, &PyMemberDescr_Type) != 0;
        Py_DECREF(descriptor);  // the class keeps it alive
        if (!is_slot) {
            return std::string(class_name) + "." + name + " is not a slot (use @dataclass(slots=True))";
        }
        slot.descriptor = descriptor;
        info->slots.push_back(slot);
    }
    return {};
}

std::string ObjectFactory::Bind(PyObject* types) {
    if (!PyDict_Check(types)) {
        return "types must be a dict with kinds, range and object_id";
    }
    PyObject* kinds = PyDict_GetItemString(types, "kinds");  // borrowed
    PyObject* range = PyDict_GetItemString(types, "range");
    PyObject* object_id = PyDict_GetItemString(types, "object_id");
    if (kinds == nullptr || !PyDict_Check(kinds) || range == nullptr || object_id == nullptr) {
        return "types must be a dict with kinds, range and object_id";
    }
    std::vector<ClassInfo> by_kind(kMaxKind + 1);
    ClassInfo range_info;
    ClassInfo object_id_info;
    std::unordered_map<PyObject*, int> enum_index;
    PyObject* key = nullptr;
    PyObject* value = nullptr;
    Py_ssize_t position = 0;
    while (PyDict_Next(kinds, &position, &key, &value) != 0) {
        long kind = PyLong_Check(key) ? PyLong_AsLong(key) : -1;
        if (kind < 1 || kind > static_cast<long>(kMaxKind)) {
            PyErr_Clear();
            continue;  // kinds the delivery engine does not route (OVERHEAD) have no class here
        }
        std::string error = BindClass(value, "a kind", &by_kind[static_cast<size_t>(kind)], &enum_index);
        if (!error.empty()) {
            return error;
        }
    }
    std::string error = BindClass(range, "range", &range_info, &enum_index);
    if (error.empty()) {
        error = BindClass(object_id, "object_id", &object_id_info, &enum_index);
    }
    if (!error.empty()) {
        return error;
    }
    long object_id_default = -1;
    if (PyTuple_GET_SIZE(object_id) > 2) {
        object_id_default = PyLong_AsLong(PyTuple_GET_ITEM(object_id, 2));
        if (object_id_default == -1 && PyErr_Occurred() != nullptr) {
            PyErr_Clear();
            return "object_id: the default must be an int";
        }
    }
    std::vector<EnumInfo> enums(enum_index.size());
    for (const auto& entry : enum_index) {
        enums[static_cast<size_t>(entry.second)].type = entry.first;
    }
    Clear();
    for (ClassInfo* info : {&range_info, &object_id_info}) {
        Py_INCREF(info->type);
        for (Slot& slot : info->slots) {
            Py_INCREF(slot.descriptor);
        }
    }
    for (ClassInfo& info : by_kind) {
        Py_XINCREF(info.type);
        for (Slot& slot : info.slots) {
            Py_INCREF(slot.descriptor);
        }
    }
    for (auto& info : enums) {
        Py_INCREF(info.type);
    }
    kinds_ = std::move(by_kind);
    range_ = std::move(range_info);
    object_id_ = std::move(object_id_info);
    object_id_default_ = object_id_default;
    enums_ = std::move(enums);
    if (empty_args_ == nullptr) {
        empty_args_ = PyTuple_New(0);
    }
    bound_ = true;
    return {};
}

void ObjectFactory::ReleaseTables() {
    auto release = [](ClassInfo& info) {
        for (Slot& slot : info.slots) {
            Py_DECREF(slot.descriptor);
        }
        Py_XDECREF(info.type);
        info = ClassInfo();
    };
    for (ClassInfo& info : kinds_) {
        release(info);
    }
    release(range_);
    release(object_id_);
    kinds_.clear();
}

void ObjectFactory::Clear() {
    ReleaseTables();
    for (auto& info : enums_) {
        for (auto& member : info.members) {
            Py_DECREF(member.second);
        }
        Py_XDECREF(info.type);
    }
    for (PyObject* text : strings_) {
        Py_XDECREF(text);
    }
    enums_.clear();
    strings_.clear();
    bound_ = false;
}

ObjectFactory::ClassInfo* ObjectFactory::ClassFor(uint32_t kind) {
    if (kind == kRangeKind) {
        return &range_;
    }
    if (kind >= kinds_.size() || kinds_[kind].type == nullptr) {
        return nullptr;
    }
    return &kinds_[kind];
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

PyObject* ObjectFactory::ObjectId(const Slot& slot, const CompactRecord& r) {
    PyObject* object = New(object_id_);
    if (object == nullptr) {
        return nullptr;
    }
    // The record's selector field names the view (a marker's source kind: host records identify a
    // process and thread, device records a device and stream); the other view's fields get the
    // class's default.
    bool device = r.At<uint32_t>(slot.selector_offset) == slot.selector_value;
    for (const Slot& field : object_id_.slots) {
        PyObject* value = field.device_view == device
                              ? PyLong_FromUnsignedLongLong(UintAt(r, slot.offset + field.offset, field.size))
                              : PyLong_FromLong(object_id_default_);
        if (!SetSlot(field.descriptor, object, value)) {
            Py_DECREF(object);
            return nullptr;
        }
    }
    return object;
}

PyObject* ObjectFactory::Value(const Slot& slot, const CompactRecord& r, const Batch& batch,
                               const StringTable& strings) {
    switch (slot.source) {
        case Source::kUint: return PyLong_FromUnsignedLongLong(UintAt(r, slot.offset, slot.size));
        case Source::kBool: return PyBool_FromLong(UintAt(r, slot.offset, slot.size) != 0U ? 1 : 0);
        case Source::kFloat:
            return PyFloat_FromDouble(slot.size == 4 ? static_cast<double>(r.At<float>(slot.offset))
                                                     : r.At<double>(slot.offset));
        case Source::kString: return String(r.StringAt(slot.offset), batch, strings);
        case Source::kEnum: return Enum(slot.enum_index, static_cast<int64_t>(UintAt(r, slot.offset, slot.size)));
        case Source::kObjectId: return ObjectId(slot, r);
        case Source::kRangeEnd: return PyLong_FromUnsignedLongLong(r.range_end);
    }
    PyErr_SetString(PyExc_SystemError, "mspti_core: unknown field source");
    return nullptr;
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
    for (const Slot& slot : info->slots) {
        if (!SetSlot(slot.descriptor, object, Value(slot, record, batch, strings))) {
            Py_DECREF(object);
            return nullptr;
        }
    }
    return object;
}

}  // namespace mspti_py
