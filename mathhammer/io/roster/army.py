"""The army a roster describes: its units as taken, as attackers, loadouts and targets.

Examples
--------
>>> from mathhammer import Weapon
>>> from mathhammer.units.datasheet import Datasheet, ModelProfile, Wargear
>>> blade = Wargear("Blade", (Weapon("Blade", 4, 2, 8, -3, 2, melee=True),))
>>> lord = Datasheet("Lord", (ModelProfile("Lord", 5, 2, 6, character=True,
...                                        weapons=("Blade",)),), (blade,), points=((1, 90),))
>>> guard = Datasheet("Guard", (ModelProfile("Guard", 4, 4, 1, min_count=10, max_count=10),),
...                   points=((10, 80),))
>>> army = Roster("Demo", 170, (RosterUnit.of(lord), RosterUnit.of(guard)))
>>> army = army.with_leaders({"Guard": "Lord"})
>>> [(t.name, t.points, t.group_points) for t in army.targets()]
[('Guard led by Lord', 170, (80, 90))]
>>> [loadout.name for loadout in army.loadouts()]
['Guard led by Lord (melee)']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ...core.suggest import did_you_mean
from ...errors import OptionError, field_error
from ...model.effects import Effect
from ...model.profiles import Unit, Weapon
from ...units.compare import Loadout
from ...units.datasheet import (
    PHASE_LABELS,
    AbilityText,
    Datasheet,
    attach_leaders,
    guarded,
    led_name,
    phase_loadouts,
)
from ...units.parts import Detachment
from ...units.selection import Attacker, Models
from ...units.targets import Target
from ..import_report import ImportReport, Skipped
from ..rules_text.sheet import SheetRules, sheet_rules
from .build import RosterModel
from .system import GameSystem

__all__ = ["Roster", "RosterModel", "RosterUnit", "leader_names"]


@dataclass(frozen=True)
class RosterUnit:
    """One unit of a roster, as it was taken.

    Parameters
    ----------
    name : str
        The unit's name in the army (its custom name, else its datasheet's name, with
        ``" (2)"``... when the roster has several).
    entry : str
        The name of the datasheet (the roster entry) it was taken from.
    datasheet : Datasheet
        The unit as taken: each model type at the count taken, with the wargear taken as
        its default, and the unit's points.
    models : tuple of RosterModel
        The models of each type and the wargear each carries.
    points : int, optional
        What the unit costs, upgrades included.
    leaders : tuple of str
        The names of the units leading this one (CHARACTER units attached to it).
    """

    name: str
    entry: str
    datasheet: Datasheet
    models: tuple[RosterModel, ...]
    points: int | None = None
    leaders: tuple[str, ...] = ()

    @classmethod
    def of(cls, sheet: Datasheet) -> RosterUnit:
        """A unit of a datasheet at its default size and wargear (for examples and tests)."""
        models = tuple(RosterModel(m.name, m.default_count or 0, m.weapons) for m in sheet.models)
        return cls(sheet.name, sheet.name, sheet, models, sheet.points_for())

    @property
    def keywords(self) -> tuple[str, ...]:
        """The unit's keywords."""
        return self.datasheet.keywords

    @property
    def abilities(self) -> tuple[AbilityText, ...]:
        """The unit's abilities, as printed."""
        return self.datasheet.abilities

    @property
    def size(self) -> int:
        """The number of models."""
        return sum(m.count for m in self.models)

    def unit(self) -> Unit:
        """The unit as a target :class:`~mathhammer.Unit` (without its leaders)."""
        return self.datasheet.unit()

    def loadouts(self) -> list[Loadout]:
        """Its ranged and melee attacks as loadouts (none for a unit without weapons)."""
        return self.datasheet.loadouts()


