#include "view_text.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include <cctype>
#include <memory>

namespace duelhall::cli {

namespace pb = google::protobuf;

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
  pb::TextFormat::PrintToString(*view, &text);
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
