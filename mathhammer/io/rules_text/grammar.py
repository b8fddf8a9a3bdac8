"""The grammar of a rule's sentences: the subject of each phrasing (the unit's own attacks,
the attacks against it, its weapons, an army's units, some of its models), after the leading
clauses (:mod:`.sentence`), with the effect clauses (:mod:`.clauses`) read into
:class:`~mathhammer.model.effects.Effect`.

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

from ...model.effects import Condition, Effect
from .characteristics import attacks_sentence
from .clauses import (
    attack_clause,
    clauses,
    defence_clause,
    granted,
    holder_items,
    keyword_list,
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
            excluded = [f"NON-{n}" for n in keyword_list(re.sub(r" units?$", "", found["ex"]))]
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
        return [*first, *(sentence.effect("ability", t) for t in granted(m["items"]))]
    m = _OVERWATCH.match(text)
    if m:  # the stratagem is a named state of the core rules
        sentence.restrict("ranged")
        sentence.conditions.append(Condition("assumed", "fire overwatch"))
        rolls = [sentence.effect("hit_on", int(m["n"]))]
        if m["better"]:
            sentence.conditions.append(state_condition(m["state"], sentence))
            rolls.append(sentence.effect("hit_on", int(m["better"])))
        return rolls
    m = _EQUIPPED_WITH.match(text)
    if m:  # "if this model is equipped with 2 dread killsaws, those weapons have ..."
        weapon = m["weapon"] if m["weapon"].endswith("us") else m["weapon"].removesuffix("s")
        sentence.conditions.append(Condition("assumed", f"equipped with {m['n']} {m['weapon']}"))
        sentence.weapon = weapon
        if m["items"]:
            return [sentence.effect("ability", t) for t in granted(m["items"])]
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
        if m["psychic"]:
            sentence.conditions.append(Condition("weapon", "PSYCHIC"))
        return [e for c in clauses(m["effects"]) for e in defence_clause(c, sentence)]
    m = _EACH_ATTACK.match(text)
    if m:
        sentence.side = "offence"
        sentence.restrict(m["kind"])
        attack_clause(m["rest"], sentence)
        return [e for c in clauses(m["effects"]) for e in offence_clause(c, sentence)]
    m = _TARGET_HAVE.match(text)
    if m:
        sentence.restrict(m["kind"])
        return new_items(m["items"], sentence, defence=True)
    m = _ATTACKS_HAVE.match(text)
    if m:
        sentence.restrict(m["kind"])
        return new_items(m["items"], sentence, defence=False)
    m = _WEAPONS_HAVE.match(text) or _EQUIPPED_HAVE.match(text)
    if m:
        sentence.restrict(m["kind"])
        return [sentence.effect("ability", t) for t in granted(m["items"])]
    m = _WEAPON_HAS.match(text)
    if m:
        items = m["items"]
        half = re.search(r" while targeting a unit within half range$", items)
        if half:
            sentence.conditions.append(Condition("half_range"))
            items = items[: half.start()]
        tokens = granted(re.sub(r"\s*abilit(?:y|ies)$", "", items))
        out: list[Effect] = []
        for name in re.split(r",? and |, ", m["weapon"]):  # "its X and Ys have ..."
            sentence.weapon = singular(name)  # missiles: missile
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
        sentence.conditions.append(target_condition(m["what"]))
        return [e for c in clauses(m["effects"]) for e in offence_clause(c, sentence)]
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
        sentence.conditions.append(target_condition(m["what"]))
        return [e for c in clauses(m["effects"]) for e in offence_clause(c, sentence)]
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
        return holder_items(m["items"], sentence)
    for pattern in _OTHER_MODEL_HAS:  # a rule of the unit for another model in it (D41)
        m = pattern.match(text)
        if m:
            who = m["who"].strip()
            # an attached leader is its CHARACTER group: "a CRYPTEK model" is a keyword
            sentence.models = "character" if who in ("character", "cryptek") else who
            if m.groupdict().get("state"):
                sentence.conditions.append(Condition("assumed", m["state"]))
            return holder_items(m["items"], sentence)
    found = attacks_sentence(sentence)
    if found is not None:
        return found
    state = _WHILE.match(text)
    if state and RELEVANT.search(text):
        if OTHERS.search(state["state"]):
            return None
        sentence.conditions.append(state_condition(state["state"], sentence))
        sentence.text = text[state.end() :]
        return read_sentence(sentence)
    return None


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
        sentence.conditions.append(target_condition(keywords["what"]))
    else:
        sentence.conditions.append(state_condition(state, sentence))
    effect = (found["effect"] or found["effect2"]).replace(
        "re-roll a wound roll 1", "re-roll a wound roll of 1"
    )
    read = defence_clause if sentence.side == "defence" else offence_clause
    return [e for c in clauses(effect) for e in read(c, sentence)]


def split_each_time(sentences: list[str]) -> list[str]:
    """ "..., subtract 4 from its OC and each time this model makes an attack, subtract 1
    from the hit roll" -> the leading clauses carried onto the "each time" part (and onto
    the first part too, when it changes attacks: "halve the attacks characteristic of that
    model's weapons")."""
    out: list[str] = []
    for sentence in sentences:
        found = re.match(
            r"^(?P<lead>(?:while|if) [^,]+, )(?P<first>.+?),? and (?P<rest>each time .+)$", sentence
        )
        if found and not RELEVANT.search(found["first"]):
            out.append(found["lead"] + found["rest"])
        elif found and _CHANGES_A.match(found["first"]):
            out.extend((found["lead"] + found["first"], found["lead"] + found["rest"]))
        else:
            out.append(sentence)
    return out


_CHANGES_A = re.compile(r"^(?:double|triple|halve) the attacks characteristic of [^,]+$")
