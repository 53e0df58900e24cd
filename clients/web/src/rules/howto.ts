// "How to play" for players, one short page per ruleset: the goal, a turn, and the words the
// board and the action buttons use. Game facts only, from docs/rules/*.md (the full rules with
// every ruling); the numbers there are the defaults a host may change.

export interface HowTo {
  title: string;
  goal: string;
  sections: { heading: string; points: string[] }[];
  board: string; // what the match screen shows, in the board's own terms
}

export const HOW_TO: { [ruleset: string]: HowTo } = {
  jedi_duel: {
    title: "Jedi Duel",
    goal: "Played with a deck of 52 cards and two Jokers, 2 to 6 players. Everyone starts with 21 " +
      "fatigue. A player at 0 is out; the last player with fatigue left wins. When the deck has been " +
      "gone through as many times as there are players, the most fatigue wins.",
    sections: [
      { heading: "Your turn", points: [
        "Stance: put a card from your hand face up as your new Stance. Its suit sets your area: " +
          "\u2666 High, \u2665 Middle, \u2660 Low. A \u2663 can go to any area you name.",
        "Action: attack one opponent, use a Force power, cast Force Lightning, or discard a card to regain fatigue.",
        "Draw two cards (in \u2660 Low Stance draw three and put one back on the deck).",
      ] },
      { heading: "Attacking and defending", points: [
        "Attack with a card from 1 to 10: its rank is its speed, +1 into your own area, +2 into another area.",
        "The defence is the defender's Stance rank, plus 2 when Middle is attacked away from it, plus 3 or 5 for High or Low " +
          "one or two steps away. The attack hits when its total is lower than the defence and takes the difference " +
          "from the defender's fatigue; equal or higher does nothing.",
        "The defender may discard a \u2663 to use its rank as the whole defence, or discard a royal of the Stance suit " +
          "(Force Defence) to stop the attack; then a defender lower on the fatigue track may fumble the attacker's Stance.",
      ] },
      { heading: "Force powers (royals of your Stance suit, or \u2663 royals)", points: [
        "Jack, Force Heal: your fatigue goes to the top of its column.",
        "Queen, Force Push: attacks on you do nothing until your next turn (unless the attacker is in \u2666 High).",
        "King, Force Sense: see an opponent's hand and swap one card with it.",
        "Force Lightning (from Middle or Low, four royals or both Jokers) and a Joker attack send opponents to the bottom of their column.",
      ] },
    ],
    board: "Each player's panel shows the Stance card, the fatigue track in columns of 7 (the highlighted cell is " +
      "the current fatigue) and the hand. The piles show the deck, the discard pile and how many passes through the deck are done.",
  },
  young_jedi: {
    title: "Young Jedi: Duel of the Fates",
    goal: "Two players, Light Side (seat 0) against Dark Side (seat 1), each with a deck of 40 to 60 " +
      "cards. You lose when you must draw or discard from an empty draw deck, so damage (cards " +
      "discarded from the top of your deck) is what wins.",
    sections: [
      { heading: "Your turn", points: [
        "Deploy: spend up to 6 deploy counters to put characters and weapons from your hand into play.",
        "Some characters deployed to the duel's planet let you search your draw deck for a card they name and deploy it, " +
          "paying its counters; the deck is reshuffled, and deploying nothing costs 1 damage.",
        "Duel (optional): pick one of your dueling characters (a Jedi, or Darth Maul, Darth Sidious, Aurra Sing) " +
          "with a lightsaber it can use, and an opposing character to fight.",
        "Draw one card.",
      ] },
      { heading: "A duel", points: [
        "Each side draws a dueling hand: as many cards as its character's power (plus weapon bonuses).",
        "The attacker plays a card: its destiny number is the attack. The other may block with a card of the same destiny, " +
          "which becomes the next attack, or take the hit.",
        "A character with hits equal to its DAMAGE is defeated; its player then discards that many cards from the deck.",
        "Some cards have a \u201cwhen dueling\u201d text you may use when they score a hit.",
      ] },
    ],
    board: "The planet sits at the top. Each side shows its deck, hand and discard counts, the cards in play, " +
      "and during a duel the dueling hand (yours face up, the other's as a count), the cards played and the hit tokens.",
  },
  force_battles: {
    title: "Force Battles",
    goal: "A dice duel between two bodies of Force counters. Maim a body part of your opponent " +
      "(hit it for more damage than it holds counters), or empty the spheres around one of their " +
      "targets. A Light player also wins by converting the Dark player.",
    sections: [
      { heading: "Setting up (secret until both confirm)", points: [
        "Choose your side (Light or Dark), your hand, and a colour (Dark plays red; Light never red).",
        "Place counters: 1 to 4 in each of the seven spheres (21 in all for a learner), some in ATT and DEF " +
          "(10 at most together), and the rest in GEAS slots or the pool.",
        "The suggested setup puts 3 in every sphere: accept it with one click or change any number first.",
      ] },
      { heading: "A round", points: [
        "Both may use Hide or Speed, then roll for initiative; the winner attacks or declines.",
        "The attacker's target is rolled (or chosen in the first round); counters can be pulled from spheres next to a target into it.",
        "Both roll two dice: the attack hits at or under ATT + the counters in the attacker's hand target, the block holds " +
          "at or under DEF + the counters in the attacked target; a Hit or Block Die of 11 or more always misses.",
        "An unblocked hit deals one die of damage to the target; a miss against a block lets the defender regain counters.",
      ] },
    ],
    board: "Each body shows six targets (squares) and seven spheres (circles) with their counters, ATT, DEF, the " +
      "pool and the GEAS slots; discs in the other player's colour are counters given or taken.",
  },
};

