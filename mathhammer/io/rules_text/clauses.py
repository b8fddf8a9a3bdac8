"""The effect clauses of a rule's sentences, in either phrasing: what a clause does to the
unit's own attacks (:func:`offence_clause`) or to the attacks against it
(:func:`defence_clause`), the items a unit or its attacks "have" (:func:`new_items`,
:func:`holder_items`), and the conditions a clause states.

Examples
--------
>>> from .sentence import Sentence
>>> [e.text for e in offence_clause("add 1 to the hit roll", Sentence("", "X"))]
['+1 to hit']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from ...model.effects import Condition, Effect
from .sentence import OTHERS, Sentence, Unread

__all__ = [
    "attack_clause",
    "clauses",
    "defence_clause",
    "granted",
    "holder_items",
    "keyword_list",
    "matched_kind",
    "new_items",
    "offence_clause",
    "state_condition",
    "target_condition",
]

_HARMLESS_ITEM = re.compile(
    r'^(?:the )?(?:infiltrators|lone operative|scouts(?: \d+")?|deep strike(?: until the end of '
    r"the (?:phase|turn))?|fights first|"
    r"leader|deadly demise(?: [\dd+]+)?|hover|firing deck(?: \d+)?|[+-]\d to (?:charge|advance) "
    r"rolls|[+-]\d\"? (?:to )?move|\+\d oc|[+-]\d (?:to )?(?:battle-shock|leadership) tests?)"
    r"(?: abilit(?:y|ies))?$"
)


def target_condition(words: str) -> Condition:
    """``"monster or vehicle"``, ``"a unit (excluding monsters and vehicles)"`` -> keywords."""
    words = words.strip()
    excluding = re.match(r"^(?:an? )?(?:enemy )?unit \(excluding ([^)]+)\)$", words)
    if excluding:
        return _excluding(excluding[1])
    found = re.match(r"^(?:an? |one or more )?(?:enemy )?(.+?)(?: units?| models?)?$", words)
    if found is None:
        raise Unread(f"a target '{words}'")
    names = keyword_list(found[1])
    return Condition("target", "/".join(names))


def _excluding(words: str) -> Condition:
    """The target of "(excluding MONSTERS and VEHICLES)": none of those keywords
    (``NON-MONSTER/VEHICLE``)."""
    names = keyword_list(words)
    return Condition("target", "/".join(f"NON-{k}" if i == 0 else k for i, k in enumerate(names)))


#: Plural keywords as printed in running text ("MONSTERS and VEHICLES"), made singular.
_PLURAL_KEYWORDS = {"MONSTERS": "MONSTER", "VEHICLES": "VEHICLE", "CHARACTERS": "CHARACTER",
                    "TITANICS": "TITANIC"}  # fmt: skip


def keyword_list(words: str) -> list[str]:
    """The keywords of "monsters and vehicles", "infantry, mounted or walker", in upper
    case and singular; raises Unread for words that are not keywords."""
    parts = re.split(r",\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+|/", words)
    return [_keyword(part.strip(), words) for part in parts]


def _keyword(part: str, words: str) -> str:
    """One keyword of ``words``, in upper case and singular."""
    if not part or not re.fullmatch(r"[a-z][a-z' -]*", part):
        raise Unread(f"a target '{words}'")
    name = part.upper()
    name = _PLURAL_KEYWORDS.get(name, name)
    if name in ("UNIT", "ENEMY UNIT"):
        raise Unread(f"a target '{words}'")
    return name


#: "... that targets X" after "makes an attack": the target restriction, or a state.
_THAT_TARGETS = re.compile(r"^ that targets (?P<what>.+)$")


def attack_clause(rest: str, sentence: Sentence) -> None:
    """The words between "makes an attack" and the comma: conditions on the attack."""
    rest = _attack_weapon(rest.strip(), sentence)
    if not rest:
        return
    excluding = re.fullmatch(r"\(excluding attacks that target (?P<what>[^)]+)\)", rest)
    if excluding:
        sentence.conditions.append(_excluding(excluding["what"]))
        return
    found = _THAT_TARGETS.match(" " + rest)
    if found is None:
        raise Unread(f"a condition '{rest}'")
    sentence.conditions.append(_attack_target(found["what"], sentence))


def _attack_weapon(rest: str, sentence: Sentence) -> str:
    """The words after the weapon an attack is made with ("with its power klaw that
    targets ..."), the weapon (or its kind) read into the sentence."""
    weapon = re.match(
        r"^with (?:an?|its|the|this model's) (?P<name>[\w' -]+?)(?= that | against |$)", rest
    )
    if weapon is None:
        return rest
    name = weapon["name"]
    if name in ("ranged weapon", "melee weapon"):
        sentence.restrict(name.split()[0])
    else:
        sentence.weapon = name
    return rest[weapon.end() :].strip().replace("against ", "that targets ", 1)


#: Within range of an objective marker, anywhere in a condition: a named state.
_OBJECTIVE = (re.compile(r"within range of an objective marker"), Condition("assumed", "objective"))
#: The targets "that targets <what>" may name by set words, each with its condition.
_SET_TARGETS = (
    (re.compile(r"^(?:a|an enemy) unit (?:that is )?within half range$"), Condition("half_range")),
    _OBJECTIVE,
    (re.compile(r"^(?:a|an enemy) unit that can fly$"), Condition("target", "FLY")),
)


def _attack_target(what: str, sentence: Sentence) -> Condition:
    """The condition "that targets <what>" puts on an attack: a unit selected earlier, half
    range, a state of the target, its keywords."""
    if what in ("that unit", "that enemy unit"):  # the unit an earlier sentence selected
        return _selected_target(what, sentence)
    for pattern, condition in _SET_TARGETS:
        if pattern.search(what):
            return condition
    if what.startswith(("your ", "their ")):  # "your prey", "their spotted unit": states
        return Condition("assumed", f"target {what}")
    return _target_state(what)


def _selected_target(what: str, sentence: Sentence) -> Condition:
    """The target "that unit": the unit an earlier sentence of the rule selected."""
    if not sentence.selected:
        raise Unread(f"a target '{what}'")
    return Condition("assumed", f"target selected: {sentence.source}")


def _target_state(what: str) -> Condition:
    """A state of the target ("a unit that is below half-strength"), or else its keywords."""
    state = re.fullmatch(r"(?:a|an enemy|that) unit (?:that is |which is )?(.+)", what)
    if state and not re.fullmatch(r"\(excluding [^)]+\)", state[1]):
        return Condition("assumed", f"target {state[1]}")
    return target_condition(what)


def _signed(found: re.Match[str]) -> int:
    """The number of "add 1" or "subtract 1" with its sign."""
    return int(found["n"]) * (1 if found["sign"] == "add" else -1)


def _roll_modifier(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """A modifier to the hit or wound roll."""
    return [sentence.effect(found["roll"], _signed(found))]


def _reroll(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The hit or wound roll re-rolled (a failed one, or a 1)."""
    return [sentence.effect(f"reroll_{found['roll']}s", "ones" if found["ones"] else "failures")]


def _critical_all(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """Every successful hit or wound roll a critical one."""
    return [sentence.effect("critical_all", found["roll"])]


def _skill(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The Ballistic or Weapon Skill of the attack improved."""
    return [sentence.effect("skill", int(found["n"]))]


#: What modifiers may be ignored to, and the words that name it.
_MODIFIED = (("skill", r"skill characteristics?"), ("hit", r"hit roll"), ("wound", r"wound roll"))


def _ignore_modifiers(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """Modifiers ignored: the penalties, for the attacker keeps what helps it."""
    named = [kind for kind, words in _MODIFIED if re.search(words, found["what"])]
    rest = re.sub(r"ballistic skill|weapon skill|\bcharacteristics?\b|hit roll|wound roll|"
                  r"the following|that attack's|and/or|all modifiers to|\bor\b|\band\b|"
                  r"\bthe\b|[,;:]", "", found["what"]).strip()  # fmt: skip
    if not named or rest:
        raise Unread(f"an effect '{found.string}'")
    return [sentence.effect("ignore_modifiers", kind) for kind in named]


def _reroll_damage(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The damage roll re-rolled where it helps the attacker (D31)."""
    return [sentence.effect("reroll_damage", "ones" if found["ones"] else "optimal")]


def _ap(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The Armour Penetration of the attack improved."""
    return [sentence.effect("ap", int(found["n"]))]


def _characteristic_modifier(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """A number added to or subtracted from a characteristic of the attack."""
    return [sentence.effect(found["what"], _signed(found))]


def _improve_characteristics(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """One or two characteristics of the attack improved."""
    return [sentence.effect(w, int(found["n"])) for w in (found["what"], found["what2"]) if w]


def _critical_on(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """Critical hits or wounds on a lower roll."""
    roll = found["roll"] or found["roll2"]
    return [sentence.effect(f"critical_{roll}", int(found["n"] or found["n2"]))]


def _attack_has(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The weapon abilities the attack has."""
    return [sentence.effect("ability", t) for t in granted(found["items"])]


#: A clause's reader: the effects of a clause that matches its pattern.
_ClauseReader = Callable[[Sentence, re.Match[str]], list[Effect]]
#: The effect clauses on the unit's own attacks (the earlier phrasing), each with its reader.
_OFFENCE: tuple[tuple[re.Pattern[str], _ClauseReader], ...] = tuple(
    (re.compile(p), read)
    for p, read in (
        (r"(?P<sign>add|subtract) (?P<n>\d) (?:to|from) the (?P<roll>hit|wound) roll",
         _roll_modifier),
        (r"(?:you can )?re-roll (?:a|the) (?P<roll>hit|wound) roll(?P<ones> of 1)?(?: instead)?",
         _reroll),
        (r"(?:every|each|a) successful (?:unmodified )?(?P<roll>hit|wound) roll (?:scores|is) a "
         r"critical (?:hit|wound)", _critical_all),
        (r"improve the (?:ballistic|weapon) skill characteristic of that attack by (?P<n>\d)",
         _skill),
        (r"(?:you can )?ignore any or all modifiers to (?P<what>.+)", _ignore_modifiers),
        (r"(?:you can )?re-roll the damage roll(?P<ones> of 1)?(?: instead)?", _reroll_damage),
        (r"improve the armour penetration characteristic of that attack by (?P<n>\d)", _ap),
        (r"(?P<sign>add|subtract) (?P<n>\d) (?:to|from) the (?P<what>strength|damage|attacks) "
         r"characteristic of that attack", _characteristic_modifier),
        (r"improve the (?P<what>strength|damage|attacks)(?: and (?P<what2>strength|damage|"
         r"attacks))? characteristics? of that attack by (?P<n>\d)", _improve_characteristics),
        (r"(?:a successful |an )?unmodi?fi?ed (?P<roll>hit|wound) roll of (?P<n>[2-5])\+ scores a "
         r"critical (?:hit|wound)|a critical (?P<roll2>hit|wound) is scored on a (?:successful )?"
         r"unmodified (?:hit|wound) roll of (?P<n2>[2-5])\+", _critical_on),
        (r"that (?:attack|weapon) has the (?P<items>.+?) abilit(?:y|ies)", _attack_has),
    )
)  # fmt: skip
_IF_STATE = re.compile(r"^if (?P<state>[^,]+), ")


def offence_clause(clause: str, sentence: Sentence) -> list[Effect]:
    """One effect clause on the unit's own attacks, in the earlier phrasing."""
    clause = _stated(clause.strip().removeprefix("then ").strip(), sentence)
    strength = _STRENGTH_STATE.match(clause)
    if strength:  # "add 1 to the Wound roll as well if this unit is below half-strength"
        return _below_strength(strength, sentence)
    return _read_clause(clause.removesuffix(" instead"), sentence, _OFFENCE)


def _stated(clause: str, sentence: Sentence) -> str:
    """A clause after its leading "if <state>, ", the state read into the conditions."""
    lead = _IF_STATE.match(clause)
    if lead is None:
        return clause
    sentence.conditions.append(state_condition(lead["state"], sentence))
    return clause[lead.end() :]


def _below_strength(strength: re.Match[str], sentence: Sentence) -> list[Effect]:
    """The effects of a clause that holds while the unit is below some strength (a named
    state, for this clause only)."""
    before = list(sentence.conditions)
    sentence.conditions.append(Condition("assumed", _STRENGTH_NAMES[strength["state"]]))
    try:
        return offence_clause(strength["clause"], sentence)
    finally:
        sentence.conditions = before


def _read_clause(
    clause: str, sentence: Sentence, readers: tuple[tuple[re.Pattern[str], _ClauseReader], ...]
) -> list[Effect]:
    """The effects of a clause, by the first reader whose pattern it matches in full."""
    for pattern, read in readers:
        found = pattern.fullmatch(clause)
        if found:
            return read(sentence, found)
    raise Unread(f"an effect '{clause}'")


#: Weapon abilities named without brackets ("have the devastating wounds ability").
_BARE_ABILITY = re.compile(
    r"^(?:the )?(?P<name>lethal hits|devastating wounds|sustained hits \d|ignores cover|precision|"
    r"lance|twin-linked|hazardous|assault|heavy|pistol|blast|torrent|indirect fire)"
    r"(?: abilit(?:y|ies))?$"
)


#: A clause's own trailing condition on the unit's strength: "add 1 to the Hit roll if this
#: unit is below its starting strength" (named states).
_STRENGTH_STATE = re.compile(
    r"^(?P<clause>.+?)(?: as well)? if (?:this|that) unit is below "
    r"(?P<state>its starting strength|half-strength)$"
)
_STRENGTH_NAMES = {"its starting strength": "below starting strength",
                   "half-strength": "below half-strength"}  # fmt: skip


def granted(items: str) -> list[str]:
    """The bracketed weapon abilities of "the [LETHAL HITS] and [SUSTAINED HITS 1]" (or one
    named without brackets: "the devastating wounds ability")."""
    bare = _BARE_ABILITY.match(items.strip())
    if bare:
        return [bare["name"].upper()]
    # "[ignores cover abilities]": the word inside the brackets by a misprint
    tokens = [
        re.sub(r"\s+abilit(?:y|ies)$", "", t).upper() for t in re.findall(r"\[([^\]]+)\]", items)
    ]
    rest = re.sub(r"\[[^\]]+\]|,|\band\b|\bor\b|\bthe\b|\babilit(?:y|ies)\b", "", items).strip()
    if not tokens or rest:
        raise Unread(f"abilities '{items}'")
    return tokens


#: The states an "if ..." clause names, each with its condition: a context flag or a named
#: state.
_STATES = (
    (re.compile(r"^(?:this|that) (?:unit|model) (?:made a charge move|charged) this turn$"),
     Condition("charged")),
    (re.compile(r"^(?:this|that) (?:unit|model) remain(?:ed|s) stationary(?: this turn)?$"),
     Condition("stationary")),
    (re.compile(r"^(?:the )?waaagh!? is active for (?:your|its) army$"),
     Condition("assumed", "waaagh")),
    (re.compile(r"^(?:this|that) unit is riled up$"), Condition("assumed", "riled up")),
    _OBJECTIVE,
)  # fmt: skip


def state_condition(state: str, sentence: Sentence) -> Condition:
    """A condition stated in an "if ..." clause: a context flag or a named state."""
    state = state.strip()
    named = next((condition for pattern, condition in _STATES if pattern.search(state)), None)
    if named is not None:
        return named
    if OTHERS.search(state):
        raise Unread(f"a condition on other units ('{state}')")
    return Condition("assumed", state)


def clauses(effects: str) -> list[str]:
    """Effect clauses joined by "and": "add 1 to the hit roll and add 1 to the wound roll"."""
    return re.split(
        r"(?:,? and |, (?=you can ))(?=(?:you can )?(?:add|subtract|re-roll|improve|worsen|"
        r"a successful|an unmodified|that attack|if)\b)",
        effects,
    )


#: The characteristics of "+1 s", "-1 ap" as an effect names them.
_SHORT = {"ap": "ap", "s": "strength", "a": "attacks", "d": "damage"}
#: The characteristics an item may worsen for the attacks against the unit ("-1 ap"), each
#: with its effect and the sign of the effect's value (a worse AP is a positive one).
_WORSENED = {"ap": ("target_ap", -1), "d": ("target_damage", 1)}


def new_items(items: str, sentence: Sentence, defence: bool) -> list[Effect]:
    """ "+1 to hit rolls and +1 ap", "[assault]", "-1 d" in the newer phrasing."""
    out: list[Effect] = []
    for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", items.strip()):
        item = item.strip().removeprefix("the ").strip()
        if item:
            out.extend(_new_item(item, sentence, defence))
    return out


def _new_item(item: str, sentence: Sentence, defence: bool) -> list[Effect]:
    """The effects of one item the unit's attacks (or the attacks against it) have."""
    m = re.fullmatch(r"(?P<n>[+-]\d) (?:to )?(?P<roll>hit|wound) rolls?", item)
    if m:
        return [sentence.effect(("target_" if defence else "") + m["roll"], int(m["n"]))]
    m = re.fullmatch(r"(?P<n>[+-]\d) (?P<c>ap|s|a|d)", item)
    if m:
        return [_characteristic_item(item, m, sentence, defence)]
    if defence:
        raise Unread(f"'{item}'")
    return _weapon_item(item, sentence)


def _characteristic_item(
    item: str, found: re.Match[str], sentence: Sentence, defence: bool
) -> Effect:
    """A characteristic changed ("+1 s"); against the unit, only a worse AP or Damage."""
    n, c = int(found["n"]), found["c"]
    if not defence:
        return sentence.effect(_SHORT[c], n)
    if c not in _WORSENED or n >= 0:
        raise Unread(f"'{item}' to the attacks against it")
    kind, sign = _WORSENED[c]
    return sentence.effect(kind, sign * n)


def _weapon_item(item: str, sentence: Sentence) -> list[Effect]:
    """Weapon abilities ("[assault]") or critical hits on a lower roll."""
    if re.fullmatch(r"(?:\[[^\]]+\]\s*)+(?:abilit(?:y|ies))?", item):
        return [sentence.effect("ability", t) for t in granted(item)]
    m = re.fullmatch(r"critical (?P<roll>hits|wounds) on (?P<n>[2-5])\+", item)
    if m:
        return [sentence.effect(f"critical_{m['roll'][:-1]}", int(m["n"]))]
    raise Unread(f"'{item}'")


#: What a unit or model may have, each with its effect (and the value in its group).
_HELD = tuple(
    (re.compile(p), kind)
    for p, kind in (
        (r"\+([1-3]) (?:sv|save characteristic)", "target_save"),  # the armour save improved
        (r"stealth", "stealth"),
        (r"benefit of cover", "cover"),
        (r"(?:feel no(?:t)? pain|fnp) ([2-6])\+", "fnp"),
        (r"([2-6])\+ (?:invulnerable save|insv)", "invuln"),
    )
)
#: The attacks "against mortal wounds" names: a Feel No Pain against mortal wounds only.
_MORTAL = (
    "mortal wounds",
    "psychic attacks and mortal wounds",
    "mortal wounds and psychic attacks",
)


def holder_items(items: str, sentence: Sentence) -> list[Effect]:
    """What the unit or model has: a save, Feel No Pain, Stealth (or harmless abilities)."""
    items = items.strip().removesuffix(" instead")  # FNP 5+, or FNP 4+ instead: the better
    against = None
    split = re.match(r"^(?P<items>.+?) against (?P<against>.+)$", items)
    if split:
        items, against = split["items"], split["against"]
    out = [
        e for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", items) for e in _held(item, sentence)
    ]
    return out if against is None else _against(out, against)


def matched_kind(
    table: tuple[tuple[re.Pattern[str], str], ...], text: str
) -> tuple[str, int] | None:
    """The kind of the first pattern of ``table`` that all of ``text`` matches, with the
    number the pattern captures (1 for a pattern that captures none); None if none does."""
    for pattern, kind in table:
        found = pattern.fullmatch(text)
        if found:
            return kind, int(found[1]) if found.groups() else 1
    return None


def _held(item: str, sentence: Sentence) -> list[Effect]:
    """The effects of one item the unit or model has (none for a harmless ability)."""
    item = re.sub(r"^(?:the|an?) |\s*abilit(?:y|ies)$", "", item.strip()).strip()
    held = matched_kind(_HELD, item)
    if held is not None:
        return [sentence.effect(*held)]
    if _HARMLESS_ITEM.match(item):
        return []
    if re.fullmatch(r"(?:\[[^\]]+\]\s*)+", item):
        return [sentence.effect("ability", t) for t in granted(item)]
    raise Unread(f"'{item}'")


def _against(out: list[Effect], against: str) -> list[Effect]:
    """What the unit has against some attacks only: psychic ones, mortal wounds, ranged or
    melee attacks."""
    if against == "psychic attacks" and out:  # an attack made with a [PSYCHIC] weapon
        return _against_psychic(out)
    if against in _MORTAL:
        match out:
            case [Effect(kind="fnp") as fnp]:  # a Feel No Pain alone
                return [
                    Effect("fnp_mortal", fnp.value, None, fnp.conditions, fnp.source, fnp.scope)
                ]
    return _against_attacks(out, against)


def _against_attacks(out: list[Effect], against: str) -> list[Effect]:
    """What the unit has against ranged or melee attacks only."""
    kind = re.fullmatch(r"(ranged|melee) attacks", against)
    if kind is None or not out:
        raise Unread(f"against {against}")
    return [Effect(e.kind, e.value, kind[1], e.conditions, e.source, e.scope) for e in out]


def _against_psychic(out: list[Effect]) -> list[Effect]:
    """The effects against psychic attacks: of the last item alone when it betters one of the
    same kind ("a 6+ InSv, and 4+ against psychic attacks"), else of all."""
    psychic = Condition("weapon", "PSYCHIC")
    if len(out) > 1 and out[-1].kind == out[-2].kind:
        last = out[-1]
        return [*out[:-1], replace(last, conditions=(*last.conditions, psychic))]
    return [replace(e, conditions=(*e.conditions, psychic)) for e in out]


def defence_clause(clause: str, sentence: Sentence) -> list[Effect]:
    """One effect clause on the attacks that target the unit, in the earlier phrasing."""
    return _read_clause(_defence_lead(clause.strip(), sentence), sentence, _DEFENCE)


_STRONGER = re.compile(
    r"^if the strength characteristic of that attack is greater than (?:the toughness "
    r"characteristic of (?:this|that) (?:unit|model)|(?:this|that) (?:model|unit)'s toughness"
    r" characteristic), "
)


def _defence_lead(clause: str, sentence: Sentence) -> str:
    """A clause after its leading condition (the attack's Strength above the unit's
    Toughness, or a state), read into the sentence's conditions."""
    stronger = _STRONGER.match(clause)
    if stronger:
        sentence.conditions.append(Condition("strength_over_toughness"))
        return clause[stronger.end() :]
    if clause.startswith("if ") and _IF_STATE.match(clause) is None:
        raise Unread(f"an effect '{clause}'")
    return _stated(clause, sentence)


def _target_roll(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """A penalty to the hit or wound roll of attacks against the unit."""
    return [sentence.effect(f"target_{found['roll']}", -int(found["n"]))]


def _target_ap(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The Armour Penetration of attacks against the unit worsened."""
    return [sentence.effect("target_ap", int(found["n"]))]


def _target_damage(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The Damage of attacks against the unit reduced."""
    return [sentence.effect("target_damage", -int(found["n"]))]


def _cover(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The benefit of cover against the attack."""
    return [sentence.effect("cover")]


def _invuln(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """An invulnerable save against the attack."""
    return [sentence.effect("invuln", int(found["n"]))]


#: The effect clauses on the attacks against the unit (the earlier phrasing), each with its
#: reader.
_DEFENCE: tuple[tuple[re.Pattern[str], _ClauseReader], ...] = tuple(
    (re.compile(p), read)
    for p, read in (
        (r"subtract (?P<n>\d) from the (?P<roll>hit|wound) roll", _target_roll),
        (r"worsen (?:the|that) armour penetration characteristic of that attack by (?P<n>\d)",
         _target_ap),
        (r"subtract (?P<n>\d) from the damage characteristic of that attack", _target_damage),
        (r"(?:this|that) (?:unit|model) has the benefit of cover against that attack", _cover),
        (r"(?:models in (?:this|that) unit|(?:this|that) (?:unit|model)) ha(?:s|ve) an? "
         r"(?P<n>[2-6])\+ invulnerable save against that attack", _invuln),
    )
)  # fmt: skip
