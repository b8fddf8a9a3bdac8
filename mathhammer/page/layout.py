"""The page: my list against the opponent's, in a browser or a notebook (Panel).

Inputs on the left (my list, the opponent's or the standard targets, the ruleset, the
situation, the metric, ranged or melee); the matrix of every unit against every target in
the middle; the attack behind the cell clicked, and the rules neither list's reader
understood, beside it. An uploaded file is written to the page's temporary folder (removed
when the process ends) and read by :func:`mathhammer.read_army`, under every limit of the
importers; a file that cannot be read is one line in the page.

Requires the ``app`` extra (``pip install "mathhammer[app]"``).
"""

from __future__ import annotations

import asyncio
import atexit
import importlib
import io
import json
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from ..errors import MathhammerError, OptionError, field_error
from ..io.attackers_csv import example_attackers
from ..io.roster import read_roster
from ..io.sources import Army, read_army
from ..model.context import Context
from ..montecarlo.engine import simulate
from ..results.attack import AttackResult
from ..units import targets as suite
from ..units.assume import named_states
from ..units.durability import durability
from ..units.loadout import Loadout
from ..units.options import Choice, choose
from ..units.selection import from_loadout
from ..units.targeting import TargetPlan, plan_army
from ..units.targets import Target
from ..views.report_html import report_html
from .choices import among
from .matrix import METRICS, PHASES, matrix, of_phase, pairs
from .text import PLAN_METRICS, cell_text, plan_text

__all__ = [
    "EXAMPLES",
    "SITUATIONS",
    "PageState",
    "app",
    "layout",
    "panel",
    "read_upload",
]

#: The situations the page offers, by the Context field each sets.
SITUATIONS = {
    "half_range": "within half range",
    "remained_stationary": "remained stationary",
    "charged": "charged",
    "target_in_cover": "target in cover",
}
#: The files an upload may be.
ACCEPTED = ".ros,.rosz,.json,.csv"
#: The bundled example lists the page offers, by the ruleset of their profiles.
EXAMPLES = {"example attackers (11th edition)": "11e", "example attackers (classic)": "classic"}
#: Trials of a cell's Monte Carlo check.
CHECK_TRIALS = 20_000

_FOLDER: list[Path] = []


def panel() -> Any:
    """Panel (the ``app`` extra), or one line saying how to install it."""
    try:
        return importlib.import_module("panel")
    except ImportError:
        raise OptionError("the page needs the app extra: pip install 'mathhammer[app]'") from None


def _uploads() -> Path:
    """The page's temporary folder, made on first use and removed at exit."""
    if not _FOLDER:
        made = Path(tempfile.mkdtemp(prefix="mathhammer-page-"))
        atexit.register(shutil.rmtree, made, ignore_errors=True)
        _FOLDER.append(made)
    return _FOLDER[0]


def read_upload(name: str, data: bytes, csv_kind: str = "attackers") -> Army:
    """An uploaded file, written under the page's temporary folder by its base name only,
    read as an army (a CSV file as profiles of ``csv_kind``: "attackers" for my list,
    "targets" for theirs)."""
    folder = Path(tempfile.mkdtemp(dir=_uploads()))
    path = folder / (Path(name).name or "upload")
    path.write_bytes(data)
    return read_army(path, csv_kind=csv_kind)