@dataclass(frozen=True)
class Roster:
    """An army list: its units as taken, with points, leaders and what was not read.

    Parameters
    ----------
    name : str
        The roster's name.
    points : int, optional
        The roster's total points, as the roster states it.
    units : tuple of RosterUnit
        Every unit read, in the roster's order.
    factions : tuple of str
        The catalogues (factions) of its forces.
    skipped : tuple of Skipped
        Units that could not be read at all: the roster is then :attr:`complete` no more.
    source : str
        The file it was read from.
    report : ImportReport, optional
        The account of the import: counts, unknown weapon abilities, abilities not
        understood, and every weapon, model or unit skipped with the reason.
    detachment : Detachment, optional
        The detachment chosen, whose rules apply to the units they name (docs/rules.md
        D39); :meth:`with_detachment` tries another.
    rules : tuple of AbilityText
        The army's rules as the roster prints them ("Waaagh!"); those its units do not
        carry themselves apply to the units they name, as the detachment's do: the
        army's own abilities, not the ruleset.
    system : GameSystem
        The game and edition the roster names (``gameSystemName``): its ``ruleset`` is the
        one its units are computed under by default (``"10e"`` or ``"11e"``; None when the
        roster names none).
    """

    name: str
    points: int | None
    units: tuple[RosterUnit, ...]
    factions: tuple[str, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    source: str = ""
    report: ImportReport | None = field(default=None, compare=False, repr=False)
    detachment: Detachment | None = None
    rules: tuple[AbilityText, ...] = ()
    system: GameSystem = GameSystem()

    def __post_init__(self) -> None:
        names = [u.name for u in self.units]
        if len(set(names)) != len(names):
            raise field_error(OptionError, "Roster.units", "distinct unit names", names)
        if not isinstance(self.detachment, Detachment | None):
            raise field_error(
                OptionError, "Roster.detachment", "a Detachment or None", self.detachment
            )
        object.__setattr__(self, "rules", tuple(self.rules))

    def with_detachment(self, detachment: Detachment | None) -> Roster:
        """The roster under another detachment (None: none), whose rules apply to the
        units they name (docs/rules.md D39): e.g. each detachment of the faction's
        catalogue (``catalogue.detachments``), to see which one the list scores best with.
        """
        return replace(self, detachment=detachment)

    @property
    def army_rules(self) -> SheetRules:
        """The army's rules (those its units do not carry themselves) and the
        detachment's, read as effects for the units they name (``Effect.units``), with
        the rules not applied in full and why."""
        return _army_rules(self.units, self.rules, self.detachment)

    def _with_army(self, parts: list[RosterUnit]) -> list[RosterUnit]:
        """The parts of one unit (a bodyguard and its leaders) with the army's effects for
        it: judged on the keywords of all its parts, shared by all of them."""
        extra = _unit_effects(self.army_rules.effects, parts)
        if not extra:
            return parts
        return [
            replace(p, datasheet=replace(p.datasheet, effects=(*p.datasheet.effects, *extra)))
            for p in parts
        ]

    @property
    def complete(self) -> bool:
        """True if every unit of the roster was read (weapons or models may still have
        been skipped: see :attr:`report`)."""
        return not self.skipped

    def __repr__(self) -> str:
        points = "" if self.points is None else f", {self.points} pts"
        missing = "" if self.complete else f"; INCOMPLETE: {len(self.skipped)} unit(s) not read"
        edition = f" ({self.system.edition})" if self.system.edition else ""
        return f"<Roster {self.name!r}{edition}: {len(self.units)} units{points}{missing}>"

    def unit(self, name: str) -> RosterUnit:
        """A unit by name."""
        for unit in self.units:
            if unit.name == name:
                return unit
        raise field_error(OptionError, "unit", f"one of {[u.name for u in self.units]}", name)

    def with_leaders(self, leaders: Mapping[str, str | Sequence[str]]) -> Roster:
        """The roster with leaders attached: ``{"bodyguard unit": "leader unit"}`` (or a
        list of the units leading or supporting it), in place of any attachment of those
        bodyguards read before. Each leader leads one unit and is not led itself.
        """
        names = [u.name for u in self.units]
        attached: dict[str, tuple[str, ...]] = {}
        used: set[str] = set()
        for bodyguard, value in leaders.items():
            chosen = leader_names(value)
            _take_leaders(bodyguard, chosen, names, used, leaders)
            attached[bodyguard] = chosen
        units = tuple(replace(u, leaders=attached.get(u.name, ())) for u in self.units)
        return replace(self, units=units)

    def _unled(self) -> list[RosterUnit]:
        """The units not attached to another (a bodyguard, or a unit on its own)."""
        leading = {name for unit in self.units for name in unit.leaders}
        return [unit for unit in self.units if unit.name not in leading]

    def _parts(self, unit: RosterUnit) -> list[RosterUnit]:
        """A unit not attached to another, then the units attached to it, with the army's
        effects for all of them."""
        return self._with_army([unit, *(self.unit(n) for n in unit.leaders)])

    def _attacking(self) -> list[tuple[str, list[RosterUnit]]]:
        """The army's attacking units: each unit not attached to another, with the units
        attached to it (an attached unit attacks as one, docs/rules.md D35)."""
        return [(led_name(u.name, u.leaders), self._parts(u)) for u in self._unled()]

    def attackers(self) -> list[Attacker]:
        """Every unit that has weapons as an attacking unit, as taken, for
        :func:`mathhammer.resolve`: an attached unit is one, its leaders' models beside
        the bodyguard's."""
        out = []
        for name, parts in self._attacking():
            groups = _armed_groups(parts)
            if groups:
                out.append(Attacker(name, groups))
        return out

    def loadouts(self) -> list[Loadout]:
        """Every unit's ranged and melee attacks, as loadouts a comparison takes; an
        attached unit's are its parts' together, with the points of all of them."""
        out: list[Loadout] = []
        for name, parts in self._attacking():
            if len(parts) == 1:
                out.extend(parts[0].loadouts())
            else:
                out.extend(_joint_loadouts(name, parts))
        return out

    def targets(self) -> list[Target]:
        """Every unit as a target; a led unit is one target with its leaders' models as
        CHARACTER groups, and the points of all of them."""
        return [self._target(unit) for unit in self._unled()]

    def _target(self, unit: RosterUnit) -> Target:
        """A unit not led by another as a target, with the units attached to it."""
        bodyguard, *leaders = self._parts(unit)
        if leaders:
            return _attached(bodyguard, leaders)
        return bodyguard.datasheet.target()


def _take_leaders(
    bodyguard: str,
    chosen: tuple[str, ...],
    names: list[str],
    used: set[str],
    leaders: Mapping[str, str | Sequence[str]],
) -> None:
    """Check a bodyguard's leaders, and add them to ``used``: units of the roster that
    lead one other unit each and are not led themselves."""
    _check_units((bodyguard, *chosen), names)
    for name in chosen:
        if name in used or name in leaders:  # the bodyguard itself is in leaders
            raise field_error(
                OptionError,
                f"leaders[{bodyguard!r}]",
                "units that lead one other unit and are not led themselves",
                name,
            )
        used.add(name)


def _check_units(given: tuple[str, ...], names: list[str]) -> None:
    """Refuse a name in ``leaders`` that is not one of the roster's units."""
    for name in given:
        if name not in names:
            hint = did_you_mean(name, names)
            raise field_error(OptionError, "leaders", f"unit names among {names}", name, hint)


def leader_names(given: str | Sequence[str]) -> tuple[str, ...]:
    """The units given as a bodyguard's leaders: one name, or several."""
    return (given,) if isinstance(given, str) else tuple(given)


def _unit_effects(effects: tuple[Effect, ...], parts: list[RosterUnit]) -> tuple[Effect, ...]:
    """The army's effects for one unit (a bodyguard and its leaders), judged on the
    keywords of all its parts."""
    keywords = {k for p in parts for k in p.keywords}
    return tuple(e for e in effects if e.for_unit(keywords))


def _armed_groups(parts: list[RosterUnit]) -> list[Models]:
    """The attacking model groups of a unit's parts that have wargear, as taken."""
    return [
        g
        for p in parts
        if p.datasheet.wargear
        for g in p.datasheet.attacker(effects=_effects(p, parts)).models
    ]


def _joint_loadouts(name: str, parts: list[RosterUnit]) -> list[Loadout]:
    """An attached unit's ranged and melee loadouts: its parts' together, with the points
    of all of them (None unless each has points)."""
    phases = {phase: _joint_sets(phase, parts) for phase in PHASE_LABELS}
    costs = _all_points(parts)
    points = None if costs is None else sum(costs)
    return phase_loadouts(name, phases, points, parts[0].datasheet.source or None)


def _joint_sets(phase: str, parts: list[RosterUnit]) -> list[tuple[int, list[list[Weapon]]]]:
    """The attack sets of an attached unit in one phase: each part's, with its effects."""
    return [t for p in parts for t in p.datasheet.phase_sets(phase, effects=_effects(p, parts))]


@lru_cache(maxsize=64)
def _army_rules(
    units: tuple[RosterUnit, ...], rules: tuple[AbilityText, ...], detachment: Detachment | None
) -> SheetRules:
    """:attr:`Roster.army_rules`, read once per army and detachment."""
    own = _rules_not_carried(units, rules)
    return sheet_rules([*own, *(detachment.rules if detachment else ())], army=True)


def _rules_not_carried(
    units: tuple[RosterUnit, ...], rules: tuple[AbilityText, ...]
) -> list[AbilityText]:
    """The army's rules that none of its units carries itself ("Waaagh!" is each unit's
    own)."""
    carried = {a.name for unit in units for a in unit.datasheet.abilities}
    return [r for r in rules if r.name not in carried]


def _effects(part: RosterUnit, parts: Sequence[RosterUnit]) -> tuple[Effect, ...]:
    """The effects on a part of an attached unit (docs/rules.md D37): every part's effects
    on "this unit" and every leader's "while leading", with its own on "this model"."""
    if len(parts) == 1:
        return part.datasheet.own_effects
    own = [e for e in part.datasheet.effects if e.scope == "model"]
    return tuple(dict.fromkeys([*_shared_effects(parts), *own]))


def _shared_effects(parts: Sequence[RosterUnit]) -> list[Effect]:
    """The effects every part of an attached unit shares: each part's on "this unit" and
    each leader's "while leading" (all but those on "this model")."""
    return [e for p in parts for e in p.datasheet.effects if e.scope != "model"]


def _attached(bodyguard: RosterUnit, leaders: list[RosterUnit]) -> Target:
    """A bodyguard with its leaders, the points of each part given to its own groups, and
    the rules of all of them on the attacks against it."""
    guard = bodyguard.datasheet.unit(effects=())
    parts = [leader.datasheet.unit(effects=()) for leader in leaders]
    led = guarded(attach_leaders(guard, *parts), _effects(bodyguard, [bodyguard, *leaders]))
    source = bodyguard.datasheet.source or None
    costs = _all_points([bodyguard, *leaders])
    if costs is None:
        return Target(led, source=source)
    group_points = _group_points(costs, guard, parts)
    return Target(led, points=sum(group_points), group_points=tuple(group_points), source=source)


def _all_points(parts: Sequence[RosterUnit]) -> list[int] | None:
    """Each part's points; None unless every part has them."""
    points = [p.points for p in parts if p.points is not None]
    return points if len(points) == len(parts) else None


def _group_points(costs: list[int], guard: Unit, parts: list[Unit]) -> list[int]:
    """The points of each group of an attached unit: each part's (the bodyguard's, then
    each leader's) shared among its own groups by their models."""
    weights = [[g.count for g in guard.groups], *([1] * part.models for part in parts)]
    group_points: list[int] = []
    for cost, weight in zip(costs, weights, strict=True):
        group_points += _share(cost, weight)
    return group_points


def _share(points: int, weights: list[int]) -> list[int]:
    """Whole points shared in proportion to the weights (largest remainders first).

    >>> _share(80, [3, 7]), _share(10, [1, 1, 1])
    ([24, 56], [4, 3, 3])
    """
    total = sum(weights)
    exact = [points * w / total for w in weights]
    out = [int(e) for e in exact]
    order = sorted(range(len(weights)), key=lambda i: out[i] - exact[i])
    for i in order[: points - sum(out)]:
        out[i] += 1
    return out
