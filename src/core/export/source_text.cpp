// export: source locations as the reports show them (source_text.hpp).
#include "export/source_text.hpp"

#include "write/speedscope_writer.hpp"

namespace scope_speedscope {
namespace {

std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out += u < 0x20 || u == 0x7f ? ' ' : c;
  }
  const auto first = out.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  return out.substr(first, out.find_last_not_of(' ') - first + 1);
}

}  // namespace

std::string source_cell(const SourceLocation* source) {
  if (source == nullptr) return "-";
  std::string cell = source->file;
  if (source->line >= 0) {
    cell += (cell.empty() ? "line " : ":") + std::to_string(source->line);
  }
  const std::string text = one_line(source->text);
  if (!text.empty()) cell += (cell.empty() ? "" : "  ") + text;
  return cell.empty() ? "-" : cell;
}

void append_source_json(std::string& out, const SourceLocation* source) {
  out += ", \"source\": {\"file\": ";
  if (source != nullptr && !source->file.empty()) {
    append_json_string(out, source->file);
  } else {
    out += "null";
  }
  out += ", \"line\": ";
  out += source != nullptr && source->line >= 0 ? std::to_string(source->line) : "null";
  out += ", \"text\": ";
  if (source != nullptr && !source->text.empty()) {
    append_json_string(out, source->text);
  } else {
    out += "null";
  }
  out += "}";
}

const SourceLocation* source_of_name(const Run& run, const std::string& name) {
  for (const Region& region : run.regions) {
    if (region.name == name) return region_source(run, region);
  }
  return nullptr;
}

}  // namespace scope_speedscope
