"""Loadouts compared in a notebook cell: counts, modifiers and situation as controls.

:func:`explore` shows the loadouts' "at least k models destroyed" curves against one
target, and the comparison table beside them, and redraws both whenever a control
changes: which loadouts are shown, the target, how many of each weapon, the hit and wound
modifiers, re-rolls, the situation and the ruleset. :class:`ExploreState` holds those
choices and computes what the cell shows, so it can be driven and tested without a
browser; the exact results are cached by :func:`mathhammer.attack`, so going back to a
choice made before answers at once.

Requires the ``app`` extra (``pip install "mathhammer[app]"``) for the controls;
:class:`ExploreState` needs only the core install.

Examples
--------
>>> import mathhammer as mh
>>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> melta = mh.Weapon("Melta rifle", attacks=1, skill=3, strength=9, ap=-4, damage="D6")
>>> state = ExploreState.of({"bolters": [(bolt, 10)], "meltas": [(melta, 4)]}, "Vehicle")
>>> state.set_count("meltas", 0, 6)
>>> state.hit = 1
>>> frame = state.table()
>>> list(frame.loadout), [round(float(x), 3) for x in frame.mean_damage]
(['bolters', 'meltas'], [1.389, 5.574])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import pandas as pd

from ..decisions.attack import attack
from ..errors import MathhammerError
from ..model.context import Context, Modifiers
from ..model.pools import MortalWounds
from ..model.profiles import Weapon
from ..results.attack import AttackResult
from ..rules.registry import RulesetLike, get_ruleset
from ..units import targets as suite
from ..units.compare import compare, loadouts_of, targets_of
from ..units.loadout import Loadout
from ..units.options import AttackOptions
from ..units.targets import Target
from ..views.plots import plot_at_least
from .choices import among
from .layout import SITUATIONS as PAGE_SITUATIONS
from .layout import panel

__all__ = [
    "MAX_COUNT",
    "REROLLS",
    "RULESETS",
    "SITUATIONS",
    "ExploreState",
    "explore",
    "explore_layout",
]

#: The most copies of one weapon a control offers (a horde's 30 sluggas with room to spare).
MAX_COUNT = 60
#: The re-rolls a control offers for the hit and wound rolls, as ``Modifiers`` takes them
#: (``"none"``: no re-roll).
REROLLS = {"none": None, "ones": "ones", "failures": "failures"}
#: The rulesets a control offers.
RULESETS = ("11e", "10e", "classic")
#: The situations a control offers, by the Context field each sets: the page's, and melee
#: (the page has a phase for it).
SITUATIONS = {**PAGE_SITUATIONS, "melee": "melee"}


@dataclass
class ExploreState:
    """The choices of an :func:`explore` cell, and what they give.

    Build one with :meth:`of`; change its fields (or :meth:`set_count`) and call
    :meth:`results` or :meth:`table`.

    Attributes
    ----------
    loadouts, targets : list
        What the cell compares, and against what.
    target : str
        The target's name.
    shown : tuple of str
        The names of the loadouts drawn.
    counts : dict
        Each loadout's count of each weapon entry, in the order of its weapons.
    hit, wound : int
        The hit and wound modifiers, -1, 0 or +1.
    reroll_hits, reroll_wounds : str
        One of :data:`REROLLS`.
    situation : tuple of str
        The keys of :data:`SITUATIONS` that hold.
    rules : str
        One of :data:`RULESETS`.
    """

    loadouts: list[Loadout]
    targets: list[Target]
    target: str
    shown: tuple[str, ...]
    counts: dict[str, list[int]] = field(default_factory=dict)
    hit: int = 0
    wound: int = 0
    reroll_hits: str = "none"
    reroll_wounds: str = "none"
    situation: tuple[str, ...] = ()
    rules: str = "11e"

    @classmethod
    def of(cls, loadouts: Any, targets: Any = None, *, rules: RulesetLike = "11e") -> ExploreState:
        """The state of a cell comparing ``loadouts`` (anything :func:`mathhammer.compare`
        takes) against ``targets`` (the standard targets by default), every loadout
        shown against the first target, at its own counts."""
        given = loadouts_of(loadouts)
        chosen = _offered(given)
        against = targets_of(suite.STANDARD if targets is None else targets)
        counts = {x.name: _counts(x) for x in chosen}
        shown = tuple(_options(x)[0].name for x in given)  # a unit's first option
        state = cls(chosen, against, against[0].name, shown, counts, rules=_named(rules))
        state.check()
        return state

    def check(self) -> None:
        """Refuse a choice no control offers, in one line naming it."""
        among("target", self.target, [t.name for t in self.targets])
        for name in self.shown:
            among("shown", name, list(self.counts))
        among("hit", self.hit, [-1, 0, 1])
        among("wound", self.wound, [-1, 0, 1])
        among("reroll_hits", self.reroll_hits, list(REROLLS))
        among("reroll_wounds", self.reroll_wounds, list(REROLLS))
        for key in self.situation:
            among("situation", key, list(SITUATIONS))
        among("rules", self.rules, list(RULESETS))

    def set_count(self, name: str, index: int, count: int) -> None:
        """Give the ``index``-th weapon entry of loadout ``name`` ``count`` copies (0 to
        :data:`MAX_COUNT`; a mortal-wounds entry has no count)."""
        among("loadout", name, list(self.counts))
        counts = self.counts[name]
        entries = [i for i, n in enumerate(counts) if n >= 0]  # mortal wounds have no count
        among("index", index, entries, "a weapon entry of the loadout")
        among("count", count, list(range(MAX_COUNT + 1)), f"an integer from 0 to {MAX_COUNT}")
        counts[index] = count

    def entries(self, name: str) -> list[tuple[str, int]]:
        """(label, count) of each weapon entry of loadout ``name``; a mortal-wounds
        entry's count is -1 (it has none to change)."""
        loadout = self._loadout(name)
        return [
            (_label(entry), count)
            for entry, count in zip(loadout.weapons, self.counts[name], strict=True)
        ]

    @property
    def modifiers(self) -> Modifiers:
        """The modifiers chosen."""
        return Modifiers(
            hit=self.hit,
            wound=self.wound,
            reroll_hits=REROLLS[self.reroll_hits],
            reroll_wounds=REROLLS[self.reroll_wounds],
        )

    @property
    def context(self) -> Context:
        """The situation chosen."""
        flags: dict[str, Any] = dict.fromkeys(self.situation, True)
        return Context(**flags)

    def loadout(self, name: str) -> Loadout | None:
        """Loadout ``name`` at the counts chosen (its points kept only at its own
        counts: another count costs what the cell cannot know); None when every count
        is 0."""
        loadout = self._loadout(name)
        counts = self.counts[name]
        pairs = zip(loadout.weapons, counts, strict=True)
        weapons = [_counted(entry, count) for entry, count in pairs if count != 0]
        if not weapons:
            return None
        points = loadout.points if counts == _counts(loadout) else None
        return Loadout(loadout.name, weapons, points, loadout.context, loadout.source)

    def drawn(self) -> list[Loadout]:
        """The loadouts shown at the counts chosen, those left without a weapon left out."""
        return [x for x in map(self.loadout, self.shown) if x is not None]

    def results(self) -> dict[str, AttackResult]:
        """The attack of each loadout drawn on the target, by name."""
        self.check()
        unit = self._target().unit
        return {
            x.name: attack(
                x.weapons,
                unit,
                rules=self.rules,
                context=self._context_of(x),
                modifiers=self.modifiers,
            )  # fmt: skip
            for x in self.drawn()
        }

    def table(self) -> pd.DataFrame:
        """:func:`mathhammer.compare` of the loadouts drawn on the target: a row each."""
        self.check()
        drawn = self.drawn()
        if not drawn:
            return pd.DataFrame(columns=["loadout", "target"])
        frames = [
            compare(
                [x],
                [self._target()],
                rules=self.rules,
                context=self._context_of(x),
                modifiers=self.modifiers,
            )  # fmt: skip
            for x in drawn
        ]
        return pd.concat(frames, ignore_index=True)

    def _context_of(self, loadout: Loadout) -> Context:
        """The situation chosen, with the loadout's own (its charge, its half range)."""
        chosen = self.context
        return chosen if loadout.context is None else loadout.context.combined(chosen)

    def _loadout(self, name: str) -> Loadout:
        among("loadout", name, list(self.counts))
        return next(x for x in self.loadouts if x.name == name)

    def _target(self) -> Target:
        return next(t for t in self.targets if t.name == self.target)


