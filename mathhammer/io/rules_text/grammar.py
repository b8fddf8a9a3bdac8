"""The grammar of a rule's sentences: leading clauses (conditions, the attacks, the scope),
then the effect clauses of either phrasing, read into :class:`~mathhammer.model.effects.Effect`.

A sentence is read by :func:`read_sentence`; a sentence it cannot read raises
:class:`Unread` with the reason, or returns None when nothing in it is an effect. A
sentence that continues the previous one ("If ..., ... instead") is read by
:func:`follow_up` in that sentence's context.

Examples
--------
>>> [e.text for e in read_sentence(Sentence("this unit's melee attacks have +1 to hit rolls", "X"))]
['melee: +1 to hit']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...model.effects import Condition, Effect

__all__ = [
    "FOLLOW",
    "IF_USED",
    "OTHERS",
    "RELEVANT",
    "SELECTED",
    "SELECTS",
    "Sentence",
    "Unread",
    "army_subject",
    "follow_up",
    "read_sentence",
    "split_each_time",
]

#: The unit or model itself, in either phrasing.
_SELF = (
    r"(?:this unit|this model|that unit|the bearer|the bearer's unit|models in (?:this|that) unit|"
    r"each model in (?:this|that) unit|a model in (?:this|that) unit|this model's unit|"
    r"models in the bearer's unit|all models in (?:this|that|this model's) unit|this fortification|"
    r"models from your army with this ability)"
)
_ATTACKER = (
    r"(?:a model in (?:this|that) unit|models in (?:this|that) unit|this model|this unit|"
    r"that model|that unit|the bearer|it)"
)
_KIND = r"(?:(?P<kind>ranged|melee) )?"


class Unread(Exception):
    """A sentence the grammar could not read (the message is the reason)."""


@dataclass
class Sentence:
    """One sentence as it is being read: what is left of it and what is known so far."""

    text: str
    source: str
    conditions: list[Condition] = field(default_factory=list)
    attacks: str | None = None
    scope: str = "unit"
    weapon: str = ""
    side: str = ""
    units: tuple[str, ...] = ()
    selected: bool = False
    models: str = ""

    def effect(self, kind: str, value: int | str = 1, attacks: str | None = None) -> Effect:
        return Effect(
            kind,
            value,
            attacks or self.attacks,
            tuple(dict.fromkeys(self.conditions)),
            self.source,
            self.scope,
            self.weapon,
            self.units,
            self.models,
        )

    def follow(self, text: str) -> Sentence:
        """The next sentence, read in this one's "each time" context ("If ..., you can
        re-roll the Hit roll instead.", "... add 1 to the Wound roll as well.")."""
        return Sentence(text, self.source, list(self.conditions), self.attacks, self.scope,
                         self.weapon, self.side, self.units, self.selected,
                         self.models)  # fmt: skip

    def restrict(self, kind: str | None) -> None:
        if kind is None:
            return
        if self.attacks is not None and self.attacks != kind:
            raise Unread(f"both {self.attacks} and {kind} attacks")
        self.attacks = kind


