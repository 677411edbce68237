// The files of one process's capture in the capture directory (layout: docs/trace.md):
//   trace-<pid>.records  header (version, record kinds and sizes), then chunks of raw records
//   trace-<pid>.strings  the interned strings, NUL-terminated, in id order
//   trace-<pid>.json     metadata, rewritten at exit
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace npusim::trace {

inline constexpr char kRecordsMagic[8] = {'N', 'P', 'U', 'S', 'I', 'M', 'T', 'R'};
inline constexpr char kStringsMagic[8] = {'N', 'P', 'U', 'S', 'I', 'M', 'S', 'T'};
inline constexpr uint32_t kFormatVersion = 1;

struct KindSize {
    uint32_t kind;
    uint32_t size;
};

class CaptureFiles {
public:
    CaptureFiles() = default;
    ~CaptureFiles();
    CaptureFiles(const CaptureFiles&) = delete;
    CaptureFiles& operator=(const CaptureFiles&) = delete;

    // Creates the directory if needed and opens (truncates) the files of `pid`, writing both headers.
    bool Open(const std::string& dir, pid_t pid, const KindSize* kinds, size_t kind_count);
    // Opens the files of the last Open() again for appending (records delivered after Close()).
    bool Reopen();
    bool IsOpen() const { return records_fd_ >= 0; }
    pid_t pid() const { return pid_; }

    bool AppendStrings(const std::string& bytes);
    // One chunk: {u32 kind, u32 record size, u64 count} followed by count records.
    bool AppendChunk(uint32_t kind, uint32_t record_size, const uint8_t* records, uint64_t count);
    // Replaces the metadata file (written to a temporary name, then renamed).
    bool WriteMeta(const std::string& json);

    // Closes the descriptors (a forked child closes the ones it inherited before opening its own).
    void Close();
    const std::string& meta_path() const { return meta_path_; }

private:
    int records_fd_ = -1;
    int strings_fd_ = -1;
    pid_t pid_ = 0;
    std::string stem_;
    std::string meta_path_;
};

// Writes all of `size` bytes (retrying short writes and EINTR).
bool WriteAll(int fd, const void* data, size_t size);
// mkdir -p.
bool MakeDirectories(const std::string& dir);

}  // namespace npusim::trace
