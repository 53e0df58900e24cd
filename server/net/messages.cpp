#include "net/messages.hpp"

#include "metrics/server_metrics.hpp"

namespace duelhall::server {

Frame frame_of(const ServerMessage& message) {
  auto bytes = std::make_shared<std::string>();
  message.SerializeToString(bytes.get());
  return bytes;
}

ServerMessage reply(uint64_t request_id, ResultCode code, std::string reason) {
  ServerMessage m;
  m.set_request_id(request_id);
  m.set_result(code);
  count_refusal(code);
  if (!reason.empty()) m.set_reason(std::move(reason));
  return m;
}

void count_refusal(ResultCode code) {
  if (code != OK) metrics::server_metrics().refusal(code, to_string(code)).add();
}

ResultCode result_of(engine::RefusalCode code) {
  switch (code) {
    case engine::RefusalCode::kNone:
      return OK;
    case engine::RefusalCode::kNoSuchSeat:
      return NO_SUCH_SEAT;
    case engine::RefusalCode::kNotYourDecision:
      return NOT_YOUR_DECISION;
    case engine::RefusalCode::kMatchOver:
      return MATCH_OVER;
    case engine::RefusalCode::kMalformed:
      return MALFORMED_ACTION;
    case engine::RefusalCode::kIllegal:
      return ILLEGAL_ACTION;
  }
  return ILLEGAL_ACTION;
}

void fill_ruleset(const engine::RulesetInfo& info, duelhall::RulesetInfo& out, bool with_book) {
  out.set_name(info.name);
  out.set_display_name(info.display_name);
  out.set_summary(info.summary);
  out.set_min_seats(static_cast<uint32_t>(info.min_seats));
  out.set_max_seats(static_cast<uint32_t>(info.max_seats));
  for (const engine::ParamSpec& spec : info.params) {
    ParamInfo* p = out.add_params();
    p->set_name(spec.name);
    p->set_description(spec.description);
    p->set_kind(spec.kind == engine::ParamSpec::Kind::kInt ? ParamInfo::INT : ParamInfo::CHOICE);
    p->set_default_int(static_cast<int32_t>(spec.default_int));
    p->set_min(static_cast<int32_t>(spec.min));
    p->set_max(static_cast<int32_t>(spec.max));
    for (const auto& c : spec.choices) p->add_choices(c);
  }
  out.set_view_message(info.view_message);
  for (const auto& level : info.bot_levels) out.add_bot_levels(level);
  out.set_takes_seat_options(static_cast<bool>(info.check_seat_option));
  out.set_has_phrase_book(info.phrases != nullptr);
  if (info.phrases && with_book) fill_phrase_book(*info.phrases, *out.mutable_phrases());
}

void fill_phrase_book(const engine::PhraseBook& book, duelhall::PhraseBook& out) {
  // Every template in order, the unused index 0 too, so that a phrase's id is its index.
  for (const std::string_view t : book.templates) out.add_templates(t.data(), t.size());
  for (const engine::PhraseList& list : book.lists) {
    PhraseList* l = out.add_lists();
    l->set_name(list.name.data(), list.name.size());
    for (const std::string_view e : list.entries) l->add_entries(e.data(), e.size());
  }
  // The engine writes a form's argument indices as digits; the wire has them as bytes.
  for (const engine::LabelForm& form : book.labels) {
    duelhall::LabelForm* f = out.add_labels();
    f->set_phrase(form.phrase);
    for (const char digit : form.args) f->mutable_args()->push_back(static_cast<char>(digit - '0'));
  }
}

const char* to_string(ResultCode code) {
  const std::string& name = ResultCode_Name(code);
  return name.empty() ? "UNKNOWN" : name.c_str();
}

}  // namespace duelhall::server
