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

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from ..core.dice import parse_dice
from ..errors import ProfileError, field_error
from .ability_base import Ability
from .ability_text import parse_token
from .conditions import ASSUMED, CONDITIONS, Condition
from .context import assumption_name
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
#: ``attacks_scale`` values: the fraction A is multiplied by.
_SCALES = {"double": (2, 1), "triple": (3, 1), "half": (1, 2)}


def _policy(value: object) -> str:
    if value not in ("ones", "failures", "non_critical"):
        raise field_error(
            ProfileError, "Effect.value", "'ones', 'failures' or 'non_critical'", value
        )
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
        if not isinstance(self.models, str):
            raise field_error(ProfileError, "Effect.models", "a model name or ''", self.models)
        object.__setattr__(self, "models", " ".join(self.models.split()).lower())
        if not isinstance(self.weapon, str):
            raise field_error(ProfileError, "Effect.weapon", "a weapon name or ''", self.weapon)
        object.__setattr__(self, "weapon", " ".join(self.weapon.split()).lower())
        if self.kind not in OFFENCE and self.kind not in DEFENCE:
            raise field_error(
                ProfileError, "Effect.kind", f"one of {[*OFFENCE, *DEFENCE]}", self.kind
            )
        if self.attacks not in (None, "ranged", "melee"):
            raise field_error(
                ProfileError, "Effect.attacks", "None, 'ranged' or 'melee'", self.attacks
            )
        if self.scope not in ("unit", "model", "led"):
            raise field_error(ProfileError, "Effect.scope", "'unit', 'model' or 'led'", self.scope)
        conditions = tuple(self.conditions)
        for c in conditions:
            if not isinstance(c, Condition):
                raise field_error(ProfileError, "Effect.conditions", "Condition objects", c)
        object.__setattr__(self, "conditions", conditions)
        object.__setattr__(self, "value", self._value())

    def _value(self) -> int | str:
        kind, value = self.kind, self.value
        if kind in ("reroll_hits", "reroll_wounds"):
            return _policy(value)
        if kind == "ignore_modifiers":
            if value not in ("skill", "hit", "wound"):
                raise field_error(ProfileError, "Effect('ignore_modifiers').value",
                                  "'skill', 'hit' or 'wound'", value)  # fmt: skip
            return str(value)
        if kind == "critical_all":
            if value not in ("hit", "wound"):
                raise field_error(ProfileError, "Effect('critical_all').value", "'hit' or "
                                  "'wound'", value)  # fmt: skip
            return str(value)
        if kind == "attacks_scale":
            if value not in _SCALES:
                raise field_error(ProfileError, "Effect('attacks_scale').value",
                                  "'double', 'triple' or 'half'", value)  # fmt: skip
            return str(value)
        if kind == "reroll_damage":
            if value not in ("optimal", "ones"):
                raise field_error(ProfileError, "Effect('reroll_damage').value",
                                  "'optimal' or 'ones'", value)  # fmt: skip
            return str(value)
        if kind == "ability":
            token = " ".join(str(value).strip("[] ").split()).upper()
            if parse_token(token) is None:
                raise field_error(
                    ProfileError, "Effect('ability').value", "a weapon ability as printed", value
                )
            return token
        if kind == "halve_damage" or kind == "stealth" or kind == "cover":
            return 1
        if isinstance(value, bool) or not isinstance(value, int):
            raise field_error(ProfileError, f"Effect({kind!r}).value", "an integer", value)
        if kind in ("critical_hit", "critical_wound", "invuln", "fnp", "fnp_mortal", "hit_on"):
            low, high = 2, 6
        elif kind == "damage_set":
            low, high = 1, 20
        elif kind == "attacks_set":
            low, high = 1, 60
        elif kind in _ROLL:
            low, high = -1, 1
        elif kind == "target_save":
            low, high = 1, 3
        else:
            low, high = -6, 6
        if not low <= value <= high or value == 0:
            raise field_error(
                ProfileError,
                f"Effect({kind!r}).value",
                f"a non-zero integer from {low} to {high}",
                value,
            )
        return value

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
        wanted = [u for u in self.units if not u.startswith("NON-")]
        if any(_made_of(u.removeprefix("NON-"), have) for u in self.units if u.startswith("NON-")):
            return False
        return not wanted or any(_made_of(u, have) for u in wanted)

    @property
    def conditional(self) -> bool:
        """True if it holds only under conditions (the attacks it concerns aside)."""
        return bool(self.conditions)

    @property
    def text(self) -> str:
        """What it does, in a few words, with its conditions."""
        kind, value = self.kind, self.value
        words = {
            "hit": f"{value:+} to hit" if isinstance(value, int) else "",
            "wound": f"{value:+} to wound" if isinstance(value, int) else "",
            "attacks": f"{value:+} A" if isinstance(value, int) else "",
            "strength": f"{value:+} S" if isinstance(value, int) else "",
            "ap": f"{value:+} AP" if isinstance(value, int) else "",
            "damage": f"{value:+} D" if isinstance(value, int) else "",
            "reroll_hits": f"re-roll hit rolls{_POLICY_TEXT.get(str(value), '')}",
            "reroll_wounds": f"re-roll wound rolls{_POLICY_TEXT.get(str(value), '')}",
            "reroll_damage": "re-roll damage rolls" + (" of 1" if value == "ones" else ""),
            "damage_set": f"D set to {value}",
            "attacks_set": f"A set to {value}",
            "attacks_scale": {"double": "A doubled", "triple": "A tripled"}.get(
                str(value), "A halved"
            ),
            "skill": f"BS/WS improved by {value}",
            "critical_all": f"every successful {value} roll is critical",
            "ignore_modifiers": "ignore penalties to "
            + {"skill": "BS/WS", "hit": "hit rolls", "wound": "wound rolls"}.get(str(value), ""),
            "hit_on": f"hits on unmodified {value}+",
            "critical_hit": f"Critical Hits on {value}+",
            "critical_wound": f"Critical Wounds on {value}+",
            "ability": f"[{value}]",
            "target_hit": f"{value:+} to hit rolls that target it"
            if isinstance(value, int)
            else "",
            "target_wound": f"{value:+} to wound rolls that target it"
            if isinstance(value, int)
            else "",
            "target_ap": f"-{value} AP to attacks that target it",
            "target_save": f"+{value} Sv against attacks that target it",
            "target_damage": f"{value:+} D to attacks that target it"
            if isinstance(value, int)
            else "",
            "invuln": f"{value}+ invulnerable save",
            "cover": "benefit of cover",
            "fnp": f"Feel No Pain {value}+",
            "fnp_mortal": f"Feel No Pain {value}+ against mortal wounds",
            "damage_reduction": f"-{value} Damage per attack allocated",
            "halve_damage": "halve Damage",
            "stealth": "Stealth",
        }[kind]
        if self.weapon:
            words = f"{self.weapon}: {words}"
        if self.models:
            words = f"{self.models} models: {words}"
        if self.units:
            words = f"{'/'.join(self.units)} units: {words}"
        if self.attacks:
            words = f"{self.attacks}: {words}"
        if self.conditions:
            words += f" if {' and '.join(str(c) for c in self.conditions)}"
        return words


