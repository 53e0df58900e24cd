#include "storage/postgres/pg.hpp"

#include <libpq-fe.h>

#include <charconv>
#include <cstdlib>
#include <utility>

namespace duelhall::storage {
namespace {

std::string pg_message(pg_conn* conn) {
  std::string message = conn ? PQerrorMessage(conn) : "out of memory";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
    message.pop_back();
  }
  return message;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

PgParams& PgParams::add(int64_t value) {
  values_.push_back(std::to_string(value));
  null_.push_back(false);
  formats_.push_back(0);
  return *this;
}

PgParams& PgParams::add(std::string_view text) {
  values_.emplace_back(text);
  null_.push_back(false);
  formats_.push_back(0);
  return *this;
}

PgParams& PgParams::add_real(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  values_.emplace_back(buffer, ec == std::errc() ? end : buffer);
  null_.push_back(false);
  formats_.push_back(0);
  return *this;
}

PgParams& PgParams::add_bytes(std::string_view bytes) {
  values_.emplace_back(bytes);
  null_.push_back(false);
  formats_.push_back(1);
  return *this;
}

PgParams& PgParams::add_null() {
  values_.emplace_back();
  null_.push_back(true);
  formats_.push_back(0);
  return *this;
}

PgResult::~PgResult() {
  if (result_) PQclear(result_);
}

PgResult& PgResult::operator=(PgResult&& other) noexcept {
  if (this != &other) {
    if (result_) PQclear(result_);
    result_ = std::exchange(other.result_, nullptr);
  }
  return *this;
}

int PgResult::rows() const {
  return PQntuples(result_);
}

bool PgResult::null(int row, int column) const {
  return PQgetisnull(result_, row, column) != 0;
}

std::string PgResult::text(int row, int column) const {
  return {PQgetvalue(result_, row, column), static_cast<size_t>(PQgetlength(result_, row, column))};
}

int64_t PgResult::integer(int row, int column) const {
  if (null(row, column)) return 0;
  return std::strtoll(PQgetvalue(result_, row, column), nullptr, 10);
}

double PgResult::real(int row, int column) const {
  if (null(row, column)) return 0;
  return std::strtod(PQgetvalue(result_, row, column), nullptr);
}

bool PgResult::boolean(int row, int column) const {
  return !null(row, column) && PQgetvalue(result_, row, column)[0] == 't';
}

std::string PgResult::bytes(int row, int column) const {
  // bytea's text output is hex: \x followed by two digits a byte.
  const std::string hex = text(row, column);
  std::string out;
  if (hex.size() < 2 || hex[0] != '\\' || hex[1] != 'x') return out;
  out.reserve((hex.size() - 2) / 2);
  for (size_t i = 2; i + 1 < hex.size(); i += 2) {
    const int high = hex_value(hex[i]);
    const int low = hex_value(hex[i + 1]);
    if (high < 0 || low < 0) throw StoreError("a bytea value is not in hex format");
    out.push_back(static_cast<char>(high * 16 + low));
  }
  return out;
}

int64_t PgResult::affected() const {
  const char* text = PQcmdTuples(result_);
  return text && *text ? std::strtoll(text, nullptr, 10) : 0;
}

PgConnection::PgConnection(const std::string& url) : url_(url) {
  conn_ = PQconnectdb(url.c_str());
  if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
    const std::string reason = pg_message(conn_);
    if (conn_) PQfinish(conn_);
    conn_ = nullptr;
    throw StoreError("cannot connect to PostgreSQL at " + redact_url(url) + ": " + reason);
  }
  // Quiet: NOTICEs (IF NOT EXISTS) would go to stderr otherwise.
  exec("SET client_min_messages = warning");
}

PgConnection::~PgConnection() {
  if (conn_) PQfinish(conn_);
}

void PgConnection::ensure_open() {
  if (PQstatus(conn_) != CONNECTION_OK) reconnect();
  first_statement_ = true;
}

void PgConnection::reconnect() {
  first_statement_ = false;
  PQreset(conn_);
  if (PQstatus(conn_) != CONNECTION_OK) {
    throw StoreUnavailableError("lost the connection to PostgreSQL at " + redact_url(url_) + ": " +
                                pg_message(conn_));
  }
  exec("SET client_min_messages = warning");
}

void PgConnection::exec(std::string_view sql) {
  query(sql);
}

pg_result* PgConnection::run(const std::string& sql, const PgParams& params) {
  const size_t n = params.values_.size();
  if (n == 0) return PQexec(conn_, sql.c_str());
  std::vector<const char*> values(n);
  std::vector<int> lengths(n);
  for (size_t i = 0; i < n; ++i) {
    values[i] = params.null_[i] ? nullptr : params.values_[i].data();
    lengths[i] = static_cast<int>(params.values_[i].size());
  }
  return PQexecParams(conn_, sql.c_str(), static_cast<int>(n), nullptr, values.data(),
                      lengths.data(), params.formats_.data(), 0);
}

PgResult PgConnection::query(std::string_view sql, const PgParams& params) {
  const bool retry = std::exchange(first_statement_, false);
  const std::string text(sql);
  PgResult result(run(text, params));
  auto failed = [&] {
    const ExecStatusType status = PQresultStatus(result.result_);
    return status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK;
  };
  if (failed() && retry && PQstatus(conn_) == CONNECTION_BAD) {
    reconnect();
    result = PgResult(run(text, params));
  }
  if (failed()) {
    std::string message = result.result_ ? PQresultErrorMessage(result.result_) : "";
    if (message.empty()) message = pg_message(conn_);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
      message.pop_back();
    }
    const std::string head = text.substr(0, text.find_first_of("\n("));
    if (PQstatus(conn_) == CONNECTION_BAD) {
      throw StoreUnavailableError("PostgreSQL: " + message + " (in: " + head + ")");
    }
    throw StoreError("PostgreSQL: " + message + " (in: " + head + ")");
  }
  return result;
}

PgTransaction::PgTransaction(PgConnection& db) : db_(db) {
  db_.ensure_open();
  db_.exec("BEGIN");
}

PgTransaction::~PgTransaction() {
  if (!open_) return;
  try {
    db_.exec("ROLLBACK");
  } catch (const StoreError&) {
    // A lost connection has rolled the transaction back already.
  }
}

void PgTransaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
}

std::string redact_url(std::string_view url) {
  // postgresql://user:password@host/...: hide what lies between the first ':' after the scheme
  // and the '@'.
  const size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return std::string(url);
  const size_t at = url.find('@', scheme + 3);
  if (at == std::string_view::npos) return std::string(url);
  const size_t colon = url.find(':', scheme + 3);
  if (colon == std::string_view::npos || colon > at) return std::string(url);
  return std::string(url.substr(0, colon + 1)) + "***" + std::string(url.substr(at));
}

}  // namespace duelhall::storage
