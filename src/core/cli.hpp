// The command line of `scope-profiler export speedscope`, shared by the
// native CLI and the Node CLI (through the wasm bindings): one parser, one
// help text, one summary.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "narrow.hpp"

namespace scope_speedscope {

struct CliOptions {
  std::vector<std::string> files;
  std::string output_dir;                          // -o DIR
  std::string filepath;                            // DIR/profile.speedscope.json, or --filepath
  std::vector<int64_t> ranks = {0};                // sorted, de-duplicated
  std::optional<std::vector<std::string>> include;
  std::optional<std::vector<std::string>> exclude;
  std::vector<std::string> labels;                 // --label, per input in order
  std::optional<std::string> min_duration;         // --min-duration D, as given
  std::optional<std::string> time_window;          // --time-window START:END, as given
  Narrowing narrowing;                             // both, checked
  bool quiet = false;
  bool help = false;
  bool version = false;
};

// Throws Error(usage) with a one-line message.
CliOptions parse_cli(const std::vector<std::string>& args);
// "0,2-3" -> {0, 2, 3}; specs are joined, sorted and de-duplicated.
std::vector<int64_t> parse_rank_specs(const std::vector<std::string>& specs);
std::string cli_usage();
std::string cli_help();
// What the CLI prints after a successful export (empty when quiet).
std::string cli_summary(const std::vector<std::string>& written);

}  // namespace scope_speedscope
