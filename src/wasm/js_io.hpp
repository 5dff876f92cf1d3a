// wasm: JavaScript I/O. Inputs are {name, ptr, size} (bytes the wrapper
// copied into the heap), {name, size, read} (a file JavaScript reads lazily:
// a File in a worker, a file on disk in Node) or {name, path} (a file in
// Emscripten's file system). A sink is a JS object {open(path), write(Uint8Array
// view), close(), commit(), abort(), progress(phase, done, total)}; the view
// is only valid during the call. A sink method never throws: it returns a
// message string when it failed and undefined otherwise, so that the C++
// side unwinds normally.
#pragma once

#include <emscripten/val.h>
#include <cstdint>
#include <string>
#include <utility>

#include "boundary.hpp"
#include "export/export.hpp"
#include "read/h5_reader.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope::wasm {

inline ss::Progress progress_of(const val& sink) {
  if (sink.isUndefined() || sink.isNull() || sink["progress"].isUndefined()) return {};
  return [sink](std::string_view phase, uint64_t done, uint64_t total) {
    sink.call<void>("progress", std::string(phase), static_cast<double>(done),
                    static_cast<double>(total));
  };
}

// A file JavaScript reads for us, slice by slice (a File in a worker, a file
// in Node): input.read(offset, view) fills the view and returns undefined;
// it returns the number of bytes it got when the file ended before the view
// was full (the table words that: file_shrank), or a string saying why it
// could not read (the system's words). It never throws (src/js/api.js,
// src/js/node.js).
class JsSource final : public ss::ByteSource {
 public:
  JsSource(val read, uint64_t size) : read_(std::move(read)), size_(size) {}
  uint64_t size() const override { return size_; }
  bool lazy() const override { return true; }
  std::string read(uint64_t offset, void* out, std::size_t n) override {
    const val result = read_(static_cast<double>(offset),
                             val(emscripten::typed_memory_view(n, static_cast<uint8_t*>(out))));
    if (result.isNumber()) {
      const auto got = static_cast<uint64_t>(result.as<double>());
      return ss::message_text(ss::Msg::file_shrank, {{"offset", std::to_string(offset + got)},
                                                     {"size", std::to_string(size_)}});
    }
    return result.isString() ? result.as<std::string>() : std::string();
  }

 private:
  val read_;
  uint64_t size_;
};

inline ss::Run read_input(const val& input, const ss::Progress& progress,
                          const ss::ReadPlan& depth = {}) {
  const std::string name = input["name"].as<std::string>();
  if (!input["read"].isUndefined()) {
    JsSource source(input["read"], static_cast<uint64_t>(input["size"].as<double>()));
    return ss::read_run_from_source(source, name, progress, depth);
  }
  if (!input["path"].isUndefined()) {
    return ss::read_run(input["path"].as<std::string>(), progress, name, depth);
  }
  // Bytes in the heap are freed after the call: a read of some ranks that
  // needs the others later (a download, timeline-complete) is given the
  // input again (the package keeps it; the page's worker keeps the File).
  const auto ptr = static_cast<uintptr_t>(input["ptr"].as<double>());
  const auto size = static_cast<std::size_t>(input["size"].as<double>());
  return ss::read_run_from_memory(reinterpret_cast<const void*>(ptr), size, name, progress, depth);
}

// Hands each warning of a read to `warn(text)` when `warn` is a function
// (the package's onWarning; the Node CLI prints "warning: ...").
inline void warn_each(const val& warn, const ss::Run& run) {
  if (run.warnings.empty() || warn.typeOf().as<std::string>() != "function") return;
  for (const std::string& w : run.warnings) warn(w);
}

// Calls a sink method; a returned string is the message of a failure.
template <class... Args>
void call_sink(const val& sink, const char* method, Args&&... args) {
  const val result = sink.call<val>(method, std::forward<Args>(args)...);
  if (result.isString())
    throw ss::Error(ss::Msg::output_failed, {{"detail", result.as<std::string>()}});
}

class JsSink final : public ss::Sink {
 public:
  explicit JsSink(val sink) : sink_(std::move(sink)) {}
  void write(const char* data, std::size_t size) override {
    call_sink(sink_, "write",
              val(emscripten::typed_memory_view(size, reinterpret_cast<const uint8_t*>(data))));
  }

 private:
  val sink_;
};

class JsOutputTarget final : public ss::OutputTarget {
 public:
  explicit JsOutputTarget(val sink) : sink_(sink), writer_(sink) {}
  ss::Sink& open(const std::string& path) override {
    call_sink(sink_, "open", path);
    return writer_;
  }
  ss::Sink& resume() override { return writer_; }  // the JS sink keeps its open output
  void close() override { call_sink(sink_, "close"); }
  void commit() override { call_sink(sink_, "commit"); }
  void abort() noexcept override {
    try {
      sink_.call<void>("abort");
    } catch (...) {
    }
  }

 private:
  val sink_;
  JsSink writer_;
};

// Bytes going to two sinks.
class TeeSink final : public ss::Sink {
 public:
  void to(ss::Sink* first, ss::Sink* second) {
    first_ = first;
    second_ = second;
  }
  void write(const char* data, std::size_t size) override {
    first_->write(data, size);
    second_->write(data, size);
  }

 private:
  ss::Sink* first_ = nullptr;
  ss::Sink* second_ = nullptr;
};

// Every output to two targets; the first commits first (files, which may fail).
class TeeOutputTarget final : public ss::OutputTarget {
 public:
  TeeOutputTarget(ss::OutputTarget& first, ss::OutputTarget& second)
      : first_(first), second_(second) {}
  ss::Sink& open(const std::string& path) override {
    ss::Sink& a = first_.open(path);
    ss::Sink& b = second_.open(path);
    both_.to(&a, &b);
    return both_;
  }
  void close() override {
    first_.close();
    second_.close();
  }
  void commit() override {
    first_.commit();
    second_.commit();
  }
  void abort() noexcept override {
    first_.abort();
    second_.abort();
  }

 private:
  ss::OutputTarget& first_;
  ss::OutputTarget& second_;
  TeeSink both_;
};

}  // namespace scope_speedscope::wasm