#: Leading clauses: each pattern, and what it means (a condition, the attacks, a scope).
_LEADING: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), meaning)
    for p, meaning in (
        (r"^while this (?:model|unit) is leading a unit,? ", "led"),
        (r"^while (?:this model|this unit) is (?:attached to|leading) (?:a|that) unit,? ", "led"),
        (
            r"^once per (?:battle|game)(?:, (?:at the (?:start|end) of|in|during|when|after|before"
            r"|each time) [^,]*)?,? ",
            "once",
        ),
        (r"^(?:in|during) the fight phase,? ", "melee"),
        (r"^(?:in|during) (?:your|the) shooting phase,? ", "ranged"),
        (
            r"^(?:while|if) (?:the )?waaagh!? is active for (?:your|its|their) army,? ",
            "assumed:waaagh",
        ),
        (r"^(?:while|if) (?:this|that|a) unit is riled up,? ", "assumed:riled up"),
        (
            r"^(?:while|if) (?:this|that) (?:unit|model) is within range of (?:an|one or more)"
            r" objective markers?(?: you control)?,? ",
            "assumed:objective",
        ),
        (
            r"^(?:if|while) (?:this|that) (?:unit|model) (?:made a charge move|charged) "
            r"this turn,? ",
            "charged",
        ),
        (
            r"^each time (?:this|that) (?:unit|model) (?:makes|made) a charge move,? "
            r"(?:until the end of the turn,? )?",
            "charged",
        ),
        (
            r"^(?:if|while) (?:this|that) (?:unit|model) remained stationary this turn,? ",
            "stationary",
        ),
        (
            r"^(?:if|while) (?:this|that) (?:unit|model) (?:made an advance move|advanced) "
            r"this turn,? ",
            "assumed:advanced",
        ),
        (
            r"^(?:if|while) (?:this|that) (?:unit|model) remains? stationary(?: this turn)?,? ",
            "stationary",
        ),
        (r"^in your movement phase,? ", ""),
        (r"^in addition,? ", ""),
        (r"^until the end of the (?:phase|turn|battle),? ", ""),
    )
)
_WHILE = re.compile(r"^(?:while|if) (?P<state>[^,]+), ")
OTHERS = re.compile(
    r"\bfriendly (?:[\w'-]+ )*?(?:units?|models?)\b(?! from your army with this ability)"
    r"|\b(?:an|each|that|one) enemy (?:[\w'-]+ )*?units? (?:\([^)]*\) )?(?:is |are )?within\b"
    r"|\bthat enemy unit\b|\bother friendly\b|\beach enemy unit\b"
    r"|\bselect one enemy (?:[\w'-]+ )*?unit\b|\benemy unit is unravelling\b"
    # mortal wounds back on the attacking unit: they change no attack against this one
    r"|\bthe attacking unit suffers\b"
    # a fortification's or a big model's cover for the models behind it
    r"|\bnot fully visible to every model in the attacking unit because of this\b"
    r"|\bas a result of this fortification\b|\bon the platform section of this fortification\b"
    # an observer unit's rule is for the units it guides
    r"|\beach time this unit is an observer unit\b"
)
#: A rule that selects another unit ("select one enemy unit hit by one or more of those
#: attacks", "select one friendly VEHICLE model within 3\""): its later sentences about
#: "that unit" are about the unit selected.
SELECTS = re.compile(
    r"\bselect (?:one|a|an) (?:friendly|enemy) |\bselect one (?:enemy )?unit (?:hit by|from your "
    r"opponent's army)|\bselect one unit from your opponent's army\b"
)
#: What a later sentence says about the unit selected.
SELECTED = re.compile(r"\bthat (?:(?!targets?\b)[\w'-]+ )?(?:unit|model)s?\b|\bsuppressed\b")
RELEVANT = re.compile(
    r"hit rolls?|wound rolls?|armour penetration|[+-]\d+ (?:ap|s|a|d)\b|"
    r"(?:strength|attacks|damage|toughness|save) characteristics?|critical (?:hit|wound)|"
    r"invulnerable save|\binsv\b|feel no pain|\bstealth\b|benefit of cover|\[[a-z]|"
    r"\battacks? (?:that )?targets?\b|\ballocated to\b|\bre-roll (?:the )?(?:hit|wound|damage)\b"
)


def _leading(sentence: Sentence) -> None:
    """Read the leading clauses of a sentence into its conditions, attacks and scope."""
    while True:
        for pattern, meaning in _LEADING:
            found = pattern.match(sentence.text)
            if found is None:
                continue
            sentence.text = sentence.text[found.end() :]
            if meaning == "led":
                sentence.scope = "led"
            elif meaning == "once":
                sentence.conditions.append(
                    Condition("assumed", f"once per battle: {sentence.source}")
                )
            elif meaning in ("melee", "ranged"):
                sentence.restrict(meaning)
            elif meaning.startswith("assumed:"):
                sentence.conditions.append(Condition("assumed", meaning.split(":", 1)[1]))
            elif meaning:
                sentence.conditions.append(Condition(meaning))
            break
        else:
            return


def _target_condition(words: str) -> Condition:
    """``"monster or vehicle"``, ``"a unit (excluding monsters and vehicles)"`` -> keywords."""
    words = words.strip()
    excluding = re.match(r"^(?:an? )?(?:enemy )?unit \(excluding ([^)]+)\)$", words)
    if excluding:
        names = _keyword_list(excluding[1])
        return Condition(
            "target", "/".join(f"NON-{k}" if i == 0 else k for i, k in enumerate(names))
        )
    found = re.match(r"^(?:an? |one or more )?(?:enemy )?(.+?)(?: units?| models?)?$", words)
    if found is None:
        raise Unread(f"a target '{words}'")
    names = _keyword_list(found[1])
    return Condition("target", "/".join(names))


