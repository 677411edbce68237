// Address text of either family (transport/address.h): parsing, joining, numeric resolution.
#include <gtest/gtest.h>

#include <netinet/in.h>

#include "transport/address.h"

namespace npusim::transport {
namespace {

TEST(Address, SplitHostPortTakesTheLastColon) {
    std::string host;
    uint16_t port = 0;
    ASSERT_TRUE(split_host_port("10.0.0.2:60000", host, port));
    EXPECT_EQ(host, "10.0.0.2");
    EXPECT_EQ(port, 60000);
    ASSERT_TRUE(split_host_port("[fd00::2]:6000", host, port));
    EXPECT_EQ(host, "[fd00::2]");
    EXPECT_EQ(port, 6000);
}

TEST(Address, SplitHostPortRefusesMalformedPorts) {
    std::string host;
    uint16_t port = 0;
    for (const char* bad : {"10.0.0.2", "10.0.0.2:", "10.0.0.2:0", "10.0.0.2:65536", "10.0.0.2:12a"}) {
        EXPECT_FALSE(split_host_port(bad, host, port)) << bad;
    }
}

TEST(Address, JoinHostPortBracketsIpv6Only) {
    EXPECT_EQ(join_host_port("127.0.0.1", 80), "127.0.0.1:80");
    EXPECT_EQ(join_host_port("::1", 80), "[::1]:80");
    EXPECT_EQ(join_host_port("[::1]", 80), "[::1]:80");
}

TEST(Address, EndpointOfEitherFamilyWithOptionalPort) {
    Endpoint ep;
    ASSERT_TRUE(parse_endpoint("127.0.0.1", ep));
    EXPECT_EQ(ep.ip, "127.0.0.1");
    EXPECT_FALSE(ep.has_port);
    EXPECT_EQ(ep.name(), "127.0.0.1");
    ASSERT_TRUE(parse_endpoint("127.0.0.1:0", ep));
    EXPECT_TRUE(ep.has_port);
    EXPECT_EQ(ep.port, 0);
    ASSERT_TRUE(parse_endpoint("192.168.1.5:65535", ep));
    EXPECT_EQ(ep.port, 65535);
    EXPECT_EQ(ep.name(), "192.168.1.5:65535");
    ASSERT_TRUE(parse_endpoint("[::1]:5000", ep));
    EXPECT_EQ(ep.ip, "::1");
    EXPECT_EQ(ep.port, 5000);
    EXPECT_EQ(ep.name(), "[::1]:5000");
    ASSERT_TRUE(parse_endpoint("[fd00::1]", ep));
    EXPECT_FALSE(ep.has_port);
}

TEST(Address, EndpointRefusesNamesAndBadPorts) {
    Endpoint ep;
    for (const char* bad : {"", "localhost:80", "host", "1.2.3:80", "1.2.3.4:", "1.2.3.4:65536", "1.2.3.4:-1",
                            "1.2.3.4:1x", "::1", "[::1", "[::1]x", "[1.2.3.4]:80", "1.2.3.4:123456"}) {
        EXPECT_FALSE(parse_endpoint(bad, ep)) << bad;
    }
}

TEST(Address, NumericAddressesResolveWithoutTheSystem) {
    SocketAddress a;
    ASSERT_TRUE(resolve_address("10.1.2.3", 99, a));
    EXPECT_EQ(a.family(), AF_INET);
    EXPECT_EQ(a.text(), "10.1.2.3:99");
    EXPECT_FALSE(a.loopback());
    ASSERT_TRUE(resolve_address("[::1]", 7, a));
    EXPECT_EQ(a.family(), AF_INET6);
    EXPECT_EQ(a.text(), "[::1]:7");
    EXPECT_TRUE(a.loopback());
    ASSERT_TRUE(resolve_address("", 1, a));
    EXPECT_EQ(a.ip(), "127.0.0.1");
    ASSERT_TRUE(resolve_address("127.0.0.2", 1, a));
    EXPECT_TRUE(a.loopback());  // all of 127/8
    EXPECT_EQ(any_address_like("fd00::5"), "::");
    EXPECT_EQ(any_address_like("10.0.0.1"), "0.0.0.0");
}

}  // namespace
}  // namespace npusim::transport
