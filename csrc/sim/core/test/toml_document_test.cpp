// parse_toml: tables by dotted path, arrays of tables, typed getters, and errors with their line.
#include "core/toml_document.h"

#include <gtest/gtest.h>

#include <string>

namespace npusim {
namespace {

TomlDocument Parse(const std::string& text) {
    TomlDocument doc;
    std::string error;
    EXPECT_TRUE(parse_toml(text, doc, error)) << error;
    return doc;
}

std::string ParseError(const std::string& text) {
    TomlDocument doc;
    std::string error;
    EXPECT_FALSE(parse_toml(text, doc, error)) << "accepted: " << text;
    return error;
}

TEST(TomlDocument, EmptyTextIsAnEmptyRootTable) {
    const TomlDocument doc = Parse("");
    ASSERT_NE(doc.table(""), nullptr);
    EXPECT_TRUE(doc.table("")->values.empty());
    EXPECT_TRUE(doc.arrays.empty());
}

TEST(TomlDocument, TablesByPathWithTypedValues) {
    const TomlDocument doc = Parse(
        "top = 1\n"
        "[soc.\"Ascend910B3\"]\n"
        "name = \"b3\"\n"
        "cores = 24\n"
        "ghz = 1.8\n"
        "ok = true\n");
    EXPECT_EQ(doc.table("")->get_int("top"), 1);
    const std::string path = std::string("soc") + '\x1f' + "Ascend910B3";
    const TomlTable* soc = doc.table(path);
    ASSERT_NE(soc, nullptr);
    EXPECT_EQ(soc->line, 2);
    EXPECT_EQ(soc->get_string("name"), "b3");
    EXPECT_EQ(soc->get_int("cores"), 24);
    EXPECT_EQ(soc->get_number("cores"), 24.0);  // an int reads as a number
    EXPECT_EQ(soc->get_number("ghz"), 1.8);
    EXPECT_EQ(soc->get_bool("ok"), true);
    // Wrong type or absent: no value.
    EXPECT_FALSE(soc->get_int("name").has_value());
    EXPECT_FALSE(soc->get_string("missing").has_value());
    // The parent that holds only sub-tables is listed, and children() finds the sub-table.
    ASSERT_NE(doc.table("soc"), nullptr);
    const auto children = doc.children("soc");
    ASSERT_EQ(children.size(), 1u);
    EXPECT_EQ(children[0].first, "Ascend910B3");
    EXPECT_EQ(doc.table("nope"), nullptr);
}

TEST(TomlDocument, ArraysOfTablesInFileOrder) {
    const TomlDocument doc = Parse("[[kernel]]\nname = \"a\"\n[[kernel]]\nname = \"b\"\n");
    const auto it = doc.arrays.find("kernel");
    ASSERT_NE(it, doc.arrays.end());
    ASSERT_EQ(it->second.size(), 2u);
    EXPECT_EQ(it->second[0].get_string("name"), "a");
    EXPECT_EQ(it->second[1].get_string("name"), "b");
    EXPECT_EQ(it->second[1].line, 3);
}

TEST(TomlDocument, SyntaxErrorNamesItsLine) {
    const std::string error = ParseError("a = 1\nb = \n");
    EXPECT_EQ(error.rfind("line 2: ", 0), 0u) << error;
}

TEST(TomlDocument, RefusesValuesOutsideTheSubset) {
    EXPECT_NE(ParseError("xs = [1, 2]\n").find("line 1: "), std::string::npos);
    EXPECT_NE(ParseError("\n\nwhen = 1979-05-27\n").find("line 3: "), std::string::npos);
}

TEST(TomlDocument, RefusesADuplicateKey) { ParseError("a = 1\na = 2\n"); }

}  // namespace
}  // namespace npusim