def _keyword_list(words: str) -> list[str]:
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


def _attack_clause(rest: str, sentence: Sentence) -> None:
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
        names = _keyword_list(excluding["what"])
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
    sentence.conditions.append(_target_condition(what))


_NUMBER = {"1": 1, "2": 2, "3": 3, "one": 1, "two": 2, "three": 3}
_ROLL_WORD = {"hit": "hit", "wound": "wound"}


def _offence_clause(clause: str, sentence: Sentence) -> list[Effect]:
    """One effect clause on the unit's own attacks, in the earlier phrasing."""
    clause = clause.strip().removeprefix("then ").strip()
    lead = re.match(r"^if (?P<state>[^,]+), ", clause)
    if lead:
        sentence.conditions.append(_state_condition(lead["state"], sentence))
        clause = clause[lead.end() :]
    strength = _STRENGTH_STATE.match(clause)
    if strength:  # "add 1 to the Wound roll as well if this unit is below half-strength"
        before = list(sentence.conditions)
        sentence.conditions.append(Condition("assumed", _STRENGTH_NAMES[strength["state"]]))
        try:
            return _offence_clause(strength["clause"], sentence)
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
        return [sentence.effect("ability", t) for t in _granted(m["items"])]
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


def _granted(items: str) -> list[str]:
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


def _state_condition(state: str, sentence: Sentence) -> Condition:
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


def _clauses(effects: str) -> list[str]:
    """Effect clauses joined by "and": "add 1 to the hit roll and add 1 to the wound roll"."""
    return re.split(
        r"(?:,? and |, (?=you can ))(?=(?:you can )?(?:add|subtract|re-roll|improve|worsen|"
        r"a successful|an unmodified|that attack|if)\b)",
        effects,
    )


