// error: the one table of messages (the CLIs' text and the words for people),
// and what errors blame. (Every case's text, code, field, index and file is
// checked in cases_test.cpp; these are the table's own rules and the words
// for people of the errors people meet most.)
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "export/export.hpp"
#include "read/h5_reader.hpp"
#include "test_support.hpp"
#include "text/messages.hpp"

namespace scope_speedscope::test {
namespace {

constexpr int kMessageCount = static_cast<int>(Msg::internal) + 1;

std::set<std::string> placeholders(const std::string& text) {
  std::set<std::string> out;
  static const std::regex name("\\{([a-z_]+)\\}");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), name); it != std::sregex_iterator();
       ++it) {
    out.insert((*it)[1]);
  }
  return out;
}

// Every argument any message takes, with a recognisable value.
MessageArgs every_argument() {
  MessageArgs args;
  for (const char* name :
       {"path",     "underlying", "detail", "claimed", "held",    "repr",   "version",
        "rank",     "valid",      "child",  "parent",  "pattern", "reason", "option",
        "text",     "min",        "window", "dataset", "row",     "value",  "values",
        "declared", "stored",     "where",  "size",    "first",   "name",   "group",
        "what",     "length",     "limit",  "filter",  "offset",  "second", "why"}) {
    args.emplace_back(name, std::string("<") + name + ">");
  }
  return args;
}

TEST(error, every_message_has_a_unique_code_and_both_wordings) {
  std::set<std::string> codes;
  for (int i = 0; i < kMessageCount; ++i) {
    const Msg id = static_cast<Msg>(i);
    const Error e(id, every_argument());
    EXPECT_EQ(e.id(), id);
    const std::string code = e.code();
    EXPECT_FALSE(code.empty()) << i;
    EXPECT_TRUE(codes.insert(code).second) << "duplicate code " << code;
    Msg found;
    ASSERT_TRUE(message_of_code(code, found)) << code;
    EXPECT_EQ(found, id) << code << ": the table is out of the enum's order";
    EXPECT_EQ(placeholders(e.what()), std::set<std::string>{}) << code << ": " << e.what();
    EXPECT_EQ(placeholders(e.people_message()), std::set<std::string>{}) << code;
    EXPECT_FALSE(std::string(e.what()).empty()) << code;
    EXPECT_FALSE(e.people_message().empty()) << code;
  }
  Msg none;
  EXPECT_FALSE(message_of_code("no_such_message", none));
}

TEST(error, words_for_people_name_no_input_file_and_no_python_class) {
  for (int i = 0; i < kMessageCount; ++i) {
    const Error e(static_cast<Msg>(i), every_argument());
    const std::string people = e.people_message();
    // The output's path may be named (it is not the file shown beside it).
    if (e.id() != Msg::cannot_write && e.id() != Msg::cannot_create_directory) {
      EXPECT_EQ(people.find("<path>"), std::string::npos) << e.code() << ": " << people;
    }
    for (const char* word : {"ValueError", "NestingError", "CorruptProfileError", "HDF5SchemaError",
                             "FileNotFoundError", "OSError", "KeyError", "PosixPath"}) {
      EXPECT_EQ(people.find(word), std::string::npos) << e.code() << ": " << people;
    }
  }
}

TEST(error, arguments_are_filled_once_and_unknown_braces_stay) {
  const Error e(Msg::invalid_regex, {{"pattern", "a{2}{pattern}"}, {"detail", "bad {detail}"}});
  EXPECT_STREQ(e.what(), "Invalid regular expression 'a{2}{pattern}': bad {detail}");
  EXPECT_EQ(e.people_message(),
            "The filter 'a{2}{pattern}' is not a valid regular expression: bad {detail}.");
  EXPECT_EQ(e.kind(), ErrorKind::pattern);
  EXPECT_STREQ(e.kind_name(), "PatternError");
  EXPECT_EQ(Error(Msg::invalid_duration, ErrorKind::usage, {}).kind(), ErrorKind::usage);
}

TEST(error, rewording_keeps_the_text_and_only_between_equal_texts) {
  Error e(Msg::not_hdf5, {{"path", "x.h5"}, {"underlying", "boom"}});
  const std::string text = e.what();
  e.reword(Msg::not_hdf5_empty);
  EXPECT_EQ(e.id(), Msg::not_hdf5_empty);
  EXPECT_EQ(e.what(), text);
  e.reword(Msg::invalid_rank);  // another text: refused
  EXPECT_EQ(e.id(), Msg::not_hdf5_empty);
}

