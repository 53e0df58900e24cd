// The book is constant data: string_views into literals and into board.hpp's name tables.
#include "force_battles/phrases.hpp"

#include <iterator>
#include <string_view>

#include "force_battles/board.hpp"

namespace duelhall::engine::force_battles {
namespace {

constexpr std::string_view kTemplates[] = {
    "",
    "{s} chose the {side} side",
    "{s} chose {hand}-handed",
    "{s} chose {colour}",
    "{s} chose {n} in sphere {sphere}",
    "{s} chose {n} in ATT",
    "{s} chose {n} in DEF",
    "{s} chose {n} in {geas}",
    "{s} chose {geas} as the free GEAS",
    "{s} chose confirm the setup",
    "{s} made a setup choice",
    "both setups are revealed",
    "{s}: {side} side, {hand}-handed, {colour}, ATT {n}, DEF {n}, spheres {n} {n} {n} {n} {n} {n} "
    "{n}",
    "{s}: {side} side, {hand}-handed, {colour}, ATT {n}, DEF {n}, spheres {n} {n} {n} {n} {n} {n} "
    "{n}, free {geas}",
    "round {n}",
    "{s} rolled {n} for {roll}",
    "{s} rolled {n}+{n}={n} for attack (Hit Die {n})",
    "{s} rolled {n}+{n}={n} for defence (Block Die {n})",
    "{s} has initiative from the kick",
    "{s} wins initiative with Speed",
    "{s} wins initiative",
    "{s} defended last and must attack",
    "{s} has the higher ATT and must attack",
    "{s} attacks",
    "{s} declines to attack; {s} must attack",
    "the attack goes to the {target}",
    "{s} moves the attack through {sphere} to the {target}",
    "{s} names the {target} as the target",
    "{s} pulls {n} from {sphere} into the {target}",
    "{s} kicks with the {target}",
    "{s} blocks with {n}",
    "{s} attacks with {n}",
    "{s} uses {geas}",
    "{s} uses {geas} x{n}",
    "{s} uses {geas} (free)",
    "{s} uses {geas} x{n} (free)",
    "the Lightning is directed to {sphere}",
    "Lightning drains {n} from {s}'s spheres",
    "hit, blocked",
    "hit, block fails",
    "miss, blocked",
    "miss, block fails",
    "the Choke does nothing without a rolled hit",
    "{s} kicks {s} successfully",
    "{s} loses {n} at the {target}",
    "{s} loses {n} to the choke at the {target}",
    "{s} takes red counters and turns to the Dark Side",
    "{s} gives 1 FORCE POWER to {s}'s center sphere instead of rolling to block",
    "{s} regains {n}",
    "{s} regains {n} from {s}'s FORCE POOL",
    "{s} places {n} in {sphere}",
    "{s} puts {n} in the FORCE POOL",
    "{s} chooses a new stance",
    "{s} takes 1 red FORCE POWER from {s}'s FORCE POOL",
    "{s} takes 1 FORCE POWER from {s}",
    "{s} keeps the stance",
    "{s}'s {target} is maimed; {s} wins",
    "the round limit is reached with equal counts: a draw ({n} to {n})",
    "the round limit is reached; {s} has more counters out ({n} to {n})",
    "{s} turns to the Light Side; {s} wins by conversion",
    "every sphere around {s}'s {target} is drained; {s} wins",
    "both boards have a target with no FORCE POWER around it: a draw",
    "every sphere around {s}'s {target} is empty; {s} wins",
};
static_assert(std::size(kTemplates) == kSaidCount);

constexpr std::string_view kSideNames[] = {"Light", "Dark"};  // by Side
constexpr std::string_view kHandNames[] = {"left", "right"};  // by Hand
constexpr std::string_view kRollNames[] = {"initiative", "target", "choke", "damage", "regain"};

constexpr PhraseList kLists[] = {
    {"target", kTargetNames}, {"sphere", kSphereNames}, {"geas", kGeasNames},
    {"colour", kColourNames}, {"side", kSideNames},     {"hand", kHandNames},
    {"roll", kRollNames},
};

constexpr PhraseBook kBook{kTemplates, kLists};

}  // namespace

const PhraseBook& phrase_book() {
  return kBook;
}

std::string_view roll_name(RollFor what) {
  return kRollNames[static_cast<size_t>(what)];
}

}  // namespace duelhall::engine::force_battles
