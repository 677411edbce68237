// Fault plan rules (core/fault_rule.h): every action and call selector, which calls a rule matches,
// and the errors of bad rules (each names the rule; an unknown function gets the closest names).
#include "core/fault_rule.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace npusim {
namespace {

const std::vector<std::string> kKnown = {"aclrtLaunchKernel", "aclrtMemcpy", "aclrtMemcpyAsync", "halGetDeviceInfo",
                                         "prof_read"};

std::vector<FaultRule> Parse(const std::string& text) {
    std::vector<FaultRule> rules;
    std::string error;
    EXPECT_TRUE(parse_fault_rules(text, kKnown, rules, error)) << text << ": " << error;
    return rules;
}

std::string ErrorOf(const std::string& text) {
    std::vector<FaultRule> rules;
    std::string error;
    EXPECT_FALSE(parse_fault_rules(text, kKnown, rules, error)) << text;
    return error;
}

TEST(FaultRule, ParsesEveryAction) {
    const auto rules = Parse(
        "aclrtMemcpy:error=507011; aclrtMemcpyAsync:delay=3ms;prof_read:short=16 ; "
        "prof_read:garble;halGetDeviceInfo:stall");
    ASSERT_EQ(rules.size(), 5u);
    EXPECT_EQ(rules[0].function, "aclrtMemcpy");
    EXPECT_EQ(rules[0].action, FaultAction::Error);
    EXPECT_EQ(rules[0].value, 507011);
    EXPECT_EQ(rules[1].action, FaultAction::Delay);
    EXPECT_EQ(rules[1].value, 3000000);
    EXPECT_EQ(rules[2].action, FaultAction::Short);
    EXPECT_EQ(rules[2].value, 16);
    EXPECT_EQ(rules[3].action, FaultAction::Garble);
    EXPECT_EQ(rules[4].action, FaultAction::Stall);
}

TEST(FaultRule, ErrorCodesTakeAnyBase) {
    EXPECT_EQ(Parse("aclrtMemcpy:error=0x10")[0].value, 16);
    EXPECT_EQ(Parse("aclrtMemcpy:error=-1")[0].value, -1);
}

TEST(FaultRule, DelaysInEveryUnit) {
    EXPECT_EQ(Parse("aclrtMemcpy:delay=7ns")[0].value, 7);
    EXPECT_EQ(Parse("aclrtMemcpy:delay=7us")[0].value, 7000);
    EXPECT_EQ(Parse("aclrtMemcpy:delay=7ms")[0].value, 7000000);
    EXPECT_EQ(Parse("aclrtMemcpy:delay=7s")[0].value, 7000000000);
    EXPECT_EQ(Parse("aclrtMemcpy:delay=0s")[0].value, 0);
    // The largest delay in whole seconds that fits 64-bit nanoseconds.
    EXPECT_EQ(Parse("aclrtMemcpy:delay=9223372036s")[0].value, 9223372036000000000);
}

TEST(FaultRule, ADelayPast64BitNanosecondsIsRefusedNotWrapped) {
    EXPECT_NE(ErrorOf("aclrtMemcpy:delay=9223372037s").find("bad action 'delay=9223372037s'"), std::string::npos);
    EXPECT_NE(ErrorOf("aclrtMemcpy:delay=10000000000000ms").find("bad action"), std::string::npos);
}

TEST(FaultRule, WithoutASelectorEveryCallMatches) {
    const FaultRule rule = Parse("aclrtMemcpy:error=1")[0];
    EXPECT_TRUE(rule.matches(1));
    EXPECT_TRUE(rule.matches(UINT64_MAX));
}

TEST(FaultRule, OneCall) {
    const FaultRule rule = Parse("aclrtMemcpy:error=1@3")[0];
    EXPECT_FALSE(rule.matches(2));
    EXPECT_TRUE(rule.matches(3));
    EXPECT_FALSE(rule.matches(4));
}

TEST(FaultRule, FromACallOn) {
    const FaultRule rule = Parse("aclrtMemcpy:error=1@3+")[0];
    EXPECT_FALSE(rule.matches(2));
    EXPECT_TRUE(rule.matches(3));
    EXPECT_TRUE(rule.matches(1000000));
}

TEST(FaultRule, ARangeOfCalls) {
    const FaultRule rule = Parse("aclrtMemcpy:error=1 @ 2-4")[0];
    EXPECT_FALSE(rule.matches(1));
    EXPECT_TRUE(rule.matches(2));
    EXPECT_TRUE(rule.matches(4));
    EXPECT_FALSE(rule.matches(5));
    EXPECT_TRUE(Parse("aclrtMemcpy:error=1@5-5")[0].matches(5));
}

TEST(FaultRule, EveryKthCall) {
    const FaultRule rule = Parse("aclrtMemcpy:garble@every=3")[0];
    EXPECT_FALSE(rule.matches(1));
    EXPECT_FALSE(rule.matches(2));
    EXPECT_TRUE(rule.matches(3));
    EXPECT_TRUE(rule.matches(6));
    EXPECT_FALSE(rule.matches(7));
}

TEST(FaultRule, AnEmptyPlanHasNoRules) {
    EXPECT_TRUE(Parse("").empty());
    EXPECT_TRUE(Parse(" ; ;").empty());
}

TEST(FaultRule, BadSelectorsAreRefused) {
    for (const char* when : {"0", "every=0", "3-2", "-3", "3-", "+", "x", "1.5", "2-x"}) {
        const std::string text = std::string("aclrtMemcpy:error=1@") + when;
        EXPECT_NE(ErrorOf(text).find("bad call selector '" + std::string(when) + "'"), std::string::npos) << when;
    }
}

TEST(FaultRule, BadActionsAreRefused) {
    for (const char* action : {"error=", "error=1x", "delay=5", "delay=5 ms", "delay=-5ms", "delay=ms", "short=-1",
                               "garble=1", "stall=2", "explode", ""}) {
        const std::string text = std::string("aclrtMemcpy:") + action;
        EXPECT_NE(ErrorOf(text).find("bad action"), std::string::npos) << action;
    }
    EXPECT_NE(ErrorOf("aclrtMemcpy:error=99999999999999999999").find("bad action"), std::string::npos);
}

TEST(FaultRule, TheFunctionMustBeAnIdentifier) {
    EXPECT_NE(ErrorOf("aclrtMemcpy error=1").find("expected FUNCTION:ACTION"), std::string::npos);
    EXPECT_NE(ErrorOf(":error=1").find("function must be a C identifier"), std::string::npos);
    EXPECT_NE(ErrorOf("1acl:error=1").find("function must be a C identifier"), std::string::npos);
    EXPECT_NE(ErrorOf("acl-rt:error=1").find("function must be a C identifier"), std::string::npos);
}

TEST(FaultRule, AnUnknownFunctionGetsTheClosestNames) {
    const std::string error = ErrorOf("aclrtMemcpy:error=1;aclrtMemcpyy:error=2");
    EXPECT_NE(error.find("'aclrtMemcpyy' is not a simulator function with a fault point"), std::string::npos);
    EXPECT_NE(error.find("did you mean aclrtMemcpy, aclrtMemcpyAsync?"), std::string::npos) << error;
    const std::string far = ErrorOf("nothingLikeIt:error=1");
    EXPECT_EQ(far.find("did you mean"), std::string::npos) << far;
}

TEST(FaultRule, AFailedParseNamesTheRuleItStoppedAt) {
    std::vector<FaultRule> rules;
    std::string error;
    EXPECT_FALSE(parse_fault_rules("aclrtMemcpy:error=1;prof_read:short=x", kKnown, rules, error));
    EXPECT_EQ(error.rfind("fault rule 'prof_read:short=x'", 0), 0u) << error;
}

}  // namespace
}  // namespace npusim
