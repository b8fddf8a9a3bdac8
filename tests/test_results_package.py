"""The results package: where each result class lives.

:class:`~mathhammer.SimulationResult` lives in :mod:`mathhammer.results.simulation`, the
exact results in :mod:`mathhammer.results.attack`; :mod:`mathhammer.results` gives every
result class.
"""

from __future__ import annotations

import math
import subprocess
import sys
from dataclasses import replace

import pytest

import mathhammer as mh
from mathhammer import results
from mathhammer.results import attack, simulation


def test_every_result_class_is_one_class_wherever_it_is_imported_from() -> None:
    assert simulation.SimulationResult is mh.SimulationResult
    for name in ("AttackResult", "GroupResult", "PoolResult", "TestResult"):
        assert getattr(attack, name) is getattr(mh, name)
    assert results.__all__ == []  # internal: the classes' one public place is the top level


@pytest.mark.system
@pytest.mark.parametrize(
    "code",
    [
        "from mathhammer.results.attack import AttackResult",
        "from mathhammer.results.simulation import SimulationResult",
        "from mathhammer.results.columns import attack_columns",
    ],
)
def test_each_module_imports_first_in_a_fresh_interpreter(code: str) -> None:
    # no import order matters
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_single_trial_has_no_standard_error() -> None:
    gun = mh.Weapon("Gun", attacks=2, skill=3, strength=4, ap=0, damage=1)
    sim = mh.simulate([(gun, 5)], mh.Unit.of("Squad", 5, 4, 3, 1), trials=2, rng=1)
    assert sim.killed_se >= 0 and sim.damage_se >= 0
    one = replace(sim, trials=1)  # a sample variance needs two trials
    assert math.isnan(one.killed_se) and math.isnan(one.damage_se)
