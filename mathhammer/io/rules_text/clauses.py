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
        names = keyword_list(excluding[1])
        return Condition(
            "target", "/".join(f"NON-{k}" if i == 0 else k for i, k in enumerate(names))
        )
    found = re.match(r"^(?:an? |one or more )?(?:enemy )?(.+?)(?: units?| models?)?$", words)
    if found is None:
        raise Unread(f"a target '{words}'")
    names = keyword_list(found[1])
    return Condition("target", "/".join(names))


def keyword_list(words: str) -> list[str]:
    parts = re.split(r",\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+|/", words)
    names = []
    for part in parts:
        part = part.strip()
        if not part or not re.fullmatch(r"[a-z][a-z' -]*", part):
            raise Unread(f"a target '{words}'")
        name = part.upper()
        # plural keywords as printed in running text: "MONSTERS and VEHICLES"
        for word in ("MONSTERS", "VEHICLES", "CHARACTERS", "TITANICS"):
            if name == word:
                name = word[:-1]
        if name in ("UNIT", "ENEMY UNIT"):
            raise Unread(f"a target '{words}'")
        names.append(name)
    return names


#: "... that targets X" after "makes an attack": the target restriction, or a state.
_THAT_TARGETS = re.compile(r"^ that targets (?P<what>.+)$")


def attack_clause(rest: str, sentence: Sentence) -> None:
    """The words between "makes an attack" and the comma: conditions on the attack."""
    rest = rest.strip()
    if not rest:
        return
    weapon = re.match(
        r"^with (?:an?|its|the|this model's) (?P<name>[\w' -]+?)(?= that | against |$)", rest
    )
    if weapon:
        name = weapon["name"]
        if name in ("ranged weapon", "melee weapon"):
            sentence.restrict(name.split()[0])
        else:
            sentence.weapon = name
        rest = rest[weapon.end() :].strip().replace("against ", "that targets ", 1)
        if not rest:
            return
    excluding = re.fullmatch(r"\(excluding attacks that target (?P<what>[^)]+)\)", rest)
    if excluding:
        names = keyword_list(excluding["what"])
        sentence.conditions.append(
            Condition("target", "/".join(f"NON-{k}" if i == 0 else k for i, k in enumerate(names)))
        )
        return
    found = _THAT_TARGETS.match(" " + rest)
    if found is None:
        raise Unread(f"a condition '{rest}'")
    what = found["what"]
    if what in ("that unit", "that enemy unit"):  # the unit an earlier sentence selected
        if not sentence.selected:
            raise Unread(f"a target '{what}'")
        sentence.conditions.append(Condition("assumed", f"target selected: {sentence.source}"))
        return
    if re.fullmatch(r"(?:a|an enemy) unit (?:that is )?within half range", what):
        sentence.conditions.append(Condition("half_range"))
        return
    if re.search(r"within range of an objective marker", what):
        sentence.conditions.append(Condition("assumed", "objective"))
        return
    if what.startswith(("your ", "their ")):  # "your prey", "their spotted unit": states
        sentence.conditions.append(Condition("assumed", f"target {what}"))
        return
    fly = re.fullmatch(r"(?:a|an enemy) unit that can fly", what)
    if fly:
        sentence.conditions.append(Condition("target", "FLY"))
        return
    state = re.fullmatch(r"(?:a|an enemy|that) unit (?:that is |which is )?(.+)", what)
    if state and not re.fullmatch(r"\(excluding [^)]+\)", state[1]):
        sentence.conditions.append(Condition("assumed", f"target {state[1]}"))
        return
    sentence.conditions.append(target_condition(what))


_NUMBER = {"1": 1, "2": 2, "3": 3, "one": 1, "two": 2, "three": 3}
_ROLL_WORD = {"hit": "hit", "wound": "wound"}


