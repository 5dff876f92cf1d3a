// A child process under watch, for the bad-input tests: its exit status or
// the signal that ended it, whether it ran past a time limit (then it is
// killed), its peak memory, and what it printed.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace scope_speedscope::test {

struct Watched {
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
  bool timed_out = false;
  long max_rss_kib = 0;  // peak resident memory
  double seconds = 0;
  std::string out;
  std::string err;
};

// Runs argv[0] with argv (no shell). Kills it after `limit_seconds`.
inline Watched run_watched(const std::vector<std::string>& args, double limit_seconds) {
  TempDir io;
  const std::string out_path = io / "stdout";
  const std::string err_path = io / "stderr";
  std::vector<std::string> store = args;
  std::vector<char*> argv;
  for (std::string& a : store) argv.push_back(a.data());
  argv.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) _exit(126);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(argv[0], argv.data());
    _exit(127);
  }
  Watched w;
  if (pid < 0) return w;
  int status = 0;
  struct rusage usage {};
  while (true) {
    const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > limit_seconds && !w.timed_out) {
      w.timed_out = true;
      ::kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  w.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  w.max_rss_kib = usage.ru_maxrss;
  if (WIFEXITED(status)) w.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) w.signal = WTERMSIG(status);
  w.out = read_bytes(out_path);
  w.err = read_bytes(err_path);
  return w;
}

}  // namespace scope_speedscope::test
