#!/usr/bin/env python3
"""Builds the Young Jedi card catalogue (game facts only) from ../shared/data/young-jedi.

Reads cards/<set>/index.csv, applies the fixes listed in FIXES (every known data error of the
data README plus the FAQ's card corrections), and writes
  engine/young_jedi/catalogue_data.inc   the compiled-in table (no lore, no flavour, no images)
  docs/young-jedi-catalogue.md           provenance, counts and the list of fixes

Usage: tools/young_jedi_catalogue.py [path/to/shared/data/young-jedi]
Standard library only; the output is deterministic.
"""
import csv
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETS = [  # folder, set number in the ids
    ("menaceofdarthmaul", 1), ("thejedicouncil", 2), ("battleofnaboo", 3),
    ("enhancedmenaceofdarthmaul", 4), ("duelofthefates", 5), ("enhancedbattleofnaboo", 6),
    ("reflections", 7), ("boontaevepodrace", 8), ("sampledeck", 0), ("vset1", 101),
]
KEPT_TYPES = {"character", "weapon", "battle"}
COLOURS = ["red", "orange", "blue", "yellow", "green", "purple"]
PLACEHOLDERS = {"", "0", "na", "none", "not available", '"blank"', "blank", "heroku", "lore",
                "who", "weapon"}

# Text typos of the source, fixed wherever they appear before any text is interpreted.
TYPOS = [("Trey How", "Tey How"), ("Voda", "Yoda"), ("Death Sidious", "Darth Sidious"),
         ("Dartg Maul", "Darth Maul"), ("poewr", "power"), ("si less", "is less"),
         ("battele droid", "battle droid"), ("Neimoidean", "Neimoidian"), ("\ufeff", ""),
         ("Rune Haaka", "Rune Haako"), ("you maw deploy", "you may deploy")]

FIXES = []  # (card id, what was wrong, what the catalogue holds); filled while fixing


def fix(card, what, to):
    FIXES.append((card["id"], what, to))


def clean(text):
    text = text.strip()
    for wrong, right in TYPOS:
        text = text.replace(wrong, right)
    return text


def is_placeholder(text):
    return text.strip().lower() in PLACEHOLDERS or text.strip().lower().startswith("http")


def number(text):
    text = text.strip()
    return int(text) if re.fullmatch(r"-?\d+", text) else None


def user_matcher(who, first_user):
    """Weapon user box -> matcher: alternatives joined by '|'; each 'name:X' (title before the
    comma), 'kw:X' (X in the title, FAQ: Jedi only if title or subtitle says so), '*' (any
    character), and 'other-' prefixes excluding the first box's users."""
    who = clean(who)
    if is_placeholder(who):
        return ""
    low = who.lower()
    if low.startswith("any "):
        rest = low[4:]
        other = rest.startswith("other ")
        if other:
            rest = rest[6:]
        prefix = "other-" if other else ""
        alts = []
        for part in re.split(r"\s+or\s+|,\s*", rest):
            part = part.strip().removeprefix("any ").strip()
            if part in ("character", "characters"):
                alts.append(prefix + "*")
            elif part:
                alts.append(prefix + "kw:" + part)
        return "|".join(alts)
    alts = []
    kinds = False  # "any" reaches the end of its list: "or any Nikto, Pacithhip, or Quarren"
    for part in re.split(r"\s+or\s+|\s+and\s+|,\s*", who):
        part = re.sub(r"^(or|and)\s+", "", part.strip(), flags=re.I)
        if part.lower().startswith("any "):
            kinds = True
            part = part[4:].strip()
        if part:
            alts.append("kw:" + part.lower() if kinds else "name:" + part)
    return "|".join(alts)


def not_in_duel(card, n, who_raw):
    """'(may not be used in a duel)' (the data also writes 'dual'): the box names its users, but
    never in a duel, the only place this ruleset uses a weapon: the matcher gets 'noduel:'."""
    m = re.search(r"\s*\(may not be used in a du[ae]l\)", who_raw, flags=re.I)
    if not m:
        return who_raw, False
    fix(card, f"user box {n} says '(may not be used in a duel)'",
        "its users marked noduel: (no use in a duel)")
    return who_raw[:m.start()] + who_raw[m.end():], True


