// serve's guards (cli/serve_guard.hpp): the token, Host and Origin, and the
// page's files, with every escape tried.
#include "cli/serve_guard.hpp"

#include <gtest/gtest.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace scope_speedscope::serve {
namespace {

namespace fs = std::filesystem;

TEST(serve_guard, a_token_is_64_hex_digits_new_each_time) {
  std::set<std::string> seen;
  for (int i = 0; i < 20; ++i) {
    const std::string t = new_token();
    EXPECT_EQ(t.size(), 64u);
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos) << t;
    seen.insert(t);
  }
  EXPECT_EQ(seen.size(), 20u);
}

TEST(serve_guard, only_the_same_token_matches) {
  const std::string t = "00ff00ff";
  EXPECT_TRUE(same_token("00ff00ff", t));
  EXPECT_FALSE(same_token("00ff00fe", t));
  EXPECT_FALSE(same_token("00ff00f", t));
  EXPECT_FALSE(same_token("00ff00ff0", t));
  EXPECT_FALSE(same_token("", t));
  EXPECT_FALSE(same_token("", ""));  // no token never matches
  EXPECT_FALSE(same_token(std::string("00ff00ff\0", 9), t));
}

TEST(serve_guard, the_cookie_is_found_among_others) {
  EXPECT_EQ(cookie_value("a=1; scope_speedscope_token=abc; b=2", kTokenCookie), "abc");
  EXPECT_EQ(cookie_value("scope_speedscope_token=abc", kTokenCookie), "abc");
  EXPECT_EQ(cookie_value("xscope_speedscope_token=abc", kTokenCookie), "");
  EXPECT_EQ(cookie_value("", kTokenCookie), "");
  EXPECT_EQ(cookie_value("scope_speedscope_token", kTokenCookie), "");
}

TEST(serve_guard, hosts_of_this_machine_on_any_port) {
  for (const char* h :
       {"127.0.0.1", "127.0.0.1:8080", "localhost:1", "LOCALHOST:9001", "[::1]", "[::1]:8080"}) {
    EXPECT_TRUE(host_allowed(h, "")) << h;
  }
  for (const char* h : {"", "evil.com", "evil.com:8080", "127.0.0.1.evil.com", "localhost.evil.com",
                        "127.0.0.2:8080", "[::1", "127.0.0.1:", "127.0.0.1:80x", "[::2]:80",
                        ":8080", "127.0.0.1:8080:1"}) {
    EXPECT_FALSE(host_allowed(h, "")) << h;
  }
}

TEST(serve_guard, and_the_address_given_with_host) {
  EXPECT_TRUE(host_allowed("10.1.2.3:8080", "10.1.2.3"));
  EXPECT_FALSE(host_allowed("10.1.2.4:8080", "10.1.2.3"));
  EXPECT_TRUE(host_allowed("login1.cluster:7000", "login1.cluster"));
  EXPECT_TRUE(host_allowed("[fe80::1]:7000", "fe80::1"));
  EXPECT_FALSE(host_allowed("fe80::1", "fe80::1"));
  EXPECT_TRUE(host_allowed("localhost:1", "10.1.2.3"));
}

