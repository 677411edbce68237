// The driver's shared pieces: script parsing, word substitution, argument helpers and the shared
// variables (declared in driver_common.h).
#include "driver_common.h"

namespace conformance::driver {

// ---------------------------------------------------------------- script

static std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> words;
    std::istringstream stream(line);
    std::string word;
    while (stream >> word) {
        if (word[0] == '#') break;
        words.push_back(word);
    }
    return words;
}

[[noreturn]] void die(const std::string& message) {
    Json event("driver_error");
    event.str("message", message);
    conformance::emit(event);
    std::fprintf(stderr, "driver: %s\n", message.c_str());
    std::exit(3);
}

std::vector<Command> parse_block(std::vector<std::pair<int, std::string>>& lines, size_t& index, bool nested) {
    std::vector<Command> commands;
    while (index < lines.size()) {
        auto [number, text] = lines[index++];
        std::vector<std::string> words = split(text);
        if (words.empty()) continue;
        if (words.size() == 1 && words[0] == "}") {
            if (!nested) die("line " + std::to_string(number) + ": unmatched '}'");
            return commands;
        }
        Command command;
        command.line = number;
        if (words.back() == "{") {
            words.pop_back();
            command.words = words;
            command.body = parse_block(lines, index, true);
        } else {
            command.words = words;
        }
        commands.push_back(std::move(command));
    }
    if (nested) die("unterminated block at the end of the script");
    return commands;
}

// ---------------------------------------------------------------- execution context

thread_local bool t_quiet = false;
thread_local std::map<std::string, std::pair<uint64_t, uint64_t>>* t_quiet_totals = nullptr;

std::string substitute(const std::string& word, const Frame& frame) {
    std::string out;
    for (size_t i = 0; i < word.size(); ++i) {
        if (word[i] == '%' && i + 1 < word.size() && word[i + 1] == 't') {
            out += std::to_string(frame.thread);
            ++i;
        } else if (word[i] == '%' && i + 1 < word.size() && word[i + 1] == 'T') {
            out += std::to_string(frame.thread + 1);
            ++i;
        } else if (word[i] == '%' && i + 1 < word.size() && word[i + 1] == 'i') {
            out += std::to_string(frame.repeat);
            ++i;
        } else {
            out += word[i];
        }
    }
    return out;
}

long long to_int(const std::string& text) {
    char* end = nullptr;
    errno = 0;
    long long value = std::strtoll(text.c_str(), &end, 0);
    if (end == text.c_str() || *end != 0 || errno == ERANGE) {
        errno = 0;
        unsigned long long unsigned_value = std::strtoull(text.c_str(), &end, 0);
        if (end == text.c_str() || *end != 0 || errno == ERANGE) die("not a number: " + text);
        return static_cast<long long>(unsigned_value);
    }
    return value;
}

StringArg string_arg(const std::string& word) {
    static std::mutex mutex;
    static std::vector<std::unique_ptr<std::string>> owned;
    StringArg arg;
    if (word == "<null>") {
        arg.described = "<null>";
        return arg;
    }
    std::string value;
    bool is_mutable = false;
    if (word == "<empty>") {
        value = "";
    } else if (word.rfind("<long:", 0) == 0 && word.back() == '>') {
        value = std::string(static_cast<size_t>(to_int(word.substr(6, word.size() - 7))), 'x');
    } else if (word.rfind("<mutable:", 0) == 0 && word.back() == '>') {
        value = word.substr(9, word.size() - 10);
        is_mutable = true;
    } else {
        value = word;
    }
    arg.described = value;
    if (is_mutable) {
        arg.mutable_buffer = static_cast<char*>(std::malloc(value.size() + 1));
        std::memcpy(arg.mutable_buffer, value.c_str(), value.size() + 1);
        arg.pointer = arg.mutable_buffer;
        return arg;
    }
    std::lock_guard<std::mutex> lock(mutex);
    owned.push_back(std::make_unique<std::string>(value));
    arg.pointer = owned.back()->c_str();
    return arg;
}

void release_string(StringArg& arg) {
    if (arg.mutable_buffer != nullptr) {
        std::memset(arg.mutable_buffer, '#', std::strlen(arg.mutable_buffer));
        std::free(arg.mutable_buffer);
        arg.mutable_buffer = nullptr;
    }
}

void emit_quiet_totals() {
    if (t_quiet_totals == nullptr) return;
    for (const auto& [function, totals] : *t_quiet_totals) {
        Json event("quiet");
        event.str("fn", function).num("count", totals.first).num("fails", totals.second);
        event.num("tid", conformance::thread_id());
        conformance::emit(event);
    }
    t_quiet_totals->clear();
}

void missing(const char* function, const Args& args) {
    Json event("call");
    event.str("fn", function);
    if (!args.label.empty()) event.str("label", args.label);
    event.boolean("missing", true).num("tid", conformance::thread_id());
    conformance::emit(event);
}

// ---------------------------------------------------------------- shared variables

// Never destroyed, like every table a command reads: threads may still run commands while
// another thread's exit() runs the static destructors (the exit command).
static std::mutex& g_vars_mutex = *new std::mutex();
static std::map<std::string, Value>& g_vars = *new std::map<std::string, Value>();
std::atomic<uint64_t> g_launches{0};

Value lookup(const std::string& name) {
    std::lock_guard<std::mutex> lock(g_vars_mutex);
    auto found = g_vars.find(name);
    if (found == g_vars.end()) die("unknown variable " + name);
    return found->second;
}

void store(const std::string& name, const Value& value) {
    std::lock_guard<std::mutex> lock(g_vars_mutex);
    g_vars[name] = value;
}

void forget(const std::string& name) {
    std::lock_guard<std::mutex> lock(g_vars_mutex);
    g_vars.erase(name);
}

#ifdef CONFORMANCE_HAVE_ACL
aclrtStream stream_arg(const std::string& word) {
    if (word == "null" || word == "default") return nullptr;
    return lookup(word).pointer;
}

int64_t stream_id_of(const std::string& word) {
    if (word == "null" || word == "default" || word == "none") return -1;
    return lookup(word).stream_id;
}
#endif

}  // namespace conformance::driver