def fit_user_box(card, n, who):
    """Drops the alternatives of a user box that name nobody of this ruleset's duels."""
    kept = []
    for alt in who.split("|") if who else []:
        if alt.endswith("fighting a tank"):
            # Booma: "or any other character fighting a Tank". Only dueling characters duel and
            # none is a tank, so the condition never holds here; "any other character" (box 2)
            # still covers the use, with its own dots.
            fix(card, f"user box {n}: 'any other character fighting a Tank'",
                "dropped (no tank ever duels)")
        elif "(except a character)" in alt:
            fix(card, f"user box {n}: garbled '{alt[3:]}' (excepts every character)",
                "dropped (no user)")
        else:
            kept.append(alt)
    return "|".join(kept)


def encode_effects(text):
    """Game text -> encoded effects of this ruleset (Y8): (kind, amount, matcher)."""
    t = clean(text).lower().replace("•", "").replace("  ", " ")
    out = []
    m = re.search(r"power bonus when (?:he|she) (?:is dueling|is fighting|fights) (.+?)\.", t + ".")
    if m:
        foe = m.group(1)
        if foe.startswith("any "):
            out.append(("kBonusWhenFighting", 2, "kw:" + foe[4:].strip()))
        else:
            out.append(("kBonusWhenFighting", 2,
                        "|".join("name:" + p.strip() for p in re.split(r"\s+or\s+", foe))))
    m = re.search(r"power bonus(?: and subtracts (\d) from his damage)? when (?:he|she) is using "
                  r"(.+?)\.", t + ".")
    if m:
        out.append(("kBonusWhenUsing", 2, weapon_matcher(m.group(2))))
        if m.group(1):
            out.append(("kDamageWhenUsing", -int(m.group(1)), weapon_matcher(m.group(2))))
    m = re.search(r"^subtracts (\d) from (?:his|her) damage when (?:he|she) is using (.+?)\.", t + ".")
    if m:
        out.append(("kDamageWhenUsing", -int(m.group(1)), weapon_matcher(m.group(2))))
    m = re.search(r"adds (\d) to the damage of each character he defeats", t)
    if m:
        out.append(("kAddsDamageToDefeated", int(m.group(1)), ""))
    if re.search(r"may use any sith lightsaber", t):
        out.append(("kMayUseSithLightsaber", 0, ""))
    if re.search(r"power bonus t?o any other jedi in a duel here", t):
        out.append(("kBonusToOtherJediInDuelHere", 2, "kw:jedi"))
    m = re.search(r"power bonus (?:if|when) (.+?) has fought this turn", t)
    if m:
        alts = []
        for p in re.split(r"\s+or\s+", m.group(1)):
            p = p.strip()
            alts.append("kw:" + p[4:] if p.startswith("any ") else "name:" + p)
        out.append(("kBonusIfFoughtThisTurn", 2, "|".join(alts)))
    if re.search(r"when she defeats a character, you may draw a card", t):
        out.append(("kDrawOnDefeat", 1, ""))
    # Y29: text that acts when he deploys to a planet (its name is the effect's fourth field).
    m = re.search(r"when (?:he|she|it) deploys to (tatooine|naboo|coruscant), your opponent takes "
                  r"(\d) damage", t)
    if m:
        out.append(("kOpponentDamageOnDeployTo", int(m.group(2)), "", m.group(1).title()))
    m = re.search(r"when (?:he|she|it) deploys to (tatooine|naboo|coruscant), you may draw one "
                  r"card", t)
    if m:
        out.append(("kMayDrawOnDeployTo", 1, "", m.group(1).title()))
    # Y29 with seed 001's "Deploying cards from your draw deck": the matcher names the characters
    # searched for ("one senator", "Rune Haako", "a musician, singer, or dancer").
    m = re.search(r"when (?:he|she|it) deploys to (tatooine|naboo|coruscant),? you may deploy "
                  r"(.+?) from your draw deck", t)
    if m:
        out.append(("kMayDeployFromDeckOnDeployTo", 1, searched_matcher(m.group(2)),
                    m.group(1).title()))
    return out


