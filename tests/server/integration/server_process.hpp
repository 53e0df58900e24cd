// Starts the real duelhall binary on a free loopback port for one test, and stops it after.
#pragma once

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace duelhall::testing {

// A port the kernel just gave out and took back; the server binds it right after.
inline uint16_t free_loopback_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

struct HttpAnswer {
  unsigned status = 0;
  std::string body;
};

inline HttpAnswer http_get(uint16_t port, const std::string& target) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  beast::error_code ec;
  stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
  return {res.result_int(), res.body()};
}

// A fresh data folder name under the temporary directory.
inline std::filesystem::path temp_data_dir(const std::string& what) {
  static int counter = 0;
  return std::filesystem::temp_directory_path() / std::string("duelhall-test-")
                                                      .append(what)
                                                      .append("-")
                                                      .append(std::to_string(::getpid()))
                                                      .append("-")
                                                      .append(std::to_string(++counter));
}

// Runs the binary to its exit (it must not serve: a bad data folder, --prune); returns the exit
// status and everything it printed.
struct ExitResult {
  int status = -1;  // the exit code, or -1 when it died by a signal
  std::string output;
};
inline ExitResult run_to_exit(const std::vector<std::string>& args) {
  // A server that wrongly starts serving is stopped by timeout(1) and fails the test.
  std::string command = std::string("timeout 30 ") + DUELHALL_BINARY;
  for (const auto& a : args) command += " '" + a + "'";
  command += " 2>&1";
  ExitResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

class ServerProcess {
 public:
  explicit ServerProcess(std::vector<std::string> extra = {})
      : ServerProcess(std::move(extra), temp_data_dir("server"), false) {}
  // With a data folder of the test's, which is kept when the server stops (to restart on it).
  ServerProcess(std::vector<std::string> extra, std::filesystem::path data, bool keep_data)
      : port_(free_loopback_port()), data_(std::move(data)), keep_data_(keep_data) {
    std::vector<std::string> args = {DUELHALL_BINARY,
                                     "--bind",
                                     "127.0.0.1",
                                     "--port",
                                     std::to_string(port_),
                                     "--data",
                                     data_.string(),
                                     "--log-level",
                                     "warn",
                                     "--threads",
                                     "2",
                                     // A stop waits at most this long for clients that do not
                                     // answer the close (a test's own flag overrides it).
                                     "--drain-seconds",
                                     "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    // A TLS server answers only TLS: it is up once it accepts a connection.
    const bool tls = std::find(extra.begin(), extra.end(), "--tls-cert") != extra.end();
    // A server built with ASan on a busy 2-core machine has taken over 10 s to answer.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      try {
        if (tls) {
          boost::asio::io_context io;
          boost::asio::ip::tcp::socket probe(io);
          probe.connect({boost::asio::ip::make_address("127.0.0.1"), port_});
          return;
        }
        if (http_get(port_, "/healthz").status == 200) return;
      } catch (const std::exception&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    stop();
    throw std::runtime_error("the server did not come up");
  }
  ~ServerProcess() { stop(); }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  uint16_t port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::filesystem::path& data_dir() const { return data_; }
  // Kills the process as a crash would: no shutdown, nothing flushed.
  void kill_hard() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  // A clean stop (SIGTERM): the server commits what it has queued and exits.
  void stop_cleanly() { stop(); }
  // Sends a signal and returns at once (SIGHUP, or a SIGTERM whose drain the test watches).
  void signal(int number) {
    if (pid_ > 0) ::kill(pid_, number);
  }
  // Waits for the process to exit by itself (after a drain); its exit code, -1 on a signal.
  int wait_exit() {
    if (pid_ <= 0) return -1;
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  // True while the process has not exited (it must never crash).
  bool alive() {
    int status = 0;
    return pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == 0;
  }

 private:
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    if (keep_data_) return;
    std::error_code ec;
    std::filesystem::remove_all(data_, ec);
  }

  uint16_t port_;
  pid_t pid_ = -1;
  std::filesystem::path data_;
  bool keep_data_ = false;
};

}  // namespace duelhall::testing
