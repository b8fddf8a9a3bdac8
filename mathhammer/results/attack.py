"""Result containers shared by the exact engine and the Monte Carlo.

They hold distributions only; nothing here computes an attack, so both engines can
fill them without depending on each other. The parts of a result (per pool, per group,
per after-attack test) are in :mod:`.parts`, and served here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..core.dist import Dist
from ..core.frozen import fast_init
from ..model.profiles import Unit
from .allocation import in_allocation_order, wounds_lost_by_group
from .parts import GroupResult, PoolResult, TestResult
from .state import UnitState

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["AttackResult", "GroupResult", "PoolResult", "TestResult"]


@fast_init
@dataclass(frozen=True)
class AttackResult:
    """The outcome of a unit's attacks against one target.

    Attributes
    ----------
    target : Unit
        The unit attacked.
    rules : str
        The ruleset used.
    killed : Dist
        Models destroyed.
    damage : Dist
        Wounds lost (wounds already lost before the attack are not counted).
    groups : tuple of GroupResult
        Per allocation group, in allocation order.
    pools : tuple of PoolResult
        Per pool, in resolution order.
    hazardous : Dist
        Mortal wounds the attacking unit suffers from its [HAZARDOUS] weapons.
    tests : tuple of TestResult
        The tests the target takes after the attacks under this ruleset (the classic
        Panic Test); empty under rulesets without any.
    trimmed : float
        The probability mass the exact engine left out: counts of dice whose probability
        is negligible (at most 1e-18 cut from each count) are not resolved. Every
        distribution sums to ``1 - trimmed`` or more, and differs from the untrimmed
        computation by at most ``trimmed`` in any probability.
    state : UnitState or None
        The target's state after the attacks: the joint distribution of each group's
        models and wounds left, which ``attack(..., start=result)`` carries on from.
    choices : tuple of str
        Where a weapon carries duplicated abilities (only one instance of a kind applies),
        which instances were selected, over what, and by which metric.

    A result that carries on from a ``start`` counts from the start of the sequence:
    ``killed``, ``damage``, the groups' and the pools' distributions include what the
    earlier attacks did.
    """

    target: Unit
    rules: str
    killed: Dist
    damage: Dist
    groups: tuple[GroupResult, ...]
    pools: tuple[PoolResult, ...]
    hazardous: Dist = field(default_factory=lambda: Dist.constant(0))
    tests: tuple[TestResult, ...] = ()
    trimmed: float = 0.0
    state: UnitState | None = field(default=None, repr=False)
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Each group's wounds lost, where the engine did not record them and the unit's
        # wounds lost fix them (groups used up in allocation order).
        if not self._groups_damage_to_fill():
            return
        lost = wounds_lost_by_group(self.target, self.damage)
        filled = tuple(
            g if g.damage is not None else replace(g, damage=d)
            for g, d in zip(self.groups, lost, strict=True)
        )
        object.__setattr__(self, "groups", filled)

    def _groups_damage_to_fill(self) -> bool:
        """True when some group's wounds lost are not recorded and the unit's fix them: a
        result for each of the target's groups, used up in allocation order."""
        groups = self.groups
        if len(groups) != len(self.target.groups):
            return False
        for group in groups:
            if group.damage is None:  # not recorded
                return len(groups) <= 1 or self._in_allocation_order()
        return False

    def _in_allocation_order(self) -> bool:
        return in_allocation_order([a for pool in self.pools for a in pool.abilities])

    def test(self, name: str) -> TestResult | None:
        """The after-attack test called ``name``, or None if the ruleset has none."""
        for test in self.tests:
            if test.name == name:
                return test
        return None

    @property
    def p_panic_test(self) -> float | None:
        """P(the target must take a Panic Test); None under rulesets without one."""
        test = self.test("panic test")
        return None if test is None else test.p_taken

    @property
    def p_panic_fail(self) -> float | None:
        """P(the target takes a Panic Test and fails it); None without Panic Tests."""
        test = self.test("panic test")
        return None if test is None else test.p_failed

    @property
    def p_destroyed(self) -> float:
        """P(the whole unit is destroyed)."""
        return float(self.killed.at_least(self.target.models))

    @property
    def survivors(self) -> Dist:
        """Models left alive: ``target.models - killed``.

        Examples
        --------
        Six automatic hits at S4 AP-4 on 5 T4 W1 models with a 4+ save: each wounds on
        a 4+ and cannot be saved, so each kills with P = 1/2, and 3 or more models are
        left when at most 2 die: (1 + 6 + 15) / 64.

        >>> import mathhammer as mh
        >>> gun = mh.Weapon("Gun", attacks=1, skill=2, strength=4, ap=-4, damage=1,
        ...                 abilities="[TORRENT]")
        >>> res = mh.attack([(gun, 6)], mh.Unit.of("Squad", 5, 4, 4, 1))
        >>> res.survivors.at_least(3)
        0.34375
        >>> res.survivors.at_least(3) == res.killed.at_most(2)
        True
        """
        models = self.target.models
        return self.killed.map(lambda k: models - k)

    @property
    def p_character_killed(self) -> float | None:
        """P(at least one CHARACTER model is destroyed); None without CHARACTER models.

        With several CHARACTER groups and [PRECISION], when the groups' results do not
        tell which died together, NaN.

        Examples
        --------
        >>> import mathhammer as mh
        >>> gun = mh.Weapon("Lascannon", attacks=1, skill=2, strength=12, ap=-3, damage=6,
        ...                 abilities="[TORRENT]")
        >>> led = mh.targets.get("Character-led unit").unit
        >>> res = mh.attack([(gun, 8)], led)

        The Leader is allocated to last: he dies only when the whole unit does.

        >>> res.p_character_killed == res.p_destroyed
        True
        >>> mh.attack(gun, mh.Unit.of("Squad", 5, 4, 3, 1)).p_character_killed is None
        True
        """
        characters = [g for g in self.groups if g.group.character]
        if not characters:
            return None
        if len(characters) > 1 and not self._in_allocation_order():
            return float("nan")
        # in allocation order the first CHARACTER dies before any other one does
        return float(characters[0].killed.at_least(1))

    @property
    def mean_hazard_wounds(self) -> float | None:
        """Mortal wounds the attacker suffers from [HAZARDOUS], on average; None without it.

        Examples
        --------
        >>> import mathhammer as mh
        >>> plasma = mh.Weapon("Plasma", attacks=1, skill=3, strength=8, ap=-3, damage=2,
        ...                    abilities="[HAZARDOUS]")
        >>> res = mh.attack([(plasma, 6)], mh.Unit.of("Squad", 5, 4, 3, 1))
        >>> round(res.mean_hazard_wounds, 12)  # 6 hazard rolls failing on a 1 or 2: 6 / 3
        2.0
        >>> mh.attack(mh.Weapon("Gun", 1, skill=3, strength=4), res.target).mean_hazard_wounds
        """
        for pool in self.pools:
            for a in pool.abilities:
                if a == "[HAZARDOUS]" or a.startswith("[HAZARDOUS:"):
                    return float(self.hazardous.mean())
        return None

    @property
    def rules_applied(self) -> tuple[str, ...]:
        """The units' own rules applied to some pool (the attacker's, on its weapons, and
        the target's, on the attacks against it), each once, as ``"Rule (effect)"``. The
        weapons' printed abilities (``"[LETHAL HITS]"``) are not among them.

        Examples
        --------
        >>> import mathhammer as mh
        >>> from mathhammer.model.effects import Effect, arm
        >>> choppa = arm(mh.Weapon("Choppa", 3, 3, 5, -1, 1, "[LETHAL HITS]", melee=True),
        ...              [Effect("hit", 1, source="Dodge Dis!")])
        >>> mh.attack([(choppa, 10)], mh.Unit.of("Guard", 10, 3, 5, 1)).rules_applied
        ('Dodge Dis! (+1 to hit)',)
        """
        found = (a for pool in self.pools for a in pool.abilities if not a.startswith("["))
        return tuple(dict.fromkeys(found))

    def group(self, key: int | str) -> GroupResult:
        """One allocation group's result, by position or by label (e.g. ``"Captain"``)."""
        return self.groups[self.target.group_index(key)]

    def killed_in(self, key: int | str) -> Dist:
        """Models destroyed in one group: ``result.killed_in("Captain").at_least(1)``."""
        return self.group(key).killed

    def _headline(self) -> str:
        k = self.killed
        return (
            f"killed mean {k.mean():.3g} (sd {k.std():.3g}), "
            f"P(>=1) {k.at_least(1):.3f}, P(destroyed) {self.p_destroyed:.3f}; "
            f"damage mean {self.damage.mean():.3g}"
        )

    # ------------------------------------------------------------------ presentation
    def distributions(self) -> dict[str, Dist]:
        """Every distribution of the result, by stage name, in sequence order.

        The stages of each pool (``"attacks"``, ``"hits"``, ``"wounds"``, ``"unsaved"``,
        and ``"devastating"`` when a pool can score devastating wounds), prefixed by
        the pool's label when there are several pools; ``"mortal wounds"`` for a
        :class:`~mathhammer.model.profiles.MortalWounds` step; ``"hazardous"`` when the
        attacker risks mortal wounds; then ``"damage"``, ``"killed"`` and, for a unit
        of several groups, ``"killed: <group>"``.

        Examples
        --------
        >>> import mathhammer as mh
        >>> gun = mh.Weapon("Gun", attacks=2, skill=3, strength=4, ap=0, damage=1)
        >>> res = mh.attack([(gun, 5)], mh.Unit.of("Squad", 5, 4, 3, 1))
        >>> list(res.distributions())
        ['attacks', 'hits', 'wounds', 'unsaved', 'damage', 'killed']
        """
        out = self._pool_stages()
        if self.hazardous.mean() > 0:
            out["hazardous"] = self.hazardous
        out["damage"] = self.damage
        out["killed"] = self.killed
        if len(self.groups) > 1:
            for g in self.groups:
                out[f"killed: {g.label}"] = g.killed
        return out

    def _pool_stages(self) -> dict[str, Dist]:
        """Each pool's distributions by stage name (:func:`_pool_distributions`), prefixed
        by the pool's label when there are several pools."""
        out: dict[str, Dist] = {}
        for pool in self.pools:
            prefix = f"{pool.label}: " if len(self.pools) > 1 else ""
            out.update(_pool_distributions(pool, prefix))
        return out

    def summary(self, at_least: Sequence[int] | None = None) -> pd.Series:
        """The key numbers of every stage as a :class:`pandas.DataFrame`.

        One row per stage (see :meth:`distributions`); columns ``mean``, ``sd``,
        ``median``, ``mode``, ``P(>=k)`` for each k of ``at_least`` and
        ``P(destroyed)`` (for the unit and for each group; empty on other rows).
        Under a ruleset with Panic Tests, ``P(panic test)`` and ``P(panic test failed)``
        follow, on the ``killed`` row. The HTML view of the result is rendered from this
        table.

        Parameters
        ----------
        at_least : sequence of int, optional
            The k of the ``P(>=k)`` columns. By default every k up to the unit's
            model count, or 1, 2, 3 and its quarters for a unit of more than 10.

        Examples
        --------
        >>> import mathhammer as mh
        >>> bolter = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
        >>> marines = mh.Unit.of("Intercessors", models=5, toughness=4, save=3, wounds=2)
        >>> table = mh.attack([(bolter, 10)], marines).summary()
        >>> table.round(3).loc[["damage", "killed"], ["mean", "median", "P(>=1)", "P(destroyed)"]]
                 mean  median  P(>=1)  P(destroyed)
        stage
        damage  3.333       3   0.974           NaN
        killed  1.417       1   0.870         0.001
        """
        import pandas as pd

        if at_least is None:
            at_least = self.killed.thresholds(top=self.target.models)
        destroyed = {"killed": self.p_destroyed} | {
            f"killed: {g.label}": g.p_destroyed for g in self.groups
        }
        panic: dict[str, float] = {}
        for test in self.tests:
            panic |= {f"P({test.name})": test.p_taken, f"P({test.name} failed)": test.p_failed}
        rows = [
            _summary_row(stage, dist.describe(at_least), destroyed, panic)
            for stage, dist in self.distributions().items()
        ]
        index = pd.Index(list(self.distributions()), name="stage")
        return pd.DataFrame(rows, index=index)

    def to_frame(self) -> pd.DataFrame:
        """Every distribution as one tidy :class:`pandas.DataFrame`.

        Columns ``stage``, ``value``, ``pmf``, ``cdf`` (P(X <= value)) and
        ``at_least`` (P(X >= value)); the stages are those of :meth:`distributions`.

        Examples
        --------
        >>> import mathhammer as mh
        >>> gun = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-3, damage=1)
        >>> frame = mh.attack(gun, mh.Unit.of("Pair", 2, 4, 3, 1)).to_frame()
        >>> frame[frame.stage == "killed"].round(4)
             stage  value     pmf     cdf  at_least
        11  killed      0  0.4213  0.4213    1.0000
        12  killed      1  0.5787  1.0000    0.5787
        13  killed      2  0.0000  1.0000    0.0000
        """
        import pandas as pd

        frames = [d.to_frame().assign(stage=s) for s, d in self.distributions().items()]
        frame = pd.concat(frames, ignore_index=True)
        return frame[["stage", "value", "pmf", "cdf", "at_least"]]

    def plot(self, kind: str = "pmf", ax: Any = None, **kwargs: Any) -> Any:
        """Models destroyed and wounds lost side by side, the mean and median marked.

        Each title names the attacker (its pools, or ``attacker=``) and the target.
        Against a unit whose every model has one wound left the two are one
        distribution, so one panel is drawn.

        Parameters
        ----------
        kind : {"pmf", "at_least", "cdf"}
            As for :meth:`Dist.plot <mathhammer.core.dist.Dist.plot>`.
        ax : matplotlib Axes or a pair of them, optional
            Where to draw; a new figure by default.
        **kwargs
            ``attacker=`` names the attacker in the titles; the rest is passed on to
            :func:`mathhammer.views.plots.plot_dist` for every panel.

        Returns
        -------
        numpy.ndarray of Axes
            The killed panel, then the damage panel where there are two.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import mathhammer as mh
        >>> gun = mh.Weapon("Gun", attacks=2, skill=3, strength=4, ap=0, damage=1)
        >>> axes = mh.attack([(gun, 5)], mh.Unit.of("Squad", 5, 4, 3, 2)).plot()
        >>> [a.get_title() for a in axes]
        ['Gun x5 → Squad\\nmodels destroyed', 'Gun x5 → Squad\\nwounds lost']
        >>> len(mh.attack([(gun, 5)], mh.Unit.of("Boyz", 10, 5, 5, 1)).plot())
        1
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        from ..views.plots import plot_result

        return plot_result(self, kind=kind, ax=ax, **kwargs)

    def _repr_html_(self) -> str:
        from ..views.html import result_html

        frame = self.summary()
        killed = frame.loc["killed"]
        headline = (
            f"models destroyed: mean {killed['mean']:.3f} (sd {killed['sd']:.3f}), "
            f"median {int(killed['median'])}, P(at least 1) {killed['P(>=1)']:.3f}, "
            f"P(destroyed) {killed['P(destroyed)']:.3f}; "
            f"wounds lost: mean {frame.loc['damage', 'mean']:.3f}"
        )
        for test in self.tests:
            headline += (
                f"; P({test.name.title()}) {killed[f'P({test.name})']:.3f}, "
                f"P({test.name.title()} failed) {killed[f'P({test.name} failed)']:.3f}"
            )
        pools = " + ".join(p.label for p in self.pools)
        t = self.target
        details = f"{t.models} models, {t.total_wounds} wounds; rules {self.rules}"
        charts = [(self.killed, "models destroyed"), (self.damage, "wounds lost")]
        return result_html(f"{pools} → {t.name}", details, headline, charts, frame)

    def __repr__(self) -> str:
        pools = ", ".join(p.label for p in self.pools)
        return (
            f"<{type(self).__name__} [{self.rules}] {pools} -> {self.target.name} "
            f"({self.target.models} models): {self._headline()}>"
        )


def _pool_distributions(pool: PoolResult, prefix: str) -> dict[str, Dist]:
    """One pool's distributions by stage name, each prefixed: its stages and, when it can
    score them, its devastating wounds; a :class:`~mathhammer.model.profiles.MortalWounds`
    step's mortal wounds."""
    if not pool.weapons:
        return {f"{prefix}mortal wounds": pool.attacks}
    out = {prefix + stage: dist for stage, dist in pool.stages().items()}
    if pool.devastating.mean() > 0:  # none for a pool that cannot score them (n == 0)
        out[prefix + "devastating"] = pool.devastating
    return out


def _summary_row(
    stage: str, row: dict[str, float], destroyed: dict[str, float], tests: dict[str, float]
) -> dict[str, float]:
    """A stage's row of :meth:`AttackResult.summary`: its key numbers (``row``), then
    P(destroyed) where the stage has one and the tests' columns, on the killed row only
    (NaN elsewhere)."""
    row["P(destroyed)"] = destroyed.get(stage, float("nan"))
    for column, value in tests.items():
        row[column] = value if stage == "killed" else float("nan")
    return row
