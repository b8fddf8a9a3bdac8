"""The numbers of one pool against one target, as abilities and modifiers change them.

A ruleset starts a :class:`PoolDraft` from the weapon and the :class:`Modifiers`, lets
each effective ability edit it (:meth:`Ability.apply
<mathhammer.model.abilities.Ability.apply>`), and then turns the final numbers into the
roll checks both engines read. :class:`Situation` is what an ability may consult: the
table situation, the target, and the other abilities present.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dice import Dice
from ..core.frozen import fast_init
from .abilities import Ability
from .context import Context, Modifiers
from .profiles import Unit, Weapon
from .rerolls import damage_reroll_below
from .standing import Standing

__all__ = ["PoolDraft", "Situation"]


@fast_init
@dataclass(frozen=True)
class Situation:
    """What abilities may read: the context, the target, melee or ranged, the abilities,
    and the target as it stands when the attacks are declared.

    ``standing`` is None for a unit no earlier attack has touched: every model stands.
    Read the target's size and make-up through :attr:`models` and :attr:`characters`,
    which follow it (docs/rules.md D34) and note in ``reads`` (where given) that they were
    read: an attack carried on from many states is declared once for each value of what
    its pools read (:func:`~mathhammer.rules.standing.declarations`).

    Examples
    --------
    >>> from mathhammer.model.abilities import Torrent
    >>> target = Unit.of("Squad", 5, 4, 3, 1)
    >>> Situation(Context(), target, melee=False, abilities=(Torrent(),)).has(Torrent)
    True
    >>> Situation(Context(), target, False, standing=Standing(target, (3,), 0)).models
    3
    """

    context: Context
    target: Unit
    melee: bool
    abilities: tuple[Ability, ...] = ()
    standing: Standing | None = None
    reads: set[str] | None = None

    def has(self, kind: type[Ability]) -> bool:
        """True if an ability of this type applies to the pool."""
        return any(isinstance(a, kind) for a in self.abilities)

    @property
    def models(self) -> int:
        """The target's models standing when the attacks are declared."""
        self._note("models")
        return self.target.models if self.standing is None else self.standing.models

    @property
    def characters(self) -> tuple[int, ...]:
        """The target's CHARACTER groups standing when the attacks are declared."""
        self._note("characters")
        if self.standing is not None:
            return self.standing.characters
        return tuple(i for i, g in enumerate(self.target.groups) if g.character)

    def _note(self, what: str) -> None:
        """Note in ``reads`` (where given) that this of the target was read."""
        if self.reads is not None:
            self.reads.add(what)


@dataclass(init=False)
class PoolDraft:
    """A pool's numbers before a ruleset reads them; abilities edit it in place.

    Roll modifiers (``hit_modifier``, ``wound_modifier``) are summed here and capped by
    the ruleset; ``skill_change`` is a characteristic change (+1 worsens 3+ to 4+);
    ``cover`` is the benefit of cover, which ``ignores_cover`` cancels; ``invuln`` and
    ``fnp`` an invulnerable save and a Feel No Pain the target's rules give against this
    pool (the better of it and each group's own applies).

    A draft stores only what :meth:`start` and the abilities set; every other field
    reads its class default (``bonus_attacks`` is a fresh list per draft), which keeps
    the per-pool cost of a draft to the fields that differ (BATCH-compare).
    """

    skill_change: int = 0
    hit_modifier: int = 0
    hit_fails_at_most: int = 1
    #: A hit scored on an unmodified roll of this or more, whatever the BS/WS and the
    #: modifiers (Fire Overwatch: 6); None for the usual hit roll.
    hit_on: int | None = None
    reroll_hits: str | None = None
    hits_automatically: bool = False
    critical_hit: int = 6
    all_hits_critical: bool = False
    #: The penalties a rule lets the attacker ignore ("ignore any or all modifiers to the
    #: Hit roll"): any of "skill", "hit", "wound".
    ignores: frozenset[str] = frozenset()
    sustained: Dice | None = None
    lethal: bool = False
    strength: int = 1
    wound_modifier: int = 0
    critical_wound: int = 6
    all_wounds_critical: bool = False
    reroll_wounds: str | None = None
    reroll_one: str | None = None
    devastating: bool = False
    ap: int = 0
    damage: Dice | None = None
    reroll_damage: str | None = None
    damage_multiply: int = 1
    damage_add: int = 0
    melta: Dice | None = None
    bonus_attacks: list[Dice] = field(default_factory=list)
    cover: bool = False
    ignores_cover: bool = False
    precision: bool = False
    hazardous: bool = False
    invuln: int | None = None
    #: Feel No Pain the target's rules give against this pool: (N, the models it is for,
    #: as :attr:`Effect.models <mathhammer.model.effects.Effect.models>`: "" for all).
    fnp: tuple[tuple[int, str], ...] = ()
    #: The target's armour save improved against this pool (a characteristic change).
    save_improve: int = 0
    #: A's changes: set to a value, then multiplied by a fraction (rounding up; None: not).
    attacks_set: Dice | None = None
    attacks_scale: tuple[int, int] | None = None

    @classmethod
    def start(cls, weapon: Weapon, modifiers: Modifiers, situation: Situation) -> PoolDraft:
        """The weapon's profile with the modifiers applied, before any ability.

        Examples
        --------
        >>> w = Weapon("Gun", 1, 3, 4, -1, 1)
        >>> s = Situation(Context(target_in_cover=True), Unit.of("u", 5, 4, 3, 1), melee=False)
        >>> d = PoolDraft.start(w, Modifiers(hit=1, ap=-1), s)
        >>> d.hit_modifier, d.ap, d.cover
        (1, -2, True)
        """
        damage = _damage(weapon, modifiers)
        context, ranged = situation.context, not situation.melee  # read inline: every pool
        # a re-roll made with the model's wounds in view is the ruleset's to decide
        optimal = modifiers.reroll_damage if modifiers.reroll_damage == "optimal" else None
        strength = int(weapon.strength or 1) + modifiers.strength  # 1 at least
        draft = cls()
        draft.bonus_attacks = []
        draft.hit_on = 6 if ranged and "fire overwatch" in context.assume else None
        draft.skill_change = modifiers.skill
        draft.hit_modifier = modifiers.hit
        draft.reroll_hits = modifiers.reroll_hits
        draft.critical_hit = modifiers.critical_hit
        draft.strength = strength if strength > 1 else 1
        draft.wound_modifier = modifiers.wound
        draft.critical_wound = modifiers.critical_wound
        draft.reroll_wounds = modifiers.reroll_wounds
        draft.reroll_one = modifiers.reroll_one
        draft.ap = weapon.ap + modifiers.ap
        draft.damage = damage
        draft.reroll_damage = optimal
        draft.damage_multiply = modifiers.damage_multiply
        draft.damage_add = modifiers.damage_add
        draft.cover = ranged and (context.target_in_cover or situation.target.stealth)
        return draft

    @property
    def in_cover(self) -> bool:
        """The target has the benefit of cover against this pool."""
        return self.cover and not self.ignores_cover


def _damage(weapon: Weapon, modifiers: Modifiers) -> Dice:
    """The pool's D: the weapon's, or the one the modifiers set; each die at or below the
    face the modifiers name rolled again."""
    damage = modifiers.damage_set if isinstance(modifiers.damage_set, Dice) else weapon.damage
    below = damage_reroll_below(modifiers.reroll_damage)
    if below is not None:
        damage = damage.rerolled(below)
    return damage