@dataclass
class PageState:
    """What the page shows: the lists, the choices, and the matrix they give."""

    mine: Army | None = None
    theirs: list[Target] = field(default_factory=lambda: list(suite.STANDARD))
    rules: str = "auto"
    situation: tuple[str, ...] = ()
    metric: str = "mean_killed"
    phase: str = "ranged"
    assumed: tuple[str, ...] = ()
    leaders: dict[str, str] | None = None
    their_army: Army | None = None  # their list as read (None: the standard targets)

    @property
    def ruleset(self) -> str:
        """The ruleset chosen, or the list's own edition (11e for a list without one)."""
        if self.rules != "auto":
            return self.rules
        return (self.mine.edition if self.mine is not None else None) or "11e"

    @property
    def context(self) -> Context:
        """The situation as a Context (melee in the melee phase)."""
        flags: dict[str, Any] = dict.fromkeys(self.situation, True)
        context = Context(**flags, assume=frozenset(self.assumed))
        return replace(context, melee=self.phase == "melee")

    def leading(self) -> dict[str, str]:
        """Each CHARACTER unit of my roster and the unit it leads (``""``: none), as the
        file attaches them until :meth:`lead` changes them; empty for a list that is not
        a roster."""
        if self.leaders is not None:
            return dict(self.leaders)
        roster = self._roster()
        return {} if roster is None else _attachments(roster)

    def bodyguards(self) -> list[str]:
        """The units of my roster a CHARACTER may lead: those that are not characters."""
        roster = self._roster()
        units = [] if roster is None else roster.units
        return [u.name for u in units if not _character(u.keywords)]

    def lead(self, leading: dict[str, str]) -> None:
        """Attach my roster's leaders as ``leading`` says (CHARACTER unit -> the unit it
        leads, ``""`` for none) in place of the file's attachments, and read the list
        again; a choice the roster refuses is one line and changes nothing."""
        path = self._roster_file()
        if path is None:
            raise field_error(OptionError, "leaders", "a roster's (my list is not one)", leading)
        attached: dict[str, list[str]] = {}
        for leader, bodyguard in leading.items():
            if bodyguard:
                attached.setdefault(bodyguard, []).append(leader)
        self.mine = read_army(path, leaders=attached)
        self.leaders = dict(leading)

    def _roster_file(self) -> str | None:
        """Where my list was read from, when it is a roster (its leaders can change)."""
        mine = self.mine
        if mine is None or mine.kind != "roster":
            return None
        return mine.source

    def _roster(self) -> Any:
        """My list's roster as the file has it, or None for a list of another kind."""
        path = self._roster_file()
        return None if path is None else read_roster(path)

    def states(self) -> list[str]:
        """The named states the rules of both lists mention (``"waaagh"``, ``"objective"``):
        what the page offers to assume."""
        mine = self.mine.loadouts if self.mine is not None else []
        return sorted(named_states(mine, self.theirs))

    @property
    def loadouts(self) -> list[Loadout]:
        """My units that attack in the phase."""
        return [] if self.mine is None else of_phase(self.mine.loadouts, self.phase)

    def table(self) -> Any:
        """The matrix of my units against theirs."""
        return matrix(
            self.loadouts, self.theirs, metric=self.metric, rules=self.ruleset,
            context=self.context,
        )  # fmt: skip

    def choice(self, unit: str, target: str) -> Choice:
        """The unit's best option against the target, attacked exactly."""
        loadout = next(x for x in self.loadouts if x.name == unit)
        return choose(loadout, self._target(target), rules=self.ruleset, context=self.context)

    def _target(self, name: str) -> Target:
        return next(t for t in self.theirs if t.name == name)

    def attack(self, unit: str, target: str) -> AttackResult:
        """The exact attack behind one cell."""
        return self.choice(unit, target).result

    def check(self, unit: str, target: str, trials: int = CHECK_TRIALS) -> str:
        """The cell's attack rolled by the Monte Carlo: its mean, with the exact one."""
        chosen = self.choice(unit, target)
        weapons, context = chosen.declaration.weapons, chosen.context
        rolled = simulate(
            weapons, self._target(target).unit, trials=trials, rng=1, rules=self.ruleset,
            context=context,
        )  # fmt: skip
        mean, exact = rolled.killed.mean(), chosen.result.killed.mean()
        se = rolled.killed.std() / trials**0.5
        return f"Monte Carlo ({trials:,} trials): {mean:.3f} ± {se:.3f}; exact {exact:.3f}"

    def copies(self, unit: str, target: str) -> tuple[Any, Any]:
        """How many of the unit, one after another, destroy the target with a chance of
        at least 50 % and 90 % (None past 60): the cell's declaration, in its situation."""
        chosen = self.choice(unit, target)
        attacker = Loadout(unit, chosen.declaration.weapons, None, chosen.context)
        row = durability(self._target(target), [attacker], rules=self.ruleset).iloc[0]
        return row["copies_50"], row["copies_90"]

    def plan(
        self,
        units: Sequence[str],
        metric: str = "mean_killed",
        progress: Callable[[int, int], None] | None = None,
        targets: Sequence[str] | None = None,
    ) -> TargetPlan:
        """The best plan of my ``units`` (by name, attacking in the order given) against
        their list in the phase, by ``metric`` (one of :data:`PLAN_METRICS`), each unit in
        the page's situation: :func:`mathhammer.plan_army`, refused in one line past its
        work limit. With ``targets`` (a target's name for each unit), that plan scored
        instead: each unit's every weapon at its target."""
        among("metric", metric, list(PLAN_METRICS))
        mine = {x.name: x for x in self.loadouts}
        if not units:
            raise field_error(OptionError, "units", "at least one unit", units)
        for name in units:
            among("units", name, list(mine), f"units of {list(mine)}")
        chosen = [_in_situation(mine[name], self.context) for name in units]
        given = None if targets is None else self._assignment(chosen, targets)
        return plan_army(
            chosen, self.theirs, metric=metric, phase=PHASES[self.phase], rules=self.ruleset,
            progress=progress, assignment=given,
        )  # fmt: skip

    def _assignment(self, units: Sequence[Loadout], targets: Sequence[str]) -> list[int]:
        """A plan's targets by position, one per declaration: each unit's at its target."""
        names = [t.name for t in self.theirs]
        if len(targets) != len(units):
            each = f"one for each of {len(units)} units"
            raise field_error(OptionError, "targets", each, targets)
        out = []
        for unit, target in zip(units, targets, strict=True):
            among("targets", target, names, f"targets among {names}")
            out += [names.index(target)] * _declarations(unit)
        return out

    def report(self) -> str:
        """The view as the single-file HTML report (:func:`mathhammer.io.write_html_report`'s
        page): every unit of the phase against every target, the heatmap of the metric."""
        if not self.loadouts:
            raise field_error(OptionError, "list", "a list with units in the phase", self.phase)
        frame = pairs(self.loadouts, self.theirs, rules=self.ruleset, context=self.context)
        source = Path(self.mine.source).name if self.mine is not None else "my list"
        title = f"mathhammer: {source}, {self.phase}"
        return report_html(frame, title=title, rules=self.ruleset, metric=self.metric)

    def query(self) -> str:
        """The page's address query that restores these choices (the lists aside)."""
        choices = {"rules": self.rules, "metric": self.metric, "phase": self.phase}
        if self.situation:
            choices["situation"] = json.dumps(list(self.situation))
        if self.assumed:
            choices["assumed"] = json.dumps(list(self.assumed))
        return "?" + urlencode(choices)

    def not_understood(self) -> list[str]:
        """The rules of both lists their readers did not understand, one line each: the
        weapon abilities not known, then the unit rules not applied (theirs marked so)."""
        return _unread(self.mine, "") + _unread(self.their_army, "theirs: ")


