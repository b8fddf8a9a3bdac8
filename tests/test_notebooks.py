"""The notebooks: they run from a clean kernel, and every number their prose states is checked.

Each notebook's claims are recomputed here with the library and must appear in its markdown
cells exactly as formatted; conversely every decimal number or percentage in the markdown must
be one of the claims, so prose cannot quietly drift from what the engine computes.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import mathhammer as mh

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
NAMES = [
    "01_quickstart.ipynb",
    "02_compare_loadouts.ipynb",
    "03_allocation_and_characters.ipynb",
    "04_exact_vs_monte_carlo.ipynb",
]
#: Decimal numbers and percentages in prose (integers such as "3+" or "10 rifles" are inputs).
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?%|(?<![\w.])\d+\.\d+")


def read(name: str) -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def prose(name: str) -> str:
    return "\n".join(c.source for c in read(name).cells if c.cell_type == "markdown")


def pct(p: float, digits: int = 1) -> str:
    return f"{p:.{digits}%}"


# --------------------------------------------------------------------------- claims
def quickstart() -> dict[str, str]:
    rifle = mh.Weapon("Rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    squad = mh.Unit.of("Squad", models=5, toughness=4, save=3, wounds=2, keywords="INFANTRY")
    res = mh.attack([(rifle, 10)], squad)
    more = mh.attack([(rifle, 15)], squad)
    return {
        "mean wounds lost": f"{res.damage.mean():.2f}",
        "mean models destroyed": f"{res.killed.mean():.2f}",
        "P(at least 1)": pct(res.killed.at_least(1)),
        "P(destroyed)": pct(res.p_destroyed, 2),
        "P(at least 2)": pct(res.killed.at_least(2)),
        "P(at least 3)": pct(res.killed.at_least(3)),
        "mean with 15 rifles": f"{more.killed.mean():.2f}",
        "P(at least 3) with 15 rifles": pct(more.killed.at_least(3)),
    }


def compare_loadouts() -> dict[str, str]:
    rifle = mh.Weapon("Rifle", 2, 3, 4, -1, 1)
    plasma = mh.Weapon("Plasma gun", 1, 3, 7, -2, 2, "[RAPID FIRE 1]")
    heavy = mh.Weapon("Heavy gun", 3, 4, 5, -1, 2, "[SUSTAINED HITS 1]")
    beam = mh.Weapon("Beam cannon", 1, 3, 12, -3, "D6+1")
    loadouts = {
        "rifles": ([(rifle, 10)], 160),
        "plasma": ([(rifle, 5), (plasma, 5)], 190),
        "heavy guns": ([(heavy, 5)], 170),
        "beam cannons": ([(beam, 4)], 200),
    }
    frame = mh.compare(loadouts, mh.targets.STANDARD).set_index(["loadout", "target"])

    def at(loadout: str, target: str, column: str) -> float:
        return float(frame.loc[(loadout, target), column])

    best_vs_horde = frame.xs("Horde infantry", level="target").mean_killed.idxmax()
    best_vs_line = frame.xs("Line infantry", level="target").mean_killed.idxmax()
    assert (best_vs_horde, best_vs_line) == ("rifles", "heavy guns")  # as the prose says
    efficiency = "points_destroyed_per_100_points"
    assert frame.xs("Horde infantry", level="target")[efficiency].idxmax() == "rifles"
    vehicle = frame.xs("Vehicle", level="target")
    assert vehicle.mean_damage.idxmax() == "beam cannons"
    return {
        "rifles vs horde": f"{at('rifles', 'Horde infantry', 'mean_killed'):.2f}",
        "heavy guns vs line": f"{at('heavy guns', 'Line infantry', 'mean_killed'):.2f}",
        "beam vs vehicle damage": f"{at('beam cannons', 'Vehicle', 'mean_damage'):.2f}",
        "beam vs vehicle destroyed": pct(at("beam cannons", "Vehicle", "p_destroyed")),
        "heavy vs led half": pct(at("heavy guns", "Character-led unit", "p_at_least_half")),
        "heavy vs line per 100": f"{at('heavy guns', 'Line infantry', efficiency):.1f}",
        "heavy vs led per 100": f"{at('heavy guns', 'Character-led unit', efficiency):.1f}",
        "rifles vs horde per 100": f"{at('rifles', 'Horde infantry', efficiency):.1f}",
    }


def allocation() -> dict[str, str]:
    guard = mh.ModelGroup(5, toughness=4, save=3, wounds=2, name="Bodyguard")
    leader = mh.ModelGroup(
        1, toughness=4, save=2, wounds=5, invuln=4, character=True, name="Leader"
    )
    unit = mh.Unit("Led unit", [guard, leader], keywords="INFANTRY")
    heavy = mh.Weapon("Heavy gun", 3, 4, 5, -1, 2, "[SUSTAINED HITS 1]")
    res = mh.attack([(heavy, 5)], unit)

    sniper = mh.Weapon("Sniper rifle", 1, 3, 5, -2, 3, "[PRECISION]")
    plain = dataclasses.replace(sniper, abilities="")
    precise = mh.attack([(sniper, 5)], unit).killed_in("Leader").at_least(1)
    assert mh.attack([(plain, 5)], unit).killed_in("Leader").at_least(1) == 0.0  # "never"

    veterans = mh.ModelGroup(5, toughness=4, save=3, wounds=2, name="Veterans")
    troopers = mh.ModelGroup(5, toughness=4, save=5, wounds=1, name="Troopers")
    rifle = mh.Weapon("Rifle", 2, 3, 4, -1, 1)
    vets_first = mh.attack([(rifle, 10)], mh.Unit("Mixed squad", [veterans, troopers]))
    troops_first = mh.attack([(rifle, 10)], mh.Unit("Mixed squad", [troopers, veterans]))

    body = mh.ModelGroup(3, toughness=4, save=3, wounds=1, name="Bodyguard")
    boss = mh.ModelGroup(1, toughness=4, save=7, wounds=3, character=True, name="Leader")
    exposed = mh.Unit("Exposed leader", [body, boss])
    gun = mh.Weapon("Gun", 1, 3, 4, 0, 1)
    tagged = dataclasses.replace(gun, name="Gun (second pool)", abilities="[ASSAULT]")
    pooled = mh.attack([(gun, 12)], exposed)
    split = mh.attack([(gun, 6), (tagged, 6)], exposed)
    assert (len(pooled.pools), len(split.pools)) == (1, 2)
    return {
        "bodyguard wiped": pct(res.group("Bodyguard").p_destroyed),
        "leader dies": pct(res.killed_in("Leader").at_least(1), 2),
        "precision": pct(precise),
        "veterans first": f"{vets_first.killed.mean():.2f}",
        "troopers first": f"{troops_first.killed.mean():.2f}",
        "veterans first, at least 3": pct(vets_first.killed.at_least(3)),
        "troopers first, at least 3": pct(troops_first.killed.at_least(3)),
        "one pool": pct(pooled.killed_in("Leader").at_least(1)),
        "two pools": pct(split.killed_in("Leader").at_least(1)),
    }


def exact_vs_monte_carlo() -> dict[str, str]:
    from mathhammer.examples import EXAMPLES

    example = next(e for e in EXAMPLES if e.name == "heavy-vs-led-unit")
    exact = mh.attack(example.weapons, example.target)
    return {
        "exact mean": f"{exact.killed.mean():.2f}",
        "exact sd": f"{exact.killed.std():.2f}",
    }


CLAIMS: dict[str, Callable[[], dict[str, str]]] = {
    "01_quickstart.ipynb": quickstart,
    "02_compare_loadouts.ipynb": compare_loadouts,
    "03_allocation_and_characters.ipynb": allocation,
    "04_exact_vs_monte_carlo.ipynb": exact_vs_monte_carlo,
}


# --------------------------------------------------------------------------- tests
def test_the_notebooks_are_the_four_documented_ones() -> None:
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_every_number_in_the_prose_is_recomputed(name: str) -> None:
    text = prose(name)
    claims = CLAIMS[name]()
    for label, value in claims.items():
        pattern = rf"(?<![\w.]){re.escape(value)}(?![\d%])"
        assert re.search(pattern, text), f"{name}: {label} should read {value}"
    stated = set(NUMBER.findall(text))
    assert stated <= set(claims.values()), (
        f"{name}: unchecked numbers {stated - set(claims.values())}"
    )


@pytest.mark.parametrize("name", NAMES)
def test_the_committed_notebook_keeps_its_outputs(name: str) -> None:
    code = [c for c in read(name).cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), "run top to bottom"
    for cell in code:
        assert not [o for o in cell.outputs if o.output_type == "error"]
        if "plot" in cell.source:  # every plot is kept as an image
            assert [o for o in cell.outputs if "image/png" in o.get("data", {})], cell.source
    assert sum(len(c.outputs) for c in code) >= len(code) - 1


@pytest.mark.parametrize("name", NAMES)
def test_the_notebook_runs_from_a_clean_kernel(name: str) -> None:
    nb = read(name)
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