# the earlier phrasing of the unit's own attacks
_EACH_ATTACK = re.compile(
    rf"^each time {_ATTACKER} makes an? {_KIND}attack"
    r"(?P<rest>(?:[^,]|, (?=[a-z]+ (?:or|and) [a-z]+ (?:units?|models?)\b))*), (?P<effects>.+)$"
)
# the earlier phrasing of the attacks against the unit
_EACH_TARGETS = re.compile(
    rf"^each time an? {_KIND}attack (?:targets|is allocated to) (?:{_SELF}|it),? (?P<effects>.+)$"
)
_ALLOCATED = re.compile(
    rf"^each time an attack is allocated to (?:{_SELF}|a model in (?:this|that) unit), "
    r"(?P<effect>subtract (?P<n>\d) from (?:the damage characteristic of that attack|that "
    r"attack's damage characteristic)|halve (?:the damage characteristic of that attack|that "
    r"attack's damage characteristic))(?: \(to a minimum of 1\))?$"
)
# weapons given abilities or characteristics
_WEAPONS_HAVE = re.compile(
    rf"^{_KIND}weapons equipped by (?:models in (?:this|that|this model's) unit|this model|"
    r"the bearer|this unit|that unit|the model|"
    r"that model)(?: it is equipped with)? (?:have|gain) (?P<items>.+?)(?: abilit(?:y|ies))?$"
)
_EQUIPPED_HAVE = re.compile(
    rf"^{_KIND}weapons (?:it|this model|that model) is equipped with (?:have|gain) "
    r"(?P<items>.+?)(?: abilit(?:y|ies))?$"
)
_ADD_CHARACTERISTIC = re.compile(
    r"^(?:add (?P<n>\d) to|improve) the (?P<what>strength|attacks|damage|armour penetration)"
    r"(?:,? (?:and )?(?P<what2>strength|attacks|damage|armour penetration))?"
    r"(?:,? (?:and )?(?P<what3>strength|attacks|damage|armour penetration))?"
    r"(?:,? (?:and )?(?P<what4>strength|attacks|damage|armour penetration))? characteristics? of "
    rf"(?:{_KIND}weapons equipped by (?:models (?:in|from) (?:this|that) unit|this model|the model|"
    r"that model|this unit|that unit|models from your army with this ability)|this model's "
    r"(?P<kind2>ranged |melee )?(?:weapons|(?P<weapon>[\w' -]+?)(?: weapons?)?)|"
    r"(?P<weapon2>[a-z][\w' -]*?) weapons equipped by (?:models in )?(?:this|that) unit)"
    r"(?: by (?P<by>\d))?$"
)
# the newer phrasing
_ATTACKS_HAVE = re.compile(
    rf"^(?:{_SELF}|it)'s? {_KIND}(?:attacks|weapons) (?:have|has|gain),? (?P<items>.+)$"
)
_TARGET_HAVE = re.compile(
    rf"^{_KIND}attacks that target (?:{_SELF}|it) (?:have|has) (?P<items>.+)$"
)
_HOLDER_HAS = re.compile(rf"^(?:{_SELF}|it) (?:has|have|gains?) (?P<items>.+)$")
_WEAPON_HAS = re.compile(
    r"^(?:its|this model's|the bearer's|that model's) (?P<weapon>[\w' -]+?) (?:has|have|gains?) "
    r"(?P<items>(?:the )?\[.+?)(?: abilit(?:y|ies))?$"
)
#: "this model does not suffer the penalty to its hit rolls for making ranged attacks while
#: enemy units are within engagement range of it".
_NO_ENGAGED_PENALTY = re.compile(
    r"^(?P<who>this model|models in this unit) (?:does|do) not suffer the penalty to (?:its|"
    r"their) hit rolls for making ranged attacks while (?P<state>.+)$"
)
#: "each time an attack with this model's gaping maw targets an INFANTRY unit, ...".
_WITH_WEAPON_TARGETS = re.compile(
    r"^each time an attack (?:made )?with (?:this model's|its) (?P<weapon>[\w' -]+?) targets "
    r"(?P<what>.+? units?), (?P<effects>.+)$"
)
#: A damaged profile in the newer shorthand: "when damaged, subtract 1 from hit rolls when it
#: makes attacks".
_DAMAGED = re.compile(r"^when damaged, subtract (?P<n>\d) from hit rolls when it makes attacks$")
#: A weapon's characteristic changed: "this model's 'uge choppa has a Damage characteristic
#: of 3" (a change, made before any modifier).
_WEAPON_SET = re.compile(
    r"^(?:its|this model's|the bearer's|that model's) (?P<weapon>[\w' -]+?) (?:has|have) an? "
    r"damage characteristic of (?P<n>\d+)$"
)
#: The earlier phrasing of the unit's own attacks, judged as they are allocated: "each time a
#: ranged attack made by this model is allocated to a MONSTER or VEHICLE model, ...".
_ALLOCATED_BY = re.compile(
    rf"^each time an? {_KIND}attack made by (?:this model|a model in this unit|this unit) is "
    r"allocated to an? (?P<what>[a-z][a-z ,/-]*?) model, (?P<effects>.+)$"
)
#: A rule of the unit for another model in it: the leader attached to it ("while a
#: CHARACTER model is leading this unit, that CHARACTER has ..."), or named models.
_OTHER_MODEL_HAS = tuple(
    re.compile(p)
    for p in (
        r"^while an? (?P<who>[a-z][\w' -]*?) model is leading this unit,? that "
        r"(?:character|model) (?:has|have) (?P<items>.+)$",
        r"^while this (?:unit|model) is in the same unit as an? (?P<who>[a-z][\w' -]*?) "
        r"model,? that (?:[a-z][\w' -]*? )?model (?:has|have) (?P<items>.+)$",
        r"^while (?P<state>this model is in the same unit as [a-z][\w' -]*?),? (?P<who>character)"
        r" models in that unit (?:has|have) (?P<items>.+)$",
        r"^while (?P<state>this unit contains one or more [a-z][\w' -]*? models),? "
        r"(?P<who>[a-z][\w' -]*?) (?:has|have) (?P<items>.+)$",
    )
)
_CAN_REROLL = re.compile(
    rf"^(?:{_SELF}|it) can re-roll (?P<kind>ranged |melee )?(?P<roll>hit|wound) rolls?"
    r"(?P<ones> of 1)?$"
)
_IGNORED = re.compile(
    r"^(?:this is not cumulative with any other modifiers that worsen the damage "
    r"characteristic of an attack|you cannot re-roll invulnerable saving throws made for "
    r"this model|this invulnerable save cannot be re-rolled)$"
)
_HARMLESS_ITEM = re.compile(
    r'^(?:the )?(?:infiltrators|lone operative|scouts(?: \d+")?|deep strike(?: until the end of '
    r"the (?:phase|turn))?|fights first|"
    r"leader|deadly demise(?: [\dd+]+)?|hover|firing deck(?: \d+)?|[+-]\d to (?:charge|advance) "
    r"rolls|[+-]\d\"? (?:to )?move|\+\d oc|[+-]\d (?:to )?(?:battle-shock|leadership) tests?)"
    r"(?: abilit(?:y|ies))?$"
)