def searched_matcher(text):
    """"one senator" -> "kw:senator"; "rune haako" -> "name:rune haako"; "a musician, singer, or
    dancer" -> "kw:musician|kw:singer|kw:dancer". An article means a kind, else a name."""
    m = re.fullmatch(r"(?:one|a|an) (.+)", text.strip())
    if not m:
        return "name:" + text.strip()
    kinds = [k.strip() for k in re.split(r",\s*(?:or\s+)?|\s+or\s+", m.group(1)) if k.strip()]
    return "|".join("kw:" + k for k in kinds)


WEAPON_ALIASES = {"obi-wan's lightsaber": "Obi-Wan Kenobi's Lightsaber"}


def weapon_matcher(text):
    text = text.strip().rstrip(".")
    if text.startswith("any "):
        return "kw:" + text[4:]
    return "name:" + WEAPON_ALIASES.get(text, text)


DUELING_TEXTS = [  # "When dueling" text -> effect (Y7)
    ("this attack does one extra hit", "kExtraHit"),
    ("you may draw one card for your dueling hand", "kDrawOne"),
    ("you may discard this card to draw two cards", "kDiscardToDrawTwo"),
    ("you may remove one hit from your character", "kRemoveHit"),
    ("discard this card for this attack to do two extra hits", "kDiscardForTwoExtraHits"),
]


def read_rows(data):
    rows = []
    for folder, set_no in SETS:
        path = os.path.join(data, "cards", folder, "index.csv")
        with open(path, encoding="utf-8", newline="") as f:
            for r in csv.DictReader(f, delimiter="|"):
                r["_set"] = set_no
                r["_folder"] = folder
                rows.append(r)
    return rows


def build(data):
    by_id = {}
    cards = []
    for r in read_rows(data):
        kind = r["type"].strip().lower()
        card = {"id": r["gempId"].strip(), "set": r["_set"], "folder": r["_folder"],
                "side": r["side"].strip().lower(), "title": clean(r["title"]), "raw": r}
        if r["_folder"] == "menaceofdarthmaul" and card["side"] == "light" and kind == "weapon" \
                and 47 <= (number(r["id"]) or 0) <= 64:
            fix(card, "typed Weapon", "Battle card")
            kind = "battle"
        if kind not in KEPT_TYPES:
            continue
        card["type"] = kind
        dots = []
        for i in range(6):
            c = r[f"row{i + 1}color"].strip().lower()
            dots.append(2 if c == "white" else (1 if c in COLOURS else 0))
        card["dots"] = dots
        for key in ("counters", "power", "damage", "destiny"):
            card[key] = number(r[key]) if key in r else None
        lore = r["lore"] or ""
        if "\ufeff" in lore:
            fix(card, "stray U+FEFF in the text", "removed")
        card["text"] = "" if is_placeholder(lore) else clean(lore)
        card["users"] = []
        card["effects"] = []
        card["dueling_text"] = "kNone"
        card["notes"] = []
        by_id[card["id"]] = card
        cards.append(card)

    for card in cards:
        r = card["raw"]
        if card["type"] == "weapon":
            first = ""
            for n in (1, 2):
                who_raw = r[f"whoCanUseTheCard{n}"] or ""
                lore = (r["lore"] or "").strip()
                # Lore pasted into the box; a box that only repeats a short name (1_108) stays.
                if lore and lore in who_raw and (who_raw.strip() != lore or len(lore) > 30):
                    fix(card, f"lore text pasted into user box {n}", "removed")
                    who_raw = who_raw.replace(lore, "")
                if is_placeholder(who_raw) and who_raw.strip().lower() not in ("", "0", "na", "none"):
                    fix(card, f"placeholder '{who_raw.strip()}' in user box {n}", "empty")
                if "you may" in who_raw.lower():
                    fix(card, f"game text instead of a user in user box {n}", "no user: marked")
                    who_raw = ""
                who_raw, never_in_duel = not_in_duel(card, n, who_raw)
                who = fit_user_box(card, n, user_matcher(who_raw, first))
                if never_in_duel and who:
                    who = "|".join("noduel:" + alt for alt in who.split("|"))
                if n == 1 and not who:
                    break  # no first user: the second box cannot be trusted either
                if not who or who.startswith("name:nobody") or re.fullmatch(r"name:\d+", who):
                    continue
                if n == 1:
                    first = who
                card["users"].append((who, number(r[f"powerdots{n}"]) or 0,
                                      number(r[f"powercubes{n}"]) or 0))
        if card["type"] == "character":
            card["effects"] = encode_effects(card["text"])
        if card["type"] == "battle" and card["set"] == 5:
            low = card["text"].lower()
            for phrase, effect in DUELING_TEXTS:
                if low.startswith("when dueling") and phrase in low:
                    card["dueling_text"] = effect
            if card["id"] in ("5_19", "5_21", "5_49", "5_54"):
                card["dueling_text"] = "kNotRecorded"
                card["notes"].append("dueling text not recorded in the data (Y7: none)")
        if re.search(r"https?://", r["lore"] or "") or re.search(r"https?://", r["whoCanUseTheCard1"] or ""):
            fix(card, "image URL in a text field", "dropped")

    apply_known_fixes(by_id)
    for card in cards:
        card["dueling"] = is_dueling_character(card)
        card["usable"] = usable(card)
    return cards


