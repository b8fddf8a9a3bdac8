"""The grammar of a rule's sentences: the subject of each phrasing (the unit's own attacks,
the attacks against it, its weapons, an army's units (:mod:`.army`), some of its models),
after the leading clauses (:mod:`.sentence`), with the effect clauses (:mod:`.clauses`) read
into :class:`~mathhammer.model.effects.Effect`. Each phrasing is a pattern and its reader,
tried in order (:data:`_PHRASINGS`).

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
from collections.abc import Callable

from ...model.effects import Condition, Effect
from .army import army_subject
from .characteristics import attacks_sentence
from .clauses import (
    attack_clause,
    clauses,
    defence_clause,
    granted,
    holder_items,
    new_items,
    offence_clause,
    state_condition,
    target_condition,
)
from .sentence import (
    _ATTACKER,
    _KIND,
    _SELF,
    _WHILE,
    OTHERS,
    RELEVANT,
    SELECTED,
    SELECTS,
    Sentence,
    Unread,
    _leading,
    singular,
)

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


# the earlier phrasing of the unit's own attacks
_EACH_ATTACK = re.compile(
    rf"^each time {_ATTACKER} makes an? {_KIND}attack"
    r"(?P<rest>(?:[^,]|, (?=[a-z]+ (?:or|and) [a-z]+ (?:units?|models?)\b))*), (?P<effects>.+)$"
)
# the earlier phrasing of the attacks against the unit
_EACH_TARGETS = re.compile(
    rf"^each time an? {_KIND}(?P<psychic>psychic )?attack (?:targets|is allocated to) "
    rf"(?:{_SELF}|it),? (?P<effects>.+)$"
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
#: The roll a unit's Fire Overwatch hits on (docs/rules.md D45): "each time you target this
#: unit with the fire overwatch stratagem, hits are scored on unmodified hit rolls of 5+".
_OVERWATCH = re.compile(
    r"^each time you (?:target|select) this (?:unit|model|fortification) (?:with|for) the fire "
    r"overwatch stratagem, (?:while resolving that stratagem, )?hits are scored on unmodified "
    r"hit rolls of (?P<n>[2-6])\+(?: when resolving that stratagem)?(?:, or unmodified hit rolls"
    r" of (?P<better>[2-6])\+ instead if (?P<state>.+))?$"
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
    _subject(sentence)
    text = sentence.text
    if _CAN_USE.match(text):
        return []
    movement = _MOVEMENT.match(text)
    if movement:
        return _after_movement(sentence, movement["rest"])
    found = _phrased(sentence, text)
    if found is None:
        found = attacks_sentence(sentence)
    return found if found is not None else _under_state(sentence, text)


def _subject(sentence: Sentence) -> None:
    """Read the leading clauses of a sentence and who its subject is (some models of the
    unit, this model or the unit)."""
    _leading(sentence)
    _some_models(sentence)
    if sentence.scope == "unit" and _THIS_MODEL.match(sentence.text):
        sentence.scope = "model"


def _after_movement(sentence: Sentence, rest: str | None) -> list[Effect] | None:
    """The effects of what a sentence on movement goes on to say ("... and ranged weapons
    ... have [ASSAULT]"); None if it says nothing more."""
    if rest is None:
        return None
    sentence.text = rest
    return read_sentence(sentence)


def _phrased(sentence: Sentence, text: str) -> list[Effect] | None:
    """The effects of the first phrasing (:data:`_PHRASINGS`) that reads the sentence; None
    if none does."""
    for pattern, read in _PHRASINGS:
        found = pattern.match(text)
        effects = read(sentence, found) if found else None
        if effects is not None:
            return effects
    return None


def _under_state(sentence: Sentence, text: str) -> list[Effect] | None:
    """The effects of "while <state>, ..." under that state; None if the sentence says
    nothing about attacks, or the state is about other units."""
    state = _WHILE.match(text)
    if state is None or not RELEVANT.search(text) or OTHERS.search(state["state"]):
        return None
    sentence.conditions.append(state_condition(state["state"], sentence))
    sentence.text = text[state.end() :]
    return read_sentence(sentence)


def _each_clause(
    effects: str, sentence: Sentence, read: Callable[[str, Sentence], list[Effect]]
) -> list[Effect]:
    """The effects of every clause of "add 1 to the hit roll and add 1 to the wound roll"."""
    return [e for c in clauses(effects) for e in read(c, sentence)]


def _and_those(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """A characteristic of weapons, then the abilities of the same weapons."""
    sentence.text = found["first"]
    first = read_sentence(sentence)
    if not first:
        raise Unread(f"an effect '{found['first']}'")
    return [*first, *(sentence.effect("ability", t) for t in granted(found["items"]))]


def _overwatch(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The roll Fire Overwatch hits on (and a better one under a state): the stratagem is a
    named state of the core rules."""
    sentence.restrict("ranged")
    sentence.conditions.append(Condition("assumed", "fire overwatch"))
    rolls = [sentence.effect("hit_on", int(found["n"]))]
    if found["better"]:
        sentence.conditions.append(state_condition(found["state"], sentence))
        rolls.append(sentence.effect("hit_on", int(found["better"])))
    return rolls


def _equipped_with(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """A weapon doubled: "if this model is equipped with 2 dread killsaws, those weapons
    have ..." (abilities, or attacks added)."""
    name = found["weapon"]
    sentence.conditions.append(Condition("assumed", f"equipped with {found['n']} {name}"))
    sentence.weapon = name if name.endswith("us") else name.removesuffix("s")
    if found["items"]:
        return [sentence.effect("ability", t) for t in granted(found["items"])]
    return [sentence.effect("attacks", int(found["a"]))]


def _allocated(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The Damage of an attack allocated to the unit, reduced or halved."""
    if found["effect"].startswith("halve"):
        return [sentence.effect("halve_damage")]
    return [sentence.effect("damage_reduction", int(found["n"]))]


def _each_targets(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The clauses on each attack that targets the unit (the earlier phrasing)."""
    sentence.side = "defence"
    sentence.restrict(found["kind"])
    if found["psychic"]:
        sentence.conditions.append(Condition("weapon", "PSYCHIC"))
    return _each_clause(found["effects"], sentence, defence_clause)


def _each_attack(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The clauses on each attack the unit makes (the earlier phrasing)."""
    sentence.side = "offence"
    sentence.restrict(found["kind"])
    attack_clause(found["rest"], sentence)
    return _each_clause(found["effects"], sentence, offence_clause)


def _target_have(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """What the attacks that target the unit have (the newer phrasing)."""
    sentence.restrict(found["kind"])
    return new_items(found["items"], sentence, defence=True)


def _attacks_have(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """What the unit's own attacks have (the newer phrasing)."""
    sentence.restrict(found["kind"])
    return new_items(found["items"], sentence, defence=False)


def _weapons_have(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The abilities the weapons of the unit or model have."""
    sentence.restrict(found["kind"])
    return [sentence.effect("ability", t) for t in granted(found["items"])]


def _weapon_has(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The abilities one or more named weapons have ("its X and Ys have ..."), maybe only
    within half range."""
    items = found["items"]
    half = re.search(r" while targeting a unit within half range$", items)
    if half:
        sentence.conditions.append(Condition("half_range"))
        items = items[: half.start()]
    tokens = granted(re.sub(r"\s*abilit(?:y|ies)$", "", items))
    out: list[Effect] = []
    for name in re.split(r",? and |, ", found["weapon"]):
        sentence.weapon = singular(name)  # missiles: missile
        out.extend(sentence.effect("ability", t) for t in tokens)
    return out


def _no_engaged_penalty(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The penalty to shoot while engaged ignored: no situation here imposes it."""
    sentence.scope = "model" if found["who"] == "this model" else sentence.scope
    sentence.conditions.append(Condition("assumed", found["state"]))
    return [sentence.effect("ignore_modifiers", "hit", "ranged")]


def _with_weapon_targets(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The clauses on each attack with one of the model's weapons at some targets."""
    sentence.side = "offence"
    sentence.weapon = found["weapon"]
    sentence.scope = "model"
    sentence.conditions.append(target_condition(found["what"]))
    return _each_clause(found["effects"], sentence, offence_clause)


def _damaged(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The hit rolls of the model's damaged profile, a state assumed (D37)."""
    sentence.conditions.append(Condition("assumed", "damaged"))
    sentence.scope = "model"
    return [sentence.effect("hit", -int(found["n"]))]


def _weapon_set(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """A weapon's Damage characteristic changed (before any modifier)."""
    sentence.weapon = found["weapon"]
    return [sentence.effect("damage_set", int(found["n"]))]


def _allocated_by(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The clauses on each attack of the unit allocated to a model of some keywords: a
    model of the target's keywords is one of the target unit's (D36)."""
    sentence.side = "offence"
    sentence.restrict(found["kind"])
    sentence.conditions.append(target_condition(found["what"]))
    return _each_clause(found["effects"], sentence, offence_clause)


#: The characteristics as an effect names them.
_CHARACTERISTIC_KINDS = {"armour penetration": "ap"}


def _add_characteristic(sentence: Sentence, found: re.Match[str]) -> list[Effect] | None:
    """The characteristics of weapons improved; None unless the sentence says by how much,
    and only once."""
    if (found["n"] is None) == (found["by"] is None):
        return None
    _improved_weapons(sentence, found)
    n = int(found["n"] or found["by"])
    kinds = found.group("what", "what2", "what3", "what4")
    return [sentence.effect(_CHARACTERISTIC_KINDS.get(k, k), n) for k in kinds if k]


def _improved_weapons(sentence: Sentence, found: re.Match[str]) -> None:
    """Restrict a sentence to the attacks and the weapon whose characteristics it improves."""
    sentence.restrict(found["kind"] or (found["kind2"] or "").strip() or None)
    sentence.weapon = found["weapon"] or found["weapon2"] or sentence.weapon


def _can_reroll(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The unit's hit or wound rolls re-rolled (the failed ones, or the 1s)."""
    sentence.restrict(found["kind"].strip() if found["kind"] else None)
    return [sentence.effect(f"reroll_{found['roll']}s", "ones" if found["ones"] else "failures")]


def _holder_has(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """What the unit or model has: a save, Feel No Pain, Stealth."""
    return holder_items(found["items"], sentence)


def _other_model(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """What another model of the unit has: the leader attached to it, or named models
    (D41)."""
    who = found["who"].strip()
    # an attached leader is its CHARACTER group: "a CRYPTEK model" is a keyword
    sentence.models = "character" if who in ("character", "cryptek") else who
    if found.groupdict().get("state"):
        sentence.conditions.append(Condition("assumed", found["state"]))
    return holder_items(found["items"], sentence)


#: The phrasings of a sentence in the order they are tried, each with its reader; a reader
#: gives None for a sentence that only looks like its phrasing (the next one is tried).
_PHRASINGS: tuple[
    tuple[re.Pattern[str], Callable[[Sentence, re.Match[str]], list[Effect] | None]], ...
] = (
    (_AND_THOSE, _and_those),
    (_OVERWATCH, _overwatch),
    (_EQUIPPED_WITH, _equipped_with),
    (_ALLOCATED, _allocated),
    (_EACH_TARGETS, _each_targets),
    (_EACH_ATTACK, _each_attack),
    (_TARGET_HAVE, _target_have),
    (_ATTACKS_HAVE, _attacks_have),
    (_WEAPONS_HAVE, _weapons_have),
    (_EQUIPPED_HAVE, _weapons_have),
    (_WEAPON_HAS, _weapon_has),
    (_NO_ENGAGED_PENALTY, _no_engaged_penalty),
    (_WITH_WEAPON_TARGETS, _with_weapon_targets),
    (_DAMAGED, _damaged),
    (_WEAPON_SET, _weapon_set),
    (_ALLOCATED_BY, _allocated_by),
    (_ADD_CHARACTERISTIC, _add_characteristic),
    (_CAN_REROLL, _can_reroll),
    (_HOLDER_HAS, _holder_has),
    *((pattern, _other_model) for pattern in _OTHER_MODEL_HAS),
)


IF_USED = re.compile(
    r"^if (?:it|you|they) do(?:es)?, (?:then )?(?:until the end of the (?:phase|turn),? )?"
)
FOLLOW = re.compile(
    r"^if (?P<state>[^,]+?),? (?P<effect>(?:you can )?(?:re-roll|add|subtract|improve|worsen)"
    r"[^,]*?)(?: instead| as well)?$"
    r"|^while (?P<state2>[^,]+?),? (?P<effect2>(?:you can )?(?:re-roll|add|subtract|improve|"
    r"worsen)[^,]*?) (?:instead|as well)$"
)


def follow_up(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """A sentence that continues the previous one's attacks under one more condition."""
    sentence.conditions.append(_follow_condition(found["state"] or found["state2"], sentence))
    effect = (found["effect"] or found["effect2"]).replace(
        "re-roll a wound roll 1", "re-roll a wound roll of 1"
    )
    read = defence_clause if sentence.side == "defence" else offence_clause
    return _each_clause(effect, sentence, read)


def _follow_condition(state: str, sentence: Sentence) -> Condition:
    """The condition of a follow-up sentence: a state of the target, its keywords, or a
    state of the unit."""
    target = re.fullmatch(
        r"(?:the target(?: of that attack)?|that (?:attack targets a unit that|target) is"
        r"(?: also)?|that attack targets a unit that is)(?: is)?(?: also)? (?P<what>.+)",
        state,
    )
    if target:
        what = target["what"]
        if re.search(r"within range of (?:an|one or more) objective markers?", what):
            return Condition("assumed", "objective")
        return Condition("assumed", f"target {what}")
    keywords = re.fullmatch(r"that attack targets (?P<what>an? [a-z][a-z, -]*?(?: unit)?)", state)
    if keywords:  # "if that attack targets a FORTIFICATION, ... instead"
        return target_condition(keywords["what"])
    return state_condition(state, sentence)


def split_each_time(sentences: list[str]) -> list[str]:
    """ "..., subtract 4 from its OC and each time this model makes an attack, subtract 1
    from the hit roll" -> the leading clauses carried onto the "each time" part (and onto
    the first part too, when it changes attacks: "halve the attacks characteristic of that
    model's weapons")."""
    return [part for sentence in sentences for part in _each_time_parts(sentence)]


def _each_time_parts(sentence: str) -> list[str]:
    """One sentence as the parts :func:`split_each_time` reads (the sentence itself if it
    has no "each time" part)."""
    found = re.match(
        r"^(?P<lead>(?:while|if) [^,]+, )(?P<first>.+?),? and (?P<rest>each time .+)$", sentence
    )
    if found is None:
        return [sentence]
    if not RELEVANT.search(found["first"]):
        return [found["lead"] + found["rest"]]
    if _CHANGES_A.match(found["first"]):
        return [found["lead"] + found["first"], found["lead"] + found["rest"]]
    return [sentence]


_CHANGES_A = re.compile(r"^(?:double|triple|halve) the attacks characteristic of [^,]+$")