#: Sentences on movement or transport alone: they change no attack. A move characteristic
#: may lead a sentence that goes on about weapons ("... have a move characteristic of 12" and
#: ranged weapons equipped by models in that unit have the [ASSAULT] ability").
_MOVEMENT = re.compile(
    rf'^(?:(?:{_SELF}|it) (?:has|have) (?:an? move characteristic of \d+"|a transport capacity '
    r"of [^,]+)(?: and can move over models and terrain(?: features)? as if they were not "
    r'there)?|add \d+" to this model\'s move(?:ment)? characteristic)(?: and (?P<rest>.+))?$'
)
#: A weapon doubled: "if this model is equipped with 2 dread killsaws, those weapons have the
#: [TWIN-LINKED] ability", "..., add 2 to the Attacks characteristic of those weapons".
_EQUIPPED_WITH = re.compile(
    r"^if this model is equipped with (?P<n>2|two) (?P<weapon>[a-z][\w' -]*?)(?: weapons)?"
    r"(?: in addition to (?:its|this model's) [\w' -]+)?, (?:those weapons (?:have|gain) "
    r"(?P<items>.+?)(?: abilit(?:y|ies))?|add (?P<a>\d) to the attacks characteristic of those "
    r"[\w' -]+)$"
)
#: A trigger that only says the rule may be used ("... this model can use this ability").
_CAN_USE = re.compile(r"^(?:it|this model|this unit|they) can use this ability$")
#: "add 3 to the Attacks characteristic of melee weapons equipped by this model and those
#: weapons have the [DEVASTATING WOUNDS] ability": a characteristic, then the same weapons'
#: abilities.
_AND_THOSE = re.compile(
    r"^(?P<first>(?:add|improve) .+?),? and those weapons (?:have|gain) (?P<items>.+?)"
    r"(?: abilit(?:y|ies))?$"
)


def _new_items(items: str, sentence: Sentence, defence: bool) -> list[Effect]:
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
            out.extend(sentence.effect("ability", t) for t in _granted(item))
            continue
        m = re.fullmatch(r"critical (?P<roll>hits|wounds) on (?P<n>[2-5])\+", item)
        if m and not defence:
            out.append(sentence.effect(f"critical_{m['roll'][:-1]}", int(m["n"])))
            continue
        raise Unread(f"'{item}'")
    return out


def _holder_items(items: str, sentence: Sentence) -> list[Effect]:
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
        if item == "stealth":
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
            out.extend(sentence.effect("ability", t) for t in _granted(item))
        else:
            raise Unread(f"'{item}'")
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
_KW = r"(?P<kw>[a-z][a-z' -]*?(?:(?:, | or |/)[a-z][a-z' -]*?)*)"
_EXCLUDING = r"(?: \(excluding (?P<ex>[^)]+)\))?"
#: An army or detachment rule's subject: each pattern and the unit's own phrasing it becomes.
_ARMY: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), own)
    for p, own in (
        (rf"^friendly {_KW} units{_EXCLUDING}'s? (?P<rest>(?:ranged |melee )?attacks have .+)$",
         "this unit's {rest}"),
        (rf"^friendly {_KW} units{_EXCLUDING} (?:have|gain) (?P<rest>.+)$", "this unit has {rest}"),
        (rf"^(?P<kind>ranged |melee )?weapons equipped by {_KW} models from your army"
         rf"{_EXCLUDING} have (?P<rest>.+)$",
         "{kind}weapons equipped by models in this unit have {rest}"),
        (rf"^each time an? (?P<kind>ranged |melee )?attack targets an? {_KW} unit from your "
         rf"army{_EXCLUDING}, (?P<rest>.+)$",
         "each time an {kind}attack targets this unit, {rest}"),
        (rf"^each time a model in an? {_KW} unit from your army{_EXCLUDING} makes an? "
         r"(?P<rest>.+)$", "each time a model in this unit makes a {rest}"),
        (rf"^each time an? {_KW} model from your army{_EXCLUDING} makes an? (?P<rest>.+)$",
         "each time a model in this unit makes a {rest}"),
        (rf"^(?:when|each time) an? (?:friendly )?{_KW} unit(?: from your army)?{_EXCLUDING} is "
         r"selected to (?P<act>shoot|fight),? (?P<rest>.+)$", "{act}{rest}"),
    )
)  # fmt: skip