def offence_clause(clause: str, sentence: Sentence) -> list[Effect]:
    """One effect clause on the unit's own attacks, in the earlier phrasing."""
    clause = clause.strip().removeprefix("then ").strip()
    lead = re.match(r"^if (?P<state>[^,]+), ", clause)
    if lead:
        sentence.conditions.append(state_condition(lead["state"], sentence))
        clause = clause[lead.end() :]
    strength = _STRENGTH_STATE.match(clause)
    if strength:  # "add 1 to the Wound roll as well if this unit is below half-strength"
        before = list(sentence.conditions)
        sentence.conditions.append(Condition("assumed", _STRENGTH_NAMES[strength["state"]]))
        try:
            return offence_clause(strength["clause"], sentence)
        finally:
            sentence.conditions = before
    clause = clause.removesuffix(" instead")
    m = re.fullmatch(
        r"(?P<sign>add|subtract) (?P<n>\d) (?:to|from) the (?P<roll>hit|wound) roll", clause
    )
    if m:
        n = int(m["n"]) * (1 if m["sign"] == "add" else -1)
        return [sentence.effect(m["roll"], n)]
    m = re.fullmatch(
        r"(?:you can )?re-roll (?:a|the) (?P<roll>hit|wound) roll(?P<ones> of 1)?(?: instead)?",
        clause,
    )
    if m:
        return [sentence.effect(f"reroll_{m['roll']}s", "ones" if m["ones"] else "failures")]
    m = re.fullmatch(
        r"(?:every|each|a) successful (?:unmodified )?(?P<roll>hit|wound) roll (?:scores|is) a "
        r"critical (?:hit|wound)",
        clause,
    )
    if m:
        return [sentence.effect("critical_all", m["roll"])]
    m = re.fullmatch(
        r"improve the (?:ballistic|weapon) skill characteristic of that attack by (?P<n>\d)",
        clause,
    )
    if m:
        return [sentence.effect("skill", int(m["n"]))]
    m = re.fullmatch(r"(?:you can )?ignore any or all modifiers to (?P<what>.+)", clause)
    if m:  # the penalties: the attacker keeps what helps it
        named = [
            kind
            for kind, words in (("skill", r"skill characteristics?"), ("hit", r"hit roll"),
                                ("wound", r"wound roll"))
            if re.search(words, m["what"])
        ]  # fmt: skip
        rest = re.sub(r"ballistic skill|weapon skill|\bcharacteristics?\b|hit roll|wound roll|"
                      r"the following|that attack's|and/or|all modifiers to|\bor\b|\band\b|"
                      r"\bthe\b|[,;:]", "", m["what"]).strip()  # fmt: skip
        if not named or rest:
            raise Unread(f"an effect '{clause}'")
        return [sentence.effect("ignore_modifiers", kind) for kind in named]
    m = re.fullmatch(r"(?:you can )?re-roll the damage roll(?P<ones> of 1)?(?: instead)?", clause)
    if m:  # re-rolled where it helps the attacker (D31)
        return [sentence.effect("reroll_damage", "ones" if m["ones"] else "optimal")]
    m = re.fullmatch(
        r"improve the armour penetration characteristic of that attack by (?P<n>\d)", clause
    )
    if m:
        return [sentence.effect("ap", int(m["n"]))]
    m = re.fullmatch(
        r"(?P<sign>add|subtract) (?P<n>\d) (?:to|from) the (?P<what>strength|damage|attacks) "
        r"characteristic of that attack",
        clause,
    )
    if m:
        n = int(m["n"]) * (1 if m["sign"] == "add" else -1)
        return [sentence.effect({"attacks": "attacks"}.get(m["what"], m["what"]), n)]
    m = re.fullmatch(
        r"improve the (?P<what>strength|damage|attacks)(?: and (?P<what2>strength|damage|attacks))?"
        r" characteristics? of that attack by (?P<n>\d)",
        clause,
    )
    if m:
        return [sentence.effect(w, int(m["n"])) for w in (m["what"], m["what2"]) if w]
    m = re.fullmatch(
        r"(?:a successful |an )?unmodi?fi?ed (?P<roll>hit|wound) roll of (?P<n>[2-5])\+ scores a "
        r"critical (?:hit|wound)|a critical (?P<roll2>hit|wound) is scored on a (?:successful )?"
        r"unmodified (?:hit|wound) roll of (?P<n2>[2-5])\+",
        clause,
    )
    if m:
        roll = m["roll"] or m["roll2"]
        return [sentence.effect(f"critical_{roll}", int(m["n"] or m["n2"]))]
    m = re.fullmatch(r"that (?:attack|weapon) has the (?P<items>.+?) abilit(?:y|ies)", clause)
    if m:
        return [sentence.effect("ability", t) for t in granted(m["items"])]
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
    tokens = [re.sub(r"\s+abilit(?:y|ies)$", "", t) for t in re.findall(r"\[([^\]]+)\]", items)]
    rest = re.sub(r"\[[^\]]+\]|,|\band\b|\bor\b|\bthe\b|\babilit(?:y|ies)\b", "", items).strip()
    if not tokens or rest:
        raise Unread(f"abilities '{items}'")
    return [t.upper() for t in tokens]


