// Streams over a connected socket pair (no network): whole messages through a Channel, partial
// non-blocking steps, deadlines.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <chrono>
#include <string>

#include "transport/frame.h"
#include "transport/socket.h"

namespace npusim::transport {
namespace {

enum class Kind : uint32_t { Ping = 1, Pong = 2 };
constexpr uint32_t kMagic = 0x474E4950;  // "PING"
using PingChannel = Channel<Kind, kMagic>;
using OtherChannel = Channel<Kind, kMagic + 1>;

struct Pair {
    Fd a, b;
    Pair() {
        int fds[2] = {-1, -1};
        EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        a = Fd(fds[0]);
        b = Fd(fds[1]);
    }
};

TEST(Socket, ChannelCarriesTypeRequestMetaAndPayload) {
    Pair p;
    PingChannel tx(std::move(p.a));
    PingChannel rx(std::move(p.b));
    const std::string body = "payload bytes";
    ASSERT_EQ(tx.send(Kind::Pong, 77, Writer().put<uint32_t>(5), {{body.data(), body.size()}}), IoStatus::Ok);
    Message<Kind> msg;
    ASSERT_EQ(rx.receive(msg, Deadline::after(std::chrono::seconds(5))), IoStatus::Ok);
    EXPECT_EQ(msg.type, Kind::Pong);
    EXPECT_EQ(msg.request, 77u);
    EXPECT_EQ(Reader(msg.meta).get<uint32_t>(), 5u);
    ASSERT_EQ(msg.payload, body.size());
    std::string got(body.size(), '\0');
    ASSERT_EQ(read_all(rx.fd(), got.data(), got.size()), IoStatus::Ok);
    EXPECT_EQ(got, body);
}

TEST(Socket, ChannelOfAnotherProtocolIsAnError) {
    Pair p;
    OtherChannel tx(std::move(p.a));
    PingChannel rx(std::move(p.b));
    ASSERT_EQ(tx.send(Kind::Ping, 1, Writer()), IoStatus::Ok);
    Message<Kind> msg;
    EXPECT_EQ(rx.receive(msg), IoStatus::Error);
}

TEST(Socket, ReceiveTimesOutAndSeesTheClose) {
    Pair p;
    PingChannel rx(Borrowed{}, p.b);
    Message<Kind> msg;
    EXPECT_EQ(rx.receive(msg, Deadline::after(std::chrono::milliseconds(20))), IoStatus::Timeout);
    p.a.reset();
    EXPECT_EQ(rx.receive(msg, Deadline::after(std::chrono::seconds(5))), IoStatus::Closed);
    EXPECT_TRUE(p.b.valid());  // a borrowed descriptor stays its owner's
}

TEST(Socket, StepsMoveWhatIsReadyAndReportTheClose) {
    Pair p;
    size_t moved = 99;
    char buf[8] = {};
    EXPECT_EQ(recv_some(p.b.get(), buf, sizeof buf, moved), IoStatus::Ok);  // nothing yet
    EXPECT_EQ(moved, 0u);
    ASSERT_EQ(send_some(p.a.get(), "abc", 3, moved), IoStatus::Ok);
    EXPECT_EQ(moved, 3u);
    ASSERT_EQ(recv_some(p.b.get(), buf, sizeof buf, moved), IoStatus::Ok);
    EXPECT_EQ(std::string(buf, moved), "abc");
    p.a.reset();
    EXPECT_EQ(recv_some(p.b.get(), buf, sizeof buf, moved), IoStatus::Closed);
    EXPECT_EQ(send_some(p.b.get(), "x", 1, moved), IoStatus::Closed);
}

}  // namespace
}  // namespace npusim::transport
