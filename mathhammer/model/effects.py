"""The effects of a unit's own rules, typed: what changes, for which attacks, on what condition.

A datasheet's, a leader's or a detachment's rules text (read by
:func:`mathhammer.io.rules_text.read_rules`) becomes :class:`Effect` values. An effect is
on the **offence** side (it changes the unit's own attacks: +1 to hit, re-roll wound rolls
of 1, +1 AP, a granted [LETHAL HITS]...) or the **defence** side (it changes the attacks
that target the unit: -1 AP, -1 D, -1 to wound rolls, a 5+ invulnerable save...). It may
concern only ranged or only melee attacks, and it may hold only under conditions
(:class:`Condition`): the unit charged, remained stationary, the target within half range
or with some keywords, or a named state of the game that no profile records ("riled up",
"waaagh", "objective"), which holds when the situation assumes it (``Context(assume=...)``).

An effect acts on an attack as an :class:`EffectRule`, a typed ability: offence rules ride
on the attacker's weapons, defence rules on the target (``Unit.rules``), and the ruleset
applies both to each pool's draft, so the exact engine and the Monte Carlo see them alike.
Whether an effect holds is decided per pool, in the pool's situation: a rule whose
conditions do not hold is not applied and not listed as used.

Examples
--------
>>> from mathhammer.model.context import Context, Modifiers
>>> from mathhammer.model.draft import PoolDraft, Situation
>>> from mathhammer.model.profiles import Unit, Weapon
>>> dodge = Effect("hit", 1, source="Dodge Dis!")
>>> rule = EffectRule(dodge)
>>> str(rule)
'Dodge Dis! (+1 to hit)'
>>> charged = EffectRule(Effect("wound", 1, "melee", (Condition("charged"),), source="Ere We Go"))
>>> situation = Situation(Context(), Unit.of("Boyz", 10, 5, 5, 1), melee=True)
>>> charged.effective(situation), rule.effective(situation)
(False, True)
>>> draft = PoolDraft.start(Weapon("Choppa", 3, 3, 5, -1, 1), Modifiers(), situation)
>>> rule.apply(draft, situation)
>>> draft.hit_modifier
1
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from ..errors import ProfileError, field_error
from .ability_base import Ability
from .ability_text import parse_token
from .conditions import ASSUMED, CONDITIONS, Condition
from .context import assumption_name
from .effect_changes import SCALES, change_draft, granted
from .fields import phrases_field
from .unit import group_named

if TYPE_CHECKING:
    from .draft import PoolDraft, Situation
    from .profiles import Weapon
    from .unit import ModelGroup

__all__ = [
    "ASSUMED",
    "CONDITIONS",
    "DEFENCE",
    "OFFENCE",
    "Condition",
    "Effect",
    "EffectRule",
    "POOL_DEFENCE",
    "arm",
    "assumption_name",
    "guards",
]

#: Effect kinds on the unit's own attacks, and what the value is.
OFFENCE = {
    "hit": "a roll modifier (+1, -1)",
    "wound": "a roll modifier (+1, -1)",
    "attacks": "added to A",
    "attacks_set": "A changed to N, before any other change",
    "attacks_scale": "'double', 'triple' or 'half': A multiplied (rounding up), before any added",
    "strength": "added to S",
    "ap": "the AP improved by this much (+1: AP -1 becomes -2)",
    "damage": "added to D",
    "reroll_hits": "'ones', 'failures' or 'non_critical'",
    "reroll_wounds": "'ones', 'failures' or 'non_critical'",
    "reroll_damage": "'optimal' (each damage roll re-rolled where that helps, D31) or 'ones'",
    "damage_set": "the D characteristic changed to N, before any modifier",
    "hit_on": "a hit scored on an unmodified hit roll of N+, whatever the BS/WS and modifiers",
    "critical_hit": "an unmodified hit roll of N+ is a Critical Hit",
    "critical_wound": "an unmodified wound roll of N+ is a Critical Wound",
    "critical_all": "'hit' or 'wound': every successful roll of that kind is a critical one",
    "skill": "BS/WS improved by N (1: 4+ becomes 3+), a characteristic change",
    "ignore_modifiers": "'skill', 'hit' or 'wound': the penalties to it ignored (bonuses kept)",
    "ability": "a weapon ability granted, as printed ('LETHAL HITS', 'SUSTAINED HITS 1')",
}
#: Effect kinds on the attacks that target the unit, and what the value is.
DEFENCE = {
    "target_hit": "a modifier to the attacker's hit rolls (-1)",
    "target_wound": "a modifier to the attacker's wound rolls (-1)",
    "target_ap": "the attack's AP worsened by this much (1: AP -2 becomes -1)",
    "target_damage": "added to the attack's D (-1), never below 1",
    "invuln": "an invulnerable save of N+",
    "target_save": "the armour save improved by N against the attack (1: 4+ becomes 3+)",
    "cover": "the benefit of cover (ranged attacks)",
    "fnp": "Feel No Pain N+",
    "fnp_mortal": "Feel No Pain N+ against mortal wounds",
    "damage_reduction": "subtract N from the Damage of each attack allocated to a model",
    "halve_damage": "halve the Damage of each attack allocated to a model",
    "stealth": "Stealth",
}
#: Defence kinds that are fields of the models or the unit, not of the attack: only an
#: unconditional effect of these kinds applies (it becomes the profile's field).
PROFILE_FIELDS = frozenset({"fnp", "fnp_mortal", "damage_reduction", "halve_damage", "stealth"})

_ROLL = ("hit", "wound", "target_hit", "target_wound")


def _choice(field: str, value: object, allowed: Container[object], wanted: str) -> None:
    """Check a value that takes one of a few values; ``wanted`` lists them for the error."""
    if value not in allowed:
        raise field_error(ProfileError, field, wanted, value)


def _policy(value: object) -> str:
    """The re-roll policy of a ``reroll_hits`` or ``reroll_wounds`` effect, checked."""
    policies = ("ones", "failures", "non_critical")
    _choice("Effect.value", value, policies, "'ones', 'failures' or 'non_critical'")
    return str(value)


@dataclass(frozen=True)
class Effect:
    """One typed effect of a rule.

    Parameters
    ----------
    kind : str
        One of :data:`OFFENCE` or :data:`DEFENCE`.
    value : int or str
        The number, the re-roll policy or the granted ability (see the kind).
    attacks : {None, "ranged", "melee"}
        The attacks it concerns (the unit's own, or those that target it): all by default.
    conditions : tuple of Condition
        All must hold for the effect to apply.
    source : str
        The rule's name, as printed.
    scope : {"unit", "model", "led"}
        Who it is about: the unit (an attached unit as a whole), the models of the
        datasheet that carries it, or (a leader's "while this model is leading a unit")
        the unit it leads.
    weapon : str
        Only attacks with weapons of this name ("burna": any weapon whose name contains
        it, in any case); every weapon by default.
    models : str
        Only the models whose name contains it (case aside): "each time a Sisters Repentia
        model in this unit makes a melee attack" is for those models' weapons, so a rule on
        some models splits their pool from the others' (docs/rules.md D41); every model of
        the unit by default.
    units : tuple of str
        An army or detachment rule's units: the effect is for each unit of the army with
        one of these keyword phrases (``"ORKS INFANTRY"``: every keyword of it) and none of
        those marked ``NON-`` (:meth:`for_unit`); empty for a unit's own rule.

    Examples
    --------
    >>> Effect("target_ap", 1, source="Krumpin'").text
    '-1 AP to attacks that target it'
    >>> Effect("reroll_hits", "ones", "ranged").text
    'ranged: re-roll hit rolls of 1'
    """

    kind: str
    value: int | str = 1
    attacks: str | None = None
    conditions: tuple[Condition, ...] = ()
    source: str = ""
    scope: str = "unit"
    weapon: str = ""
    units: tuple[str, ...] = ()
    models: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", _unit_phrases(self.units))
        object.__setattr__(self, "models", _name_part(self.models, "models", "a model name or ''"))
        object.__setattr__(self, "weapon", _name_part(self.weapon, "weapon", "a weapon name or ''"))
        for name, allowed, wanted in _CHOICES:
            _choice(f"Effect.{name}", getattr(self, name), allowed, wanted)
        object.__setattr__(self, "conditions", _conditions(self.conditions))
        object.__setattr__(self, "value", self._value())

    def _value(self) -> int | str:
        """The value checked against the kind: a policy, a word, a printed ability or a
        number in the kind's range."""
        return _READERS.get(self.kind, _number)(self.kind, self.value)

    @property
    def side(self) -> str:
        """``"offence"`` or ``"defence"``."""
        return "offence" if self.kind in OFFENCE else "defence"

    def arms(self, weapon_name: str) -> bool:
        """True if the effect concerns attacks with a weapon of this name.

        >>> Effect("reroll_wounds", "ones", weapon="burna").arms("Burna (Torrent)")
        True
        """
        return not self.weapon or self.weapon in " ".join(weapon_name.split()).lower()

    def for_model(self, name: str) -> bool:
        """True if the effect is for models of this name (every model, without ``models``).

        >>> Effect("hit", 1, models="sisters repentia").for_model("Sisters Repentia")
        True
        """
        return not self.models or self.models in " ".join(name.split()).lower()

    def for_group(self, group: ModelGroup) -> bool:
        """True if the effect is for the models of this group: every group without
        ``models``; the CHARACTER groups for ``"character"``; else by the group's name.

        >>> from mathhammer.model.unit import ModelGroup
        >>> lord = ModelGroup(1, 5, 3, 6, character=True, name="Lord")
        >>> Effect("fnp", 4, models="character").for_group(lord), Effect("fnp", 4).for_group(lord)
        (True, True)
        """
        return group_named(self.models, group)

    def for_unit(self, keywords: Iterable[str]) -> bool:
        """True if the effect is for a unit with these keywords: a unit's own rule always;
        an army rule where one of its phrases is made of the unit's keywords (``"ORKS
        INFANTRY"``: ORKS and INFANTRY, or one keyword of that name) and none excluded.

        Examples
        --------
        >>> dakka = Effect("ability", "ASSAULT", "ranged", units=("ORKS INFANTRY", "NON-GROTS"))
        >>> [dakka.for_unit(k) for k in (["ORKS", "INFANTRY", "MOB"], ["ORKS", "VEHICLE"],
        ...                               ["ORKS", "INFANTRY", "GROTS"])]
        [True, False, False]
        >>> Effect("hit", 1, units=("BEAST SNAGGA",)).for_unit(["ORKS", "BEAST SNAGGA"])
        True
        """
        if not self.units:
            return True
        have = {" ".join(k.split()).upper() for k in keywords}
        wanted, excluded = _wanted_and_excluded(self.units)
        if _any_made_of(excluded, have):
            return False
        return not wanted or _any_made_of(wanted, have)

    @property
    def conditional(self) -> bool:
        """True if it holds only under conditions (the attacks it concerns aside)."""
        return bool(self.conditions)

    @property
    def text(self) -> str:
        """What it does, in a few words, with its conditions."""
        words = _TEXT[self.kind].format(_shown(self.kind, self.value))
        words = ": ".join([*self._limits(), words])
        if self.conditions:
            words += f" if {' and '.join(str(c) for c in self.conditions)}"
        return words

    def _limits(self) -> list[str]:
        """The attacks, units, models and weapon it is limited to, in words, outermost first."""
        limits = []
        if self.attacks:
            limits.append(self.attacks)
        if self.units:
            limits.append(f"{'/'.join(self.units)} units")
        if self.models:
            limits.append(f"{self.models} models")
        if self.weapon:
            limits.append(self.weapon)
        return limits


#: What each kind does, in words: a template of its value as :func:`_shown` shows it.
_TEXT = {
    "hit": "{:+} to hit",
    "wound": "{:+} to wound",
    "attacks": "{:+} A",
    "strength": "{:+} S",
    "ap": "{:+} AP",
    "damage": "{:+} D",
    "reroll_hits": "re-roll hit rolls{}",
    "reroll_wounds": "re-roll wound rolls{}",
    "reroll_damage": "re-roll damage rolls{}",
    "damage_set": "D set to {}",
    "attacks_set": "A set to {}",
    "attacks_scale": "A {}",
    "skill": "BS/WS improved by {}",
    "critical_all": "every successful {} roll is critical",
    "ignore_modifiers": "ignore penalties to {}",
    "hit_on": "hits on unmodified {}+",
    "critical_hit": "Critical Hits on {}+",
    "critical_wound": "Critical Wounds on {}+",
    "ability": "[{}]",
    "target_hit": "{:+} to hit rolls that target it",
    "target_wound": "{:+} to wound rolls that target it",
    "target_ap": "-{} AP to attacks that target it",
    "target_save": "+{} Sv against attacks that target it",
    "target_damage": "{:+} D to attacks that target it",
    "invuln": "{}+ invulnerable save",
    "cover": "benefit of cover",
    "fnp": "Feel No Pain {}+",
    "fnp_mortal": "Feel No Pain {}+ against mortal wounds",
    "damage_reduction": "-{} Damage per attack allocated",
    "halve_damage": "halve Damage",
    "stealth": "Stealth",
}
_POLICY_TEXT = {"ones": " of 1", "failures": "", "non_critical": " (all)"}
#: The words of the kinds whose value is a word that reads otherwise in :data:`_TEXT`.
_WORD_TEXT = {
    "reroll_hits": _POLICY_TEXT,
    "reroll_wounds": _POLICY_TEXT,
    "reroll_damage": {"ones": " of 1", "optimal": ""},
    "attacks_scale": {"double": "doubled", "triple": "tripled", "half": "halved"},
    "ignore_modifiers": {"skill": "BS/WS", "hit": "hit rolls", "wound": "wound rolls"},
}


def _shown(kind: str, value: int | str) -> int | str:
    """An effect's value as its :data:`_TEXT` template shows it."""
    words = _WORD_TEXT.get(kind)
    return value if words is None else words.get(str(value), "")


#: The kinds whose value is one of a few words: the words, and how the error lists them.
_WORDS: dict[str, tuple[Container[object], str]] = {
    "ignore_modifiers": (("skill", "hit", "wound"), "'skill', 'hit' or 'wound'"),
    "critical_all": (("hit", "wound"), "'hit' or 'wound'"),
    "attacks_scale": (SCALES, "'double', 'triple' or 'half'"),
    "reroll_damage": (("optimal", "ones"), "'optimal' or 'ones'"),
}
#: The range of each numbered kind's value (any other: -6 to 6); never 0.
_RANGES = {
    **dict.fromkeys(
        ("critical_hit", "critical_wound", "invuln", "fnp", "fnp_mortal", "hit_on"), (2, 6)
    ),
    "damage_set": (1, 20),
    "attacks_set": (1, 60),
    **dict.fromkeys(_ROLL, (-1, 1)),
    "target_save": (1, 3),
}


#: Every kind of effect, with what its value is.
_KINDS: dict[str, str] = {**OFFENCE, **DEFENCE}
#: The fields of Effect that take one of a few values: the values, and how the error lists them.
_CHOICES: tuple[tuple[str, Container[object], str], ...] = (
    ("kind", _KINDS, f"one of {[*OFFENCE, *DEFENCE]}"),
    ("attacks", (None, "ranged", "melee"), "None, 'ranged' or 'melee'"),
    ("scope", ("unit", "model", "led"), "'unit', 'model' or 'led'"),
)


def _name_part(value: object, name: str, wanted: str) -> str:
    """``Effect.models`` or ``Effect.weapon`` checked: lower case, single spaces."""
    if not isinstance(value, str):
        raise field_error(ProfileError, f"Effect.{name}", wanted, value)
    return " ".join(value.split()).lower()


def _conditions(conditions: Iterable[Condition]) -> tuple[Condition, ...]:
    """``Effect.conditions`` checked: a tuple of :class:`Condition`."""
    checked = tuple(conditions)
    for c in checked:
        if not isinstance(c, Condition):
            raise field_error(ProfileError, "Effect.conditions", "Condition objects", c)
    return checked


def _word(kind: str, value: object) -> str:
    """The value of a kind that takes one of a few words (:data:`_WORDS`), checked."""
    _choice(f"Effect({kind!r}).value", value, *_WORDS[kind])
    return str(value)


def _ability_token(value: object) -> str:
    """The weapon ability an ``"ability"`` effect grants, as a normalised token."""
    token = " ".join(str(value).strip("[] ").split()).upper()
    if parse_token(token) is None:
        raise field_error(
            ProfileError, "Effect('ability').value", "a weapon ability as printed", value
        )
    return token


def _number(kind: str, value: object) -> int:
    """The value of a numbered kind: a non-zero integer in the kind's range."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise field_error(ProfileError, f"Effect({kind!r}).value", "an integer", value)
    low, high = _RANGES.get(kind, (-6, 6))
    if not low <= value <= high or value == 0:
        raise field_error(
            ProfileError,
            f"Effect({kind!r}).value",
            f"a non-zero integer from {low} to {high}",
            value,
        )
    return value


#: How the value of each kind is read (any other kind's: :func:`_number`); a kind with no
#: value (halve damage, Stealth, cover) holds 1.
_READERS: dict[str, Callable[[str, object], int | str]] = {
    **dict.fromkeys(("reroll_hits", "reroll_wounds"), lambda _, value: _policy(value)),
    **dict.fromkeys(_WORDS, _word),
    "ability": lambda _, value: _ability_token(value),
    **dict.fromkeys(("halve_damage", "stealth", "cover"), lambda _, value: 1),
}


def _unit_phrases(units: object) -> tuple[str, ...]:
    """``Effect.units`` checked: keyword phrases in upper case, single spaces."""
    return phrases_field(
        "Effect.units",
        units,
        "a tuple of keyword phrases",
        "e.g. ('ORKS INFANTRY',)",
        "non-empty keyword phrases",
    )


def _wanted_and_excluded(units: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """An army rule's keyword phrases split: those a unit needs one of, and those (marked
    ``NON-``, the mark removed) it must have none of."""
    wanted: list[str] = []
    excluded: list[str] = []
    for phrase in units:
        if phrase.startswith("NON-"):
            excluded.append(phrase.removeprefix("NON-"))
        else:
            wanted.append(phrase)
    return wanted, excluded


def _any_made_of(phrases: Iterable[str], keywords: set[str]) -> bool:
    """True if any of the phrases is made of keywords all in ``keywords``."""
    return any(_made_of(phrase, keywords) for phrase in phrases)


def _made_of(phrase: str, keywords: set[str]) -> bool:
    """True if the words of ``phrase`` split into keywords all in ``keywords``."""
    words = phrase.split()
    ends = {0}  # the word counts covered by keywords so far
    for end in range(1, len(words) + 1):
        if any(" ".join(words[start:end]) in keywords for start in ends if start < end):
            ends.add(end)
    return len(words) in ends


@dataclass(frozen=True)
class EffectRule(Ability):
    """An :class:`Effect` acting on a pool: a typed ability with no printed token.

    Its kind is the rule and the effect, so two rules are never duplicates of each other
    (modifiers from two rules add up; the ruleset caps the net roll modifier).
    """

    effect: Effect = field(default_factory=lambda: Effect("hit", 1))

    PRINTED: ClassVar[bool] = False

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.effect, Effect):
            raise field_error(ProfileError, "EffectRule.effect", "an Effect", self.effect)

    @property
    def kind(self) -> str:
        return f"RULE {self.effect.source}: {self.effect.text}"

    def effective(self, situation: Situation) -> bool:
        effect = self.effect
        if not _for_attacks(effect, situation.melee):
            return False
        if effect.kind == "cover" and situation.melee:
            return False
        if not all(c.holds(situation) for c in effect.conditions):
            return False
        if effect.kind == "ability":  # a granted ability acts only where it would act
            return granted(str(effect.value), situation) is not None
        return True

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        effect = self.effect
        if _short_of_toughness(effect, draft, situation):
            return
        change_draft(draft, effect, situation)

    def __str__(self) -> str:
        source = self.effect.source or "rule"
        return f"{source} ({self.effect.text})"


def _short_of_toughness(effect: Effect, draft: PoolDraft, situation: Situation) -> bool:
    """True if the effect holds only when the attack's Strength is greater than the
    target's Toughness, and the pool's is not."""
    if not any(c.kind == "strength_over_toughness" for c in effect.conditions):
        return False
    standing = situation.standing
    toughness = situation.target.toughness if standing is None else standing.toughness
    return draft.strength <= toughness


#: Defence kinds that act on the attack (the pool), not on the models' profiles.
POOL_DEFENCE = frozenset(
    {"target_hit", "target_wound", "target_ap", "target_damage", "target_save", "cover"}
)


def arm(weapon: Weapon, effects: Iterable[Effect]) -> Weapon:
    """The weapon with the offence effects that concern it: an unconditional granted
    ability as the weapon's own (duplicates are then not cumulative), every other effect as
    an :class:`EffectRule` judged per pool.

    Examples
    --------
    >>> from mathhammer.model.profiles import Weapon
    >>> choppa = Weapon("Choppa", 3, 3, 5, -1, 1, melee=True)
    >>> armed = arm(choppa, [Effect("hit", 1, "melee", source="Sumfin' to Prove"),
    ...                      Effect("ability", "LETHAL HITS"), Effect("ap", 1, "ranged")])
    >>> armed.abilities_text, armed.rules_text
    ('[LETHAL HITS]', "Sumfin' to Prove (melee: +1 to hit)")
    """
    added = [_as_ability(effect) for effect in effects if _concerns(effect, weapon)]
    if not added:
        return weapon
    return weapon.replace(abilities=(*weapon.abilities, *added))


def _concerns(effect: Effect, weapon: Weapon) -> bool:
    """True if the effect is an offence effect on the attacks of this weapon."""
    if effect.side != "offence" or not effect.arms(weapon.name):
        return False
    return _for_attacks(effect, weapon.melee)


def _as_ability(effect: Effect) -> Ability:
    """An offence effect as a weapon's ability: an unconditional granted ability as the
    weapon's own, any other effect as an :class:`EffectRule` judged per pool."""
    granted = parse_token(str(effect.value)) if effect.kind == "ability" else None
    if granted is not None and not effect.conditions:
        return granted
    return EffectRule(effect)


def _for_attacks(effect: Effect, melee: bool) -> bool:
    """True if the effect concerns melee attacks (``melee``) or ranged ones, as these are."""
    return effect.attacks is None or (effect.attacks == "melee") == melee


def _on_each_attack(effect: Effect) -> bool:
    """True if the defence effect acts on each attack (the pool), not on the models'
    profiles: a change to the attack, or a save that holds only for some attacks."""
    if effect.side != "defence":
        return False
    return effect.kind in POOL_DEFENCE or (
        effect.kind in ("invuln", "fnp") and bool(effect.conditions or effect.attacks)
    )


def guards(effects: Iterable[Effect]) -> tuple[EffectRule, ...]:
    """The defence effects that act on each attack against the unit, as rules for
    ``Unit.rules``: modifiers to the attacker's rolls, AP and D, the benefit of cover, and
    an invulnerable save or a Feel No Pain that holds only for some attacks or under a
    condition (an unconditional one is the models' own field).

    Examples
    --------
    >>> [str(r) for r in guards([Effect("target_ap", 1, source="Ramshackle"),
    ...                          Effect("fnp", 5, source="Dok")])]
    ['Ramshackle (-1 AP to attacks that target it)']
    """
    out = [EffectRule(effect) for effect in effects if _on_each_attack(effect)]
    return tuple(dict.fromkeys(out))
