#include "fairness/record_format.hpp"

#include <charconv>
#include <vector>

#include "fairness/text_escape.hpp"

namespace duelhall::fairness {
namespace {

template <typename T>
std::string join_numbers(const std::vector<T>& values) {
  if (values.empty()) return "-";
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out.push_back(',');
    out += std::to_string(values[i]);
  }
  return out;
}

template <typename T>
bool parse_number(std::string_view text, T& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

template <typename T>
bool parse_numbers(std::string_view text, std::vector<T>& out) {
  out.clear();
  if (text == "-") return true;
  while (true) {
    size_t comma = text.find(',');
    T v{};
    if (!parse_number(text.substr(0, comma), v)) return false;
    out.push_back(v);
    if (comma == std::string_view::npos) return true;
    text.remove_prefix(comma + 1);
  }
}

// A cursor over the file's lines that names the line in every error.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}

  // The next line split into space-separated fields, or false at the end of the text.
  bool next(std::vector<std::string_view>& fields) {
    if (pos_ >= text_.size()) return false;
    size_t newline = text_.find('\n', pos_);
    if (newline == std::string_view::npos) {
      unterminated_ = true;
      return false;
    }
    std::string_view line = text_.substr(pos_, newline - pos_);
    pos_ = newline + 1;
    ++number_;
    fields.clear();
    size_t start = 0;
    while (true) {
      size_t space = line.find(' ', start);
      fields.push_back(line.substr(start, space - start));
      if (space == std::string_view::npos) break;
      start = space + 1;
    }
    return true;
  }
  bool at_end() const { return pos_ >= text_.size(); }
  bool unterminated() const { return unterminated_; }
  std::string where() const { return "line " + std::to_string(number_) + ": "; }
  int number() const { return number_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int number_ = 0;
  bool unterminated_ = false;
};

struct Reader {
  Lines lines;
  std::vector<std::string_view> fields;
  std::string& error;
  bool have_line = false;

  bool fail(const std::string& why) {
    error = lines.where() + why;
    return false;
  }
  // Loads the next line; at the end of the text the file was cut short.
  bool advance() {
    have_line = lines.next(fields);
    if (have_line) return true;
    error = "truncated file: it stops after line " + std::to_string(lines.number()) +
            (lines.unterminated() ? " inside an unfinished line" : "") + " without its end line";
    return false;
  }
  // Requires the current line to be `key` with `count` values after it.
  bool expect(std::string_view key, size_t count) {
    if (fields[0] != key)
      return fail("expected '" + std::string(key) + "', found '" + std::string(fields[0]) + "'");
    if (fields.size() != count + 1) {
      std::string why(key);
      why += " takes ";
      why += std::to_string(count);
      why += count == 1 ? " field" : " fields";
      return fail(why);
    }
    return true;
  }
  bool text_field(size_t i, std::string& out, std::string_view what) {
    auto value = unescape_token(fields[i]);
    if (!value) return fail("bad escape in " + std::string(what));
    out = std::move(*value);
    return true;
  }
};

bool read_header(Reader& r, MatchRecord& record) {
  if (!r.advance()) return false;
  if (r.fields.size() != 2 || r.fields[0] != "duelhall-match") {
    return r.fail("not a Duelhall match file");
  }
  if (r.fields[1] != "1") {
    return r.fail("format version " + std::string(r.fields[1]) + " is not known (this reads 1)");
  }
  if (!r.advance() || !r.expect("engine", 1)) return false;
  if (!r.text_field(1, record.engine_version, "engine")) return false;
  if (!r.advance() || !r.expect("ruleset", 1)) return false;
  if (!r.text_field(1, record.config.ruleset, "ruleset")) return false;
  if (!r.advance() || !r.expect("seats", 1)) return false;
  if (!parse_number(r.fields[1], record.config.seats) || record.config.seats < 1 ||
      record.config.seats > engine::kMaxSeats) {
    return r.fail("bad seat count");
  }
  if (!r.advance() || !r.expect("params", 1)) return false;
  auto params = decode_params(r.fields[1]);
  if (!params) return r.fail("bad parameters");
  record.config.params = params_as_written(*params);
  for (int seat = 0; seat < record.config.seats; ++seat) {
    if (!r.advance() || !r.expect("seat", 3)) return false;
    int index = -1;
    if (!parse_number(r.fields[1], index) || index != seat) return r.fail("seats out of order");
    std::string name, option;
    if (!r.text_field(2, name, "seat name") || !r.text_field(3, option, "seat option")) {
      return false;
    }
    record.names.push_back(std::move(name));
    record.config.seat_options.push_back(std::move(option));
  }
  if (!r.advance() || !r.expect("commitment", 1)) return false;
  engine::Seed commitment_bytes{};
  if (!engine::seed_from_hex(std::string(r.fields[1]), commitment_bytes)) {
    return r.fail("the commitment is not 64 hex digits");
  }
  record.commitment = std::string(r.fields[1]);
  if (!r.advance() || !r.expect("seed", 1)) return false;
  record.seed_revealed = r.fields[1] != "-";
  if (record.seed_revealed &&
      !engine::seed_from_hex(std::string(r.fields[1]), record.config.seed)) {
    return r.fail("the seed is not 64 hex digits");
  }
  return true;
}

bool read_outcome(Reader& r, MatchRecord& record) {
  if (!r.expect("outcome", 3)) return false;
  RecordedOutcome outcome;
  if (!parse_number(r.fields[1], outcome.winners)) return r.fail("bad winners");
  if (!parse_numbers(r.fields[2], outcome.scores)) return r.fail("bad scores");
  if (!r.text_field(3, outcome.reason, "outcome reason")) return false;
  record.outcome = std::move(outcome);
  return r.advance();
}

bool read_step(Reader& r, MatchRecord& record) {
  if (!r.expect("step", 2)) return false;
  engine::Step step;
  uint64_t code = 0;
  if (!parse_number(r.fields[1], step.seat) || step.seat < 0 || step.seat >= record.config.seats) {
    return r.fail("bad seat in step " + std::to_string(record.steps.size()));
  }
  if (!parse_number(r.fields[2], code)) {
    return r.fail("bad action code in step " + std::to_string(record.steps.size()));
  }
  step.action = engine::Action::from_code(code);
  record.steps.push_back(step);
  return true;
}

bool read_chance(Reader& r, MatchRecord& record) {
  if (!r.expect("chance", 3)) return false;
  engine::ChanceRecord chance;
  const std::string index = std::to_string(record.chance_log.size());
  if (!parse_number(r.fields[1], chance.after_step)) {
    return r.fail("bad step number in chance record " + index);
  }
  if (!parse_numbers(r.fields[2], chance.values)) {
    return r.fail("bad values in chance record " + index);
  }
  if (!r.text_field(3, chance.what, "chance record " + index)) return false;
  record.chance_log.push_back(std::move(chance));
  return true;
}

}  // namespace

std::string write_record(const MatchRecord& record) {
  std::string out;
  auto line = [&out](std::initializer_list<std::string_view> fields) {
    bool first = true;
    for (std::string_view field : fields) {
      if (!first) out.push_back(' ');
      out.append(field);
      first = false;
    }
    out.push_back('\n');
  };
  line({kRecordFormat});
  line({"engine", escape_token(record.engine_version)});
  line({"ruleset", escape_token(record.config.ruleset)});
  line({"seats", std::to_string(record.config.seats)});
  line({"params", encode_params(record.config.params.values())});
  for (int seat = 0; seat < record.config.seats; ++seat) {
    const auto i = static_cast<size_t>(seat);
    line(
        {"seat", std::to_string(seat), escape_token(i < record.names.size() ? record.names[i] : ""),
         escape_token(i < record.config.seat_options.size() ? record.config.seat_options[i] : "")});
  }
  line({"commitment", record.commitment});
  line({"seed", record.seed_revealed ? engine::seed_to_hex(record.config.seed) : "-"});
  if (record.outcome) {
    line({"outcome", std::to_string(record.outcome->winners), join_numbers(record.outcome->scores),
          escape_token(record.outcome->reason)});
  }
  for (const engine::Step& step : record.steps) {
    line({"step", std::to_string(step.seat), std::to_string(step.action.code())});
  }
  for (const engine::ChanceRecord& chance : record.chance_log) {
    line({"chance", std::to_string(chance.after_step), join_numbers(chance.values),
          escape_token(chance.what)});
  }
  line({"end", std::to_string(record.steps.size()), std::to_string(record.chance_log.size())});
  return out;
}

std::optional<MatchRecord> read_record(std::string_view text, std::string& error) {
  Reader r{Lines(text), {}, error};
  MatchRecord record;
  if (!read_header(r, record) || !r.advance()) return std::nullopt;
  if (r.fields[0] == "outcome" && !read_outcome(r, record)) return std::nullopt;
  while (r.fields[0] == "step") {
    if (!read_step(r, record) || !r.advance()) return std::nullopt;
  }
  while (r.fields[0] == "chance") {
    if (!read_chance(r, record) || !r.advance()) return std::nullopt;
  }
  if (!r.expect("end", 2)) return std::nullopt;
  size_t steps = 0, chances = 0;
  if (!parse_number(r.fields[1], steps) || !parse_number(r.fields[2], chances)) {
    r.fail("bad counts");
    return std::nullopt;
  }
  if (steps != record.steps.size() || chances != record.chance_log.size()) {
    r.fail("the end line counts " + std::to_string(steps) + " steps and " +
           std::to_string(chances) + " chance records, the file holds " +
           std::to_string(record.steps.size()) + " and " +
           std::to_string(record.chance_log.size()));
    return std::nullopt;
  }
  if (!r.lines.at_end()) {
    r.fail("text after the end line");
    return std::nullopt;
  }
  return record;
}

}  // namespace duelhall::fairness
