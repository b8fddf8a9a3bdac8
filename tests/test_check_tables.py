"""The 11th edition's checks as a table of the rules: one check object for the same
parameters (its chances computed once), the same numbers as a check made afresh, and
nothing kept outside the rules' own tables."""

from __future__ import annotations

import pickle
from functools import partial

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.core.tables import RuleTable
from mathhammer.model.context import default_context, default_modifiers
from mathhammer.model.draft import PoolDraft, Situation
from mathhammer.rules import eleventh, get_ruleset
from mathhammer.rules.base import FACE_ARRAY, PoolChecks, RollCheck
from mathhammer.rules.eleventh import EleventhEdition, hit_outcome

TARGET = mh.Unit.of("Squad", 5, 4, 3, 2)


def _checks(weapon: mh.Weapon, modifiers: mh.Modifiers | None = None) -> PoolChecks:
    mods = default_modifiers() if modifiers is None else modifiers
    return get_ruleset("11e").pool_checks(weapon, TARGET, default_context(), mods)


def test_the_same_parameters_give_the_same_checks() -> None:
    a = _checks(mh.Weapon("Gun", 1, 3, 4, -1, 1))
    b = _checks(mh.Weapon("Rifle", 2, 3, 4, -1, 2))  # another profile, the same rolls
    assert a.hit is b.hit and a.wound is b.wound and a.saves is b.saves
    c = _checks(mh.Weapon("Gun", 1, 4, 4, -1, 1))  # BS 4+: another hit check
    assert c.hit is not a.hit and c.wound is a.wound


@pytest.mark.parametrize("skill", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("modifiers", [None, mh.Modifiers(hit=1, reroll_hits="ones")])
def test_a_kept_check_reads_as_one_made_afresh(skill: int, modifiers: mh.Modifiers | None) -> None:
    checks = _checks(mh.Weapon("Gun", 1, skill, 5, 0, 1), modifiers)
    hit = checks.hit
    assert hit is not None
    mods = default_modifiers() if modifiers is None else modifiers
    fresh = RollCheck(
        first=partial(hit_outcome, skill=skill, modifier=mods.hit, critical=6, fail_at_most=1),
        reroll=None if mods.reroll_hits is None else hit.reroll,
    )
    assert hit.first(FACE_ARRAY).tolist() == fresh.first(FACE_ARRAY).tolist()
    assert hit.success() == fresh.success()
    assert hit.probabilities().tolist() == fresh.probabilities().tolist()


def test_a_check_s_success_is_computed_once() -> None:
    calls: list[int] = []

    def first(faces: np.ndarray) -> np.ndarray:
        calls.append(1)
        return np.asarray(hit_outcome(faces, skill=3))

    check = RollCheck(first=first)
    assert check.success() == check.success() == 4 / 6
    assert len(calls) == 1
    kept = RollCheck(first=partial(hit_outcome, skill=3))
    assert kept.success() == 4 / 6 and pickle.loads(pickle.dumps(kept)).success() == 4 / 6


def test_parameters_outside_the_rules_tables_are_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = EleventhEdition()
    monkeypatch.setattr(eleventh, "_CHECKS", RuleTable(max_items=65_536))
    weapon = mh.Weapon("Gun", 1, 3, 4, 0, 1)
    situation = Situation(default_context(), TARGET, False, ())
    draft = PoolDraft.start(weapon, default_modifiers(), situation)
    draft.hit_fails_at_most = 9  # past the table's 1..6: answered by the rule as written
    draft.critical_wound = 1
    outside_hit = ruleset._hit_check(3, draft)
    outside_wound = ruleset._wound_check(draft, 4)
    assert len(eleventh._CHECKS) == 0
    assert outside_hit.first(FACE_ARRAY).tolist() == [0] * 6  # every natural roll fails
    assert outside_wound.first(FACE_ARRAY).tolist() == [0, 2, 2, 2, 2, 2]
    assert ruleset._hit_check(3, draft) is not outside_hit
    draft.hit_fails_at_most, draft.critical_wound = 1, 6
    kept = ruleset._hit_check(3, draft)
    assert ruleset._hit_check(3, draft) is kept and len(eleventh._CHECKS) == 1
    assert ruleset._saves(-9) is not ruleset._saves(-9) and len(eleventh._CHECKS) == 1


def test_the_table_stops_growing_at_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(eleventh, "_CHECKS", RuleTable(max_items=2))
    ruleset = EleventhEdition()
    saves = [ruleset._saves(ap) for ap in (0, -1, -2)]
    assert len(eleventh._CHECKS) == 2
    assert ruleset._saves(0) is saves[0] and ruleset._saves(-2) is not saves[2]


def test_the_six_faces_read_the_table_s_own_row() -> None:
    row = hit_outcome(FACE_ARRAY, skill=3)
    assert row.tolist() == [0, 0, 1, 1, 1, 2] and not row.flags.writeable
    assert hit_outcome(np.arange(1, 7), skill=3).flags.writeable  # any other array: a copy