def _declarations(unit: Loadout) -> int:
    """The declarations a unit makes in a plan: one a weapon line (:func:`from_loadout`)."""
    made = from_loadout(unit)
    return 0 if made is None else len(made[1])


def _attachments(roster: Any) -> dict[str, str]:
    """Each CHARACTER unit of a roster and the unit it leads (``""``: none)."""
    led = {leader: unit.name for unit in roster.units for leader in unit.leaders}
    return {u.name: led.get(u.name, "") for u in roster.units if _character(u.keywords)}


def _unread(army: Army | None, mark: str) -> list[str]:
    """What a list's reader did not understand, one line each, marked ``mark``."""
    if army is None:
        return []
    lines = [str(unknown) for unknown in army.unknown_abilities]
    lines += [f"{unit}: {rule}" for unit, rule, _ in _not_applied(army)]
    return [mark + line for line in lines]


def _not_applied(army: Army) -> list[tuple[str, str, str]]:
    """The unit rules a list's reader read and could not apply: (unit, rule, text)."""
    return [] if army.report is None else list(army.report.not_understood)


def _character(keywords: Iterable[str]) -> bool:
    return any(k.upper() == "CHARACTER" for k in keywords)


def _in_situation(loadout: Loadout, situation: Context) -> Loadout:
    """A unit's loadout (its first option, as a plan declares it) in the page's situation,
    its own context (its charge, its phase) kept over it."""
    context = situation if loadout.context is None else loadout.context.combined(situation)
    return Loadout(loadout.name, loadout.weapons, loadout.points, context, loadout.source)


