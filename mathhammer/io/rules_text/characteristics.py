"""Sentences that change an attacks characteristic: set to a number, doubled, tripled or
halved, or added to for weapons named one by one (docs/rules.md D43).

:func:`attacks_sentence` reads one sentence (its leading clauses already read by the
grammar) into effects of kinds ``attacks_set``, ``attacks_scale`` and ``attacks``, or
gives None for a sentence of another kind.

Examples
--------
>>> s = Sentence("double the attacks characteristic of weapons equipped by daemonhost models "
...              "in that unit", "Malus Codicium")
>>> [(e.text, e.models) for e in attacks_sentence(s)]
[('daemonhost models: A doubled', 'daemonhost')]
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...model.effects import Condition, Effect
from .clauses import clauses, granted, new_items, state_condition, target_condition
from .sentence import RELEVANT, Sentence, Unread, singular

__all__ = ["attacks_sentence"]

#: "that weapon has an attacks characteristic of 4", "this model's watcher's axe melee weapon
#: has ...", "arco-flails equipped by models in this unit have ... 6 and the hazardous ability".
_SET = re.compile(
    r"^(?:(?P<that>that weapon)|this model's (?P<own>[\w' -]+?)(?: (?P<kind>melee|ranged))? "
    r"weapon|(?P<named>[\w' -]+?) equipped by models in (?:this|that) unit) (?:has|have) an "
    r"attacks characteristic of (?P<n>\d+)(?: and the (?P<items>[\w\[\] -]+?))?$"
)
#: "double the attacks characteristic of weapons equipped by daemonhost models in that unit",
#: "halve the attacks characteristic of that model's weapons".
_SCALE = re.compile(
    r"^(?P<how>double|triple|halve) the attacks characteristics? of (?:(?:this|that) model's "
    r"(?P<kind>ranged |melee )?weapons|(?P<kind2>ranged |melee )?weapons equipped by (?:"
    r"(?P<models>[\w' -]+?) models in (?:this|that) unit|models in (?:this|that) unit|this "
    r"model))$"
)
#: "the attacks characteristics of all of its weapons are halved, and <something else>".
_SCALED = re.compile(
    r"^the attacks characteristics? of (?:all of )?(?:its|this model's) weapons (?:is|are) "
    r"(?P<how>halved|doubled|tripled)(?:, and (?P<rest>.+))?$"
)
_HOW = {"double": "double", "doubled": "double", "triple": "triple", "tripled": "triple",
        "halve": "half", "halved": "half"}  # fmt: skip
#: "add 2 to the attacks characteristic of ranged weapons equipped by kastelan robot models in
#: that unit", "add 3 to the attacks characteristic of fidelis and the lance of illumination",
#: "add 1 to ... of this model's reaper chain-cleaver - strike profile".
_ADD = re.compile(
    r"^add (?P<n>\d) to the attacks characteristic of (?:(?P<kind>ranged |melee )?weapons "
    r"equipped by (?P<models>[\w' -]+?) models in (?:this|that) unit|(?:this model's )?"
    r"(?P<weapons>(?!.*\b(?:models?|units?|weapons?)\b)[a-z][\w' -]+?)(?: profile)?)$"
)
#: A model of the unit damaged: "while this unit's szarekh model has 1-6 wounds remaining, ..."
_DAMAGED_MODEL = re.compile(
    r"^while this unit's (?P<model>[\w' -]+?) model has (?P<left>\d+-\d+ wounds remaining), "
    r"(?P<rest>.+)$"
)
#: "each time a model in this unit targets the closest eligible target with its snazzgun,
#: until the end of the phase, ...": a weapon's attacks under a named state.
_TARGETS_WITH = re.compile(
    r"^each time (?:a model in this unit|this model) targets (?P<state>the closest eligible "
    r"target) with its (?P<weapon>[\w' -]+?), (?:until the end of the phase, )?(?P<rest>.+)$"
)
#: "while making attacks with this unit, if its blitzkannon targeted a non-monster/vehicle
#: unit, that weapon has +6 a".
_IF_TARGETED = re.compile(
    r"^(?:while making attacks with this unit, )?if its (?P<weapon>[\w' -]+?) targeted "
    r"(?P<what>an? [\w/, -]+? unit), that weapon has (?P<items>.+)$"
)


def attacks_sentence(sentence: Sentence) -> list[Effect] | None:
    """The effects of a sentence that changes an attacks characteristic; None for another.

    Examples
    --------
    >>> s = Sentence("arco-flails equipped by models in this unit have an attacks "
    ...              "characteristic of 6 and the hazardous ability", "Extremis")
    >>> [(e.text, e.weapon) for e in attacks_sentence(s)]
    [('arco-flail: A set to 6', 'arco-flail'), ('arco-flail: [HAZARDOUS]', 'arco-flail')]
    >>> s = Sentence("add 3 to the attacks characteristic of fidelis and the lance of "
    ...              "illumination", "Righteous Repugnance")
    >>> [e.text for e in attacks_sentence(s)]
    ['fidelis: +3 A', 'lance of illumination: +3 A']
    """
    text = sentence.text
    for pattern, read in _PHRASINGS:
        found = pattern.match(text)
        if found:
            return read(sentence, found)
    return _all_added(clauses(text), sentence)


def _all_added(parts: list[str], sentence: Sentence) -> list[Effect] | None:
    """The attacks every clause of a sentence adds ("add 2 to the attacks characteristic of
    ..."); None unless every clause adds attacks."""
    if not all(_ADD.match(p) for p in parts):
        return None
    return [e for p in parts for e in _added(p, sentence)]


def _damaged_model(sentence: Sentence, found: re.Match[str]) -> list[Effect] | None:
    """The model's damaged profile: a state assumed, for that model's weapons."""
    state = state_condition(f"this unit's {found['model']} model has {found['left']}", sentence)
    return _within(sentence, found["rest"], state, models=found["model"])


def _targets_with(sentence: Sentence, found: re.Match[str]) -> list[Effect] | None:
    """A weapon's attacks under a named state ("targets the closest eligible target")."""
    state = state_condition(found["state"], sentence)
    return _within(sentence, found["rest"], state, weapon=found["weapon"])


def _if_targeted(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """What a weapon has against targets of some keywords."""
    sentence.conditions.append(target_condition(found["what"]))
    sentence.weapon = found["weapon"]
    return new_items(found["items"], sentence, defence=False)


def _set(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """A weapon's attacks characteristic set to a number (and the abilities it gains)."""
    sentence.restrict(found["kind"])
    _set_weapon(sentence, found)
    out = [sentence.effect("attacks_set", int(found["n"]))]
    if found["items"]:
        out.extend(sentence.effect("ability", t) for t in granted(found["items"]))
    return out


def _set_weapon(sentence: Sentence, found: re.Match[str]) -> None:
    """Name the weapon whose attacks are set: the model's own, one named, or the weapon an
    earlier sentence named ("that weapon")."""
    if found["own"]:
        sentence.weapon, sentence.scope = found["own"], "model"
    elif found["named"]:
        sentence.weapon = singular(found["named"])
    elif not sentence.weapon:
        raise Unread("'that weapon' names no weapon")


def _scale(sentence: Sentence, found: re.Match[str]) -> list[Effect]:
    """The attacks of weapons (of some models) doubled, tripled or halved."""
    sentence.restrict((found["kind"] or found["kind2"] or "").strip() or None)
    if found["models"]:
        sentence.models = found["models"]
    return [sentence.effect("attacks_scale", _HOW[found["how"]])]


def _scaled(sentence: Sentence, found: re.Match[str]) -> list[Effect] | None:
    """The attacks of all the model's weapons scaled; None if the sentence goes on about
    attacks (no other phrasing reads it)."""
    if found["rest"] is not None and _about_attacks(found["rest"]):
        return None
    sentence.scope = "model" if sentence.scope == "unit" else sentence.scope
    return [sentence.effect("attacks_scale", _HOW[found["how"]])]


#: The phrasings of a sentence on attacks, each with its reader: the first that matches reads
#: the sentence (or gives None).
_PHRASINGS: tuple[
    tuple[re.Pattern[str], Callable[[Sentence, re.Match[str]], list[Effect] | None]], ...
] = (
    (_DAMAGED_MODEL, _damaged_model),
    (_TARGETS_WITH, _targets_with),
    (_IF_TARGETED, _if_targeted),
    (_SET, _set),
    (_SCALE, _scale),
    (_SCALED, _scaled),
)


def _within(
    sentence: Sentence, rest: str, state: Condition, *, models: str = "", weapon: str = ""
) -> list[Effect] | None:
    """The rest of a sentence read under its leading state (and for some models or a
    weapon); the sentence left as it was when the rest changes no attacks characteristic."""
    kept = (sentence.text, list(sentence.conditions), sentence.models, sentence.weapon)
    sentence.text = rest
    sentence.conditions.append(state)
    sentence.models = models or sentence.models
    sentence.weapon = weapon or sentence.weapon
    found = attacks_sentence(sentence)
    if found is None:
        sentence.text, sentence.conditions, sentence.models, sentence.weapon = kept
    return found


def _added(clause: str, sentence: Sentence) -> list[Effect]:
    """The attacks one clause adds: to the weapons of some models, or to weapons named one
    by one."""
    m = _ADD.match(clause)
    assert m is not None  # matched by the caller
    n = int(m["n"])
    if not m["models"]:
        return _added_to_weapons(m["weapons"], n, sentence)
    sentence.restrict((m["kind"] or "").strip() or None)
    sentence.models = m["models"]
    return [sentence.effect("attacks", n)]


def _added_to_weapons(weapons: str, n: int, sentence: Sentence) -> list[Effect]:
    """The attacks added to each weapon of "fidelis and the lance of illumination"."""
    out = []
    for name in re.split(r",? and (?:the )?|, (?:the )?", weapons.removeprefix("the ")):
        sentence.weapon = name.strip()
        out.append(sentence.effect("attacks", n))
    return out


def _about_attacks(text: str) -> bool:
    """True if the text is about attacks (:data:`~.sentence.RELEVANT`)."""
    return bool(RELEVANT.search(text))