_POLICY_TEXT = {"ones": " of 1", "failures": "", "non_critical": " (all)"}


def _unit_phrases(units: object) -> tuple[str, ...]:
    """``Effect.units`` checked: keyword phrases in upper case, single spaces."""
    if isinstance(units, str) or not isinstance(units, Iterable):
        raise field_error(ProfileError, "Effect.units", "a tuple of keyword phrases", units,
                          "e.g. ('ORKS INFANTRY',)")  # fmt: skip
    out = []
    for phrase in units:
        if not isinstance(phrase, str) or not phrase.strip():
            raise field_error(ProfileError, "Effect.units", "non-empty keyword phrases", phrase)
        out.append(" ".join(phrase.split()).upper())
    return tuple(out)


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
        if effect.attacks is not None and (effect.attacks == "melee") != situation.melee:
            return False
        if effect.kind == "cover" and situation.melee:
            return False
        if not all(c.holds(situation) for c in effect.conditions):
            return False
        if effect.kind == "ability":  # a granted ability acts only where it would act
            return _granted(str(effect.value), situation) is not None
        return True

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        effect = self.effect
        kind, value = effect.kind, effect.value
        if any(c.kind == "strength_over_toughness" for c in effect.conditions):
            standing = situation.standing
            toughness = situation.target.toughness if standing is None else standing.toughness
            if draft.strength <= toughness:
                return
        if kind == "ability":
            _grant(str(value), draft, situation)
            return
        if kind == "reroll_damage":  # where it helps (D31), or each 1
            if value == "ones" and draft.damage is not None:
                draft.damage = draft.damage.rerolled(1)
            elif draft.reroll_damage is None:
                draft.reroll_damage = "optimal"
            return
        if kind == "damage_set":  # a characteristic changed before any modifier
            draft.damage = parse_dice(value)
            return
        if kind == "attacks_set":  # a characteristic changed before any modifier
            draft.attacks_set = parse_dice(value)
            return
        if kind == "attacks_scale":
            num, den = _SCALES[str(value)]
            old_num, old_den = draft.attacks_scale or (1, 1)
            num, den = old_num * num, old_den * den
            common = math.gcd(num, den)
            draft.attacks_scale = (num // common, den // common)
            return
        if kind == "ignore_modifiers":
            draft.ignores = draft.ignores | {str(value)}
            return
        if kind == "critical_all":
            if value == "hit":
                draft.all_hits_critical = True
            else:
                draft.all_wounds_critical = True
            return
        if isinstance(value, str):  # a re-roll policy
            field_name = kind
            current = getattr(draft, field_name)
            setattr(draft, field_name, _stronger(current, value))
            return
        if kind in ("hit", "target_hit"):
            draft.hit_modifier += value
        elif kind in ("wound", "target_wound"):
            draft.wound_modifier += value
        elif kind == "attacks":
            draft.bonus_attacks.append(parse_dice(value))
        elif kind == "strength":
            draft.strength = max(1, draft.strength + value)
        elif kind == "ap":
            draft.ap -= value
        elif kind in ("damage", "target_damage"):
            draft.damage_add += value
        elif kind == "skill":  # a characteristic change: outside the +/-1 roll cap
            draft.skill_change -= value
        elif kind == "critical_hit":
            draft.critical_hit = min(draft.critical_hit, value)
        elif kind == "hit_on":
            draft.hit_on = value if draft.hit_on is None else min(draft.hit_on, value)
        elif kind == "critical_wound":
            draft.critical_wound = min(draft.critical_wound, value)
        elif kind == "target_ap":
            draft.ap += value
        elif kind == "target_save":
            draft.save_improve += value
        elif kind == "invuln":
            draft.invuln = value if draft.invuln is None else min(draft.invuln, value)
        elif kind == "fnp":  # for the models it names (D41), against this pool (D44)
            draft.fnp = (*draft.fnp, (value, effect.models))
        elif kind == "cover":
            draft.cover = True

    def __str__(self) -> str:
        source = self.effect.source or "rule"
        return f"{source} ({self.effect.text})"


def _stronger(a: str | None, b: str) -> str:
    order = (None, "ones", "failures", "non_critical")
    return b if a is None or order.index(b) > order.index(a) else a


def _granted(token: str, situation: Situation) -> Ability | None:
    """A weapon ability a rule grants, where it changes this pool as the weapon's own would
    (against a target it applies to, in a situation where it acts); None elsewhere."""
    ability = parse_token(token)
    keywords = situation.target.keywords
    if ability is not None and ability.applies_to(keywords) and ability.effective(situation):
        return ability
    return None


def _grant(token: str, draft: PoolDraft, situation: Situation) -> None:
    """A weapon ability a rule grants, applied to the pool as the weapon's own would be."""
    ability = _granted(token, situation)
    if ability is not None:
        ability.apply(draft, situation)


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
    added: list[Ability] = []
    for effect in effects:
        if effect.side != "offence" or not effect.arms(weapon.name):
            continue
        if effect.attacks is not None and (effect.attacks == "melee") != weapon.melee:
            continue
        granted = parse_token(str(effect.value)) if effect.kind == "ability" else None
        if granted is not None and not effect.conditions:
            added.append(granted)
        else:
            added.append(EffectRule(effect))
    if not added:
        return weapon
    return weapon.replace(abilities=(*weapon.abilities, *added))


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
    out = []
    for effect in effects:
        pooled = effect.kind in POOL_DEFENCE or (
            effect.kind in ("invuln", "fnp") and (effect.conditions or effect.attacks)
        )
        if effect.side == "defence" and pooled:
            out.append(EffectRule(effect))
    return tuple(dict.fromkeys(out))
