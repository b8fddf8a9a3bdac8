"""How each kind of :class:`~mathhammer.model.effects.Effect` changes a pool's draft.

An :class:`~mathhammer.model.effects.EffectRule` whose effect holds for a pool changes the
pool's :class:`~mathhammer.model.draft.PoolDraft` as the effect's kind says: a roll
modifier adds up, a characteristic is set or changed, a threshold is lowered, a re-roll
widened, a weapon ability granted. The kinds of the models' own profiles (a Feel No Pain
against mortal wounds, a damage reduction, Stealth) change no pool.

Examples
--------
>>> from mathhammer.model.context import Context, Modifiers
>>> from mathhammer.model.draft import PoolDraft, Situation
>>> from mathhammer.model.effects import Effect
>>> from mathhammer.model.profiles import Unit, Weapon
>>> situation = Situation(Context(), Unit.of("Boyz", 10, 5, 5, 1), melee=True)
>>> draft = PoolDraft.start(Weapon("Choppa", 3, 3, 5, -1, 1), Modifiers(), situation)
>>> change_draft(draft, Effect("ap", 1), situation)
>>> change_draft(draft, Effect("attacks_scale", "double"), situation)
>>> draft.ap, draft.attacks_scale
(-2, (2, 1))
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.dice import Dice, parse_dice
from .ability_base import Ability
from .ability_text import parse_token

if TYPE_CHECKING:
    from .draft import PoolDraft, Situation
    from .effects import Effect

__all__ = ["SCALES", "change_draft", "granted"]

#: ``attacks_scale`` values: the fraction A is multiplied by.
SCALES = {"double": (2, 1), "triple": (3, 1), "half": (1, 2)}


def change_draft(draft: PoolDraft, effect: Effect, situation: Situation) -> None:
    """Change the pool's draft as the effect's kind says (a kind of the models' profiles
    changes nothing here)."""
    change = _CHANGES.get(effect.kind)
    if change is not None:
        change(draft, effect, situation)


def _stronger(a: str | None, b: str) -> str:
    """The wider of two re-roll policies (``a`` None: none yet)."""
    order = (None, "ones", "failures", "non_critical")
    return b if a is None or order.index(b) > order.index(a) else a


def granted(token: str, situation: Situation) -> Ability | None:
    """A weapon ability a rule grants, where it changes this pool as the weapon's own would
    (against a target it applies to, in a situation where it acts); None elsewhere."""
    ability = parse_token(token)
    keywords = situation.target.keywords
    if ability is not None and ability.applies_to(keywords) and ability.effective(situation):
        return ability
    return None


def _lower(current: int | None, value: int) -> int:
    """The lower of a threshold and a new one (the new one where there was none)."""
    return value if current is None else min(current, value)


def _scaled(current: tuple[int, int] | None, scale: str) -> tuple[int, int]:
    """A's multiplier (a fraction; None: none yet) multiplied by a scale's, in lowest terms."""
    num, den = SCALES[scale]
    old_num, old_den = current or (1, 1)
    num, den = old_num * num, old_den * den
    common = math.gcd(num, den)
    return (num // common, den // common)


def _appended(current: list[Dice], value: int) -> list[Dice]:
    """The bonus attacks with ``value`` more (the draft's list, extended in place)."""
    current.append(parse_dice(value))
    return current


#: The kinds that change one field of the pool's draft: the field, and its new value made
#: from the old one and the effect's value. D and A are set as characteristics, before any
#: modifier; ``skill`` is a characteristic change, outside the +/-1 roll cap.
_FIELDS: dict[str, tuple[str, Callable[[Any, Any], Any]]] = {
    "hit": ("hit_modifier", operator.add),
    "target_hit": ("hit_modifier", operator.add),
    "wound": ("wound_modifier", operator.add),
    "target_wound": ("wound_modifier", operator.add),
    "attacks": ("bonus_attacks", _appended),
    "strength": ("strength", lambda strength, value: max(1, strength + value)),
    "ap": ("ap", operator.sub),
    "target_ap": ("ap", operator.add),
    "damage": ("damage_add", operator.add),
    "target_damage": ("damage_add", operator.add),
    "skill": ("skill_change", operator.sub),
    "critical_hit": ("critical_hit", min),
    "critical_wound": ("critical_wound", min),
    "hit_on": ("hit_on", _lower),
    "target_save": ("save_improve", operator.add),
    "invuln": ("invuln", _lower),
    "damage_set": ("damage", lambda _, value: parse_dice(value)),
    "attacks_set": ("attacks_set", lambda _, value: parse_dice(value)),
    "attacks_scale": ("attacks_scale", _scaled),
    "ignore_modifiers": ("ignores", lambda ignores, value: ignores | {value}),
    "reroll_hits": ("reroll_hits", _stronger),
    "reroll_wounds": ("reroll_wounds", _stronger),
    "cover": ("cover", lambda _, __: True),
}


def _change_field(draft: PoolDraft, effect: Effect, situation: Situation) -> None:
    """One field of the pool changed as :data:`_FIELDS` says."""
    name, change = _FIELDS[effect.kind]
    setattr(draft, name, change(getattr(draft, name), effect.value))


def _grant_ability(draft: PoolDraft, effect: Effect, situation: Situation) -> None:
    """A weapon ability a rule grants, applied to the pool as the weapon's own would be."""
    ability = granted(str(effect.value), situation)
    if ability is not None:
        ability.apply(draft, situation)


def _reroll_damage(draft: PoolDraft, effect: Effect, situation: Situation) -> None:
    """The damage rolls re-rolled where it helps (D31), or each 1."""
    if effect.value == "ones" and draft.damage is not None:
        draft.damage = draft.damage.rerolled(1)
    elif draft.reroll_damage is None:
        draft.reroll_damage = "optimal"


def _all_critical(draft: PoolDraft, effect: Effect, situation: Situation) -> None:
    """Every successful hit or wound roll made a critical one."""
    if effect.value == "hit":
        draft.all_hits_critical = True
    else:
        draft.all_wounds_critical = True


def _add_fnp(draft: PoolDraft, effect: Effect, situation: Situation) -> None:
    """A Feel No Pain for the models it names (D41), against this pool (D44)."""
    draft.fnp = (*draft.fnp, (int(effect.value), effect.models))


#: How each kind changes a pool's draft; a kind not here changes the models' profiles.
_CHANGES: dict[str, Callable[[PoolDraft, Effect, Situation], None]] = {
    **dict.fromkeys(_FIELDS, _change_field),
    "ability": _grant_ability,
    "reroll_damage": _reroll_damage,
    "critical_all": _all_critical,
    "fnp": _add_fnp,
}
