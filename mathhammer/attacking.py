"""A whole unit making its attacks (seed 002): select weapons, select targets, resolve.

An :class:`Attacker` is a unit of models carrying weapons. A list of :class:`Use`
declarations says which models use which weapon against which target, all before
any die is rolled. The selection rules are checked (when shooting, a model that is
not a MONSTER or VEHICLE fires either its [PISTOL]/[CLOSE-QUARTERS] sidearms or its
other guns; when fighting, each model uses exactly one melee weapon, plus its
[EXTRA ATTACKS] weapons), a melee weapon may split its attacks across engaged
targets, and identical attacks against the same target are pooled.

Each target is then resolved with :func:`mathhammer.attack`: its pools in the order
declared, from its own state. Targets do not share dice, so given the declarations
they are independent and the joint probabilities are exact products.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .abilities import Cleave, ExtraAttacks, Hazardous, NoEffect
from .attack import attack
from .context import Context, Modifiers
from .errors import ProfileError, field_error
from .montecarlo import generator_from, simulate
from .profiles import Unit, Weapon, normalise_keywords
from .result import AttackResult, SimulationResult

__all__ = [
    "Attacker",
    "Models",
    "UnitAttackResult",
    "UnitSimulationResult",
    "Use",
    "best_splits",
    "resolve",
    "simulate_uses",
]

PHASES = ("shooting", "fight")
_SIDEARMS = frozenset({"PISTOL", "CLOSE-QUARTERS"})


@dataclass(frozen=True)
class Models:
    """Identical models of an attacking unit and the weapons each one carries.

    Examples
    --------
    >>> bolter = Weapon("Bolter", 2, 3, 4, 0, 1)
    >>> Models(9, [bolter], name="Marines").weapon("Bolter") is bolter
    True
    """

    count: int
    weapons: Sequence[Weapon]
    name: str = ""
    keywords: tuple[str, ...] | str = ()

    def __post_init__(self) -> None:
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise field_error(ProfileError, "Models.count", "an integer >= 1", self.count)
        weapons = tuple(self.weapons) if not isinstance(self.weapons, Weapon) else (self.weapons,)
        if not weapons or not all(isinstance(w, Weapon) for w in weapons):
            raise field_error(ProfileError, "Models.weapons", "one or more Weapons", self.weapons)
        names = [w.name for w in weapons]
        if len(set(names)) != len(names):
            raise field_error(ProfileError, "Models.weapons", "weapons with distinct names", names)
        object.__setattr__(self, "weapons", weapons)
        object.__setattr__(self, "keywords", normalise_keywords(self.keywords))

    @property
    def label(self) -> str:
        """The name, or the weapons carried when unnamed."""
        return self.name or "/".join(w.name for w in self.weapons)

    def weapon(self, key: str | Weapon) -> Weapon:
        """One of the weapons carried, by name or by the Weapon itself."""
        for w in self.weapons:
            if w is key or w == key or w.name == key:
                return w
        raise field_error(
            ProfileError,
            f"weapon of {self.label!r}",
            f"one of {[w.name for w in self.weapons]}",
            key if isinstance(key, str) else key.name,
        )


@dataclass(frozen=True)
class Attacker:
    """An attacking unit: groups of identical models and their weapons."""

    name: str
    models: Sequence[Models]

    def __post_init__(self) -> None:
        models = (self.models,) if isinstance(self.models, Models) else tuple(self.models)
        if not models or not all(isinstance(m, Models) for m in models):
            raise field_error(ProfileError, "Attacker.models", "one or more Models", self.models)
        labels = [m.label for m in models]
        if len(set(labels)) != len(labels):
            raise field_error(ProfileError, "Attacker.models", "distinct names", labels)
        object.__setattr__(self, "models", models)

    def group(self, key: int | str) -> Models:
        """A group of models by position or name."""
        if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(self.models):
            return self.models[key]
        for m in self.models:
            if m.label == key:
                return m
        raise field_error(
            ProfileError, "Use.models", f"one of {[m.label for m in self.models]}", key
        )


@dataclass(frozen=True)
class Use:
    """A declaration: these models use this weapon against this target (or these targets).

    Parameters
    ----------
    models : int or str
        The group of models, by position or name.
    weapon : str or Weapon
        The weapon, by name or itself.
    target : Unit, optional
        The one target of the weapon.
    split : mapping of Unit to int, optional
        Melee only: how many of each model's attacks go to each engaged target, instead
        of ``target``; at least one each, no more targets than A, summing to A.
    count : int, optional
        How many of the group's models use the weapon (all of them by default).
    """

    models: int | str
    weapon: str | Weapon
    target: Unit | None = None
    split: Mapping[Unit, int] | Sequence[tuple[Unit, int]] | None = None
    count: int | None = None

    def __post_init__(self) -> None:
        if (self.target is None) == (self.split is None):
            raise ProfileError("Use needs a target= or a split= (melee), not both or neither")
        if self.target is not None and not isinstance(self.target, Unit):
            raise field_error(ProfileError, "Use.target", "a Unit", self.target)
        if self.split is not None:
            pairs = tuple(self.split.items() if isinstance(self.split, Mapping) else self.split)
            for unit, n in pairs:
                if not isinstance(unit, Unit):
                    raise field_error(ProfileError, "Use.split", "Unit keys", unit)
                if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                    raise field_error(
                        ProfileError,
                        f"Use.split[{unit.name!r}]",
                        "an integer >= 1",
                        n,
                        "every target of a split gets at least one attack",
                    )
            object.__setattr__(self, "split", pairs)

    def assignments(self) -> tuple[tuple[Unit, int | None], ...]:
        """(target, attacks per model or None for the weapon's A) pairs."""
        if self.target is not None:
            return ((self.target, None),)
        return tuple(self.split)  # type: ignore[arg-type]


def _is_sidearm(weapon: Weapon) -> bool:
    return any(isinstance(a, NoEffect) and a.name in _SIDEARMS for a in weapon.abilities)


def _is_extra(weapon: Weapon) -> bool:
    return any(isinstance(a, ExtraAttacks) for a in weapon.abilities)


def _split_weapon(weapon: Weapon, attacks: int, first: bool = True) -> Weapon:
    """The weapon as used against one target of a split: its declared attacks, and no
    [CLEAVE] (which needs every attack of the weapon at one unit). Its one [HAZARDOUS]
    roll is made with the first target's pool only."""
    dropped = (Cleave,) if first else (Cleave, Hazardous)
    kept = [a for a in weapon.abilities if not isinstance(a, dropped)]
    return replace(weapon, attacks=attacks, abilities=kept)


def _check_selection(attacker: Attacker, uses: Sequence[Use], phase: str) -> None:
    """Enforce seed 002's weapon-selection rules; raise naming the models and weapons."""
    per_group: dict[str, dict[str, int]] = {}
    for use in uses:
        group = attacker.group(use.models)
        weapon = group.weapon(use.weapon)
        n = group.count if use.count is None else use.count
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= group.count:
            raise field_error(
                ProfileError, f"Use.count for {group.label!r}", f"from 1 to {group.count}", n
            )
        if phase == "shooting" and weapon.melee:
            raise ProfileError(
                f"{group.label!r} cannot shoot with the melee weapon {weapon.name!r}"
            )
        if phase == "fight" and not weapon.melee:
            raise ProfileError(
                f"{group.label!r} cannot fight with the ranged weapon {weapon.name!r}"
            )
        if use.split is not None:
            _check_split(group, weapon, use, phase)
        used = per_group.setdefault(group.label, {})
        used[weapon.name] = used.get(weapon.name, 0) + n
        if used[weapon.name] > group.count:
            raise ProfileError(
                f"{group.label!r}: {used[weapon.name]} uses of {weapon.name!r} declared for "
                f"{group.count} models; each model's weapon has one target (or one split)"
            )
    for label, used in per_group.items():
        group = attacker.group(label)
        if phase == "shooting":
            _check_sidearms(group, used)
        else:
            _check_melee(group, used)


def _check_split(group: Models, weapon: Weapon, use: Use, phase: str) -> None:
    if phase != "fight":
        raise ProfileError(f"{group.label!r}: only melee attacks can be split across targets")
    if not weapon.attacks.is_constant:  # type: ignore[union-attr]
        raise ProfileError(
            f"{group.label!r}: {weapon.name!r} has random attacks ({weapon.attacks}); "
            "a random A cannot be split across targets"
        )
    a = int(weapon.attacks)  # type: ignore[arg-type]
    pairs = use.assignments()
    if len(pairs) > a:
        raise ProfileError(
            f"{group.label!r}: {weapon.name!r} (A{a}) cannot split across {len(pairs)} targets"
        )
    total = sum(n for _, n in pairs if n is not None)
    if total != a:
        raise ProfileError(
            f"{group.label!r}: the split of {weapon.name!r} must use all its {a} attacks; "
            f"got {total}"
        )
    if len({u.name for u, _ in pairs}) != len(pairs):
        raise ProfileError(f"{group.label!r}: the split of {weapon.name!r} names a target twice")


def _check_sidearms(group: Models, used: Mapping[str, int]) -> None:
    if {"MONSTER", "VEHICLE"} & set(group.keywords):
        return
    sidearms = [w for w in used if _is_sidearm(group.weapon(w))]
    others = [w for w in used if not _is_sidearm(group.weapon(w))]
    if sidearms and others:
        most_sidearm = max(used[w] for w in sidearms)
        most_other = max(used[w] for w in others)
        if most_sidearm + most_other > group.count:
            raise ProfileError(
                f"{group.label!r}: a model fires either its [PISTOL]/[CLOSE-QUARTERS] weapons "
                f"({', '.join(sidearms)}) or its other weapons ({', '.join(others)}), not both; "
                f"{most_sidearm} + {most_other} models declared for {group.count}"
            )


def _check_melee(group: Models, used: Mapping[str, int]) -> None:
    main = {w: n for w, n in used.items() if not _is_extra(group.weapon(w))}
    if sum(main.values()) != group.count:
        raise ProfileError(
            f"{group.label!r}: each model fights with exactly one melee weapon (plus its "
            f"[EXTRA ATTACKS] weapons); {sum(main.values())} declared for {group.count} models "
            f"({', '.join(main) or 'none'})"
        )


@dataclass(frozen=True)
class UnitAttackResult:
    """One result per target, and the joint view.

    Targets are independent given the declarations, so ``p_all_destroyed`` and
    ``p_any_destroyed`` are exact products.
    """

    attacker: Attacker
    results: Mapping[str, AttackResult] = field(default_factory=dict)

    def __getitem__(self, target: str | Unit) -> AttackResult:
        name = target.name if isinstance(target, Unit) else target
        if name not in self.results:
            raise field_error(ProfileError, "target", f"one of {list(self.results)}", name)
        return self.results[name]

    @property
    def targets(self) -> tuple[str, ...]:
        """The target names, in order of first declaration."""
        return tuple(self.results)

    @property
    def p_all_destroyed(self) -> float:
        """P(every target is destroyed)."""
        return float(math.prod(r.p_destroyed for r in self.results.values()))

    @property
    def p_any_destroyed(self) -> float:
        """P(at least one target is destroyed)."""
        return float(1.0 - math.prod(1.0 - r.p_destroyed for r in self.results.values()))

    @property
    def expected_killed(self) -> float:
        """Models destroyed, summed over the targets, on average."""
        return float(sum(r.killed.mean() for r in self.results.values()))

    def summary(self) -> Any:
        """A DataFrame with a row per target (pandas is imported on first use)."""
        import pandas as pd

        rows = [
            {
                "target": name,
                "models": r.target.models,
                "mean_killed": r.killed.mean(),
                "sd_killed": r.killed.std(),
                "p_at_least_1": r.killed.at_least(1),
                "p_destroyed": r.p_destroyed,
                "mean_damage": r.damage.mean(),
            }
            for name, r in self.results.items()
        ]
        return pd.DataFrame(rows).set_index("target")

    def _repr_html_(self) -> str:
        from .display import result_html

        charts = [(r.killed, f"{name}: models destroyed") for name, r in self.results.items()]
        headline = (
            f"P(every target destroyed) {self.p_all_destroyed:.3f}, "
            f"P(at least one destroyed) {self.p_any_destroyed:.3f}; "
            f"models destroyed in all {self.expected_killed:.3f} on average"
        )
        return result_html(
            self.attacker.name,
            "against " + ", ".join(self.targets),
            headline,
            charts,
            self.summary(),
        )

    def __repr__(self) -> str:
        parts = ", ".join(f"{n}: {r.killed.mean():.3g} killed" for n, r in self.results.items())
        return (
            f"<UnitAttackResult {self.attacker.name}: {parts}; "
            f"P(all destroyed) {self.p_all_destroyed:.3f}>"
        )


def _per_target(
    attacker: Attacker, uses: Sequence[Use], phase: str
) -> dict[str, tuple[Unit, list[tuple[Weapon, int]]]]:
    if phase not in PHASES:
        raise field_error(ProfileError, "phase", f"one of {list(PHASES)}", phase)
    uses = list(uses)
    if not uses:
        raise field_error(ProfileError, "uses", "at least one Use", uses)
    if not all(isinstance(u, Use) for u in uses):
        raise field_error(ProfileError, "uses", "Use declarations", uses)
    _check_selection(attacker, uses, phase)
    out: dict[str, tuple[Unit, list[tuple[Weapon, int]]]] = {}
    for use in uses:
        group = attacker.group(use.models)
        weapon = group.weapon(use.weapon)
        n = group.count if use.count is None else use.count
        for k, (target, attacks) in enumerate(use.assignments()):
            known = out.get(target.name)
            if known is not None and known[0] != target:
                raise ProfileError(f"two different targets are named {target.name!r}")
            weapon_here = weapon if attacks is None else _split_weapon(weapon, attacks, k == 0)
            out.setdefault(target.name, (target, []))[1].append((weapon_here, n))
    return out


def resolve(
    attacker: Attacker,
    uses: Iterable[Use],
    *,
    phase: str = "shooting",
    rules: str = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> UnitAttackResult:
    """Resolve a unit's declared attacks against one or more targets, exactly.

    Examples
    --------
    >>> import mathhammer as mh
    >>> axe = mh.Weapon("Axe", attacks=4, skill=3, strength=5, ap=-1, damage=1, melee=True)
    >>> champion = mh.Attacker("Champion", [mh.Models(1, [axe])])
    >>> grunts = mh.Unit.of("Grunts", 10, 3, 6, 1)
    >>> boss = mh.Unit.of("Boss", 1, 5, 3, 3)
    >>> res = mh.resolve(champion, [mh.Use(0, "Axe", split={grunts: 3, boss: 1})], phase="fight")
    >>> res.targets, round(res["Grunts"].killed.mean(), 4)  # 3 * 2/3 * 2/3; AP-1 beats 6+
    (('Grunts', 'Boss'), 1.3333)
    """
    context = Context() if context is None else context
    context = replace(context, melee=phase == "fight")
    results = {
        name: attack(weapons, target, rules=rules, context=context, modifiers=modifiers)
        for name, (target, weapons) in _per_target(attacker, list(uses), phase).items()
    }
    return UnitAttackResult(attacker, results)


@dataclass(frozen=True)
class UnitSimulationResult(UnitAttackResult):
    """The Monte Carlo counterpart, with the joint probabilities estimated per trial."""

    trials: int = 0
    destroyed: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))

    @property
    def p_all_destroyed(self) -> float:
        return float(self.destroyed.all(axis=1).mean())

    @property
    def p_any_destroyed(self) -> float:
        return float(self.destroyed.any(axis=1).mean())


