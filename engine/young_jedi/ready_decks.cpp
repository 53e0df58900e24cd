// The ready decks (ruling Y1): two per side, each able to duel (dueling characters, lightsabers
// they can use, and "When dueling" battle cards). tests/engine/young_jedi validates every one.
#include "young_jedi/deck.hpp"

namespace duelhall::engine::young_jedi {
namespace {

constexpr const char* kLightMasters =
    R"(# Light Side: Jedi Masters (red 10, blue 7, orange 10, yellow 10, green 3)
2 Obi-Wan Kenobi, Jedi Student
2 Qui-Gon Jinn, Jedi Mentor
1 Adi Gallia, Corellian Jedi Master
1 Eeth Koth, Zabrak Jedi Master
1 Mace Windu, Jedi Master
1 Ki-Adi-Mundi, Cerean Jedi Knight
2 Obi-Wan Kenobi, Jedi Knight
2 Yoda, Jedi Philosopher
2 Anakin Skywalker, Rookie Pilot
1 Yoda, Jedi Master
2 Yaddle, Jedi Master
3 Obi-Wan Kenobi's Lightsaber
2 Qui-Gon Jinn's Lightsaber
2 Qui-Gon Jinn's Lightsaber, Wielded by Obi-Wan Kenobi
1 Adi Gallia's Lightsaber
1 Eeth Koth's Lightsaber
1 Jedi Lightsaber, Constructed by Ki-Adi-Mundi
3 A Powerful Opponent
3 Critical Confrontation
4 You Are Strong With The Force
2 R2-D2, Repair Droid
1 R2-D2, The Queen's Hero
)";

constexpr const char* kLightCouncil =
    R"(# Light Side: the Jedi Council (red 10, blue 7, orange 10, yellow 10, green 3)
2 Qui-Gon Jinn, Jedi Protector
2 Mace Windu, Senior Jedi Council Member
1 Mace Windu, Jedi Speaker
2 Obi-Wan Kenobi, Jedi Apprentice
1 Depa Billaba, Jedi Master
1 Even Piell, Lannik Jedi Master
1 Plo Koon, Jedi Master
2 Yoda, Jedi Elder
1 Anakin Skywalker, Podracer Pilot
1 Anakin Skywalker, Child of Prophecy
1 Anakin Skywalker, Padawan
2 Yaddle, Jedi Master
3 Qui-Gon Jinn's Lightsaber
3 Mace Windu's Lightsaber
2 Obi-Wan Kenobi's Lightsaber
2 Qui-Gon Jinn's Lightsaber, Wielded by Obi-Wan Kenobi
4 A Powerful Opponent
3 Critical Confrontation
3 You Are Strong With The Force
1 R2-D2, Astromech Droid
2 R2-D2, Loyal Droid
)";

constexpr const char* kDarkSith =
    R"(# Dark Side: the Sith (red 10, orange 10, yellow 10, blue 8, green 2)
2 Darth Maul, Student of the Dark Side
2 Darth Maul, Master of Evil
1 Darth Sidious, Master of the Dark Side
2 Darth Sidious, Sith Manipulator
2 Aurra Sing, Trophy Collector
1 Aurra Sing, Bounty Hunter
2 Trade Federation Tank, Patrol Division
2 Sith Lightsaber
2 3_110
3 Darth Maul's Lightsaber
1 3_109
2 Jedi Lightsaber, Stolen by Aurra Sing
2 Change In Tactics
3 Dangerous Encounter
2 Darth Maul Defiant
1 Power Of The Sith
2 To The Death
2 Nute Gunray, Neimoidian Viceroy
2 Rune Haako, Neimoidian Advisor
2 Destroyer Droid, Battleship Security
2 Sith Probe Droid, Hunter Droid
)";

constexpr const char* kDarkHunters =
    R"(# Dark Side: hunters and droids (red 10, orange 10, yellow 10, blue 8, green 2)
2 Darth Maul, Sith Apprentice
1 Darth Maul, Sith Lord
2 Darth Sidious, Sith Master
2 Darth Sidious, Lord of the Sith
2 Aurra Sing, Mercenary
1 Aurra Sing, Trophy Collector
2 Destroyer Droid, MTT Infantry
3 Sith Lightsaber
3 Darth Maul's Lightsaber
2 3_109
2 Jedi Lightsaber, Stolen by Aurra Sing
3 Dangerous Encounter
2 Darth Maul Defiant
2 Power Of The Sith
3 To The Death
2 Battle Droid: Officer, Assault Division
2 Trade Federation Tank, Assault Division
2 Sebulba, Podracer Pilot
2 Battle Droid: Infantry, AAT Division
)";

constexpr ReadyDeck kReadyDecks[] = {
    {"Jedi Masters", Side::kLight, kLightMasters},
    {"Jedi Council", Side::kLight, kLightCouncil},
    {"The Sith", Side::kDark, kDarkSith},
    {"Hunters and Droids", Side::kDark, kDarkHunters},
};

}  // namespace

std::span<const ReadyDeck> ready_decks() {
  return kReadyDecks;
}

}  // namespace duelhall::engine::young_jedi
