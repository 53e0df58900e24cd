#include "friends/friends_handlers.hpp"

#include "friends/friends_room.hpp"

namespace duelhall::server {

Handled handle_challenge(FriendsHost& hub, Call& call, const Challenge& request) {
  return hub.friends().challenge(call, request);
}

Handled handle_answer_challenge(FriendsHost& hub, Call& call, const AnswerChallenge& request) {
  return hub.friends().answer(call, request);
}

Handled handle_cancel_challenge(FriendsHost& hub, Call& call, const CancelChallenge& request) {
  return hub.friends().cancel(call, request);
}

Handled handle_follow(FriendsHost& hub, Call& call, const Follow& request) {
  return hub.friends().follow(call, request.name(), true);
}

Handled handle_unfollow(FriendsHost& hub, Call& call, const Unfollow& request) {
  return hub.friends().follow(call, request.name(), false);
}

Handled handle_get_followed(FriendsHost& hub, Call& call) {
  return hub.friends().get_followed(call);
}

Handled handle_get_tv(FriendsHost& hub, Call& call, const GetTv& request) {
  return hub.friends().get_tv(call, request);
}

Handled handle_list_online(FriendsHost& hub, Call& call, const ListOnline& request) {
  return hub.friends().list_online(call, request);
}

}  // namespace duelhall::server