def simulate_uses(
    attacker: Attacker,
    uses: Iterable[Use],
    *,
    phase: str = "shooting",
    trials: int = 100_000,
    rng: Any = None,
    rules: str = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> UnitSimulationResult:
    """The Monte Carlo estimate of :func:`resolve`, rolling every target's dice."""
    context = Context() if context is None else context
    context = replace(context, melee=phase == "fight")
    generator = generator_from(rng)
    results: dict[str, SimulationResult] = {}
    for name, (target, weapons) in _per_target(attacker, list(uses), phase).items():
        results[name] = simulate(
            weapons,
            target,
            trials=trials,
            rng=generator,
            rules=rules,
            context=context,
            modifiers=modifiers,
        )
    destroyed = np.column_stack([r.killed_samples >= r.target.models for r in results.values()])
    return UnitSimulationResult(attacker, results, trials=trials, destroyed=destroyed)


def _compositions(total: int, parts: int) -> Iterable[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` positive integers, in order."""
    for cuts in itertools.combinations(range(1, total), parts - 1):
        bounds = (0, *cuts, total)
        yield tuple(b - a for a, b in itertools.pairwise(bounds))


def best_splits(
    models: Models,
    weapon: str | Weapon,
    targets: Sequence[Unit],
    *,
    metric: str | Callable[[UnitAttackResult], float] = "expected killed",
    rules: str = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> Any:
    """Evaluate every legal split of a melee weapon's attacks across 2 or 3 targets.

    Parameters
    ----------
    models : Models
        The models wielding the weapon (each splits the same way).
    weapon : str or Weapon
        The melee weapon, with a fixed A.
    targets : sequence of Unit
        Two or three engaged targets.
    metric : str or callable
        ``"expected killed"`` (models destroyed over all targets), ``"P(all destroyed)"``,
        ``"P(any destroyed)"``, ``"P(destroyed) <target name>"``, or a function of the
        :class:`UnitAttackResult`.

    Returns
    -------
    pandas.DataFrame
        One row per split (attacks per model for each target), the metric, expected
        models destroyed and P(destroyed) per target, best first.

    Examples
    --------
    >>> import mathhammer as mh
    >>> axe = mh.Weapon("Axe", attacks=4, skill=3, strength=5, ap=-1, damage=1, melee=True)
    >>> grunts, boss = mh.Unit.of("Grunts", 10, 3, 6, 1), mh.Unit.of("Boss", 1, 5, 3, 3)
    >>> table = mh.best_splits(mh.Models(1, [axe]), "Axe", [grunts, boss])
    >>> list(table.columns[:2]), len(table)
    (['Grunts', 'Boss'], 3)
    """
    import pandas as pd

    if not 2 <= len(targets) <= 3:
        raise field_error(ProfileError, "targets", "two or three Units", len(targets))
    chosen = models.weapon(weapon)
    attacker = Attacker(models.label, [models])
    if not chosen.attacks.is_constant:  # type: ignore[union-attr]
        raise ProfileError(f"{chosen.name!r} has random attacks; a random A cannot be split")
    a = int(chosen.attacks)  # type: ignore[arg-type]
    score = _metric(metric)
    cache: dict[tuple[str, int], AttackResult] = {}
    base = Context() if context is None else context
    rows = []
    for split in _compositions(a, len(targets)):
        results = {}
        for unit, k in zip(targets, split, strict=True):
            key = (unit.name, k)
            if key not in cache:  # each target's outcome depends only on its own attacks
                cache[key] = attack(
                    [(_split_weapon(chosen, k), models.count)],
                    unit,
                    rules=rules,
                    context=replace(base, melee=True),
                    modifiers=modifiers,
                )
            results[unit.name] = cache[key]
        outcome = UnitAttackResult(attacker, results)
        row: dict[str, Any] = {u.name: k for u, k in zip(targets, split, strict=True)}
        row["metric"] = score(outcome)
        row["expected killed"] = outcome.expected_killed
        for u in targets:
            row[f"P(destroyed) {u.name}"] = outcome[u.name].p_destroyed
        rows.append(row)
    frame = pd.DataFrame(rows)
    return frame.sort_values("metric", ascending=False, kind="stable").reset_index(drop=True)


def _metric(
    metric: str | Callable[[UnitAttackResult], float],
) -> Callable[[UnitAttackResult], float]:
    if callable(metric):
        return metric
    if metric == "expected killed":
        return lambda r: r.expected_killed
    if metric == "P(all destroyed)":
        return lambda r: r.p_all_destroyed
    if metric == "P(any destroyed)":
        return lambda r: r.p_any_destroyed
    if isinstance(metric, str) and metric.startswith("P(destroyed) "):
        name = metric.removeprefix("P(destroyed) ")
        return lambda r: r[name].p_destroyed
    raise field_error(
        ProfileError,
        "metric",
        "'expected killed', 'P(all destroyed)', 'P(any destroyed)', 'P(destroyed) <target>' "
        "or a function",
        metric,
    )
