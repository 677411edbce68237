// The engines of this process that listen, by name ("ip:port"), so that a
// Connect to one of them links directly instead of going through TCP.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace hixl {

class Engine;

class Directory {
public:
    static Directory& instance();

    // False when the name is taken by a live engine.
    bool add(const std::string& name, const std::shared_ptr<Engine>& engine);
    // Removes the entry only if it still names `engine`.
    void remove(const std::string& name, const Engine* engine);
    std::shared_ptr<Engine> find(const std::string& name);

private:
    std::mutex mutex_;
    std::map<std::string, std::weak_ptr<Engine>> engines_;
};

}  // namespace hixl
