// The driver's mstx commands: marks, ranges and domains.
#include "driver_common.h"

#ifdef CONFORMANCE_HAVE_MSTX
namespace conformance::driver {

static void mstx_annotate(Call& call, const StringArg& message, const std::string& stream) {
    call.json().str("msg", message.pointer == nullptr ? nullptr : message.described.c_str());
    call.json().num("length", message.described.size()).str("stream", stream);
    call.json().inum("stream_id", stream_id_of(stream));
}

void cmd_mark(const Args& args) {
    StringArg message = string_arg(args.at(0));
    std::string stream_name = args.opt(1, "none");
    aclrtStream stream = stream_name == "none" ? nullptr : stream_arg(stream_name);
    Call call("mstxMarkA", args);
    mstxMarkA(message.pointer, stream);
    call.end(0);
    release_string(message);
    mstx_annotate(call, message, stream_name);
    call.emit();
}

static uint64_t range_arg(const std::string& word) {
    if (word.rfind("id:", 0) == 0) return static_cast<uint64_t>(to_int(word.substr(3)));
    return lookup(word).id;
}

void cmd_range_start(const Args& args) {
    StringArg message = string_arg(args.at(1));
    std::string stream_name = args.opt(2, "none");
    aclrtStream stream = stream_name == "none" ? nullptr : stream_arg(stream_name);
    Call call("mstxRangeStartA", args);
    mstxRangeId id = mstxRangeStartA(message.pointer, stream);
    call.end(0);
    release_string(message);
    mstx_annotate(call, message, stream_name);
    call.json().num("id", id).str("var", args.at(0));
    store(args.at(0), Value{nullptr, 0, id, -1});
    call.emit();
}

void cmd_range_end(const Args& args) {
    uint64_t id = range_arg(args.at(0));
    Call call("mstxRangeEnd", args);
    mstxRangeEnd(id);
    call.end(0).json().num("id", id).str("var", args.at(0));
    call.emit();
}

void cmd_domain_create(const Args& args) {
    StringArg name = string_arg(args.at(1));
    Call call("mstxDomainCreateA", args);
    mstxDomainHandle_t domain = mstxDomainCreateA(name.pointer);
    call.end(0).json().str("name", name.pointer == nullptr ? nullptr : name.described.c_str());
    call.json().num("handle", reinterpret_cast<uintptr_t>(domain)).str("var", args.at(0));
    store(args.at(0), Value{reinterpret_cast<void*>(domain), 0, 0, -1});
    call.emit();
}

void cmd_domain_destroy(const Args& args) {
    auto domain = reinterpret_cast<mstxDomainHandle_t>(lookup(args.at(0)).pointer);
    Call call("mstxDomainDestroy", args);
    mstxDomainDestroy(domain);
    call.end(0).json().str("var", args.at(0));
    call.emit();
}

void cmd_domain_mark(const Args& args) {
    auto domain = reinterpret_cast<mstxDomainHandle_t>(lookup(args.at(0)).pointer);
    StringArg message = string_arg(args.at(1));
    std::string stream_name = args.opt(2, "none");
    aclrtStream stream = stream_name == "none" ? nullptr : stream_arg(stream_name);
    Call call("mstxDomainMarkA", args);
    mstxDomainMarkA(domain, message.pointer, stream);
    call.end(0);
    release_string(message);
    mstx_annotate(call, message, stream_name);
    call.json().str("domain", args.at(0));
    call.emit();
}

void cmd_domain_range_start(const Args& args) {
    auto domain = reinterpret_cast<mstxDomainHandle_t>(lookup(args.at(1)).pointer);
    StringArg message = string_arg(args.at(2));
    std::string stream_name = args.opt(3, "none");
    aclrtStream stream = stream_name == "none" ? nullptr : stream_arg(stream_name);
    Call call("mstxDomainRangeStartA", args);
    mstxRangeId id = mstxDomainRangeStartA(domain, message.pointer, stream);
    call.end(0);
    release_string(message);
    mstx_annotate(call, message, stream_name);
    call.json().num("id", id).str("var", args.at(0)).str("domain", args.at(1));
    store(args.at(0), Value{nullptr, 0, id, -1});
    call.emit();
}

void cmd_domain_range_end(const Args& args) {
    auto domain = reinterpret_cast<mstxDomainHandle_t>(lookup(args.at(0)).pointer);
    uint64_t id = range_arg(args.at(1));
    Call call("mstxDomainRangeEnd", args);
    mstxDomainRangeEnd(domain, id);
    call.end(0).json().num("id", id).str("var", args.at(1)).str("domain", args.at(0));
    call.emit();
}

}  // namespace conformance::driver
#endif  // CONFORMANCE_HAVE_MSTX