def state_condition(state: str, sentence: Sentence) -> Condition:
    """A condition stated in an "if ..." clause: a context flag or a named state."""
    state = state.strip()
    if re.fullmatch(
        r"(?:this|that) (?:unit|model) (?:made a charge move|charged) this turn", state
    ):
        return Condition("charged")
    if re.fullmatch(
        r"(?:this|that) (?:unit|model) remain(?:ed|s) stationary(?: this turn)?", state
    ):
        return Condition("stationary")
    if re.fullmatch(r"(?:the )?waaagh!? is active for (?:your|its) army", state):
        return Condition("assumed", "waaagh")
    if re.search(r"within range of an objective marker", state):
        return Condition("assumed", "objective")
    if re.fullmatch(r"(?:this|that) unit is riled up", state):
        return Condition("assumed", "riled up")
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


def new_items(items: str, sentence: Sentence, defence: bool) -> list[Effect]:
    """ "+1 to hit rolls and +1 ap", "[assault]", "-1 d" in the newer phrasing."""
    out: list[Effect] = []
    for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", items.strip()):
        item = item.strip().removeprefix("the ").strip()
        if not item:
            continue
        m = re.fullmatch(r"(?P<n>[+-]\d) (?:to )?(?P<roll>hit|wound) rolls?", item)
        if m:
            out.append(sentence.effect(("target_" if defence else "") + m["roll"], int(m["n"])))
            continue
        m = re.fullmatch(r"(?P<n>[+-]\d) (?P<c>ap|s|a|d)", item)
        if m:
            n, c = int(m["n"]), m["c"]
            if defence and c == "ap" and n < 0:
                out.append(sentence.effect("target_ap", -n))
            elif defence and c == "d" and n < 0:
                out.append(sentence.effect("target_damage", n))
            elif defence:
                raise Unread(f"'{item}' to the attacks against it")
            else:
                kind = {"ap": "ap", "s": "strength", "a": "attacks", "d": "damage"}[c]
                out.append(sentence.effect(kind, n))
            continue
        if not defence and re.fullmatch(r"(?:\[[^\]]+\]\s*)+(?:abilit(?:y|ies))?", item):
            out.extend(sentence.effect("ability", t) for t in granted(item))
            continue
        m = re.fullmatch(r"critical (?P<roll>hits|wounds) on (?P<n>[2-5])\+", item)
        if m and not defence:
            out.append(sentence.effect(f"critical_{m['roll'][:-1]}", int(m["n"])))
            continue
        raise Unread(f"'{item}'")
    return out


