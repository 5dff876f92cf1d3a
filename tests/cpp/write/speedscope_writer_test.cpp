// write: floats, strings and the streamed document (spec 5.2 - 5.4).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "reconstruct/calls.hpp"
#include "test_support.hpp"
#include "write/speedscope_format.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope::test {
namespace {

double from_bits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// ---- numbers -------------------------------------------------------------------

TEST(speedscope_writer, python_float_repr_examples_of_the_spec) {
  EXPECT_EQ(python_float_repr(0.0), "0.0");
  EXPECT_EQ(python_float_repr(-0.0), "-0.0");
  EXPECT_EQ(python_float_repr(0.02), "0.02");
  EXPECT_EQ(python_float_repr(100.0), "100.0");
  EXPECT_EQ(python_float_repr(0.0001), "0.0001");
  EXPECT_EQ(python_float_repr(1e-05), "1e-05");
  EXPECT_EQ(python_float_repr(4.9999999999999985e-09), "4.9999999999999985e-09");
  EXPECT_EQ(python_float_repr(1e16), "1e+16");
  EXPECT_EQ(python_float_repr(9999999999999998.0), "9999999999999998.0");
  EXPECT_EQ(python_float_repr(1.2345678901234567e+19), "1.2345678901234567e+19");
  EXPECT_EQ(python_float_repr(1.00000761449337e-07), "1.00000761449337e-07");
  EXPECT_EQ(python_float_repr(5e-324), "5e-324");
  EXPECT_EQ(python_float_repr(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(python_float_repr(123456.789012345), "123456.789012345");
  EXPECT_EQ(python_float_repr(0.1 + 0.2), "0.30000000000000004");
}

TEST(speedscope_writer, python_float_repr_of_non_finite_values) {
  EXPECT_EQ(python_float_repr(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(python_float_repr(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(python_float_repr(std::nan("")), "nan");
}

// A few thousand doubles and Python's repr of each (tests/fixtures/gen/make_tables.py).
TEST(speedscope_writer, python_float_repr_matches_python_table) {
  expect_python_table("float_repr.txt", 5000, [](const std::string& bits, const std::string& repr) {
    const double value = from_bits(std::stoull(bits, nullptr, 16));
    const std::string got = python_float_repr(value);
    std::string appended = "x";
    append_python_float_repr(appended, value);
    if (got == repr && appended == "x" + repr) return std::string();
    return "bits " + bits + ": got " + got + ", appended " + appended + ", Python " + repr;
  });
}

// ---- strings ---------------------------------------------------------------------

TEST(speedscope_writer, append_json_string_examples_of_the_spec) {
  auto json = [](std::string_view s) {
    std::string out = "<";
    append_json_string(out, s);
    return out;
  };
  EXPECT_EQ(json(""), "<\"\"");
  EXPECT_EQ(json("a/b"), "<\"a/b\"");
  EXPECT_EQ(json("q\"b\\"), "<\"q\\\"b\\\\\"");
  EXPECT_EQ(json("\n\r\t\b\f"), "<\"\\n\\r\\t\\b\\f\"");
  EXPECT_EQ(json(std::string("\0\x01\x1f\x7f", 4)), "<\"\\u0000\\u0001\\u001f\\u007f\"");
  EXPECT_EQ(json("\xc3\xa9\xe6\x97\xa5"), "<\"\\u00e9\\u65e5\"");
  EXPECT_EQ(json("\xf0\x9d\x84\x9e"), "<\"\\ud834\\udd1e\"");
  EXPECT_EQ(json("\xf4\x8f\xbf\xbf"), "<\"\\udbff\\udfff\"");
  EXPECT_EQ(json("\xef\xbf\xbd"), "<\"\\ufffd\"");
}

// json.dumps of ASCII, controls, DEL, non-ASCII, non-BMP and random strings.
TEST(speedscope_writer, append_json_string_matches_python_table) {
  expect_python_table(
      "json_string.txt", 1500, [](const std::string& hex, const std::string& dumped) {
        std::string got;
        append_json_string(got, unhex(hex));
        return got == dumped ? std::string()
                             : "input (hex) " + hex + ": got " + got + ", Python " + dumped;
      });
}

// ---- the buffer ---------------------------------------------------------------------

// Records every write the sink receives.
class ChunkSink final : public Sink {
 public:
  void write(const char* data, std::size_t size) override {
    chunks.emplace_back(data, size);
    text.append(data, size);
  }
  std::vector<std::string> chunks;
  std::string text;
};

TEST(speedscope_writer, json_out_writes_values_and_flushes_whole_pieces) {
  ChunkSink sink;
  {
    JsonOut out(sink, 4);
    out.raw("[");
    out.integer(-5);
    out.raw(", ");
    out.integer(std::numeric_limits<long long>::min());
    out.raw(", ");
    out.number(0.5);
    out.raw(", ");
    out.string("\xc3\xa9");
    out.raw("]");
    out.flush();
  }
  EXPECT_EQ(sink.text, "[-5, -9223372036854775808, 0.5, \"\\u00e9\"]");
  ASSERT_FALSE(sink.chunks.empty());
  for (std::size_t i = 0; i + 1 < sink.chunks.size(); ++i) {
    EXPECT_EQ(sink.chunks[i].size(), 4u) << "chunk " << i;
  }
  EXPECT_LE(sink.chunks.back().size(), 4u);
}

TEST(speedscope_writer, json_out_does_not_flush_on_destruction) {
  StringSink sink;
  {
    JsonOut out(sink, 1 << 16);
    out.raw("partial");
  }
  EXPECT_EQ(sink.text, "");
}

// ---- the document ---------------------------------------------------------------

scope_speedscope::Run three_regions() {
  scope_speedscope::Run run = make_run({{"main", 0, {}}, {"child", 0, {}}, {"other", 0, {}}});
  run.label = "ignored: the name is an argument";
  return run;
}

std::string doc_head(const std::string& name_json, const std::string& frames) {
  return "{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\", \"exporter\": "
         "\"scope-speedscope@" +
         std::string(VERSION) + "\", \"name\": " + name_json +
         ", \"activeProfileIndex\": 0, \"shared\": {\"frames\": [" + frames + "]}, \"profiles\": [";
}

TEST(speedscope_writer, small_document_byte_exact) {
  const scope_speedscope::Run run = three_regions();
  const int64_t s = 1000000000;
  const std::vector<Call> rank0 = {
      {s, 3 * s, 0, 0}, {s + s / 2, 2 * s, 1, 1}, {2 * s, 2 * s + s / 2, 1, 1}};
  const std::vector<Call> rank1 = {{s + s / 4, s + 3 * s / 4, 2, 0}};
  const std::vector<NamedCalls> profiles = {
      {"rank 0", rank0.data(), rank0.data() + rank0.size()},
      {"rank 1 - \xc3\xa9", rank1.data(), rank1.data() + rank1.size()}};
  StringSink sink;
  write_speedscope_document(sink, run, "doc \"\xc3\xa9\"", profiles);
  EXPECT_EQ(
      sink.text,
      doc_head("\"doc \\\"\\u00e9\\\"\"",
               "{\"name\": \"main\"}, {\"name\": \"child\"}, {\"name\": \"other\"}") +
          "{\"type\": \"evented\", \"name\": \"rank 0\", \"unit\": \"seconds\", \"startValue\": "
          "0.0, \"endValue\": 2.0, \"events\": [{\"type\": \"O\", \"frame\": 0, \"at\": 0.0}, "
          "{\"type\": \"O\", \"frame\": 1, \"at\": 0.5}, {\"type\": \"C\", \"frame\": 1, \"at\": "
          "1.0}, {\"type\": \"O\", \"frame\": 1, \"at\": 1.0}, {\"type\": \"C\", \"frame\": 1, "
          "\"at\": 1.5}, {\"type\": \"C\", \"frame\": 0, \"at\": 2.0}]}, {\"type\": \"evented\", "
          "\"name\": \"rank 1 - \\u00e9\", \"unit\": \"seconds\", \"startValue\": 0.25, "
          "\"endValue\": 0.75, \"events\": [{\"type\": \"O\", \"frame\": 2, \"at\": 0.25}, "
          "{\"type\": \"C\", \"frame\": 2, \"at\": 0.75}]}]}");
}

TEST(speedscope_writer, frames_follow_first_appearance_and_recursion_reuses_one) {
  const scope_speedscope::Run run = three_regions();
  // "other" (region 2) is met first, then "main"; "child" never.
  const std::vector<Call> calls = {{0, 100, 2, 0}, {10, 90, 2, 1}, {20, 30, 0, 2}};
  StringSink sink;
  write_speedscope_document(sink, run, "r", {{"rank 0", calls.data(), calls.data() + 3}});
  EXPECT_EQ(sink.text,
            doc_head("\"r\"", "{\"name\": \"other\"}, {\"name\": \"main\"}") +
                "{\"type\": \"evented\", \"name\": \"rank 0\", \"unit\": \"seconds\", "
                "\"startValue\": 0.0, \"endValue\": 1e-07, \"events\": [{\"type\": \"O\", "
                "\"frame\": 0, \"at\": 0.0}, {\"type\": \"O\", \"frame\": 0, \"at\": 1e-08}, "
                "{\"type\": \"O\", \"frame\": 1, \"at\": 2e-08}, {\"type\": \"C\", \"frame\": 1, "
                "\"at\": 3e-08}, {\"type\": \"C\", \"frame\": 0, \"at\": 9e-08}, {\"type\": "
                "\"C\", \"frame\": 0, \"at\": 1e-07}]}]}");
}

// at = ns / 1e9 - origin, two divisions then a subtraction (spec 5.2 step 4,
// 6.15): 100 ns at t = 123456789012345 ns is 1.00000761449337e-07.
TEST(speedscope_writer, rebasing_subtracts_seconds_after_dividing) {
  const scope_speedscope::Run run = three_regions();
  const std::vector<Call> calls = {{123456789012345, 123456789012445, 0, 0}};
  StringSink sink;
  write_speedscope_document(sink, run, "r", {{"rank 0", calls.data(), calls.data() + 1}});
  EXPECT_EQ(sink.text, doc_head("\"r\"", "{\"name\": \"main\"}") +
                           "{\"type\": \"evented\", \"name\": \"rank 0\", \"unit\": \"seconds\", "
                           "\"startValue\": 0.0, \"endValue\": 1.00000761449337e-07, \"events\": "
                           "[{\"type\": \"O\", \"frame\": 0, \"at\": 0.0}, {\"type\": \"C\", "
                           "\"frame\": 0, \"at\": 1.00000761449337e-07}]}]}");
}

// The origin is the earliest first call over every profile of the document.
TEST(speedscope_writer, origin_is_shared_and_empty_profiles_have_zero_values) {
  const scope_speedscope::Run run = three_regions();
  const std::vector<Call> late = {{3000000000, 4000000000, 0, 0}};
  const std::vector<Call> early = {{1000000000, 1500000000, 1, 0}};
  StringSink sink;
  write_speedscope_document(sink, run, "r",
                            {{"empty", late.data(), late.data()},
                             {"late", late.data(), late.data() + 1},
                             {"early", early.data(), early.data() + 1}});
  EXPECT_EQ(sink.text,
            doc_head("\"r\"", "{\"name\": \"main\"}, {\"name\": \"child\"}") +
                "{\"type\": \"evented\", \"name\": \"empty\", \"unit\": \"seconds\", "
                "\"startValue\": 0.0, \"endValue\": 0.0, \"events\": []}, {\"type\": \"evented\", "
                "\"name\": \"late\", \"unit\": \"seconds\", \"startValue\": 2.0, \"endValue\": "
                "3.0, \"events\": [{\"type\": \"O\", \"frame\": 0, \"at\": 2.0}, {\"type\": "
                "\"C\", \"frame\": 0, \"at\": 3.0}]}, {\"type\": \"evented\", \"name\": \"early\", "
                "\"unit\": \"seconds\", \"startValue\": 0.0, \"endValue\": 0.5, \"events\": "
                "[{\"type\": \"O\", \"frame\": 1, \"at\": 0.0}, {\"type\": \"C\", \"frame\": 1, "
                "\"at\": 0.5}]}]}");
}

TEST(speedscope_writer, a_document_without_profiles) {
  StringSink sink;
  write_speedscope_document(sink, three_regions(), "r", {});
  EXPECT_EQ(sink.text, doc_head("\"r\"", "") + "]}");
}

// A larger document: lanes, recursion, siblings, a deep chain.
struct Big {
  scope_speedscope::Run run;
  RankCalls calls;
  std::vector<NamedCalls> profiles;
};

Big big_document() {
  Big b;
  std::vector<std::pair<int64_t, int64_t>> deep, leaves;
  std::vector<int64_t> deep_lanes, leaf_lanes;
  for (int64_t i = 0; i < 3000; ++i) {
    deep.emplace_back(1000003 * 7 + i * 13, 1000003 * 7 + 100000 - i * 11);
    deep_lanes.push_back(-2);
  }
  for (int64_t i = 0; i < 2000; ++i) {
    leaves.emplace_back(9000000000 + i * 977, 9000000000 + i * 977 + (i % 5) * 191);
    leaf_lanes.push_back(i % 3);
  }
  b.run = make_run(
      {{"deep \xf0\x9f\x9a\x80", 0, deep, deep_lanes}, {"leaf\t\"x\"", 0, leaves, leaf_lanes}},
      true);
  b.calls = materialize(build_call_arrays(b.run, {0, 1}, 0));
  for (const Lane& lane : b.calls.lanes) {
    b.profiles.push_back(NamedCalls{"rank 0 - lane " + std::to_string(lane.lane),
                                    b.calls.calls.data() + lane.begin,
                                    b.calls.calls.data() + lane.end});
  }
  return b;
}

TEST(speedscope_writer, chunked_output_equals_one_shot_output) {
  const Big b = big_document();
  ASSERT_EQ(b.profiles.size(), 4u);
  StringSink one_shot;
  write_speedscope_document(one_shot, b.run, "big", b.profiles, std::size_t{1} << 30);
  EXPECT_GT(one_shot.text.size(), 400000u);
  EXPECT_EQ(one_shot.text.rfind(doc_head("\"big\"",
                                         "{\"name\": \"deep \\ud83d\\ude80\"}, "
                                         "{\"name\": \"leaf\\t\\\"x\\\"\"}"),
                                0),
            0u);
  for (const std::size_t flush : {std::size_t{1}, std::size_t{7}, std::size_t{64}}) {
    ChunkSink chunked;
    write_speedscope_document(chunked, b.run, "big", b.profiles, flush);
    EXPECT_EQ(first_difference(chunked.text, one_shot.text), "") << "flush size " << flush;
    ASSERT_GT(chunked.chunks.size(), 1u);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i + 1 < chunked.chunks.size(); ++i) {
      if (chunked.chunks[i].size() != flush) ++wrong;
    }
    EXPECT_EQ(wrong, 0u) << "every chunk but the last has flush_size bytes (flush " << flush << ")";
  }
}

// DocumentWriter: the same bytes in the same pieces, a slice of events at a
// time (the first slices read the plan); each slice takes whole blocks of
// calls, and only the last says the document is complete.
TEST(speedscope_writer, a_document_written_in_slices_is_the_one_shot_document) {
  const Big b = big_document();
  ChunkSink one_shot;
  write_speedscope_document(one_shot, b.run, "big", b.profiles, 64);
  for (const uint64_t events : {uint64_t{1}, uint64_t{9}, uint64_t{5000}}) {
    SCOPED_TRACE("slices of " + std::to_string(events) + " events");
    ChunkSink sliced;
    DocumentWriter writer(sliced, b.run, "big", b.profiles, 64);
    uint64_t slices = 0, before = 0;
    bool complete = false;
    while (!complete && slices < 1000000) {
      complete = writer.write(events);
      ++slices;
      // Once the plan is read (the first slices), each slice writes on.
      if (!complete && before > 0) {
        EXPECT_GT(writer.done(), before);
      }
      before = writer.done();
    }
    EXPECT_TRUE(complete);
    EXPECT_EQ(writer.done(), writer.total());
    // Each slice but the last reads (planning) or feeds the walk at least
    // `events` / 2 calls, in blocks of up to 4,096 calls.
    const uint64_t calls = writer.total() / 2;
    EXPECT_LE(slices, 2 * (calls / (events / 2 + 1) + 1) + b.profiles.size() + 1);
    EXPECT_GE(slices, writer.total() / std::max<uint64_t>(events, 2 * 4096));
    EXPECT_TRUE(writer.write(events));  // once complete, nothing more
    EXPECT_EQ(sliced.chunks, one_shot.chunks);
  }
}

// 300,000 open events in a row: the walk must not recurse.
TEST(speedscope_writer, deep_documents_are_written_without_recursion) {
  const int64_t n = 300000;
  std::vector<std::pair<int64_t, int64_t>> calls;
  for (int64_t i = 0; i < n; ++i) calls.emplace_back(i, 4 * n - i);
  const scope_speedscope::Run run = make_run({{"d", 0, calls}});
  const RankCalls built = materialize(build_call_arrays(run, {0}, 0));
  StringSink sink;
  write_speedscope_document(sink, run, "deep",
                            {{"rank 0", built.calls.data(), built.calls.data() + built.size()}});
  const std::string last_close =
      "{\"type\": \"C\", \"frame\": 0, \"at\": " + python_float_repr(4 * n / 1e9 - 0.0) + "}]}]}";
  ASSERT_GE(sink.text.size(), last_close.size());
  EXPECT_EQ(sink.text.substr(sink.text.size() - last_close.size()), last_close);
  std::size_t opens = 0, pos = 0;
  while ((pos = sink.text.find("\"type\": \"O\"", pos)) != std::string::npos) ++opens, ++pos;
  EXPECT_EQ(opens, static_cast<std::size_t>(n));
}

TEST(speedscope_writer, format_constants_are_the_documented_ones) {
  EXPECT_STREQ(SCHEMA_URL, "https://www.speedscope.app/file-format-schema.json");
  EXPECT_STREQ(EXPORTER_PREFIX, "scope-speedscope@");
  EXPECT_STREQ(TIME_UNIT, "seconds");
  EXPECT_STREQ(PROFILE_TYPE, "evented");
  EXPECT_EQ(NS_PER_SECOND, 1000000000);
}

}  // namespace

// The writer's event text (its hot path copies it whole) is keys::event with
// Python's separators, its kind where kEventKindAt says.
TEST(speedscope_format, the_event_text_is_the_event_keys) {
  std::string head = "{";
  append_json_string(head, keys::event[0]);
  head += ": ";
  append_json_string(head, OPEN_EVENT);
  head += ", ";
  append_json_string(head, keys::event[1]);
  head += ": ";
  EXPECT_EQ(std::string(kEventHead), head);
  EXPECT_EQ(kEventHead[kEventKindAt], OPEN_EVENT[0]);
  std::string at = ", ";
  append_json_string(at, keys::event[2]);
  at += ": ";
  EXPECT_EQ(std::string(kEventAt), at);
}

}  // namespace scope_speedscope::test
