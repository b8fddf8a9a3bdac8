"""Defensive abilities from datasheet text: the common phrasings as profile fields.

Importers pass every ability of a datasheet here; what is understood becomes fields of
the model profiles (invulnerable save, Feel No Pain, Feel No Pain against mortal
wounds, damage reduction, halved damage, Stealth), and every ability whose text could
change an attack against the unit but is not understood is returned to be listed, with
the reason.

The reading is deliberately strict: a sentence becomes a field only when all of it is one
of the known unconditional phrasings ("Models in this unit have the Feel No Pain 5+
ability.", "Each time an attack is allocated to this model, subtract 1 from the Damage
characteristic of that attack."). A condition anywhere in the sentence ("while this unit
is within range of an objective marker", "against ranged attacks", "once per battle")
leaves it unread, because an unconditional field would overstate the unit. An ability
whose other sentences are read keeps those fields and is listed as partly read. Abilities
that cannot change an attack against the unit (movement, the unit's own attacks, auras
for other units) land in neither list.

Examples
--------
>>> found = read_defences([
...     AbilityText("Feel No Pain 5+"),
...     AbilityText("Implacable", "Each time an attack is allocated to this model, subtract 1 "
...                 "from the Damage characteristic of that attack."),
...     AbilityText("Claim Stalker", "While this unit is within range of an objective "
...                 "marker, it has the Stealth ability."),
...     AbilityText("Scouts 6\\""),
... ])
>>> found.fnp, found.damage_reduction, found.stealth
(5, 1, False)
>>> [a.name for a in found.understood]
['Feel No Pain 5+', 'Implacable']
>>> [(a.name, a.reason) for a in found.not_understood]  # doctest: +NORMALIZE_WHITESPACE
[('Claim Stalker', 'conditional: while this unit is within range of an objective marker')]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..core.caches import register
from ..model.unit import ToughnessWhile
from ..units.datasheet import AbilityText, ModelProfile
from .rules_text.clauses import matched_kind
from .rules_text.fields import read_toughness_while
from .rules_text.text import UnreadAbility, clean_rule_text, rule_sentences

__all__ = [
    "Defences",
    "UnreadAbility",
    "read_ability",
    "read_defences",
    "read_toughness_while",
]


@dataclass(frozen=True)
class Defences:
    """The profile fields read from a datasheet's abilities, and what was not understood.

    ``understood`` lists the abilities read in full; ``not_understood`` lists, as
    :class:`UnreadAbility` with a reason, those that could change an attack against the
    unit but were not read (or only partly: their read sentences still give fields).
    """

    invuln: int | None = None
    fnp: int | None = None
    fnp_mortal: int | None = None
    damage_reduction: int = 0
    halve_damage: bool = False
    stealth: bool = False
    understood: tuple[AbilityText, ...] = ()
    not_understood: tuple[AbilityText, ...] = ()
    toughness_while: tuple[tuple[str, ToughnessWhile], ...] = ()

    def apply(self, model: ModelProfile) -> ModelProfile:
        """The model profile with these defences (the better of its own and these).

        Examples
        --------
        >>> boy = ModelProfile("Boy", toughness=5, save=5, wounds=1)
        >>> Defences(fnp=6, invuln=5).apply(boy).fnp
        6
        """
        return replace(
            model,
            toughness_while=self.toughness_for(model.name) or model.toughness_while,
            invuln=_best(model.invuln, self.invuln),
            fnp=_best(model.fnp, self.fnp),
            fnp_mortal=_best(model.fnp_mortal, self.fnp_mortal),
            damage_reduction=max(model.damage_reduction, self.damage_reduction),
            halve_damage=model.halve_damage or self.halve_damage,
        )

    def toughness_for(self, model: str) -> ToughnessWhile | None:
        """The Toughness rule read for the models of this name (D40), or None."""
        name = model.casefold()
        return next((rule for who, rule in self.toughness_while if who in name), None)


def _best(a: int | None, b: int | None) -> int | None:
    """The better of two "N+" rolls (the lower), None meaning none."""
    return b if a is None else a if b is None else min(a, b)


@dataclass
class _Reading:
    """The fields one ability gives, and its sentences that were not read."""

    fields: dict[str, int | bool] = field(default_factory=dict)
    unread: list[str] = field(default_factory=list)
    relevant: bool = False

    def give(self, name: str, value: int | bool) -> None:
        _keep_best(self.fields, name, value)
        self.relevant = True

    def result(self) -> tuple[dict[str, int | bool], str | None, bool]:
        """The fields, why the ability was not (fully) read, and its relevance."""
        if not self.unread:
            return self.fields, None, self.relevant
        reason = "; ".join(dict.fromkeys(map(_reason, self.unread)))
        if self.fields:
            reason = f"partly read ({', '.join(self.fields)}); not read: {reason}"
        return self.fields, reason, True


#: How to pick the better of two values of a field that does not stack.
_BETTER: dict[str, Callable[[int, int], int]] = {
    "invuln": min,
    "fnp": min,
    "fnp_mortal": min,
    "damage_reduction": max,
}


def _keep_best(fields: dict[str, int | bool], name: str, value: int | bool) -> None:
    """Set a field to the better of its value and ``value``: these abilities do not stack."""
    better = _BETTER.get(name)
    known = fields.get(name)
    if better is not None and isinstance(known, int):
        value = better(known, int(value))
    fields[name] = value


# --- what a sentence says -------------------------------------------------------------------

#: Who a defensive sentence may be about for it to describe this unit without a condition.
_HOLDER = (
    r"(?:this model|the bearer|this unit|(?:each |every )?models? in this unit|"
    r"models in the bearer's unit|the bearer's unit|this fortification)"
)
_TARGET = (
    r"(?:this model|the bearer|this unit|a model in this unit|models in this unit|"
    r"a model in the bearer's unit|the bearer's unit|this fortification)"
)
_DEFENSIVE = re.compile(
    r"feel no(?:t)? pain|\bfnp\b|invulnerable|\binsv\b|benefit of cover|saving throw|"
    r"\bstealth\b(?! battlesuit| drone| projector)|\bsave (?:characteristic|roll)|"
    r"(?:toughness|wounds|save) characteristics?|[+-]\d+ (?:t|w|sv)\b|\ballocated\b|"
    r"would lose a wound|"
    r"\battacks? targets? (?:this|the bearer|that unit|it\b|an? [^,]*? unit from your army)|"
    r"\bagainst (?:this|the bearer|it)\b|target of an? (?:ranged |melee )?attack|"
    r"damage characteristic of (?:that|the|an) attack|that attack's damage|"
    r"worsen the armour penetration|"
    r"subtract \d from (?:the|that attack's) (?:hit|wound) roll"
)
_OWN_ATTACKS = re.compile(
    r"\b(?:this model|this unit|the bearer|it|(?:a |each )?models? in (?:this|the bearer's) "
    r"unit) (?:makes?|attacks with|shoots|fights)\b"
)
_AGAINST_ME = re.compile(r"\ballocated to\b|\battacks? targets? (?:this|the bearer|it)\b")
_CHOICE = re.compile(r"one of the following|select one of|corresponds? (?:to|with) the")

_DAMAGE = (
    r"(?:the damage characteristic of (?:that|the) attack|that attack's damage characteristic)"
)
_DAMAGE_MINUS_1 = re.compile(
    rf"^each time an attack is allocated to {_TARGET}, subtract 1 from {_DAMAGE}$"
)
_HALVE = re.compile(rf"^each time an attack is allocated to {_TARGET}, halve {_DAMAGE}$")
_HAS = re.compile(rf"^{_HOLDER} (?:has|have|gains?) (?P<items>.+)$")
_MORTAL = {
    "mortal wounds",
    "psychic attacks and mortal wounds",
    "mortal wounds and psychic attacks",
}
#: Sentences beside a read ability that change nothing the engine models.
_BENIGN = re.compile(
    r"^(?:this is not cumulative with any other modifiers that worsen the damage "
    r"characteristic of an attack|you cannot re-roll invulnerable saving throws made for "
    r"this model)$"
)
#: Core rules that change no attack against the unit: unit abilities that appear beside
#: Stealth ("the Infiltrators and Stealth abilities") and the weapon abilities' own rules.
_HARMLESS = re.compile(
    r'^(?:infiltrators|lone operative|scouts(?: \d+")?|deep strike|fights first|leader|'
    r"deadly demise(?: [\dd+]+)?|hover|firing deck(?: \d+)?|ignores cover|precision|anti|"
    r"devastating wounds|lethal hits|sustained hits|torrent|blast|cleave|melta|lance|heavy|"
    r"hazardous|indirect fire|twin-linked|rapid fire|assault|pistol|extra attacks)$"
)
#: The number of a named core ability: "Feel No Pain 5+", "Invulnerable Save (4+)".
_FNP_NAME = re.compile(r"^(?:feel no(?:t)? pain|fnp):? \(?([2-6])\+\)?$")
_INVULN_NAME = re.compile(r"^(?:invulnerable save|insv):? ?\(?([2-6])\+(\*?)\)?$")
_UNSTARRED_INVULN_NAME = re.compile(r"^(?:invulnerable save|insv):? ?\(?([2-6])\+\)?$")
_ROLL_TEXT = re.compile(r"^([2-6])\+$")
_IMPROVED = re.compile(r"\bimproved to (?:an? )?[2-6]\+ against (?:ranged|melee) attacks")
_INVULN_TEXT = re.compile(r"^(?:invulnerable save:? )?([2-6])\+(?: invulnerable save)?$")

_CONDITIONS = re.compile(
    r"\b(once per (?:battle|turn|phase|battle round)|twice per battle|while [^,:]+|"
    r"(?:at the (?:start|end) of|in) (?:the|your|your opponent's|any) [\w ]*?phase|"
    r"each time an? (?!attack\b)[^,]+? (?:unit|model) makes an attack[^,]*|"
    r"(?:an attack|attacks?) with an? [^,]+? characteristic of [^,]+|"
    r"if [^,:]+|until [^,:]+|when [^,:]+|within [^,:]+|"
    r"(?:character|non-character) models in (?:this|that) unit|leading a unit)"
)
_ATTACK_KIND = re.compile(r"\b(ranged|melee|psychic) attacks?\b")
#: Why a defensive sentence is not read, by the first thing it mentions: a condition, an
#: attack kind, or an effect the engine has no profile field for (``{}`` is what was found).
_REASONS = (
    (_CONDITIONS, "conditional: {}"),
    (_ATTACK_KIND, "conditional: {} attacks only"),
    (
        re.compile(r"worsen the armour penetration"),
        "worsening the AP of an attack is not expressible",
    ),
    (
        re.compile(r"characteristic|[+-]\d+ (?:t|w|sv)\b"),
        "a change of a characteristic (T, Sv, W) is not read",
    ),
    (
        re.compile(r"\broll\b|saving throw"),
        "a Hit, Wound or save roll modifier is not a profile field",
    ),
)


def _reason(sentence: str) -> str:
    """Why a defensive sentence was not turned into fields."""
    for mention, reason in _REASONS:
        found = mention.search(sentence)
        if found:
            return reason.format(*found.groups())
    return "phrasing not recognised"


def _read_items(items: str, reading: _Reading) -> bool:
    """Read "the Feel No Pain 5+ and Stealth abilities" and the like into ``reading``."""
    split = re.match(r"^(?P<items>.+?) against (?P<against>.+)$", items)
    gives = _against(split["items"], split["against"]) if split else _item_fields(items)
    if not gives:
        return False
    for name, value in gives:
        reading.give(name, value)
    return True


def _against(items: str, against: str) -> list[tuple[str, int | bool]] | None:
    """The fields of core abilities had "against" some attacks: only Feel No Pain against
    mortal wounds is read; None otherwise."""
    if against not in _MORTAL:
        return None
    match _item_fields(items):
        case [("fnp", roll)]:
            return [("fnp_mortal", roll)]
    return None


def _item_fields(items: str) -> list[tuple[str, int | bool]] | None:
    """The fields a list of core abilities gives; None if one is neither read nor harmless."""
    gives: list[tuple[str, int | bool]] = []
    for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", items):
        item = re.sub(r"^the |\s*abilit(?:y|ies)$", "", item.strip())
        given = _item_field(item)
        if given is not None:
            gives.append(given)
        elif not _HARMLESS.match(item):
            return None
    return gives


#: The core abilities a sentence may list with their roll, each with its field.
_ROLLED_ITEMS = (
    (re.compile(r"(?:feel no(?:t)? pain|fnp) ([2-6])\+"), "fnp"),
    (re.compile(r"(?:an? )?([2-6])\+ (?:invulnerable save|insv)"), "invuln"),
)


def _item_field(item: str) -> tuple[str, int | bool] | None:
    """The field one listed core ability gives ("stealth", "feel no pain 5+", "a 4+
    invulnerable save"), or None."""
    if item == "stealth":
        return "stealth", True
    return matched_kind(_ROLLED_ITEMS, item)


def _read_sentence(sentence: str, reading: _Reading) -> bool:
    """Add what one cleaned sentence says to ``reading``; False if it is not defensive."""
    if _BENIGN.match(sentence):
        return True
    if not _against_unit(sentence):
        return False
    reading.relevant = True
    _read_fields(sentence, reading)
    return True


def _read_fields(sentence: str, reading: _Reading) -> None:
    """Add the fields a defensive sentence gives to ``reading``, or list it as unread."""
    has = _HAS.match(sentence)
    if _DAMAGE_MINUS_1.match(sentence):
        reading.give("damage_reduction", 1)
    elif _HALVE.match(sentence):
        reading.give("halve_damage", True)
    elif not (has and _read_items(has["items"], reading)):
        reading.unread.append(sentence)


def _against_unit(sentence: str) -> bool:
    """Whether a sentence is defensive: about attacks against the unit, not its own."""
    if not _DEFENSIVE.search(sentence):
        return False
    # a sentence about the unit's own attacks is not about attacks against it
    return not _OWN_ATTACKS.search(sentence) or bool(_AGAINST_ME.search(sentence))


def _read_named(name: str, text: str, reading: _Reading) -> bool:
    """Read a core ability by its name ("Feel No Pain 5+", "Stealth", "Invulnerable Save").

    True if the name says it all (the text is then the core rule's own wording).
    """
    fnp = _named_fnp(name, text)
    invuln = _named_invuln(name, text)
    if fnp is not None:
        reading.give("fnp", fnp)
    elif name == "stealth":
        reading.give("stealth", True)
    elif invuln is not None:
        reading.give("invuln", invuln)
    else:
        return False
    return True


def _roll(found: re.Match[str] | None) -> int | None:
    """The roll captured by the first group of a match ("4" of "4+"), or None."""
    return int(found[1]) if found else None


def _named_fnp(name: str, text: str) -> int | None:
    """The roll of "Feel No Pain 5+", or of "Feel No Pain" whose text is "5+"; else None."""
    if name == "feel no pain":
        return _roll(_ROLL_TEXT.match(text))
    return _roll(_FNP_NAME.match(name))


def _named_invuln(name: str, text: str) -> int | None:
    """The roll of "Invulnerable Save 4+" (not starred; its text, if any, the roll alone),
    or of "Invulnerable Save" whose text is "4+"; else None."""
    stated = _INVULN_TEXT.match(text)
    if name == "invulnerable save":
        return _roll(stated)
    if text and not stated:  # the text qualifies the save
        return None
    return _roll(_UNSTARRED_INVULN_NAME.match(name))


def read_ability(ability: AbilityText) -> tuple[dict[str, int | bool], str | None, bool]:
    """What one ability gives: its fields, why it was not (fully) read, and its relevance.

    Relevant abilities are those that could change an attack against the unit.

    Examples
    --------
    >>> read_ability(AbilityText("Unnatural Resistance",
    ...              "This model has the Feel No Pain 4+ ability against Mortal Wounds."))
    ({'fnp_mortal': 4}, None, True)
    >>> read_ability(AbilityText("Bizarrely Resilient", "Each time an attack targets this "
    ...              "model, worsen the Armour Penetration characteristic of that attack by 1."))
    ({}, 'worsening the AP of an attack is not expressible', True)
    >>> read_ability(AbilityText("Invulnerable Save (4+*)", "Against ranged attacks only."))
    ({}, 'conditional: ranged attacks only', True)
    >>> read_ability(AbilityText("Waaagh!", "Once per battle, you can call a Waaagh!."))
    ({}, None, False)
    """
    fields, reason, relevant = _ability_reading(ability)
    return dict(fields), reason, relevant


@register
@lru_cache(maxsize=2048)
def _ability_reading(
    ability: AbilityText,
) -> tuple[tuple[tuple[str, int | bool], ...], str | None, bool]:
    """:func:`read_ability`'s reading, its fields as pairs: cached, as a catalogue prints
    the same ability on many datasheets."""
    reading = _Reading()
    name, text = clean_rule_text(ability.name), clean_rule_text(ability.text)
    fields, reason, relevant = _read_by_name(name, text, reading) or _read_text(name, text, reading)
    return tuple(fields.items()), reason, relevant


def _read_by_name(
    name: str, text: str, reading: _Reading
) -> tuple[dict[str, int | bool], str | None, bool] | None:
    """What an ability gives when its name settles it (a core ability, a harmless one, or
    Feel No Pain without its value); None when its text is to be read."""
    if _read_named(name, text, reading):
        return reading.fields, None, True
    if _HARMLESS.match(name):
        return {}, None, False
    if name == "feel no pain":
        return {}, "Feel No Pain without its value", True
    return None


def _read_text(
    name: str, text: str, reading: _Reading
) -> tuple[dict[str, int | bool], str | None, bool]:
    """What an ability gives by its text, read sentence by sentence."""
    sentences = rule_sentences(text)
    if _is_choice(text, sentences):
        return {}, "a choice among effects, " + _reason(text), True
    _read_sentences(sentences, reading, _INVULN_NAME.match(name))
    if name.startswith(("feel no pain", "invulnerable save")) and not reading.fields:
        reading.unread.append(text or name)  # a core ability whose value was not found
    return reading.result()


def _is_choice(text: str, sentences: list[str]) -> bool:
    """Whether the text offers a choice among effects, one of them defensive."""
    return bool(_CHOICE.search(text)) and any(_DEFENSIVE.search(s) for s in sentences)


def _read_sentences(sentences: list[str], reading: _Reading, starred: re.Match[str] | None) -> None:
    """Read each sentence into ``reading``, and the save of a starred invulnerable save."""
    for sentence in sentences:
        if not _read_sentence(sentence, reading) and starred:
            reading.unread.append(sentence)  # the footnote of a starred save qualifies it
    _keep_starred_save(starred, reading)


def _keep_starred_save(starred: re.Match[str] | None, reading: _Reading) -> None:
    """Give the save of a starred "Invulnerable Save (4+*)" unless its footnote qualifies it."""
    if starred is None or "invuln" in reading.fields:
        return
    # a footnote that only improves the save against some attacks leaves the save itself
    if all(_IMPROVED.search(u) for u in reading.unread):
        reading.give("invuln", int(starred[1]))


def read_defences(abilities: Iterable[AbilityText]) -> Defences:
    """Read the defensive abilities of one datasheet into profile fields.

    The best of several readings applies (the lowest Feel No Pain and invulnerable save,
    the largest damage reduction): these abilities do not stack.

    Parameters
    ----------
    abilities : iterable of AbilityText
        Every ability of the datasheet (or of the wargear a model took), name and text.

    Returns
    -------
    Defences
        The fields, the abilities read and those not read (with their reasons).

    Examples
    --------
    >>> d = read_defences([AbilityText("Invulnerable Save", "4+"),
    ...                    AbilityText("Hardy", "Models in this unit have the Feel No Pain 6+ "
    ...                                "ability against Psychic Attacks and mortal wounds.")])
    >>> d.invuln, d.fnp, d.fnp_mortal
    (4, None, 6)
    """
    fields: dict[str, int | bool] = {}
    understood: list[AbilityText] = []
    unread: list[AbilityText] = []
    toughness: list[tuple[str, ToughnessWhile]] = []
    for ability in abilities:
        ruled = read_toughness_while(ability)
        if ruled is None:
            _add_ability(ability, fields, understood, unread)
        else:
            toughness.append(ruled)
            understood.append(ability)
    return Defences(
        understood=tuple(understood),
        not_understood=tuple(unread),
        toughness_while=tuple(toughness),
        **fields,  # type: ignore[arg-type]
    )


def _add_ability(
    ability: AbilityText,
    fields: dict[str, int | bool],
    understood: list[AbilityText],
    unread: list[AbilityText],
) -> None:
    """Add the fields of one ability to ``fields``, and list it as understood or not."""
    given, reason, relevant = read_ability(ability)
    for name, value in given.items():
        _keep_best(fields, name, value)
    if reason is not None:
        unread.append(UnreadAbility(ability.name, ability.text, reason))
    elif relevant:
        understood.append(ability)
