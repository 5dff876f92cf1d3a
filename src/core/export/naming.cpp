// export: labels, file names and paths, as export_speedscope makes them
// (spec 5.1 steps 3 and 7; see export.hpp).
#include <map>

#include "export/export.hpp"
#include "text/messages.hpp"
#include "text/unicode.hpp"

namespace scope_speedscope {

std::vector<std::string> unique_labels(const std::vector<std::string>& labels) {
  std::map<std::string, int> seen;
  std::vector<std::string> out;
  out.reserve(labels.size());
  for (const std::string& label : labels) {
    const int k = ++seen[label];
    out.push_back(k == 1 ? label : label + " (" + std::to_string(k) + ")");
  }
  return out;
}

std::string filename_slug(const std::string& label) {
  std::string slug;
  bool in_run = false;
  std::size_t i = 0;
  while (i < label.size()) {
    const std::size_t at = i;
    const uint32_t cp = next_code_point(label, i);
    const bool keep = cp == '_' || cp == '.' || cp == '+' || cp == '-' || is_alnum(cp);
    if (keep) {
      slug.append(label, at, i - at);
      in_run = false;
    } else if (!in_run) {
      slug += '_';
      in_run = true;
    }
  }
  const auto first = slug.find_first_not_of('_');
  if (first == std::string::npos) return label;
  const auto last = slug.find_last_not_of('_');
  return slug.substr(first, last - first + 1);
}

std::string normalize_path(const std::string& path) {
  std::string root;
  if (!path.empty() && path[0] == '/') {
    root = (path.size() > 1 && path[1] == '/' && (path.size() == 2 || path[2] != '/')) ? "//" : "/";
  }
  std::string out = root;
  std::size_t pos = 0;
  bool first = true;
  while (pos <= path.size()) {
    auto slash = path.find('/', pos);
    if (slash == std::string::npos) slash = path.size();
    const std::string part = path.substr(pos, slash - pos);
    if (!part.empty() && part != ".") {
      if (!first) out += '/';
      out += part;
      first = false;
    }
    pos = slash + 1;
  }
  if (out.empty()) return ".";
  return out;
}

std::vector<std::string> output_paths(const std::string& filepath,
                                      const std::vector<std::string>& labels) {
  const std::string base = normalize_path(filepath);
  const auto slash = base.rfind('/');
  const std::string parent = slash == std::string::npos ? "" : base.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? base : base.substr(slash + 1);
  if (name.empty() || name == ".") {
    throw Error(Msg::empty_output_name, {{"path", base}}).on_field("filepath");
  }
  const auto dot = name.find('.');
  const std::string stem = dot == std::string::npos ? name : name.substr(0, dot);
  const std::string suffix = dot == std::string::npos ? ".speedscope.json" : name.substr(dot);
  std::vector<std::string> out;
  out.reserve(labels.size());
  for (const std::string& label : labels) {
    const std::string file =
        labels.size() > 1 ? stem + "_" + filename_slug(label) + suffix : stem + suffix;
    out.push_back(normalize_path(parent + file));
  }
  return out;
}

}  // namespace scope_speedscope
