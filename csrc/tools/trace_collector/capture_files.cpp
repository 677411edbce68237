#include "capture_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace npusim::trace {

bool WriteAll(int fd, const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    while (size > 0) {
        const ssize_t written = ::write(fd, bytes, size);
        if (written < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        bytes += written;
        size -= static_cast<size_t>(written);
    }
    return true;
}

bool MakeDirectories(const std::string& dir) {
    if (dir.empty()) return false;
    std::string path;
    for (size_t i = 0; i <= dir.size(); ++i) {
        if (i == dir.size() || (dir[i] == '/' && i > 0)) {
            path = dir.substr(0, i);
            if (::mkdir(path.c_str(), 0777) != 0 && errno != EEXIST) return false;
        }
    }
    struct stat info{};
    return ::stat(dir.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

namespace {

void PutU32(std::vector<uint8_t>& out, uint32_t value) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

int OpenTruncated(const std::string& path) {
    return ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_APPEND, 0666);
}

}  // namespace

CaptureFiles::~CaptureFiles() { Close(); }

bool CaptureFiles::Open(const std::string& dir, pid_t pid, const KindSize* kinds, size_t kind_count) {
    Close();
    if (!MakeDirectories(dir)) return false;
    stem_ = dir + "/trace-" + std::to_string(pid);
    records_fd_ = OpenTruncated(stem_ + ".records");
    strings_fd_ = OpenTruncated(stem_ + ".strings");
    meta_path_ = stem_ + ".json";
    pid_ = pid;
    if (records_fd_ < 0 || strings_fd_ < 0) {
        Close();
        return false;
    }
    // Records header: magic, version, header size, kind count, reserved, then {kind, size} pairs.
    std::vector<uint8_t> header(kRecordsMagic, kRecordsMagic + sizeof(kRecordsMagic));
    const uint32_t header_size = static_cast<uint32_t>(24 + 8 * kind_count);
    PutU32(header, kFormatVersion);
    PutU32(header, header_size);
    PutU32(header, static_cast<uint32_t>(kind_count));
    PutU32(header, 0);
    for (size_t i = 0; i < kind_count; ++i) {
        PutU32(header, kinds[i].kind);
        PutU32(header, kinds[i].size);
    }
    std::vector<uint8_t> strings_header(kStringsMagic, kStringsMagic + sizeof(kStringsMagic));
    PutU32(strings_header, kFormatVersion);
    PutU32(strings_header, 0);
    if (!WriteAll(records_fd_, header.data(), header.size()) ||
        !WriteAll(strings_fd_, strings_header.data(), strings_header.size())) {
        Close();
        return false;
    }
    return true;
}

bool CaptureFiles::Reopen() {
    if (IsOpen()) return true;
    if (stem_.empty()) return false;
    records_fd_ = ::open((stem_ + ".records").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    strings_fd_ = ::open((stem_ + ".strings").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (records_fd_ < 0 || strings_fd_ < 0) {
        Close();
        return false;
    }
    return true;
}

bool CaptureFiles::AppendStrings(const std::string& bytes) {
    return bytes.empty() || WriteAll(strings_fd_, bytes.data(), bytes.size());
}

bool CaptureFiles::AppendChunk(uint32_t kind, uint32_t record_size, const uint8_t* records, uint64_t count) {
    uint8_t head[16];
    std::memcpy(head, &kind, 4);
    std::memcpy(head + 4, &record_size, 4);
    std::memcpy(head + 8, &count, 8);
    return WriteAll(records_fd_, head, sizeof(head)) && WriteAll(records_fd_, records, record_size * count);
}

bool CaptureFiles::WriteMeta(const std::string& json) {
    if (meta_path_.empty()) return false;
    const std::string temp = meta_path_ + ".tmp";
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return false;
    const bool ok = WriteAll(fd, json.data(), json.size());
    ::close(fd);
    return ok && std::rename(temp.c_str(), meta_path_.c_str()) == 0;
}

void CaptureFiles::Close() {
    if (records_fd_ >= 0) ::close(records_fd_);
    if (strings_fd_ >= 0) ::close(strings_fd_);
    records_fd_ = strings_fd_ = -1;
}

}  // namespace npusim::trace
