#include "metrics/metrics.hpp"

#include <cmath>
#include <functional>
#include <stdexcept>
#include <thread>

namespace duelhall::metrics {

size_t Counter::shard() {
  static std::atomic<size_t> next{0};
  thread_local const size_t mine = next.fetch_add(1, std::memory_order_relaxed) % kShards;
  return mine;
}

uint64_t Counter::value() const {
  uint64_t total = 0;
  for (const Shard& s : shards_) total += s.value.load(std::memory_order_relaxed);
  return total;
}

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), counts_(new std::atomic<uint64_t>[bounds_.size() + 1]) {
  for (size_t i = 0; i <= bounds_.size(); ++i) counts_[i].store(0, std::memory_order_relaxed);
}

void Histogram::observe(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  size_t i = 0;
  while (i < bounds_.size() && seconds > bounds_[i]) ++i;
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  sum_nanos_.fetch_add(static_cast<uint64_t>(std::llround(seconds * 1e9)),
                       std::memory_order_relaxed);
}

std::vector<uint64_t> Histogram::counts() const {
  std::vector<uint64_t> out(bounds_.size() + 1);
  for (size_t i = 0; i < out.size(); ++i) out[i] = counts_[i].load(std::memory_order_relaxed);
  return out;
}

double Histogram::sum() const {
  return static_cast<double>(sum_nanos_.load(std::memory_order_relaxed)) / 1e9;
}

std::vector<double> latency_buckets() {
  return {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
          0.05,   0.1,     0.25,   0.5,   1,      2.5,   5,    10};
}

std::string render_labels(const Labels& labels) {
  if (labels.empty()) return {};
  std::string out = "{";
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i > 0) out += ',';
    out += labels[i].first + "=\"";
    for (char c : labels[i].second) {
      if (c == '\\' || c == '"') out += '\\';
      if (c == '\n') {
        out += "\\n";
        continue;
      }
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

Registry::Family& Registry::family(const std::string& name, const std::string& help,
                                   const char* type) {
  auto [it, fresh] = families_.try_emplace(name);
  if (fresh) {
    it->second.help = help;
    it->second.type = type;
  } else if (it->second.type != type) {
    throw std::logic_error("metric " + name + " registered as " + it->second.type);
  }
  return it->second;
}

Counter& Registry::counter(const std::string& name, const std::string& help, const Labels& labels) {
  std::lock_guard lock(mutex_);
  auto& slot = family(name, help, "counter").counters[render_labels(labels)];
  if (!slot) slot = std::make_unique<Counter>();
  return *slot;
}

Gauge& Registry::gauge(const std::string& name, const std::string& help, const Labels& labels) {
  std::lock_guard lock(mutex_);
  auto& slot = family(name, help, "gauge").gauges[render_labels(labels)];
  if (!slot) slot = std::make_unique<Gauge>();
  return *slot;
}

Histogram& Registry::histogram(const std::string& name, const std::string& help,
                               const std::vector<double>& bounds, const Labels& labels) {
  std::lock_guard lock(mutex_);
  auto& slot = family(name, help, "histogram").histograms[render_labels(labels)];
  if (!slot) slot = std::make_unique<Histogram>(bounds);
  return *slot;
}

namespace {

std::string number(double value) {
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.15g", value);
  return buffer;
}

// `{le="0.5"}` added to a series' own labels (rendered as `{a="x"}` or empty).
std::string with_le(const std::string& labels, const std::string& le) {
  const std::string pair = "le=\"" + le + "\"";
  if (labels.empty()) return "{" + pair + "}";
  return labels.substr(0, labels.size() - 1) + "," + pair + "}";
}

}  // namespace

std::string Registry::text() const {
  std::lock_guard lock(mutex_);
  std::string out;
  for (const auto& [name, f] : families_) {
    out += "# HELP " + name + " " + f.help + "\n# TYPE " + name + " " + f.type + "\n";
    for (const auto& [labels, c] : f.counters) {
      out += name + labels + " " + std::to_string(c->value()) + "\n";
    }
    for (const auto& [labels, g] : f.gauges) {
      out += name + labels + " " + std::to_string(g->value()) + "\n";
    }
    for (const auto& [labels, h] : f.histograms) {
      const auto counts = h->counts();
      uint64_t cumulative = 0;
      for (size_t i = 0; i < counts.size(); ++i) {
        cumulative += counts[i];
        const double le = i < h->bounds().size() ? h->bounds()[i] : INFINITY;
        out += name + "_bucket" + with_le(labels, number(le)) + " " + std::to_string(cumulative) +
               "\n";
      }
      out += name + "_sum" + labels + " " + number(h->sum()) + "\n";
      out += name + "_count" + labels + " " + std::to_string(cumulative) + "\n";
    }
  }
  return out;
}

}  // namespace duelhall::metrics
