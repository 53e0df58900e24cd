#include <catch2/catch.hpp>
#include <string_view>
#include <vector>

#include "core/action.hpp"
#include "core/event.hpp"
#include "core/phrase.hpp"

using namespace duelhall::engine;
using namespace std::string_view_literals;

namespace {

constexpr std::string_view kTemplates[] = {
    ""sv,
    "{s} plays {card} for {n}"sv,
    "{s} drew {card*}"sv,
    "nothing to fill"sv,
    "{s} {missing}"sv,
    "{s} unclosed {n"sv,
};
constexpr std::string_view kCards[] = {"no card"sv, "A♠"sv, "10♥"sv, "Joker"sv};
constexpr PhraseList kLists[] = {{"card", kCards}};
constexpr PhraseBook kBook{kTemplates, kLists};

}  // namespace

TEST_CASE("A phrase renders each slot kind from its arguments in order") {
  CHECK(render(kBook, Phrase(1).seat(2).entry(2).number(-7)) == "@2 plays 10♥ for -7");
  CHECK(render(kBook, Phrase(3)) == "nothing to fill");
  std::vector<int> drawn{1, 3, 2};
  CHECK(render(kBook, Phrase(2).seat(0).entries(drawn, [](int c) { return c; })) ==
        "@0 drew A♠, Joker, 10♥");
  CHECK(render(kBook, Phrase(2).seat(1).entries(std::vector<int>{3}, [](int c) { return c; })) ==
        "@1 drew Joker");
  CHECK(render(kBook, Phrase(2).seat(1).entries(std::vector<int>{}, [](int c) { return c; })) ==
        "@1 drew ");
}

TEST_CASE("A phrase that does not fit the book renders nothing") {
  CHECK(render(kBook, Phrase()) == "");                               // id 0: no phrase
  CHECK(render(kBook, Phrase(99).seat(0)) == "");                     // no such template
  CHECK(render(kBook, Phrase(1).seat(0).entry(1)) == "");             // an argument missing
  CHECK(render(kBook, Phrase(3).number(1)) == "");                    // an argument too many
  CHECK(render(kBook, Phrase(1).seat(0).entry(4).number(1)) == "");   // entry out of range
  CHECK(render(kBook, Phrase(1).seat(-1).entry(1).number(1)) == "");  // no seat -1
  CHECK(render(kBook, Phrase(4).seat(0).entry(0)) == "");             // no list named missing
  CHECK(render(kBook, Phrase(5).seat(0).number(1)) == "");            // a slot left open
  CHECK(render(kBook, Phrase(2).seat(0).number(-1)) == "");           // a negative count
}

TEST_CASE("A phrase with more arguments than fit becomes no phrase") {
  std::vector<int> many(Phrase::kMaxArgs, 1);
  const Phrase phrase = Phrase(2).seat(0).entries(many, [](int c) { return c; });
  CHECK(!phrase);
  CHECK(phrase.id() == 0);
}

TEST_CASE("A private event said as phrases gives each viewer the phrase of the text it sees") {
  const Event e =
      Event::said_to(kBook, SeatMask::only(1), Phrase(1).seat(1).entry(1).number(3), Phrase(3));
  CHECK(e.text == "@1 plays A♠ for 3");
  CHECK(e.redacted == "nothing to fill");
  CHECK(*e.phrase_for(Viewer::of_seat(1)) == e.phrase);
  CHECK(*e.phrase_for(Viewer::of_seat(0)) == e.redacted_phrase);
  CHECK(*e.phrase_for(Viewer::spectator()) == e.redacted_phrase);
  CHECK(*e.phrase_for(Viewer::omniscient()) == e.phrase);
  const Event hidden = Event::said_to(kBook, SeatMask::only(1), Phrase(3));
  CHECK(hidden.redacted.empty());
  CHECK(hidden.phrase_for(Viewer::of_seat(0)) == nullptr);
  CHECK(hidden.text_for(Viewer::of_seat(0)) == std::nullopt);
}

namespace {

// Kind 1: "{s} plays {card} for {n}" with the seat in argument 2, the card in 0 and the number
// in 1; kind 2 has no form; kind 3 names an argument past the seven.
constexpr LabelForm kForms[] = {{}, {1, "201"}, {}, {3, "7"}};
constexpr PhraseBook kBookWithLabels{kTemplates, kLists, kForms};

}  // namespace

TEST_CASE("A label form fills its template's slots with the action's arguments it names, in order") {
  const Phrase phrase = label_phrase(kBookWithLabels, Action::make(1, 3, 9, 1));
  CHECK(phrase.id() == 1);
  CHECK(std::vector<int32_t>(phrase.args().begin(), phrase.args().end()) ==
        std::vector<int32_t>{1, 3, 9});
  CHECK(render(kBookWithLabels, phrase) == "@1 plays Joker for 9");
  CHECK(!label_phrase(kBookWithLabels, Action::make(2, 1)));  // a kind without a form
  CHECK(!label_phrase(kBookWithLabels, Action::make(4)));     // past the forms
  CHECK(!label_phrase(kBookWithLabels, Action::make(3)));     // argument 7 does not exist
  CHECK(!label_phrase(kBook, Action::make(1, 3, 9, 1)));      // a book without forms
}
