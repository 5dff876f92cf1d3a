// wasm: the error boundary. Every entry point returns {ok: true, value} or
// {ok: false, kind, message, ...}: guarded() is the one place where a C++
// error becomes a value for JavaScript (src/js/api.js turns it into a
// ScopeSpeedscopeError), so no C++ exception ever unwinds into JavaScript.
// Also the names every file of src/wasm/ uses (val, ss).
#pragma once

#include <emscripten/val.h>
#include <exception>
#include <new>
#include <string>

#include "text/messages.hpp"

namespace scope_speedscope::wasm {

using emscripten::val;
namespace ss = ::scope_speedscope;

inline val ok(val value) {
  val result = val::object();
  result.set("ok", true);
  result.set("value", value);
  return result;
}

// An error as a value: the CLIs' text, the words for people (one table,
// src/core/text/messages.cpp), and what it blames.
inline val failure(const ss::Error& e) {
  val result = val::object();
  result.set("ok", false);
  result.set("kind", std::string(e.kind_name()));
  result.set("message", std::string(e.what()));
  result.set("code", std::string(e.code()));
  result.set("peopleMessage", e.people_message());
  result.set("file", e.file().empty() ? val::null() : val(e.file()));
  result.set("field", e.field().empty() ? val::null() : val(e.field()));
  result.set("index", e.index() >= 0 ? val(static_cast<double>(e.index())) : val::null());
  return result;
}

// The one place where C++ errors become values for JavaScript.
template <class Fn>
val guarded(Fn&& fn) {
  try {
    return ok(fn());
  } catch (const ss::Error& e) {
    return failure(e);
  } catch (const std::bad_alloc&) {
    return failure(ss::Error(ss::Msg::out_of_memory));
  } catch (const std::exception& e) {
    return failure(ss::Error(ss::Msg::internal, {{"detail", e.what()}}));
  }
}

}  // namespace scope_speedscope::wasm
