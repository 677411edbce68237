// The choice of a host interface (transport/interfaces.h) over a given list of interfaces.
#include <gtest/gtest.h>

#include "transport/interfaces.h"

namespace npusim::transport {
namespace {

std::vector<Interface> sample() {
    return {
        {"127.0.0.1", "lo", AF_INET},       {"::1", "lo", AF_INET6},       {"172.17.0.1", "docker0", AF_INET},
        {"10.0.0.2", "eth1", AF_INET},      {"10.0.0.1", "eth0", AF_INET}, {"fd00::2", "ib0", AF_INET6},
        {"192.168.0.9", "enp3s0", AF_INET},
    };
}

TEST(Interfaces, DefaultOrderIsOrdinaryByNameThenDockerThenLo) {
    std::vector<Interface> all = sample();
    sort_default_order(all);
    std::vector<std::string> names;
    for (const auto& i : all) names.push_back(i.ifname);
    EXPECT_EQ(names, (std::vector<std::string>{"enp3s0", "eth0", "eth1", "ib0", "docker0", "lo", "lo"}));
}

// The choice over sample() as "ip ifname selected|default".
std::string chosen(int family, const std::string& address, const std::string& rule) {
    const InterfaceChoice c = choose_interface(sample(), family, address, rule);
    return c.ip + " " + c.ifname + (c.selected ? " selected" : " default");
}

TEST(Interfaces, DefaultChoiceIsTheFirstOfThePreferredFamily) {
    EXPECT_EQ(chosen(AF_INET, "", ""), "192.168.0.9 enp3s0 default");
    EXPECT_EQ(chosen(AF_INET6, "", ""), "fd00::2 ib0 default");
}

TEST(Interfaces, OtherFamilyWhenThePreferredHasNone) {
    const InterfaceChoice c = choose_interface({{"10.0.0.1", "eth0", AF_INET}}, AF_INET6, "", "");
    EXPECT_EQ(c.ip, "10.0.0.1");
}

TEST(Interfaces, LoopbackOnlyWhenNothingElse) {
    InterfaceChoice c =
        choose_interface({{"127.0.0.1", "lo", AF_INET}, {"172.17.0.1", "docker0", AF_INET}}, AF_INET, "", "");
    EXPECT_EQ(c.ifname, "docker0");
    c = choose_interface({}, AF_INET, "", "");
    EXPECT_EQ(c.ip, "127.0.0.1");
    EXPECT_EQ(c.ifname, "lo");
}

TEST(Interfaces, GivenAddressWinsAndTakesItsInterfacesName) {
    EXPECT_EQ(chosen(AF_INET, "10.0.0.2", "=eth0"), "10.0.0.2 eth1 selected");
    EXPECT_EQ(chosen(AF_INET, "10.9.9.9%bond0", ""), "10.9.9.9 bond0 selected");
    EXPECT_EQ(chosen(AF_INET, "10.9.9.9", ""), "10.9.9.9 ifip selected");
    EXPECT_EQ(chosen(AF_INET, "fd00:0::2", ""), "fd00::2 ib0 selected");  // canonical text
}

TEST(Interfaces, InvalidAddressIsIgnoredAndReported) {
    const InterfaceChoice c = choose_interface(sample(), AF_INET, "not-an-ip", "");
    EXPECT_TRUE(c.address_invalid);
    EXPECT_EQ(c.ifname, "enp3s0");
    EXPECT_FALSE(c.selected);
}

TEST(Interfaces, NameRules) {
    EXPECT_TRUE(ifname_admits("eth,enp", "eth3"));
    EXPECT_FALSE(ifname_admits("eth,enp", "ib0"));
    EXPECT_TRUE(ifname_admits("=eth0,enp0", "eth0"));
    EXPECT_FALSE(ifname_admits("=eth0,enp0", "eth01"));
    EXPECT_FALSE(ifname_admits("^eth,enp", "eth3"));
    EXPECT_TRUE(ifname_admits("^eth,enp", "ib0"));
    EXPECT_FALSE(ifname_admits("^=eth0", "eth0"));
    EXPECT_TRUE(ifname_admits("^=eth0", "eth01"));
}

TEST(Interfaces, RuleChoosesTheFirstAdmittedInDefaultOrder) {
    EXPECT_EQ(chosen(AF_INET, "", "eth"), "10.0.0.1 eth0 selected");
    EXPECT_EQ(chosen(AF_INET, "", "^=enp3s0,eth0"), "10.0.0.2 eth1 selected");
    EXPECT_EQ(chosen(AF_INET, "", "=lo"), "127.0.0.1 lo selected");
    EXPECT_EQ(chosen(AF_INET6, "", "=lo"), "::1 lo selected");
}

TEST(Interfaces, RuleAdmittingNothingIsIgnoredAndReported) {
    const InterfaceChoice c = choose_interface(sample(), AF_INET, "", "=wlan9");
    EXPECT_TRUE(c.rule_unmatched);
    EXPECT_FALSE(c.selected);
    EXPECT_EQ(c.ifname, "enp3s0");
}

}  // namespace
}  // namespace npusim::transport