def army_subject(sentence: Sentence) -> bool:
    """Read an army or detachment rule's subject ("friendly ORKS INFANTRY units' ranged
    attacks have ...", "each time an attack targets a BOYZ unit from your army, ...") as
    the unit's own phrasing, with the units it names in ``sentence.units``; False if the
    sentence names no units of the army that way.

    Examples
    --------
    >>> s = Sentence("friendly orks infantry units' ranged attacks have [assault]", "Dakka")
    >>> army_subject(s), s.text, s.units
    (True, "this unit's ranged attacks have [assault]", ('ORKS INFANTRY',))
    >>> s = Sentence("each time an attack targets an orks unit from your army (excluding "
    ...              "grots units), subtract 1 from the wound roll", "Boarders")
    >>> army_subject(s), s.units
    (True, ('ORKS', 'NON-GROTS'))
    >>> s.text
    'each time an attack targets this unit, subtract 1 from the wound roll'
    """
    _leading(sentence)
    for pattern, own in _ARMY:
        found = pattern.match(sentence.text)
        if found is None:
            continue
        names = [" ".join(n.split()).upper() for n in re.split(r", (?:or )?| or |/", found["kw"])]
        if any(not n or n in ("UNIT", "UNITS") for n in names):
            return False
        excluded = []
        if found["ex"]:
            excluded = [f"NON-{n}" for n in _keyword_list(re.sub(r" units?$", "", found["ex"]))]
        parts = found.groupdict()
        rest = parts["rest"]
        for name in names:  # "that ORKS unit" is that unit
            rest = rest.replace(f"that {name.lower()} unit", "that unit")
        act = parts.get("act")
        if act:
            sentence.restrict("ranged" if act == "shoot" else "melee")
        sentence.text = own.format(kind=parts.get("kind") or "", rest=rest, act="")
        sentence.units = (*names, *excluded)
        return True
    return False


#: Some models of the unit named as the subject: "each time a Sisters Repentia model in
#: this unit makes an attack", "melee weapons equipped by Paladin Squad models in this unit".
_SOME_MODELS = re.compile(
    r"(?P<lead>^each time an? |weapons equipped by )(?P<model>[a-z][a-z' -]*?) "
    r"(?P<rest>models? in (?:this|that) unit\b)"
)
#: Keywords, not names: "a CHARACTER model in this unit" is not read as a name.
_NOT_NAMES = frozenset(
    {"character", "monster", "vehicle", "infantry", "psyker", "other", "all", "the", "such",
     "those", "these", "its", "each", "every", "one", "enemy", "friendly"}
)  # fmt: skip


def _some_models(sentence: Sentence) -> None:
    """Read a subject naming some models of the unit into ``sentence.models`` (D41)."""
    found = _SOME_MODELS.search(sentence.text)
    if found is None or found["model"] in _NOT_NAMES or found["model"].split()[0] in _NOT_NAMES:
        return
    sentence.models = found["model"]
    sentence.text = (
        sentence.text[: found.start("model")] + found["rest"] + sentence.text[found.end() :]
    )


#: A subject that is this model (or the bearer), not its unit: the effect is for the models
#: of the datasheet that has the rule, not for a unit it is attached to (D37).
_THIS_MODEL = re.compile(
    r"^(?:each time (?:this model|the bearer|that model) (?:makes|is selected)|"
    r"each time an? (?:(?:ranged|melee) )?attack made by (?:this model|the bearer)\b|"
    r"(?:this model|the bearer|that model)(?:'s| has| have| gains?| can)\b|"
    r"(?:(?:ranged|melee) )?weapons (?:equipped by (?:this model|the bearer|the model|that model)"
    r"|(?:it|this model|that model) is equipped with)\b|"
    r"(?:its|this model's|the bearer's) [\w' -]+ (?:has|have|gains?)\b|"
    r"(?:add \d to|improve) the [a-z ,]+ characteristics? of (?:(?:ranged |melee )?weapons "
    r"equipped by (?:this|the|that) model|this model's)\b)"
)