TEST(serve_guard, an_origin_must_be_the_hosts_own) {
  EXPECT_TRUE(origin_allowed("", "127.0.0.1:8080"));
  EXPECT_TRUE(origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080"));
  EXPECT_TRUE(origin_allowed("HTTP://LOCALHOST:9", "localhost:9"));
  EXPECT_FALSE(origin_allowed("http://127.0.0.1:8081", "127.0.0.1:8080"));
  EXPECT_FALSE(origin_allowed("https://127.0.0.1:8080", "127.0.0.1:8080"));
  EXPECT_FALSE(origin_allowed("http://evil.com", "127.0.0.1:8080"));
  EXPECT_FALSE(origin_allowed("null", "127.0.0.1:8080"));
  EXPECT_FALSE(origin_allowed("http://127.0.0.1:8080/", "127.0.0.1:8080"));
}

TEST(serve_guard, one_verdict_in_one_order) {
  const std::string t(64, 'a');
  const std::string cookie = "x=1; scope_speedscope_token=" + t;
  auto verdict = [&](RequestHead h, std::string_view token = "") {
    const Verdict v = check_request(h, "", token);
    return std::to_string(v.status) + (v.set_cookie ? " cookie " : " ") + v.message;
  };
  EXPECT_EQ(verdict({"127.0.0.1:1"}, t), "401 this server needs the token of the URL it printed");
  EXPECT_EQ(verdict({"127.0.0.1:1", "", "", t}, t), "0 cookie ");
  EXPECT_EQ(verdict({"127.0.0.1:1", "", cookie}, t), "0 ");
  EXPECT_EQ(verdict({"127.0.0.1:1", "", "scope_speedscope_token=" + std::string(64, 'b')}, t),
            "401 this server needs the token of the URL it printed");
  EXPECT_EQ(verdict({"127.0.0.1:1"}), "0 ");  // the page alone asks no token
  // The Host first, then the Origin, then the body, before the token.
  EXPECT_EQ(verdict({"evil.com", "http://evil.com", cookie}, t),
            "403 the Host header 'evil.com' is not this server's");
  EXPECT_EQ(verdict({"127.0.0.1:1", "http://evil.com", cookie}, t),
            "403 the Origin 'http://evil.com' is not this server's page");
  RequestHead chunked{"127.0.0.1:1"};
  chunked.chunked = true;
  EXPECT_EQ(verdict(chunked, t), "411 a request body needs a Content-Length (no chunked bodies)");
  RequestHead big{"127.0.0.1:1"};
  big.content_length = kMaxRequestBytes + 1;
  EXPECT_EQ(verdict(big, t), "413 the request is larger than 1 MiB");
  big.content_length = kMaxRequestBytes;
  EXPECT_EQ(verdict(big, t), "401 this server needs the token of the URL it printed");
  EXPECT_EQ(token_cookie("ab"), "scope_speedscope_token=ab; HttpOnly; SameSite=Strict; Path=/");
}

TEST(serve_guard, a_request_path_is_a_relative_name_or_nothing) {
  auto path = [](std::string_view t) {
    const auto p = web_path(t);
    return p ? p->relative + (p->directory ? " (dir)" : "") : std::string("none");
  };
  EXPECT_EQ(path("/"), " (dir)");
  EXPECT_EQ(path("/lib/"), "lib (dir)");
  EXPECT_EQ(path("/lib/a%20b.js"), "lib/a b.js");
  EXPECT_EQ(path("/speedscope/index.html"), "speedscope/index.html");
  for (const char* t : {"", "a", "/..", "/a/../b", "/%2e%2e", "/a%2fb", "/a%5cb", "/a\\b", "//a",
                        "/a//b", "/./a", "/a%00", "/%", "/%zz"}) {
    EXPECT_EQ(path(t), "none") << t;
  }
}

class WebFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/serve-guard-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    char real[PATH_MAX];
    ASSERT_NE(::realpath(pattern, real), nullptr);
    top_ = real;
    root_ = top_ + "/web";
    fs::create_directories(root_ + "/lib");
    write(root_ + "/index.html", "page");
    write(root_ + "/lib/index.html", "lib page");
    write(root_ + "/lib/a b.js", "js");
    write(top_ + "/secret.txt", "secret");
    fs::create_symlink(top_ + "/secret.txt", root_ + "/escape.txt");
    fs::create_directory_symlink(top_, root_ + "/up");
    fs::create_symlink(root_ + "/lib/a b.js", root_ + "/inside.js");
  }
  void TearDown() override { fs::remove_all(dir_); }
  static void write(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
  }
  std::string dir_, top_, root_;
};

TEST_F(WebFiles, the_folders_files_and_their_indexes) {
  EXPECT_EQ(web_file(root_, "/"), root_ + "/index.html");
  EXPECT_EQ(web_file(root_, "/index.html"), root_ + "/index.html");
  EXPECT_EQ(web_file(root_, "/lib"), root_ + "/lib/index.html");
  EXPECT_EQ(web_file(root_, "/lib/"), root_ + "/lib/index.html");
  EXPECT_EQ(web_file(root_, "/lib/a%20b.js"), root_ + "/lib/a b.js");
  EXPECT_EQ(web_file(root_, "/inside.js"), root_ + "/lib/a b.js");  // a link that stays inside
}

TEST_F(WebFiles, no_path_leaves_the_folder) {
  for (const char* t : {"",
                        "index.html",
                        "/..",
                        "/../secret.txt",
                        "/lib/../../secret.txt",
                        "/%2e%2e/secret.txt",
                        "/%2E%2E/secret.txt",
                        "/lib/..%2f..%2fsecret.txt",
                        "/lib/..%2F..%2Fsecret.txt",
                        "/..%5csecret.txt",
                        "/lib\\..\\..\\secret.txt",
                        "/escape.txt",
                        "/up/secret.txt",
                        "//etc/passwd",
                        "/lib//a%20b.js",
                        "/./index.html",
                        "/index.html%00.js",
                        "/%",
                        "/%2",
                        "/%zz",
                        "/missing.html",
                        "/lib/a%2fb.js"}) {
    EXPECT_EQ(web_file(root_, t), std::nullopt) << t;
  }
}

}  // namespace
}  // namespace scope_speedscope::serve
