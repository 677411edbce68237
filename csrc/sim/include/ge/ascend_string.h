/*
 * ge::AscendString: the small string type of CANN's C++ APIs (HIXL engine names,
 * option keys and values). Header-only in the simulator.
 */
#ifndef NPU_SIM_GE_ASCEND_STRING_H
#define NPU_SIM_GE_ASCEND_STRING_H

#include <cstddef>
#include <functional>
#include <string>

namespace ge {

class AscendString {
public:
    AscendString() = default;
    // A null pointer gives the empty string.
    AscendString(const char *name) : text_(name == nullptr ? "" : name) {}
    AscendString(const char *name, size_t length) : text_(name == nullptr ? std::string() : std::string(name, length)) {}

    const char *GetString() const { return text_.c_str(); }
    size_t GetLength() const { return text_.size(); }
    size_t Hash() const { return std::hash<std::string>()(text_); }
    // Position of the first occurrence of `other`, or std::string::npos.
    size_t Find(const AscendString &other) const { return text_.find(other.text_); }

    bool operator<(const AscendString &other) const { return text_ < other.text_; }
    bool operator>(const AscendString &other) const { return text_ > other.text_; }
    bool operator<=(const AscendString &other) const { return text_ <= other.text_; }
    bool operator>=(const AscendString &other) const { return text_ >= other.text_; }
    bool operator==(const AscendString &other) const { return text_ == other.text_; }
    bool operator!=(const AscendString &other) const { return text_ != other.text_; }

private:
    std::string text_;
};

}  // namespace ge

namespace std {
template <>
struct hash<ge::AscendString> {
    size_t operator()(const ge::AscendString &s) const noexcept { return s.Hash(); }
};
}  // namespace std

#endif  // NPU_SIM_GE_ASCEND_STRING_H