def read_sentence(sentence: Sentence) -> list[Effect] | None:
    """The effects of one sentence; None if it says nothing about attacks. Raises Unread."""
    if _IGNORED.match(sentence.text):
        return []
    _leading(sentence)
    _some_models(sentence)
    if sentence.scope == "unit" and _THIS_MODEL.match(sentence.text):
        sentence.scope = "model"
    text = sentence.text
    if _CAN_USE.match(text):
        return []
    m = _MOVEMENT.match(text)
    if m:
        if m["rest"] is None:
            return None
        sentence.text = m["rest"]
        return read_sentence(sentence)
    m = _AND_THOSE.match(text)
    if m:
        sentence.text = m["first"]
        first = read_sentence(sentence)
        if not first:
            raise Unread(f"an effect '{m['first']}'")
        return [*first, *(sentence.effect("ability", t) for t in _granted(m["items"]))]
    m = _EQUIPPED_WITH.match(text)
    if m:  # "if this model is equipped with 2 dread killsaws, those weapons have ..."
        weapon = m["weapon"] if m["weapon"].endswith("us") else m["weapon"].removesuffix("s")
        sentence.conditions.append(Condition("assumed", f"equipped with {m['n']} {m['weapon']}"))
        sentence.weapon = weapon
        if m["items"]:
            return [sentence.effect("ability", t) for t in _granted(m["items"])]
        return [sentence.effect("attacks", int(m["a"]))]
    m = _ALLOCATED.match(text)
    if m:
        if m["effect"].startswith("halve"):
            return [sentence.effect("halve_damage")]
        return [sentence.effect("damage_reduction", int(m["n"]))]
    m = _EACH_TARGETS.match(text)
    if m:
        sentence.side = "defence"
        sentence.restrict(m["kind"])
        return [e for c in _clauses(m["effects"]) for e in _defence_clause(c, sentence)]
    m = _EACH_ATTACK.match(text)
    if m:
        sentence.side = "offence"
        sentence.restrict(m["kind"])
        _attack_clause(m["rest"], sentence)
        return [e for c in _clauses(m["effects"]) for e in _offence_clause(c, sentence)]
    m = _TARGET_HAVE.match(text)
    if m:
        sentence.restrict(m["kind"])
        return _new_items(m["items"], sentence, defence=True)
    m = _ATTACKS_HAVE.match(text)
    if m:
        sentence.restrict(m["kind"])
        return _new_items(m["items"], sentence, defence=False)
    m = _WEAPONS_HAVE.match(text) or _EQUIPPED_HAVE.match(text)
    if m:
        sentence.restrict(m["kind"])
        return [sentence.effect("ability", t) for t in _granted(m["items"])]
    m = _WEAPON_HAS.match(text)
    if m:
        items = m["items"]
        half = re.search(r" while targeting a unit within half range$", items)
        if half:
            sentence.conditions.append(Condition("half_range"))
            items = items[: half.start()]
        tokens = _granted(re.sub(r"\s*abilit(?:y|ies)$", "", items))
        out: list[Effect] = []
        for name in re.split(r",? and |, ", m["weapon"]):  # "its X and Ys have ..."
            sentence.weapon = re.sub(r"(?<=[a-z]{3})s$", "", name.strip())  # missiles: missile
            out.extend(sentence.effect("ability", t) for t in tokens)
        return out
    m = _NO_ENGAGED_PENALTY.match(text)
    if m:  # the penalty to shoot while engaged, which no situation here imposes
        sentence.scope = "model" if m["who"] == "this model" else sentence.scope
        sentence.conditions.append(Condition("assumed", m["state"]))
        return [sentence.effect("ignore_modifiers", "hit", "ranged")]
    m = _WITH_WEAPON_TARGETS.match(text)
    if m:
        sentence.side = "offence"
        sentence.weapon = m["weapon"]
        sentence.scope = "model"
        sentence.conditions.append(_target_condition(m["what"]))
        return [e for c in _clauses(m["effects"]) for e in _offence_clause(c, sentence)]
    m = _DAMAGED.match(text)
    if m:  # "when damaged": the model's damaged profile, a state assumed (D37)
        sentence.conditions.append(Condition("assumed", "damaged"))
        sentence.scope = "model"
        return [sentence.effect("hit", -int(m["n"]))]
    m = _WEAPON_SET.match(text)
    if m:
        sentence.weapon = m["weapon"]
        return [sentence.effect("damage_set", int(m["n"]))]
    m = _ALLOCATED_BY.match(text)
    if m:  # a model of the target's keywords is one of the target unit's (D36)
        sentence.side = "offence"
        sentence.restrict(m["kind"])
        sentence.conditions.append(_target_condition(m["what"]))
        return [e for c in _clauses(m["effects"]) for e in _offence_clause(c, sentence)]
    m = _ADD_CHARACTERISTIC.match(text)
    if m and (m["n"] is None) != (m["by"] is None):
        sentence.restrict(m["kind"] or (m["kind2"] or "").strip() or None)
        if m["weapon"] or m["weapon2"]:
            sentence.weapon = m["weapon"] or m["weapon2"]
        n = int(m["n"] or m["by"])
        kinds = [k for k in (m["what"], m["what2"], m["what3"], m["what4"]) if k]
        names = {"armour penetration": "ap"}
        return [sentence.effect(names.get(k, k), n) for k in kinds]
    m = _CAN_REROLL.match(text)
    if m:
        sentence.restrict(m["kind"].strip() if m["kind"] else None)
        return [sentence.effect(f"reroll_{m['roll']}s", "ones" if m["ones"] else "failures")]
    m = _HOLDER_HAS.match(text)
    if m:
        return _holder_items(m["items"], sentence)
    for pattern in _OTHER_MODEL_HAS:  # a rule of the unit for another model in it (D41)
        m = pattern.match(text)
        if m:
            who = m["who"].strip()
            # an attached leader is its CHARACTER group: "a CRYPTEK model" is a keyword
            sentence.models = "character" if who in ("character", "cryptek") else who
            if m.groupdict().get("state"):
                sentence.conditions.append(Condition("assumed", m["state"]))
            return _holder_items(m["items"], sentence)
    state = _WHILE.match(text)
    if state and RELEVANT.search(text):
        if OTHERS.search(state["state"]):
            return None
        sentence.conditions.append(_state_condition(state["state"], sentence))
        sentence.text = text[state.end() :]
        return read_sentence(sentence)
    return None


