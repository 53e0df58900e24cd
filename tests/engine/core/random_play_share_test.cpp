#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <string>

#include "harness/random_play.hpp"

using duelhall::testing::scaled_games;

namespace {

// Sets DUELHALL_RANDOM_PLAY_SHARE for one scope and puts back what was there.
class ShareForScope {
 public:
  explicit ShareForScope(const char* share) {
    if (const char* was = std::getenv(kName)) was_ = was;
    if (share) {
      setenv(kName, share, 1);
    } else {
      unsetenv(kName);
    }
  }
  ~ShareForScope() {
    if (was_) {
      setenv(kName, was_->c_str(), 1);
    } else {
      unsetenv(kName);
    }
  }
  ShareForScope(const ShareForScope&) = delete;
  ShareForScope& operator=(const ShareForScope&) = delete;

 private:
  static constexpr const char* kName = "DUELHALL_RANDOM_PLAY_SHARE";
  std::optional<std::string> was_;
};

}  // namespace

TEST_CASE("random play share: the sanitizer runs' share plays that part of the games, at least one") {
  {
    ShareForScope unset(nullptr);
    CHECK(scaled_games(2000) == 2000);
  }
  ShareForScope quarter("0.25");
  CHECK(scaled_games(2000) == 500);
  CHECK(scaled_games(100) == 25);
  CHECK(scaled_games(2) == 1);
}

TEST_CASE("random play share: a share that means nothing plays every game") {
  for (const char* share : {"", "0", "-1", "1.5", "many"}) {
    ShareForScope odd(share);
    INFO("share '" << share << "'");
    CHECK(scaled_games(300) == 300);
  }
}