def layout(state: PageState | None = None) -> Any:
    """The page's layout for ``state`` (an empty list and the standard targets by
    default), its widgets wired to it."""
    pn = panel()
    number = importlib.import_module("bokeh.models.widgets.tables").NumberFormatter
    state = PageState() if state is None else state
    mine = pn.widgets.FileInput(accept=ACCEPTED, label="My list")
    theirs = pn.widgets.FileInput(accept=ACCEPTED, label="Their list")
    example = pn.widgets.Select(
        label="Or a bundled example", options={"(none)": "", **{name: name for name in EXAMPLES}}
    )
    rules = pn.widgets.Select(label="Ruleset", options=["auto", "11e", "10e", "classic"])
    situation = pn.widgets.CheckBoxGroup(
        label="Situation", options={words: key for key, words in SITUATIONS.items()}
    )
    assumed = pn.widgets.CheckBoxGroup(options=state.states(), value=list(state.assumed))
    leaders = pn.Column(name="leaders")
    metric = pn.widgets.Select(
        label="Metric", options={words: key for key, words in METRICS.items()}
    )
    phase = pn.widgets.RadioButtonGroup(label="Phase", options=list(PHASES), value=state.phase)
    table = pn.widgets.Tabulator(state.table(), disabled=True, sizing_mode="stretch_width")
    message = pn.pane.Alert("", alert_type="danger", visible=False)
    detail = pn.pane.Markdown("Click a cell to see its attack.", name="detail")
    checked = pn.pane.Markdown("", name="check")
    check = pn.widgets.Button(label="Check by Monte Carlo", disabled=True)
    download = pn.widgets.FileDownload(
        callback=lambda: io.StringIO(table.value.to_csv()), filename="matrix.csv",
        label="Download the matrix (CSV)",
    )  # fmt: skip
    report = pn.widgets.FileDownload(
        callback=lambda: io.StringIO(state.report()), filename="mathhammer-report.html",
        label="Download this view (HTML)",
    )  # fmt: skip
    opened: list[str] = []
    planner = _planner(pn, state)
    link = pn.pane.Markdown("", name="link")
    unknown = pn.pane.Markdown("", name="not understood")

    def refresh(*_: Any) -> None:
        state.rules, state.metric, state.phase = rules.value, metric.value, phase.value
        state.situation = tuple(situation.value)
        state.assumed = tuple(x for x in assumed.value if x in state.states())
        planner.objects[1].options = [x.name for x in state.loadouts]
        try:
            frame = state.table()
        except MathhammerError as exc:
            _show(message, str(exc))
            return
        table.formatters = {c: number(format="0.000") for c in frame.columns}
        table.value = frame
        table.style.background_gradient(cmap="viridis", axis=None)
        message.visible = False
        link.object = f"[Link to this view]({state.query()})"
        listed = state.not_understood() or ["none"]
        unknown.object = "**Not understood:**\n\n" + "\n".join(f"- {x}" for x in listed)

    def led(*_: Any) -> None:
        chosen = {w.name: w.value for w in leaders.objects if isinstance(w, pn.widgets.Select)}
        try:
            state.lead(chosen)
        except MathhammerError as exc:
            _show(message, str(exc).splitlines()[0])
            return
        refresh()

    def list_changed() -> None:
        """The controls that follow my list: its leaders, the states its rules mention."""
        state.leaders = None
        assumed.options = state.states()
        leaders.objects = _leader_controls(pn, state, led)

    def upload(event: Any, mine_side: bool) -> None:
        widget = mine if mine_side else theirs
        try:
            kind = "attackers" if mine_side else "targets"
            army = read_upload(widget.filename or "upload", event.new, kind)
        except MathhammerError as exc:
            _show(message, f"{widget.filename}: {exc}")
            return
        if mine_side:
            state.mine = army
        else:
            state.theirs, state.their_army = list(army.targets), army
        list_changed()
        refresh()

    def clicked(event: Any) -> None:
        if event.column in (None, "unit"):
            return
        unit = table.value.index[event.row]
        detail.object = cell_text(state, unit, event.column)
        opened[:] = [unit, event.column]
        checked.object, check.disabled = "", False

    def rolled(_: Any) -> None:
        checked.object = state.check(opened[0], opened[1])

    def picked(event: Any) -> None:
        if event.new:
            state.mine = read_army(example_attackers(EXAMPLES[event.new]))
            list_changed()
            refresh()

    example.param.watch(picked, "value")
    mine.param.watch(lambda e: upload(e, True), "value")
    theirs.param.watch(lambda e: upload(e, False), "value")
    for widget in (rules, situation, assumed, metric, phase):
        widget.param.watch(refresh, "value")
    leaders.objects = _leader_controls(pn, state, led)
    table.on_click(clicked)
    check.on_click(rolled)
    chosen = {"rules": rules, "metric": metric, "phase": phase, "situation": situation}
    _permalink(pn, {**chosen, "assumed": assumed})
    refresh()
    states = pn.pane.Markdown("Assume (states the lists' rules mention):")
    inputs = pn.Column(
        "## mathhammer", mine, example, theirs, leaders, rules, situation, states, assumed,
        metric, phase, width=300,
    )  # fmt: skip
    attack = pn.Column(detail, check, checked, min_width=340, max_width=560)
    below = pn.FlexBox(attack, pn.Column(planner, width=340), flex_wrap="wrap", gap="24px")
    middle = pn.Column(
        message,
        table,
        pn.Row(download, report, link),
        unknown,
        below,
        min_width=340,
        sizing_mode="stretch_width",
        styles={"flex": "1 1 600px"},  # beside the inputs, shrinking before it wraps
    )
    # a FlexBox wraps on a narrow screen: the inputs above the matrix and the attack
    return pn.FlexBox(inputs, middle, flex_wrap="wrap", gap="16px")