def apply_known_fixes(by_id):
    def restore(reprint, original, why):
        c, o = by_id[reprint], by_id[original]
        for key in ("counters", "power", "damage", "destiny"):
            c[key] = o[key]
        c["effects"] = list(o["effects"])
        fix(c, why, f"stats and abilities of {original}")

    restore("7_37", "3_72", "row shows Aurra Sing's stats and text")
    restore("7_45", "5_31", "row shows Aurra Sing's stats and text")
    restore("7_46", "5_32", "row shows Aurra Sing's stats and text")
    # 7_31 reprints 1_75, whose row has only flavour text. Its own row belongs to the run 7_29-7_41
    # that repeats one image and Aurra Sing, Trophy Collector's stats and text; the stats happen to
    # match, the text is hers, so the reprint takes the original's facts (no abilities).
    restore("7_31", "1_75", "row shows Aurra Sing, Trophy Collector's text (the run 7_29-7_41)")
    by_id["7_42"]["counters"] = by_id["4_P4"]["counters"]
    by_id["7_42"]["effects"] = list(by_id["4_P4"]["effects"])
    fix(by_id["7_42"], "deploy cost 6 and a quoted line as text", "cost 5 and abilities of 4_P4")
    # Further Reflections dark characters carry Aurra Sing's text under another title; their
    # stats cannot be trusted, so they are marked and left out of decks.
    aurra = "adds power bonus when she fights any jedi"
    for card in by_id.values():
        if card["set"] == 7 and card["type"] == "character" and aurra in card["text"].lower() \
                and not card["title"].startswith("Aurra Sing") \
                and card["id"] not in ("7_37", "7_45", "7_46"):
            card["corrupt"] = True
            card["effects"] = []
            fix(card, "row shows Aurra Sing's text under another title", "marked missing data")
    # Reflections reprints Boonta Eve's starships (8_30, 8_60) typed as characters; a starship
    # never duels, so they are marked and left out of decks like the rest of Boonta Eve's ships.
    for cid, original in (("7_29", "8_30"), ("7_59", "8_60")):
        by_id[cid]["corrupt"] = True
        by_id[cid]["effects"] = []
        fix(by_id[cid], f"a starship (reprint of {original}) typed as a character",
            "marked missing data")
    # FAQ 004, card corrections.
    for cid, cost in (("1_40", 1), ("1_103", 2)):
        was = by_id[cid]["counters"]
        by_id[cid]["counters"] = cost
        fix(by_id[cid], f"deploy cost {was} (FAQ card correction)",
            f"cost {cost}" + (" (the data already had it)" if was == cost else ""))
    # Power Of The Sith's cost of 3 is likely wrong, but battle cards are never deployed in this
    # ruleset, so it is recorded as is and noted.
    by_id["5_51"]["notes"].append("cost 3 in the data looks wrong; unused in this ruleset")
    # Qui-Gon's Final Stand: the game text sits in the lore column; it is not dueling text.
    by_id["5_19"]["text"] = ""
    fix(by_id["5_19"], "game text in the lore column, title in the text box", "text dropped")