def _offered(given: list[Loadout]) -> list[Loadout]:
    """The loadouts a cell offers (each option of a unit's, :func:`_options`), refused in
    one line where two share a name."""
    return loadouts_of(list(chain.from_iterable(map(_options, given))))  # names apart


def _counts(loadout: Loadout) -> list[int]:
    """A loadout's count of each weapon entry (-1 for mortal wounds, which have none)."""
    return [_count_of(entry) for entry in loadout.weapons]


def _named(rules: RulesetLike) -> str:
    """A ruleset by its name."""
    return rules if isinstance(rules, str) else get_ruleset(rules).name


def _options(loadout: Loadout) -> list[Loadout]:
    """A loadout as the cell offers it: itself, or a unit's options in a phase
    (:class:`~mathhammer.units.options.AttackOptions`) one loadout each, named
    ``"unit: option"`` and attacked in the unit's situation."""
    if not isinstance(loadout, AttackOptions):
        return [loadout]
    return [
        Loadout(
            f"{loadout.name}: {option.name}",
            option.weapons,
            loadout.points if option.points is None else option.points,
            option.context or loadout.context,
            option.source,
        )  # fmt: skip
        for option in loadout.options
    ]


def _counted(
    entry: tuple[Weapon, int] | MortalWounds, count: int
) -> tuple[Weapon, int] | MortalWounds:
    """A weapon entry at ``count`` copies (mortal wounds as they are)."""
    return entry if isinstance(entry, MortalWounds) else (entry[0], count)