def _leader_controls(pn: Any, state: PageState, changed: Callable[..., None]) -> list[Any]:
    """A choice per CHARACTER unit of my roster: the unit it leads (none for a list that is
    not a roster)."""
    leading = state.leading()
    if not leading:
        return []
    options = ["", *state.bodyguards()]
    controls: list[Any] = [pn.pane.Markdown("Leaders (which unit each CHARACTER leads):")]
    for leader, bodyguard in leading.items():
        choice = pn.widgets.Select(label=leader, name=leader, options=options, value=bodyguard)
        choice.param.watch(changed, "value")
        controls.append(choice)
    return controls


class _Cancelled(Exception):
    """A plan the user cancelled (raised in the search's progress callback)."""


def _planner(pn: Any, state: PageState) -> Any:
    """The plan's controls: my units to plan, the metric, the search with its progress
    bar and a cancel button, and the plan beside the naive one. The search runs in a
    thread, so the page keeps answering and the bar moves as it goes."""
    units = pn.widgets.CheckBoxGroup(options=[], inline=False)
    by = pn.widgets.Select(label="Plan by", options={w: k for k, w in PLAN_METRICS.items()})
    start = pn.widgets.Button(label="Best plan")
    cancel = pn.widgets.Button(label="Cancel", disabled=True)
    bar = pn.indicators.Progress(value=0, max=100, visible=False, sizing_mode="stretch_width")
    shown = pn.pane.Markdown("", name="plan")
    stop = threading.Event()

    def progress(done: int, total: int) -> None:
        if stop.is_set():
            raise _Cancelled
        bar.value = min(100, int(100 * done / max(total, 1)))

    async def planned(_: Any) -> None:
        stop.clear()
        start.disabled, cancel.disabled, bar.visible, bar.value = True, False, True, 0
        try:
            chosen = [x for x in units.options if x in units.value]  # in the list's order
            plan = await asyncio.to_thread(state.plan, chosen, by.value, progress)
            shown.object = plan_text(plan)
        except _Cancelled:
            shown.object = "Cancelled."
        except MathhammerError as exc:
            shown.object = str(exc).splitlines()[0]
        finally:
            start.disabled, cancel.disabled, bar.visible = False, True, False

    mine = pn.Column(name="my plan")  # a target for each unit ticked
    score = pn.widgets.Button(label="Score my plan", disabled=True)

    def ticked(_: Any) -> None:
        names = [t.name for t in state.theirs]
        chosen = [x for x in units.options if x in units.value]
        mine.objects = [pn.widgets.Select(label=x, name=x, options=names) for x in chosen]
        score.disabled = not chosen

    def scored(_: Any) -> None:
        chosen = [w.name for w in mine.objects]
        try:
            plan = state.plan(chosen, by.value, targets=[w.value for w in mine.objects])
            shown.object = plan_text(plan)
        except MathhammerError as exc:
            shown.object = str(exc).splitlines()[0]

    units.param.watch(ticked, ["value", "options"])
    start.on_click(planned)
    cancel.on_click(lambda _: stop.set())
    score.on_click(scored)
    heading = pn.pane.Markdown("#### Plan: my units' targets")
    hint = pn.pane.Markdown("Or choose each unit's target and score that plan:")
    return pn.Column(heading, units, by, pn.Row(start, cancel), bar, hint, mine, score, shown)


