// A throw-away PostgreSQL server for tests: initdb in a fresh folder under /tmp, the server on a
// free loopback port with its Unix socket in that folder, stopped and the folder removed when the
// object goes. The binaries are Debian's (/usr/lib/postgresql/<version>/bin, the highest
// version). PostgreSQL refuses to run as root, so a test run as root (CI) runs initdb and the
// server as the `postgres` user; the server also gets SIGQUIT should the test process die first.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace duelhall::testing {

class ThrowawayPostgres {
 public:
  // Throws std::runtime_error with the reason (no binaries, initdb or the server failed).
  ThrowawayPostgres();
  ~ThrowawayPostgres();
  ThrowawayPostgres(const ThrowawayPostgres&) = delete;
  ThrowawayPostgres& operator=(const ThrowawayPostgres&) = delete;

  // One server per test process, started on first use and stopped at exit.
  static ThrowawayPostgres& shared();

  uint16_t port() const { return port_; }
  // postgresql://duelhall@127.0.0.1:<port>/<database>
  std::string url(const std::string& database) const;
  // A new, empty database of its own; returns its URL.
  std::string new_database();

  // An outage: the server stops (a fast shutdown, which ends every connection) and starts again
  // on the same port with the same data.
  void stop_server();
  void start_server();

 private:
  void start();
  void stop();

  std::filesystem::path dir_;
  uint16_t port_ = 0;
  pid_t server_ = -1;
  int databases_ = 0;
};

}  // namespace duelhall::testing
