// The friends room's door: the handlers the dispatcher routes the hall's challenge, follow and
// TV commands to (hall.proto). Each reaches the room through its host.
#pragma once

#include "envelope.pb.h"
#include "friends/friends_host.hpp"
#include "hall/call.hpp"

namespace duelhall::server {

Handled handle_challenge(FriendsHost& hub, Call& call, const Challenge& request);
Handled handle_answer_challenge(FriendsHost& hub, Call& call, const AnswerChallenge& request);
Handled handle_cancel_challenge(FriendsHost& hub, Call& call, const CancelChallenge& request);
Handled handle_follow(FriendsHost& hub, Call& call, const Follow& request);
Handled handle_unfollow(FriendsHost& hub, Call& call, const Unfollow& request);
Handled handle_get_followed(FriendsHost& hub, Call& call);
Handled handle_get_tv(FriendsHost& hub, Call& call, const GetTv& request);
Handled handle_list_online(FriendsHost& hub, Call& call, const ListOnline& request);

}  // namespace duelhall::server
