// write: calls -> speedscope JSON bytes, streamed. The bytes equal Python's
// json.dump(document, f) with default arguments (", " and ": " separators,
// ensure_ascii, float repr). Events go straight to a Sink through a small
// buffer; no document tree and no whole-file string is ever built.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/run.hpp"
#include "reconstruct/profiles.hpp"

namespace scope_speedscope {

// Where bytes go: a file, a string, a JavaScript callback.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void write(const char* data, std::size_t size) = 0;
};

class StringSink final : public Sink {
 public:
  void write(const char* data, std::size_t size) override { text.append(data, size); }
  std::string text;
};

// Python's repr(float) for a finite or non-finite double.
std::string python_float_repr(double value);
void append_python_float_repr(std::string& out, double value);
// A JSON string literal as json.dumps(ensure_ascii=True) writes it; the input
// is UTF-8 (invalid bytes have been replaced by the reader already).
void append_json_string(std::string& out, std::string_view utf8);

// A buffer in front of a Sink. Hot paths write straight into it: cursor()
// points at room for at least kSlack bytes, advance() takes what was written.
class JsonOut {
 public:
  static constexpr std::size_t kSlack = 512;

  explicit JsonOut(Sink& sink, std::size_t flush_size = 1 << 16);
  ~JsonOut();  // does not flush: call flush() when the document is complete
  JsonOut(const JsonOut&) = delete;
  JsonOut& operator=(const JsonOut&) = delete;

  void raw(std::string_view text) { append(text.data(), text.size()); }
  void string(std::string_view utf8);
  void number(double value);
  void integer(long long value);
  void flush();  // everything, including a last short piece

  char* cursor() noexcept { return data_.get() + size_; }
  void advance(char* end) {
    size_ = static_cast<std::size_t>(end - data_.get());
    if (size_ >= flush_size_) flush_pieces();
  }

 private:
  void append(const char* text, std::size_t size);
  // Hands whole flush_size pieces to the sink, keeping the rest buffered,
  // so every chunk but the last has exactly flush_size bytes.
  void flush_pieces();
  Sink& sink_;
  std::size_t flush_size_;
  std::unique_ptr<char[]> data_;  // flush_size_ + kSlack bytes
  std::size_t size_ = 0;
};

// write_speedscope_document a slice at a time, so that an engine answers
// other requests between the slices: write(events) first reads the calls
// for the document's plan (frames, origin) about events / 2 calls a slice,
// then writes whole blocks of calls until about `events` more events are
// written. The same bytes, in
// the same pieces to the sink. The run, the profiles' calls and the sink
// must outlive it.
class DocumentWriter {
 public:
  DocumentWriter(Sink& sink, const Run& run, std::string name, std::vector<NamedCalls> profiles,
                 std::size_t flush_size = 1 << 16, Progress progress = {},
                 bool frame_sources = false);
  ~DocumentWriter();
  DocumentWriter(const DocumentWriter&) = delete;
  DocumentWriter& operator=(const DocumentWriter&) = delete;
  // True once the document is complete (its last bytes handed to the sink).
  bool write(uint64_t events);
  uint64_t done() const;   // events written
  uint64_t total() const;  // events of the document

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Writes the whole document for one run (frames numbered in order of first
// appearance, all profiles rebased on the earliest first call). With
// `frame_sources`, each frame carries its region's file and line where the
// run holds them (region_source; speedscope_format.hpp).
void write_speedscope_document(Sink& sink, const Run& run, std::string_view name,
                               const std::vector<NamedCalls>& profiles,
                               std::size_t flush_size = 1 << 16, const Progress& progress = {},
                               bool frame_sources = false);

}  // namespace scope_speedscope