def _defence_clause(clause: str, sentence: Sentence) -> list[Effect]:
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
        sentence.conditions.append(_state_condition(state["state"], sentence))
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
IF_USED = re.compile(r"^if (?:it|you|they) do(?:es)?, (?:until the end of the (?:phase|turn),? )?")
FOLLOW = re.compile(
    r"^if (?P<state>[^,]+?),? (?P<effect>(?:you can )?(?:re-roll|add|subtract|improve|worsen)"
    r"[^,]*?)(?: instead| as well)?$"
    r"|^while (?P<state2>[^,]+?),? (?P<effect2>(?:you can )?(?:re-roll|add|subtract|improve|"
    r"worsen)[^,]*?) (?:instead|as well)$"
)


def follow_up(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """A sentence that continues the previous one's attacks under one more condition."""
    state = found["state"] or found["state2"]
    target = re.fullmatch(
        r"(?:the target(?: of that attack)?|that (?:attack targets a unit that|target) is"
        r"(?: also)?|that attack targets a unit that is)(?: is)?(?: also)? (?P<what>.+)",
        state,
    )
    keywords = re.fullmatch(r"that attack targets (?P<what>an? [a-z][a-z, -]*?(?: unit)?)", state)
    if target:
        what = target["what"]
        if re.search(r"within range of (?:an|one or more) objective markers?", what):
            sentence.conditions.append(Condition("assumed", "objective"))
        else:
            sentence.conditions.append(Condition("assumed", f"target {what}"))
    elif keywords:  # "if that attack targets a FORTIFICATION, ... instead"
        sentence.conditions.append(_target_condition(keywords["what"]))
    else:
        sentence.conditions.append(_state_condition(state, sentence))
    effect = (found["effect"] or found["effect2"]).replace(
        "re-roll a wound roll 1", "re-roll a wound roll of 1"
    )
    read = _defence_clause if sentence.side == "defence" else _offence_clause
    return [e for c in _clauses(effect) for e in read(c, sentence)]


def split_each_time(sentences: list[str]) -> list[str]:
    """ "..., subtract 4 from its OC and each time this model makes an attack, subtract 1
    from the hit roll" -> the leading clauses carried onto the "each time" part."""
    out: list[str] = []
    for sentence in sentences:
        found = re.match(
            r"^(?P<lead>(?:while|if) [^,]+, )(?P<first>.+?),? and (?P<rest>each time .+)$", sentence
        )
        if found and not RELEVANT.search(found["first"]):
            out.append(found["lead"] + found["rest"])
        else:
            out.append(sentence)
    return out