def holder_items(items: str, sentence: Sentence) -> list[Effect]:
    """What the unit or model has: a save, Feel No Pain, Stealth (or harmless abilities)."""
    items = items.strip().removesuffix(" instead")  # FNP 5+, or FNP 4+ instead: the better
    against = None
    split = re.match(r"^(?P<items>.+?) against (?P<against>.+)$", items)
    if split:
        items, against = split["items"], split["against"]
    out: list[Effect] = []
    for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", items):
        item = re.sub(r"^(?:the|an?) |\s*abilit(?:y|ies)$", "", item.strip()).strip()
        fnp = re.fullmatch(r"(?:feel no(?:t)? pain|fnp) ([2-6])\+", item)
        invuln = re.fullmatch(r"([2-6])\+ (?:invulnerable save|insv)", item)
        better = re.fullmatch(r"\+([1-3]) (?:sv|save characteristic)", item)
        if better:  # the armour save improved: "+1 sv against ranged attacks"
            out.append(sentence.effect("target_save", int(better[1])))
        elif item == "stealth":
            out.append(sentence.effect("stealth"))
        elif item == "benefit of cover":
            out.append(sentence.effect("cover"))
        elif fnp:
            out.append(sentence.effect("fnp", int(fnp[1])))
        elif invuln:
            out.append(sentence.effect("invuln", int(invuln[1])))
        elif _HARMLESS_ITEM.match(item):
            continue
        elif re.fullmatch(r"(?:\[[^\]]+\]\s*)+", item):
            out.extend(sentence.effect("ability", t) for t in granted(item))
        else:
            raise Unread(f"'{item}'")
    if against == "psychic attacks" and out:  # an attack made with a [PSYCHIC] weapon
        psychic = Condition("weapon", "PSYCHIC")
        if len(out) > 1 and out[-1].kind == out[-2].kind:  # "a 6+ InSv, and 4+ against ..."
            last = out[-1]
            return [*out[:-1], replace(last, conditions=(*last.conditions, psychic))]
        return [replace(e, conditions=(*e.conditions, psychic)) for e in out]
    if against is not None:
        kind = re.fullmatch(r"(ranged|melee) attacks", against)
        mortal = against in ("mortal wounds", "psychic attacks and mortal wounds",
                             "mortal wounds and psychic attacks")  # fmt: skip
        if mortal and [e.kind for e in out] == ["fnp"]:
            return [Effect("fnp_mortal", out[0].value, None, out[0].conditions, out[0].source,
                           out[0].scope)]  # fmt: skip
        if kind is None or not out:
            raise Unread(f"against {against}")
        out = [Effect(e.kind, e.value, kind[1], e.conditions, e.source, e.scope) for e in out]
    return out


#: Keyword words: "orks infantry", "boyz/kommandos/stormboyz", "orks infantry, orks mounted
#: or orks walker" (no "within", no digits: an aura is not an army rule).


def defence_clause(clause: str, sentence: Sentence) -> list[Effect]:
    """One effect clause on the attacks that target the unit, in the earlier phrasing."""
    clause = clause.strip()
    lead = re.match(
        r"^if the strength characteristic of that attack is greater than (?:the toughness "
        r"characteristic of (?:this|that) (?:unit|model)|(?:this|that) (?:model|unit)'s toughness"
        r" characteristic), ",
        clause,
    )
    if lead:
        sentence.conditions.append(Condition("strength_over_toughness"))
        clause = clause[lead.end() :]
    elif clause.startswith("if "):
        state = re.match(r"^if (?P<state>[^,]+), ", clause)
        if state is None:
            raise Unread(f"an effect '{clause}'")
        sentence.conditions.append(state_condition(state["state"], sentence))
        clause = clause[state.end() :]
    m = re.fullmatch(r"subtract (?P<n>\d) from the (?P<roll>hit|wound) roll", clause)
    if m:
        return [sentence.effect(f"target_{m['roll']}", -int(m["n"]))]
    m = re.fullmatch(
        r"worsen (?:the|that) armour penetration characteristic of that attack by (?P<n>\d)",
        clause,
    )
    if m:
        return [sentence.effect("target_ap", int(m["n"]))]
    m = re.fullmatch(r"subtract (?P<n>\d) from the damage characteristic of that attack", clause)
    if m:
        return [sentence.effect("target_damage", -int(m["n"]))]
    m = re.fullmatch(
        r"(?:this|that) (?:unit|model) has the benefit of cover against that attack", clause
    )
    if m:
        return [sentence.effect("cover")]
    m = re.fullmatch(
        r"(?:models in (?:this|that) unit|(?:this|that) (?:unit|model)) ha(?:s|ve) an? "
        r"(?P<n>[2-6])\+ invulnerable save against that attack",
        clause,
    )
    if m:
        return [sentence.effect("invuln", int(m["n"]))]
    raise Unread(f"an effect '{clause}'")


#: "If it does, until the end of the phase, ...": the effect of using the rule just described.