TEST(error, valid_ranks_in_words) {
  EXPECT_EQ(messages::valid_ranks(0), "it has no ranks");
  EXPECT_EQ(messages::valid_ranks(1), "its only rank is 0");
  EXPECT_EQ(messages::valid_ranks(4), "its ranks are 0 to 3");
}

// What people read for the files they drop most often by mistake.
Error read_error(const std::string& path) {
  try {
    read_run(path);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << path << " was read";
  return Error(Msg::internal, {{"detail", "no error"}});
}

TEST(error, not_hdf5_at_all_empty_or_damaged_are_told_apart) {
  const std::string h5 = generated_dir() + "/h5/";
  const Error text = read_error(h5 + "text_file.h5");
  EXPECT_STREQ(text.code(), "not_hdf5_no_signature");
  EXPECT_EQ(text.people_message(),
            "This is not an HDF5 file: it has no HDF5 signature. scope-profiler writes its "
            "profiles as HDF5 files (.h5).");
  const Error empty = read_error(h5 + "empty_file.h5");
  EXPECT_STREQ(empty.code(), "not_hdf5_empty");
  EXPECT_EQ(empty.people_message(),
            "The file is empty (0 bytes). A run that stopped before writing its profile leaves "
            "such a file.");
  const Error cut = read_error(h5 + "cut_short_s3.h5");
  EXPECT_STREQ(cut.code(), "not_hdf5");
  const std::string head =
      "This HDF5 file is damaged or incomplete, so it cannot be opened. A run interrupted while "
      "writing its profile, or a copy cut short, leaves such a file. (HDF5 says: ";
  EXPECT_EQ(cut.people_message().substr(0, head.size()), head);
  // The CLIs' text is scope-profiler's for all three.
  const std::string cli =
      " is not a readable HDF5 profiling file. A run that was interrupted "
      "while writing leaves a truncated file behind; the underlying error was: ";
  for (const Error* e : {&text, &empty, &cut}) {
    EXPECT_NE(std::string(e->what()).find(cli), std::string::npos) << e->what();
    EXPECT_EQ(e->kind(), ErrorKind::corrupt_profile);
    EXPECT_NE(e->file().find(".h5"), std::string::npos);
  }
  const Error missing = read_error(h5 + "no_such_file.h5");
  EXPECT_STREQ(missing.code(), "file_not_found");
  EXPECT_EQ(missing.people_message(), "The file was not found.");
  EXPECT_EQ(missing.file(), h5 + "no_such_file.h5");
}

TEST(error, export_errors_in_words_for_people) {
  auto export_error = [](const std::string& file, ExportOptions options) {
    options.verbose = false;
    try {
      std::vector<scope_speedscope::Run> runs{read_run(shared_dir() + "/h5/" + file)};
      TempDir dir;
      export_speedscope(runs, dir / "p.json", options);
    } catch (const Error& e) {
      return std::string(e.code()) + " [" + e.field() + " " + std::to_string(e.index()) + "] " +
             e.people_message();
    }
    return std::string("no error");
  };
  ExportOptions ranks;
  ranks.ranks = std::vector<int64_t>{0, 5};
  EXPECT_EQ(export_error("nested_s3.h5", ranks),
            "invalid_rank [ranks 1] There is no rank 5 in this run: its ranks are 0 to 1.");
  ExportOptions filter;
  filter.include = std::vector<std::string>{"main", "("};
  const std::string bad_filter =
      "invalid_regex [include 1] The filter '(' is not a valid regular expression: ";
  EXPECT_EQ(export_error("nested_s3.h5", filter).substr(0, bad_filter.size()), bad_filter);
  ExportOptions nomatch;
  nomatch.include = std::vector<std::string>{"zzz"};
  EXPECT_EQ(
      export_error("nested_s3.h5", nomatch),
      "no_regions_matched [include -1] No region is left after the include and exclude filters.");
  const std::string overlap =
      "calls_overlap [ -1] Two recorded calls overlap without nesting: 'long'";
  EXPECT_EQ(export_error("overlap_s3.h5", {}).substr(0, overlap.size()), overlap);
  ExportOptions narrow;
  set_min_duration(narrow.narrowing, "2s", "minDuration", false);
  EXPECT_EQ(export_error("nested_s3.h5", narrow),
            "nothing_left_min [minDuration -1] No call of the selected ranks lasts 2s or longer: "
            "choose a shorter minimum duration.");
}

}  // namespace
}  // namespace scope_speedscope::test
