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

TEST(Interfaces, DefaultChoiceIsTheFirstOfThePreferredFamily) {
    InterfaceChoice c = choose_interface(sample(), AF_INET, "", "");
    EXPECT_EQ(c.ip, "192.168.0.9");
    EXPECT_EQ(c.ifname, "enp3s0");
    EXPECT_FALSE(c.selected);
    c = choose_interface(sample(), AF_INET6, "", "");
    EXPECT_EQ(c.ip, "fd00::2");
    EXPECT_EQ(c.ifname, "ib0");
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
    InterfaceChoice c = choose_interface(sample(), AF_INET, "10.0.0.2", "=eth0");
    EXPECT_EQ(c.ip, "10.0.0.2");
    EXPECT_EQ(c.ifname, "eth1");
    EXPECT_TRUE(c.selected);
    c = choose_interface(sample(), AF_INET, "10.9.9.9%bond0", "");
    EXPECT_EQ(c.ip, "10.9.9.9");
    EXPECT_EQ(c.ifname, "bond0");
    c = choose_interface(sample(), AF_INET, "10.9.9.9", "");
    EXPECT_EQ(c.ifname, "ifip");
    c = choose_interface(sample(), AF_INET, "fd00:0::2", "");  // canonical text
    EXPECT_EQ(c.ip, "fd00::2");
    EXPECT_EQ(c.ifname, "ib0");
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
    InterfaceChoice c = choose_interface(sample(), AF_INET, "", "eth");
    EXPECT_EQ(c.ifname, "eth0");
    EXPECT_TRUE(c.selected);
    c = choose_interface(sample(), AF_INET, "", "^=enp3s0,eth0");
    EXPECT_EQ(c.ifname, "eth1");
    c = choose_interface(sample(), AF_INET, "", "=lo");
    EXPECT_EQ(c.ip, "127.0.0.1");
}

TEST(Interfaces, RuleAdmittingNothingIsIgnoredAndReported) {
    const InterfaceChoice c = choose_interface(sample(), AF_INET, "", "=wlan9");
    EXPECT_TRUE(c.rule_unmatched);
    EXPECT_FALSE(c.selected);
    EXPECT_EQ(c.ifname, "enp3s0");
}

}  // namespace
}  // namespace npusim::transport
