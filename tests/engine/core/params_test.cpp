#include <catch2/catch.hpp>

#include "core/params.hpp"

using namespace duelhall::engine;

TEST_CASE("Params fill defaults and refuse bad values with a reason") {
  std::vector<ParamSpec> specs{ParamSpec::integer("rounds", "round limit", 0, 0, 100),
                               ParamSpec::choice("level", "competency", {"learner", "initiate"})};
  Params p;
  std::string error;
  REQUIRE(Params::resolve(specs, {}, p, error));
  CHECK(p.get_int("rounds") == 0);
  CHECK(p.get_choice("level") == "learner");
  REQUIRE(Params::resolve(specs, {{"rounds", "12"}, {"level", "initiate"}}, p, error));
  CHECK(p.get_int("rounds") == 12);
  CHECK_FALSE(Params::resolve(specs, {{"rounds", "101"}}, p, error));
  CHECK(error.find("0 to 100") != std::string::npos);
  CHECK_FALSE(Params::resolve(specs, {{"rounds", "1x"}}, p, error));
  CHECK_FALSE(Params::resolve(specs, {{"level", "master"}}, p, error));
  CHECK_FALSE(Params::resolve(specs, {{"colour", "red"}}, p, error));
  CHECK(error == "unknown parameter 'colour'");
}