def _permalink(pn: Any, widgets: dict[str, Any]) -> None:
    """Keep the choices in the page's address, so that a link restores them (served
    pages only: a notebook has no address)."""
    location = pn.state.location
    if location is None:
        return
    for name, widget in widgets.items():
        location.sync(widget, {"value": name})


def _show(message: Any, text: str) -> None:
    message.object = text
    message.visible = True


def app(
    roster: str | Path | None = None,
    targets: str | Path | None = None,
    *,
    faction: str | None = None,
    target_faction: str | None = None,
) -> Any:
    """The page in a notebook: my list (``roster``: any file or folder
    :func:`mathhammer.read_army` reads; the bundled example attackers without one) against
    ``targets`` (another list, or the standard targets).

    ``faction`` and ``target_faction`` choose the faction of a catalogue, a folder of
    catalogues or the Wahapedia export: its every datasheet, each at its default size, is a
    unit of the list.

    Examples
    --------
    >>> import mathhammer as mh
    >>> page = mh.app()  # doctest: +SKIP
    >>> page = mh.app("catalogues/", faction="Necrons", targets="catalogues/",
    ...               target_faction="Orks")  # doctest: +SKIP
    """
    state = PageState()
    source = example_attackers() if roster is None else roster
    state.mine = read_army(source, faction=faction)
    if targets is not None:
        state.their_army = read_army(targets, faction=target_faction)
        state.theirs = list(state.their_army.targets)
    return layout(state)
