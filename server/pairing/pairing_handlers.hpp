// The pairing room's door (docs/protocol.md, docs/pairing.md): the handlers the dispatcher routes
// Seek, CancelSeek, OfferRematch and AnswerRematch to. The room itself is pairing_room.hpp.
#pragma once

#include "hall/call.hpp"
#include "pairing/pairing_room.hpp"

namespace duelhall::server {

inline Handled handle_seek(PairingRoom& room, Call& call, const Seek& request) {
  return room.seek(call, request);
}
inline Handled handle_cancel_seek(PairingRoom& room, Call& call) {
  return room.cancel(call);
}
inline Handled handle_offer_rematch(PairingRoom& room, Call& call, const OfferRematch& request) {
  return room.offer_rematch(call, request);
}
inline Handled handle_answer_rematch(PairingRoom& room, Call& call, const AnswerRematch& request) {
  return room.answer_rematch(call, request);
}

}  // namespace duelhall::server