def _count_of(entry: tuple[Weapon, int] | MortalWounds) -> int:
    """A weapon entry's count; -1 for mortal wounds, which have none."""
    return -1 if isinstance(entry, MortalWounds) else entry[1]


def _label(entry: tuple[Weapon, int] | MortalWounds) -> str:
    return str(entry) if isinstance(entry, MortalWounds) else entry[0].name


def explore(loadouts: Any, targets: Any = None, *, rules: RulesetLike = "11e") -> Any:
    """Compare loadouts in a notebook cell, with controls that redraw it at once.

    Parameters
    ----------
    loadouts : dict or list
        Anything :func:`mathhammer.compare` takes: ``{name: weapons}``,
        ``{name: ([weapons], points)}``, or a list of :class:`~mathhammer.Loadout` (such
        as a list's ``army.loadouts``). A unit's options in a phase are offered one
        loadout each (``"unit: option"``), its first one drawn at the start.
    targets : optional
        Anything :func:`mathhammer.compare` takes as its targets; the standard targets
        by default.
    rules : str or Ruleset
        The ruleset at the start, one of :data:`RULESETS` (by name or as a ruleset).

    Returns
    -------
    panel.viewable.Viewable
        The cell's layout: the controls on the left, the curves of "at least k models
        destroyed" and the comparison table on the right.

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> cell = mh.explore({"bolters": [(bolt, 10)]})  # doctest: +SKIP
    """
    return explore_layout(ExploreState.of(loadouts, targets, rules=rules))


def explore_layout(state: ExploreState) -> Any:
    """The controls of ``state`` and what they show, wired to redraw on every change."""
    pn = panel()
    names = list(state.counts)
    shown = pn.widgets.MultiChoice(label="Loadouts", options=names, value=list(state.shown))
    target = pn.widgets.Select(
        label="Target", options=[t.name for t in state.targets], value=state.target
    )
    counts = _count_inputs(pn, state)
    hit = pn.widgets.RadioButtonGroup(label="Hit modifier", options=[-1, 0, 1], value=0)
    wound = pn.widgets.RadioButtonGroup(label="Wound modifier", options=[-1, 0, 1], value=0)
    reroll_hits = pn.widgets.Select(label="Re-roll hits", options=list(REROLLS))
    reroll_wounds = pn.widgets.Select(label="Re-roll wounds", options=list(REROLLS))
    situation = pn.widgets.CheckBoxGroup(
        options={words: key for key, words in SITUATIONS.items()}, value=list(state.situation)
    )
    rules = pn.widgets.Select(label="Ruleset", options=list(RULESETS), value=state.rules)
    curves = pn.pane.Matplotlib(None, dpi=96, tight=True, sizing_mode="stretch_width")
    table = pn.widgets.Tabulator(state.table(), disabled=True, sizing_mode="stretch_width")
    message = pn.pane.Alert("", alert_type="danger", visible=False)

    def redraw(*_: Any) -> None:
        state.shown, state.target = tuple(shown.value), target.value
        state.hit, state.wound = hit.value, wound.value
        state.reroll_hits, state.reroll_wounds = reroll_hits.value, reroll_wounds.value
        state.situation, state.rules = tuple(situation.value), rules.value
        for (name, index), widget in counts.items():
            state.counts[name][index] = widget.value
        try:
            results, frame = state.results(), state.table()
        except MathhammerError as exc:
            message.object, message.visible = str(exc), True
            return
        message.visible = False
        curves.object = _figure(results)
        table.value = frame

    widgets = [shown, target, hit, wound, reroll_hits, reroll_wounds, situation, rules]
    for widget in [*widgets, *counts.values()]:
        widget.param.watch(redraw, "value")
    redraw()
    cards = [_card(pn, name, counts) for name in names]
    controls = pn.Column(
        shown, target, *cards, "Hit modifier", hit, "Wound modifier", wound, reroll_hits,
        reroll_wounds, "Situation", situation, rules, width=300,
    )  # fmt: skip
    shows = pn.Column(message, curves, table, min_width=340, sizing_mode="stretch_width")
    return pn.FlexBox(controls, shows, flex_wrap="wrap")


def _count_inputs(pn: Any, state: ExploreState) -> dict[tuple[str, int], Any]:
    """A count control for each weapon entry of each loadout (mortal wounds have none),
    by (loadout, entry)."""
    inputs = {}
    for name in state.counts:
        for index, (label, count) in enumerate(state.entries(name)):
            if count >= 0:
                inputs[name, index] = pn.widgets.IntInput(
                    label=label, value=count, start=0, end=MAX_COUNT
                )
    return inputs


def _card(pn: Any, name: str, counts: dict[tuple[str, int], Any]) -> Any:
    """A loadout's count controls, folded under its name."""
    inputs = [widget for (owner, _), widget in counts.items() if owner == name]
    return pn.Card(*inputs, title=name, collapsed=True)


def _figure(results: dict[str, AttackResult]) -> Any:
    """The curves of "at least k models destroyed", on a figure of their own (pyplot's
    current figure is left alone)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 3.6))
    if results:
        plot_at_least(results, ax=figure.subplots())
    return figure
