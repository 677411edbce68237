#include "directory.h"

namespace hixl {

Directory& Directory::instance() {
    static Directory* directory = new Directory;  // outlives engines destroyed at exit
    return *directory;
}

bool Directory::add(const std::string& name, const std::shared_ptr<Engine>& engine) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = engines_.find(name);
    if (it != engines_.end() && !it->second.expired()) return false;
    engines_[name] = engine;
    return true;
}

void Directory::remove(const std::string& name, const Engine* engine) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = engines_.find(name);
    if (it == engines_.end()) return;
    const std::shared_ptr<Engine> current = it->second.lock();
    if (!current || current.get() == engine) engines_.erase(it);
}

std::shared_ptr<Engine> Directory::find(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = engines_.find(name);
    return it == engines_.end() ? nullptr : it->second.lock();
}

}  // namespace hixl
