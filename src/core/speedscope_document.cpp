#include "speedscope_document.hpp"

#include <cmath>

#include "error.hpp"
#include "event_walk.hpp"
#include "export.hpp"
#include "speedscope_format.hpp"

namespace scope_speedscope {

Document build_speedscope_profile(const Run& run, const NamedCalls& calls,
                                  std::vector<int64_t>& frame_indices, Document& frames,
                                  double origin) {
  if (frame_indices.size() < run.regions.size()) frame_indices.resize(run.regions.size(), -1);
  Document events = Document::array();
  detail::walk_events(calls, [&](bool open, const Call& c) {
    if (frame_indices[c.region] < 0) {
      frame_indices[c.region] = static_cast<int64_t>(frames.size());
      frames.push_back(Document{{"name", run.regions[c.region].name}});
    }
    events.push_back(Document{{keys::event[0], open ? OPEN_EVENT : CLOSE_EVENT},
                              {keys::event[1], frame_indices[c.region]},
                              {keys::event[2], detail::seconds(open ? c.start_ns : c.end_ns) - origin}});
  });
  const double start_value = events.empty() ? 0.0 : events.front()["at"].get<double>();
  const double end_value = events.empty() ? 0.0 : events.back()["at"].get<double>();
  Document profile;
  profile[keys::profile[0]] = PROFILE_TYPE;
  profile[keys::profile[1]] = calls.name;
  profile[keys::profile[2]] = TIME_UNIT;
  profile[keys::profile[3]] = start_value;
  profile[keys::profile[4]] = end_value;
  profile[keys::profile[5]] = std::move(events);
  return profile;
}

Document build_speedscope_document(const Run& run, const std::vector<NamedCalls>& named_calls,
                                   const std::string& name) {
  const double origin = detail::plan_document(run.regions.size(), named_calls).origin;
  std::vector<int64_t> frame_indices(run.regions.size(), -1);
  Document frames = Document::array();
  Document profiles = Document::array();
  for (const NamedCalls& calls : named_calls) {
    profiles.push_back(build_speedscope_profile(run, calls, frame_indices, frames, origin));
  }
  Document doc;
  doc[keys::document[0]] = SCHEMA_URL;
  doc[keys::document[1]] = std::string(EXPORTER_PREFIX) + VERSION;
  doc[keys::document[2]] = name;
  doc[keys::document[3]] = 0;
  doc[keys::document[4]] = Document{{"frames", std::move(frames)}};
  doc[keys::document[5]] = std::move(profiles);
  return doc;
}

namespace {

void dump_value(const Document& value, JsonOut& out) {
  switch (value.type()) {
    case Document::value_t::object: {
      out.raw("{");
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out.raw(", ");
        first = false;
        out.string(it.key());
        out.raw(": ");
        dump_value(it.value(), out);
      }
      out.raw("}");
      break;
    }
    case Document::value_t::array: {
      out.raw("[");
      bool first = true;
      for (const auto& item : value) {
        if (!first) out.raw(", ");
        first = false;
        dump_value(item, out);
      }
      out.raw("]");
      break;
    }
    case Document::value_t::string: out.string(value.get_ref<const std::string&>()); break;
    case Document::value_t::boolean: out.raw(value.get<bool>() ? "true" : "false"); break;
    case Document::value_t::number_integer: out.integer(value.get<int64_t>()); break;
    case Document::value_t::number_unsigned:
      out.raw(std::to_string(value.get<uint64_t>()));
      break;
    case Document::value_t::number_float: {
      const double v = value.get<double>();
      if (std::isnan(v)) {
        out.raw("NaN");
      } else if (std::isinf(v)) {
        out.raw(v < 0 ? "-Infinity" : "Infinity");
      } else {
        out.number(v);
      }
      break;
    }
    default: out.raw("null"); break;
  }
}

}  // namespace

void dump_python_json(const Document& document, Sink& sink) {
  JsonOut out(sink);
  dump_value(document, out);  // documents are a few levels deep
  out.flush();
}

void write_speedscope_file(const std::string& filepath, const Document& document) {
  FileOutputTarget target;
  Sink& sink = target.open(filepath);
  dump_python_json(document, sink);
  target.close();
  target.commit();
}

}  // namespace scope_speedscope
