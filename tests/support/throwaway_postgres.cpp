#include "throwaway_postgres.hpp"

#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <chrono>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <thread>
#include <vector>

#include "storage/postgres/pg.hpp"

namespace duelhall::testing {
namespace {

std::filesystem::path postgres_bin() {
  std::filesystem::path best;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
    const auto bin = entry.path() / "bin";
    if (!std::filesystem::exists(bin / "postgres")) continue;
    // Versions are whole numbers (15, 16): compare as numbers.
    if (best.empty() || std::stoi(entry.path().filename().string()) >
                            std::stoi(best.parent_path().filename().string())) {
      best = bin;
    }
  }
  if (best.empty()) {
    throw std::runtime_error(
        "no PostgreSQL server under /usr/lib/postgresql/*/bin "
        "(scripts/install-deps.sh installs Debian's postgresql)");
  }
  return best;
}

uint16_t free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// Starts `args` as the postgres user when this process is root, with its output in `log`.
pid_t spawn(const std::vector<std::string>& args, const std::filesystem::path& log,
            bool die_with_parent) {
  const passwd* pg = ::geteuid() == 0 ? ::getpwnam("postgres") : nullptr;
  if (::geteuid() == 0 && !pg) throw std::runtime_error("running as root, and no postgres user");
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    if (pg && (::setgid(pg->pw_gid) != 0 || ::setuid(pg->pw_uid) != 0)) ::_exit(126);
    if (die_with_parent) {
      ::prctl(PR_SET_PDEATHSIG, SIGQUIT);
      if (::getppid() != parent) ::_exit(0);
    }
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (out >= 0) {
      ::dup2(out, 1);
      ::dup2(out, 2);
    }
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

std::string tail_of(const std::filesystem::path& log) {
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  return text.size() > 2000 ? text.substr(text.size() - 2000) : text;
}

}  // namespace

ThrowawayPostgres::ThrowawayPostgres() {
  try {
    start();
  } catch (...) {
    stop();
    throw;
  }
}

void ThrowawayPostgres::start() {
  const auto bin = postgres_bin();
  std::string templ = "/tmp/duelhall-pg-XXXXXX";
  if (!::mkdtemp(templ.data())) throw std::runtime_error("cannot create a temporary folder");
  dir_ = templ;
  if (::geteuid() == 0) {
    if (const passwd* pg = ::getpwnam("postgres")) {
      if (::chown(dir_.c_str(), pg->pw_uid, pg->pw_gid) != 0) {
        throw std::runtime_error("cannot give " + dir_.string() + " to the postgres user");
      }
    }
  }
  const auto data = dir_ / "data";
  const auto log = dir_ / "log";
  const pid_t initdb = spawn({(bin / "initdb").string(), "-D", data.string(), "-U", "duelhall",
                              "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"},
                             log, false);
  int status = 0;
  ::waitpid(initdb, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("initdb failed: " + tail_of(log));
  }
  port_ = free_port();
  start_server();
}

void ThrowawayPostgres::start_server() {
  const auto bin = postgres_bin();
  const auto data = dir_ / "data";
  const auto log = dir_ / "log";
  int status = 0;
  server_ = spawn({(bin / "postgres").string(), "-D", data.string(), "-p", std::to_string(port_),
                   "-k", dir_.string(), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c",
                   "full_page_writes=off", "-c", "max_connections=200"},
                  log, true);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (true) {
    try {
      storage::PgConnection probe(url("postgres"));
      return;
    } catch (const storage::StoreError&) {
      const bool exited = ::waitpid(server_, &status, WNOHANG) == server_;
      if (exited) server_ = -1;
      if (exited || std::chrono::steady_clock::now() > deadline) {
        // The log goes with the folder: its reason is what the test needs.
        throw std::runtime_error("the PostgreSQL server did not start: " + tail_of(log));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

ThrowawayPostgres::~ThrowawayPostgres() {
  stop();
}

void ThrowawayPostgres::stop_server() {
  if (server_ > 0) {
    ::kill(server_, SIGINT);  // fast shutdown: ends every connection, no checkpoint wait
    int status = 0;
    ::waitpid(server_, &status, 0);
    server_ = -1;
  }
}

void ThrowawayPostgres::stop() {
  stop_server();
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

ThrowawayPostgres& ThrowawayPostgres::shared() {
  static ThrowawayPostgres instance;
  return instance;
}

std::string ThrowawayPostgres::url(const std::string& database) const {
  return "postgresql://duelhall@127.0.0.1:" + std::to_string(port_) + "/" + database;
}

std::string ThrowawayPostgres::new_database() {
  const std::string name = "test_" + std::to_string(++databases_);
  storage::PgConnection admin(url("postgres"));
  admin.exec("CREATE DATABASE " + name);
  return url(name);
}

}  // namespace duelhall::testing
