#include "view_text.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <cctype>
#include <memory>
#include <vector>

#include "value_names.hpp"

namespace duelhall::cli {

namespace pb = google::protobuf;

namespace {

// A field's name as words: "fatigue_start" -> "fatigue start".
std::string words(const std::string& name) {
  std::string out = name;
  for (char& c : out) {
    if (c == '_') c = ' ';
  }
  return out;
}

std::string scalar(const pb::Message& m, const pb::FieldDescriptor* f, int index) {
  const pb::Reflection* r = m.GetReflection();
  const bool rep = f->is_repeated();
  switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
      return std::to_string(rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f));
    case pb::FieldDescriptor::CPPTYPE_INT64:
      return std::to_string(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f));
    case pb::FieldDescriptor::CPPTYPE_UINT32: {
      const uint32_t n = rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f);
      return value_name(*f, n).value_or(std::to_string(n));
    }
    case pb::FieldDescriptor::CPPTYPE_UINT64:
      return std::to_string(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f));
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      return (rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f)) ? "yes" : "no";
    case pb::FieldDescriptor::CPPTYPE_ENUM:
      return std::string((rep ? r->GetRepeatedEnum(m, f, index) : r->GetEnum(m, f))->name());
    case pb::FieldDescriptor::CPPTYPE_STRING:
      if (f->type() == pb::FieldDescriptor::TYPE_BYTES) return "(data)";
      return rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f);
    default:
      return "?";
  }
}

// One line per message: its set scalars as "name value" pairs, lists in brackets; nested
// messages follow on their own indented lines, a list of them (the players) one line each.
void render(const pb::Message& m, const std::string& indent, std::string& out) {
  const pb::Reflection* r = m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  std::string line;
  std::vector<const pb::FieldDescriptor*> nested;
  for (const auto* f : fields) {
    if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      nested.push_back(f);
      continue;
    }
    std::string value;
    if (f->is_repeated()) {
      value = "[";
      for (int i = 0; i < r->FieldSize(m, f); ++i) {
        if (i) value += ' ';
        value += scalar(m, f, i);
      }
      value += "]";
    } else {
      value = scalar(m, f, 0);
    }
    if (!line.empty()) line += " | ";
    line += words(f->name());
    line += ' ';
    line += value;
  }
  if (!line.empty()) out += indent + line + "\n";
  for (const auto* f : nested) {
    if (f->is_repeated()) {
      for (int i = 0; i < r->FieldSize(m, f); ++i) {
        std::string one = words(f->name());  // "players" -> "player 1:"
        if (one.size() > 1 && one.back() == 's') one.pop_back();
        out += indent + one + " " + std::to_string(i + 1) + ":\n";
        render(r->GetRepeatedMessage(m, f, i), indent + "    ", out);
      }
    } else {
      out += indent + words(f->name()) + ":\n";
      render(r->GetMessage(m, f), indent + "    ", out);
    }
  }
}

}  // namespace

std::string view_text(const std::string& view_message, std::string_view bytes) {
  const pb::Descriptor* descriptor =
      pb::DescriptorPool::generated_pool()->FindMessageTypeByName(view_message);
  if (!descriptor) {
    return "(a " + std::to_string(bytes.size()) + "-byte view of unknown type '" + view_message +
           "')\n";
  }
  std::unique_ptr<pb::Message> view(
      pb::MessageFactory::generated_factory()->GetPrototype(descriptor)->New());
  if (!view->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return "(a " + std::to_string(bytes.size()) + "-byte view that does not parse as " +
           view_message + ")\n";
  }
  std::string text;
  render(*view, "  ", text);
  return text;
}

std::string with_names(std::string_view event, const std::vector<std::string>& seat_names) {
  std::string out;
  for (size_t i = 0; i < event.size(); ++i) {
    if (event[i] == '@' && i + 1 < event.size() &&
        std::isdigit(static_cast<unsigned char>(event[i + 1]))) {
      size_t end = i + 1;
      size_t seat = 0;
      while (end < event.size() && std::isdigit(static_cast<unsigned char>(event[end]))) {
        seat = seat * 10 + static_cast<size_t>(event[end] - '0');
        ++end;
      }
      if (seat < seat_names.size() && !seat_names[seat].empty()) {
        out += seat_names[seat] + " (@" + std::to_string(seat) + ")";
        i = end - 1;
        continue;
      }
    }
    out += event[i];
  }
  return out;
}

}  // namespace duelhall::cli
