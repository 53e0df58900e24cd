// Every registered ruleset's views are canonical protobuf of the message its RulesetInfo names:
// they parse with the generated class (found in the generated descriptor pool), carry no field
// the .proto does not declare, and re-serialize deterministically to the very same bytes.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>

#include <catch2/catch.hpp>
#include <memory>

#include "views/random_games.hpp"

namespace pb = google::protobuf;
using duelhall::engine::Viewer;

namespace {

// True when `message` and every message inside it parsed without unknown fields.
bool no_unknown_fields(const pb::Message& message, std::string& where) {
  const pb::Reflection* reflection = message.GetReflection();
  if (!reflection->GetUnknownFields(message).empty()) {
    where = message.GetDescriptor()->full_name();
    return false;
  }
  std::vector<const pb::FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (field->is_repeated()) {
      for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
        if (!no_unknown_fields(reflection->GetRepeatedMessage(message, field, i), where)) {
          return false;
        }
      }
    } else if (!no_unknown_fields(reflection->GetMessage(message, field), where)) {
      return false;
    }
  }
  return true;
}

std::string deterministic_bytes(const pb::Message& message) {
  std::string out;
  {
    pb::io::StringOutputStream stream(&out);
    pb::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }
  return out;
}

}  // namespace

TEST_CASE("every registered ruleset's views are canonical messages of its View") {
  const auto registry = duelhall::engine::builtin_registry();
  REQUIRE_FALSE(registry.all().empty());
  for (const auto& info : registry.all()) {
    INFO("ruleset " << info.name << " view " << info.view_message);
    const pb::Descriptor* descriptor =
        pb::DescriptorPool::generated_pool()->FindMessageTypeByName(info.view_message);
    REQUIRE(descriptor != nullptr);
    const pb::Message* prototype =
        pb::MessageFactory::generated_factory()->GetPrototype(descriptor);
    REQUIRE(prototype != nullptr);
    std::unique_ptr<pb::Message> parsed(prototype->New());
    long long views = 0;
    duelhall::testing::play_random_games(
        registry, info, 12, 1000, [&](const duelhall::testing::ViewStep& step) {
          for (const Viewer& viewer : duelhall::testing::all_viewers(step.state)) {
            const std::string bytes = step.state.view(viewer);
            INFO("step " << step.step << " viewer " << duelhall::engine::to_string(viewer));
            parsed->Clear();
            REQUIRE(parsed->ParseFromString(bytes));
            std::string where;
            REQUIRE(no_unknown_fields(*parsed, where));
            REQUIRE(deterministic_bytes(*parsed) == bytes);
            ++views;
          }
        });
    CHECK(views > 100);
  }
}