// A term the action labels use, explained in plain words. Keys match whole words of a label.
export interface Term {
  term: RegExp;
  name: string;
  hint: string;
}

export const TERMS: { [ruleset: string]: Term[] } = {
  jedi_duel: [
    { term: /\bStance\b/, name: "Stance", hint: "the face-up card that sets your area (High, Middle or Low) and your defence" },
    { term: /\bHigh\b/, name: "High", hint: "\u2666 area: Force powers and Force Defence do not work against you there" },
    { term: /\bMiddle\b/, name: "Middle", hint: "\u2665 area: attacks into it get +2 defence when it is not the defender's" },
    { term: /\bLow\b/, name: "Low", hint: "\u2660 area: you draw three and put one back" },
    { term: /fatigue/, name: "fatigue", hint: "your life: at 0 you are out; discarding a card regains 1 or 2" },
    { term: /Force Heal/, name: "Force Heal", hint: "Jack: your fatigue to the top of its column" },
    { term: /Force Push/, name: "Force Push", hint: "Queen: attacks on you do nothing until your next turn" },
    { term: /Force Sense/, name: "Force Sense", hint: "King: see a hand and swap one card with it" },
    { term: /Force Lightning/, name: "Force Lightning", hint: "four royals or both Jokers: every opponent to the bottom of the column" },
    { term: /Force Defence/, name: "Force Defence", hint: "discard a royal of your Stance suit to stop the attack" },
    { term: /fumble/, name: "fumble", hint: "swap the attacker's Stance card for one from your hand" },
    { term: /\bJoker\b/, name: "Joker", hint: "an attack that sends the target to the bottom of the column" },
    { term: /take it/, name: "take it", hint: "no defence: the attack is resolved as it stands" },
  ],
  young_jedi: [
    { term: /\bdeploy/, name: "deploy", hint: "put a card into play, paying its deploy counters (6 a turn)" },
    { term: /\bduel\b/, name: "duel", hint: "a fight between two characters with dueling hands" },
    { term: /destiny/, name: "destiny", hint: "the number on a card: the attack a dueling card makes, blocked by an equal number" },
    { term: /\bblock\b/, name: "block", hint: "answer an attack with a card of the same destiny" },
    { term: /take the hit/, name: "take the hit", hint: "your character gets a hit token; you attack next" },
    { term: /dueling text/, name: "dueling text", hint: "a card's \u201cwhen dueling\u201d bonus after it scores a hit" },
    { term: /\bconcede\b/, name: "concede", hint: "give up the game (only in your deploy step)" },
    { term: /from your draw deck/, name: "from your draw deck", hint: "a search your card's text allows; the deck is reshuffled after it, and deploying nothing costs 1 damage" },
  ],
  force_battles: [
    { term: /sphere/, name: "sphere", hint: "one of your seven circles of counters; an empty one next to a target loses" },
    { term: /\bHL\b|\bHR\b/, name: "HL, HR", hint: "the spheres at the head's left and right" },
    { term: /\bLT\b|\bRT\b/, name: "LT, RT", hint: "the spheres at the torso's left and right" },
    { term: /\bLL\b|\bRL\b/, name: "LL, RL", hint: "the spheres above the left and right leg" },
    { term: /\bATT\b/, name: "ATT", hint: "attack: added to the counters in your hand target, the hit roll must be at or under it" },
    { term: /\bDEF\b/, name: "DEF", hint: "defence: added to the counters in the attacked target, the block roll must be at or under it" },
    { term: /GEAS/, name: "GEAS", hint: "a Force ability (Hide, Speed, Push...): its counters are spent to use it" },
    { term: /\bpool\b/, name: "pool", hint: "spare counters: regains and rewards come from it" },
    { term: /stance/, name: "stance", hint: "how your counters are spread over the seven spheres" },
    { term: /\btarget\b/, name: "target", hint: "the body part attacked: head, arms, torso or legs" },
    { term: /\bkick\b/, name: "kick", hint: "attack a leg: a hit wins the next initiative instead of damage" },
    { term: /Dark [Ss]ide|Light [Ss]ide/, name: "side", hint: "Dark plays red and may take counters; Light never plays red" },
    { term: /\bHide\b/, name: "Hide (GEAS)", hint: "the opponent may use no GEAS but Speed this round" },
    { term: /\bSpeed\b/, name: "Speed (GEAS)", hint: "win the initiative (both Speed: roll)" },
    { term: /\bSight\b/, name: "Sight (GEAS)", hint: "the attacker names the target freely" },
    { term: /Mind Trick/, name: "Mind Trick (GEAS)", hint: "the defender names the target" },
    { term: /\bJump\b/, name: "Jump (GEAS)", hint: "the attacker misses without rolling" },
    { term: /\bPush\b/, name: "Push (GEAS)", hint: "both miss: no rolls, the round ends as a double botch" },
    { term: /\bPull\b/, name: "Pull (GEAS)", hint: "hit and block, no rolls: nothing happens" },
    { term: /Lightning Absorb/, name: "Lightning Absorb (GEAS, Light)", hint: "each counter stops 1 of a Lightning throw" },
    { term: /Lightning(?! Absorb)/, name: "Lightning (GEAS, Dark)", hint: "throw 1-4 counters at a sphere: each drains 1 to the victim's pool" },
    { term: /\bHeal\b/, name: "Heal (GEAS, Light)", hint: "all spheres back to 3 from the pool, instead of the regain" },
    { term: /\bChoke\b/, name: "Choke (GEAS, Dark)", hint: "on a hit, drains a die from the center, then the head" },
    { term: /\bProtect\b/, name: "Protect (GEAS, Light)", hint: "counters into the target, +1 DEF each, no automatic miss at 11+" },
    { term: /\bRage\b/, name: "Rage (GEAS, Dark)", hint: "counters into the attacking target, +1 ATT each, no automatic miss at 11+" },
  ],
};