def is_dueling_character(card):
    if card["type"] != "character":
        return False
    title = card["title"]
    if card["side"] == "light":
        # The Jedi, by title (FAQ). Anakin is none (seeds: "he is not a Jedi yet"; Y27): "Tested
        # By The Jedi Council" names the Council. The engine's Jedi keyword reads this flag.
        return "jedi" in title.lower() and not title.startswith("Anakin")
    return any(title.startswith(n) for n in ("Darth Maul", "Darth Sidious", "Aurra Sing"))


def usable(card):
    if card.get("corrupt") or card["set"] in (0, 101):
        return False
    need = {"character": ("counters", "power", "damage", "destiny"),
            "weapon": ("counters", "destiny"), "battle": ("destiny",)}[card["type"]]
    if any(card[k] is None for k in need):
        return False
    return card["type"] != "weapon" or bool(card["users"])


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_inc(cards, path):
    lines = ["// Generated by tools/young_jedi_catalogue.py from ../shared/data/young-jedi.",
             "// Game facts only. Do not edit by hand: fix the generator and run it again.", ""]
    for c in cards:
        users = ", ".join(f"{{{c_str(w)}, {d}, {k}}}" for w, d, k in c["users"][:2])
        effects = ", ".join(f"{{EffectKind::{e[0]}, {e[1]}, {', '.join(c_str(x) for x in e[2:])}}}"
                            for e in c["effects"][:3])
        val = lambda k: -1 if c[k] is None else c[k]
        dots = ", ".join(str(d) for d in c["dots"])
        lines.append(
            f"{{{c_str(c['id'])}, {c_str(c['title'])}, {c['set']}, Side::k{c['side'].title()}, "
            f"CardType::k{c['type'].title()}, {{{dots}}}, {val('counters')}, {val('power')}, "
            f"{val('damage')}, {val('destiny')}, {str(c['dueling']).lower()}, "
            f"{str(c['usable']).lower()}, DuelingText::{c['dueling_text']}, {{{{{users}}}}}, "
            f"{{{{{effects}}}}}}},")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def write_doc(cards, path):
    from collections import Counter
    counts = Counter((c["folder"], c["type"]) for c in cards)
    unusable = [c for c in cards if not c["usable"]]
    out = [
        "# Young Jedi card catalogue",
        "",
        "Generated by `tools/young_jedi_catalogue.py`; do not edit by hand. To regenerate, from the",
        "repository root: `python3 tools/young_jedi_catalogue.py` (it reads `../shared/data/young-jedi`",
        "unless given another path, and writes `engine/young_jedi/catalogue_data.inc` and this file).",
        "",
        "## Provenance",
        "The facts come from `../shared/data/young-jedi/` (see its README): byte-identical copies of",
        "the `index.csv` files of the public repository DevoKun/youngjedi at commit",
        "0342837ac3ae0bdcdee81b75f6dd2249b6cc96dd, a community transcription of the Young Jedi",
        "collectible card game (Decipher, 1999-2001). Neither repository states a licence; card names",
        "belong to Lucasfilm/Decipher. The project therefore keeps **game facts only**: id, title,",
        "set, side, type, deck-building dots, deploy counters, power, damage, destiny, weapon users",
        "with power dots and destiny cubes, and the abilities this ruleset uses encoded as effects.",
        "No lore or flavour text, no game text as prose, no images or image URLs.",
        "",
        "Kept: every character, weapon and battle card. Effects, locations, starships, objectives,",
        "foils and the Reflections combination cards are outside the Lightsaber Dueling ruleset.",
        "",
        "## Cards per set and type",
        "| set | character | weapon | battle |",
        "|---|---|---|---|",
    ]
    for folder, _ in SETS:
        out.append(f"| {folder} | {counts[(folder, 'character')]} | {counts[(folder, 'weapon')]} "
                   f"| {counts[(folder, 'battle')]} |")
    out += ["", "## What the catalogue records",
            "- `dots`: deck-building dots per colour row (red, orange, blue, yellow, green,",
            "  purple): none, coloured or white (wild).",
            "- `counters` (deploy cost), `power`, `damage`, `destiny`; weapons: up to two user boxes,",
            "  each a matcher of who may use it with its power dots and destiny cubes. A box that",
            "  says \"(may not be used in a duel)\" keeps its users behind `noduel:`: none of them",
            "  may use it in a duel, the only use of a weapon in this ruleset.",
            "- `dueling`: a dueling character (seed 003: Light Side characters with \"Jedi\" in the",
            "  title or subtitle except Anakin; Darth Maul, Darth Sidious, Aurra Sing).",
            "- `dueling_text`: the \"When dueling\" text of a Duel of the Fates battle card (Y7).",
            "- `effects`: the abilities the duel uses, from the card's game text (Y8, +2 per power",
            "  bonus): a power bonus when dueling or fighting a named foe, when using a named weapon,",
            "  or if a named character has fought this turn; a change to the character's DAMAGE when",
            "  using a named weapon; extra DAMAGE to characters it defeats; \"may use any Sith",
            "  Lightsaber\"; a power bonus to another Jedi in a duel here; a card drawn when it defeats",
            "  a character; when he deploys to a named planet, the opponent takes DAMAGE, he may",
            "  draw a card, or he may deploy a named kind of character from the draw deck (Y29; the",
            "  planet is the last word). Any other game text is outside this ruleset and not recorded.",
            "- `usable`: false when data the ruleset needs is missing; such cards are refused in decks.",
            "",
            "## Cards with encoded abilities",
            "| card | title | abilities |", "|---|---|---|"]
    for c in cards:
        if c["effects"]:
            kinds = ", ".join(" ".join(x for x in (e[0][1:], f"{e[1]:+d}" if e[1] else "", *e[2:])
                                       if x) for e in c["effects"])
            out.append(f"| {c['id']} | {c['title']} | {kinds} |".replace("|name", "\\|name")
                       .replace("|kw", "\\|kw"))
    out += ["", "## Fixes applied", "| card | in the data | in the catalogue |", "|---|---|---|"]
    for cid, what, to in FIXES:
        out.append(f"| {cid} | {what} | {to} |")
    out += ["", "Normalised everywhere: card types compared in lower case (the data mixes `Weapon` and",
            "`weapon`; rarities are not kept); empty user boxes written `0`, `na`, `none`,",
            "`not available` or `\"blank\"` read as empty; a stray U+FEFF removed.", "",
            "Typos fixed in every text before it is read: " +
            ", ".join(f"\"{a}\" -> \"{b}\"" for a, b in TYPOS if a != "\ufeff") + ".", "",
            "## Marked as missing data (never allowed in a deck)",
            f"{len(unusable)} cards: " + ", ".join(c["id"] for c in unusable) + ".", "",
            "## Notes"]
    for c in cards:
        for n in c["notes"]:
            out.append(f"- {c['id']} {c['title']}: {n}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "data",
                                                              "young-jedi")
    cards = build(data)
    write_inc(cards, os.path.join(ROOT, "engine", "young_jedi", "catalogue_data.inc"))
    write_doc(cards, os.path.join(ROOT, "docs", "young-jedi-catalogue.md"))
    print(f"{len(cards)} cards, {sum(c['usable'] for c in cards)} usable, {len(FIXES)} fixes")


if __name__ == "__main__":
    main()
