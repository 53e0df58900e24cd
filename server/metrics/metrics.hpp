// Counters, gauges and histograms for GET /metrics (the Prometheus text format, version 0.0.4).
// Updating one never locks: a counter is a set of cache-line-sized atomic shards, one picked per
// thread and summed at scrape; a gauge and a histogram's buckets are single relaxed atomics.
// Registering a series locks the registry (do it once, keep the reference: references stay
// valid for the registry's life); so does a scrape.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace duelhall::metrics {

using Labels = std::vector<std::pair<std::string, std::string>>;

class Counter {
 public:
  void add(uint64_t n = 1) { shards_[shard()].value.fetch_add(n, std::memory_order_relaxed); }
  uint64_t value() const;

 private:
  static constexpr size_t kShards = 16;
  static size_t shard();
  struct alignas(64) Shard {
    std::atomic<uint64_t> value{0};
  };
  std::array<Shard, kShards> shards_;
};

class Gauge {
 public:
  void add(int64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  void sub(int64_t n = 1) { value_.fetch_sub(n, std::memory_order_relaxed); }
  void set(int64_t n) { value_.store(n, std::memory_order_relaxed); }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

// Holds one unit of a gauge (a live match, an open connection) until released or destroyed.
class GaugeHold {
 public:
  GaugeHold() = default;
  explicit GaugeHold(Gauge& gauge) : gauge_(&gauge) { gauge_->add(); }
  GaugeHold(const GaugeHold&) = delete;
  GaugeHold& operator=(const GaugeHold&) = delete;
  ~GaugeHold() { release(); }
  void release() {
    if (gauge_) gauge_->sub();
    gauge_ = nullptr;
  }
  // Counts again (after a release that was taken back); nothing when it still counts.
  void hold(Gauge& gauge) {
    if (gauge_) return;
    gauge_ = &gauge;
    gauge_->add();
  }

 private:
  Gauge* gauge_ = nullptr;
};

// Observations in seconds, counted in fixed buckets (upper bounds, ascending).
class Histogram {
 public:
  explicit Histogram(std::vector<double> bounds);
  void observe(double seconds);
  const std::vector<double>& bounds() const { return bounds_; }
  // Per bucket, not cumulative; the last is +Inf.
  std::vector<uint64_t> counts() const;
  double sum() const;

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;
  std::atomic<uint64_t> sum_nanos_{0};
};

// Latency buckets from 100 microseconds to 10 seconds.
std::vector<double> latency_buckets();

class Registry {
 public:
  Counter& counter(const std::string& name, const std::string& help, const Labels& labels = {});
  Gauge& gauge(const std::string& name, const std::string& help, const Labels& labels = {});
  Histogram& histogram(const std::string& name, const std::string& help,
                       const std::vector<double>& bounds, const Labels& labels = {});
  // Every series, grouped by metric with its HELP and TYPE lines.
  std::string text() const;

 private:
  struct Family {
    std::string help;
    std::string type;
    std::map<std::string, std::unique_ptr<Counter>> counters;  // by rendered labels
    std::map<std::string, std::unique_ptr<Gauge>> gauges;
    std::map<std::string, std::unique_ptr<Histogram>> histograms;
  };
  Family& family(const std::string& name, const std::string& help, const char* type);

  mutable std::mutex mutex_;
  std::map<std::string, Family> families_;
};

// `{a="x",b="y"}` with the values escaped; empty for no labels.
std::string render_labels(const Labels& labels);

}  // namespace duelhall::metrics
