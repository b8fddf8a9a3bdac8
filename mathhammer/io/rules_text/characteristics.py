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
    m = _DAMAGED_MODEL.match(text)
    if m:  # the model's damaged profile: a state assumed, for that model's weapons
        state = state_condition(f"this unit's {m['model']} model has {m['left']}", sentence)
        return _within(sentence, m["rest"], state, models=m["model"])
    m = _TARGETS_WITH.match(text)
    if m:
        state = state_condition(m["state"], sentence)
        return _within(sentence, m["rest"], state, weapon=m["weapon"])
    m = _IF_TARGETED.match(text)
    if m:
        sentence.conditions.append(target_condition(m["what"]))
        sentence.weapon = m["weapon"]
        return new_items(m["items"], sentence, defence=False)
    m = _SET.match(text)
    if m:
        sentence.restrict(m["kind"])
        if m["own"]:
            sentence.weapon, sentence.scope = m["own"], "model"
        elif m["named"]:
            sentence.weapon = singular(m["named"])
        elif not sentence.weapon:
            raise Unread("'that weapon' names no weapon")
        out = [sentence.effect("attacks_set", int(m["n"]))]
        if m["items"]:
            out.extend(sentence.effect("ability", t) for t in granted(m["items"]))
        return out
    m = _SCALE.match(text)
    if m:
        sentence.restrict((m["kind"] or m["kind2"] or "").strip() or None)
        if m["models"]:
            sentence.models = m["models"]
        return [sentence.effect("attacks_scale", _HOW[m["how"]])]
    m = _SCALED.match(text)
    if m and (m["rest"] is None or not _about_attacks(m["rest"])):
        sentence.scope = "model" if sentence.scope == "unit" else sentence.scope
        return [sentence.effect("attacks_scale", _HOW[m["how"]])]
    parts = clauses(text)
    if all(_ADD.match(p) for p in parts):
        return [e for p in parts for e in _added(p, sentence)]
    return None


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
    m = _ADD.match(clause)
    assert m is not None  # matched by the caller
    n = int(m["n"])
    if m["models"]:
        sentence.restrict((m["kind"] or "").strip() or None)
        sentence.models = m["models"]
        return [sentence.effect("attacks", n)]
    out = []
    for name in re.split(r",? and (?:the )?|, (?:the )?", m["weapons"].removeprefix("the ")):
        sentence.weapon = name.strip()
        out.append(sentence.effect("attacks", n))
    return out


def _about_attacks(text: str) -> bool:
    return bool(RELEVANT.search(text))
