// Region filters (pattern.cpp): PCRE2 with Python's re.match meaning, checked
// against Python's own answers (tables/pattern_match.jsonl, written at build
// time by tests/fixtures/gen/make_pattern_table.py), exact error messages,
// and names and patterns that used to overflow std::regex's stack.
#include "text/pattern.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "export/export.hpp"
#include "test_support.hpp"
#include "text/messages.hpp"

namespace scope_speedscope {
namespace {

std::string pattern_error(const std::string& pattern) {
  return check_pattern(pattern).value_or("(compiles)");
}

TEST(pattern, agrees_with_python_re_match_on_the_table) {
  std::ifstream in(test::tables_dir() + "/pattern_match.jsonl");
  ASSERT_TRUE(in) << "missing " << test::tables_dir() << "/pattern_match.jsonl";
  std::string line;
  int matches = 0, errors = 0, superset = 0, unsupported = 0;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    const std::string p = j["pattern"];
    if (j.contains("error")) {
      EXPECT_TRUE(check_pattern(p).has_value()) << "Python refuses " << p << ", we compile it";
      ++errors;
    } else if (j.contains("superset")) {
      EXPECT_EQ(check_pattern(p), std::nullopt) << p;
      ++superset;
    } else if (j.contains("unsupported")) {
      EXPECT_TRUE(check_pattern(p).has_value()) << "documented as unsupported: " << p;
      ++unsupported;
    } else {
      const std::string t = j["text"];
      EXPECT_EQ(Pattern(p).match_at_start(t), j["match"].get<bool>())
          << "re.match(" << p << ", " << t << ")";
      ++matches;
    }
  }
  EXPECT_GT(matches, 3900);
  EXPECT_GT(errors, 15);
  EXPECT_EQ(superset, 5);
  EXPECT_EQ(unsupported, 1);
}

TEST(pattern, error_messages_name_the_pattern_and_the_position) {
  EXPECT_EQ(pattern_error("("),
            "Invalid regular expression '(': missing closing parenthesis at position 1");
  EXPECT_EQ(pattern_error("ab)"),
            "Invalid regular expression 'ab)': unmatched closing parenthesis at position 2");
  EXPECT_EQ(pattern_error("*a"),
            "Invalid regular expression '*a': quantifier does not follow a repeatable item at "
            "position 0");
  EXPECT_EQ(pattern_error("[z-a]"),
            "Invalid regular expression '[z-a]': range out of order in character class at "
            "position 3");
  // Positions count characters of the pattern as written (not bytes, not
  // the translated text).
  EXPECT_EQ(pattern_error("日本("),
            "Invalid regular expression '日本(': missing closing parenthesis at position 3");
  EXPECT_EQ(pattern_error("\\u00e9\\q"),
            "Invalid regular expression '\\u00e9\\q': unrecognized character follows \\ at "
            "position 6");
  EXPECT_EQ(pattern_error("(?L)a"),
            "Invalid regular expression '(?L)a': unrecognized character after (? or (?- at "
            "position 2");
  EXPECT_EQ(pattern_error("(?aiL)a"),
            "Invalid regular expression '(?aiL)a': unrecognized character after (? or (?- at "
            "position 4");
  // Not UTF-8 (a command-line argument can be anything): shown with U+FFFD.
  EXPECT_EQ(pattern_error("\xff"),
            "Invalid regular expression '\xef\xbf\xbd': UTF-8 error: illegal byte (0xfe or 0xff) "
            "at position 0");
}

TEST(pattern, a_bad_pattern_fails_the_export_as_a_pattern_error) {
  scope_speedscope::Run run;
  run.path = "r.h5";
  run.num_ranks = 1;
  run.start_ns = {0};
  run.end_ns = {1};
  run.regions.push_back(Region{"solve", {RankSlice{0, 0, 1}}});
  try {
    get_regions(run, std::vector<std::string>{"("}, std::nullopt);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.kind_name(), "PatternError");
    EXPECT_STREQ(e.what(),
                 "Invalid regular expression '(': missing closing parenthesis at position 1");
  }
  // Like Python's any(re.match(p, name) for p in include): a pattern is only
  // compiled when a name reaches it, so one behind a match never fails.
  EXPECT_EQ(get_regions(run, std::vector<std::string>{"solve", "("}, std::nullopt),
            std::vector<uint32_t>{0});
  // No region, no compilation: "No regions matched" comes later, in the export.
  scope_speedscope::Run empty;
  EXPECT_EQ(get_regions(empty, std::vector<std::string>{"("}, std::nullopt),
            std::vector<uint32_t>{});
}

TEST(pattern, long_names_do_not_recurse) {
  // std::regex recursed once per character: a 1 MB name overflowed the stack.
  const std::string name(1 << 20, 'x');
  EXPECT_TRUE(Pattern(".*").match_at_start(name));
  EXPECT_TRUE(Pattern("x*$").match_at_start(name));
  EXPECT_TRUE(Pattern("x+(?:y|x)").match_at_start(name));
  EXPECT_FALSE(Pattern("(x|y)*z").match_at_start(name.substr(0, 1 << 16) + "w"));
  // A group repeated a million times keeps a million backtracking frames:
  // beyond the depth limit (the frames 128 MiB hold at their 64-bit size,
  // the same number in the WebAssembly build, whose frames are smaller) the
  // match fails cleanly (Python's re would succeed here, in 0.5 s and 90 MB).
  try {
    Pattern("(x|y)*z").match_at_start(name + "w");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.kind_name(), "PatternError");
    EXPECT_STREQ(e.what(),
                 "Regular expression '(x|y)*z' needs too much backtracking to match a region "
                 "name of 1048577 characters; simplify it");
  }
}

TEST(pattern, catastrophic_backtracking_fails_instead_of_hanging) {
  // Python's re would run for longer than the universe here (PCRE2 answers
  // at once when the 'y' is missing altogether).
  const std::string name = std::string(300, 'x') + "zy";
  try {
    Pattern("(x+x+)+y").match_at_start(name);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.kind_name(), "PatternError");
    EXPECT_STREQ(e.what(),
                 "Regular expression '(x+x+)+y' needs too much backtracking to match a region "
                 "name of 302 characters; simplify it");
  }
}

}  // namespace
}  // namespace scope_speedscope
