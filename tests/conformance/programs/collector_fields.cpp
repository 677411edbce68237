// Logs one record of every kind of the record schema through the conformance collector's log_record:
// every byte of a record a known pattern, each string field (record_schema.h's StringFieldsOf) pointing
// at a text naming its offset; then a record of a kind without a record type. The log goes to
// $MSPTI_CONFORMANCE_LOG; tests/conformance/test_collector_fields.py checks it against the schema. The
// two msPTI functions the collector calls are stand-ins: no msPTI library is linked.
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "collector.h"

#define MSPTI_SCHEMA_CHECK_LAYOUTS
#define MSPTI_SCHEMA_CHECK_OVERHEAD
#include "mspti_schema/record_schema.h"

extern "C" msptiResult msptiActivityGetNextRecord(uint8_t*, size_t, msptiActivity**) {
    return MSPTI_ERROR_MAX_LIMIT_REACHED;
}
extern "C" msptiResult msptiActivityFlushAll(uint32_t) { return MSPTI_SUCCESS; }

int main() {
    conformance::collector_init();
    std::map<uint32_t, std::string> texts;  // offset -> the text its string fields point at
    const int32_t unknown_kind = 255;
    for (int32_t kind = 0; kind <= unknown_kind; ++kind) {
        size_t size = mspti_schema::RecordSize(kind);
        if (size == 0 && kind != unknown_kind) continue;
        if (size == 0) size = sizeof(int32_t);
        std::vector<uint64_t> storage((size + 7) / 8);  // 8-byte aligned, as a buffer's records are
        auto* bytes = reinterpret_cast<unsigned char*>(storage.data());
        for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<unsigned char>(kind * 37 + i * 11 + 1);
        std::memcpy(bytes, &kind, sizeof kind);
        const mspti_schema::StringFields strings = mspti_schema::StringFieldsOf(kind);
        for (uint32_t i = 0; i < strings.count; ++i) {
            const uint32_t offset = strings.offsets[i];
            const std::string& text = texts.emplace(offset, "text@" + std::to_string(offset)).first->second;
            const char* pointer = text.c_str();
            std::memcpy(bytes + offset, &pointer, sizeof pointer);
        }
        conformance::log_record(reinterpret_cast<const msptiActivity*>(bytes), static_cast<uint64_t>(kind), 0);
    }
    return 0;
}
