"""The notebooks: they run from a clean kernel, and every number their prose states is checked.

Each notebook's claims are recomputed here with the library and must appear in its markdown
cells exactly as formatted; conversely every decimal number or percentage in the markdown must
be one of the claims, so prose cannot quietly drift from what the engine computes.
"""

from __future__ import annotations

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
    "05_multiple_targets.ipynb",
    "06_real_armies.ipynb",
    "07_turns_and_durability.ipynb",
    "08_plans.ipynb",
    "09_app.ipynb",
]
#: Decimal numbers and percentages in prose (integers such as "3+" or "10 rifles" are inputs).
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?%|(?<![\w.])\d+\.\d+")


def read(name: str) -> nbformat.NotebookNode:
    # nbformat.read is unannotated; given as_version it returns a NotebookNode.
    notebook: nbformat.NotebookNode = nbformat.read(NOTEBOOKS / name, as_version=4)  # type: ignore[no-untyped-call]
    return notebook


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
    plain = sniper.replace(abilities="")
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
    tagged = gun.replace(name="Gun (second pool)", abilities="[ASSAULT]")
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


def multiple_targets() -> dict[str, str]:
    rifle = mh.Weapon("Rifle", 2, 3, 4, -1, 1)
    pistol = mh.Weapon("Plasma pistol", 1, 3, 7, -2, 2, "[PISTOL]")
    heavy = mh.Weapon("Heavy gun", 3, 4, 5, -1, 2, "[SUSTAINED HITS 1]")
    knife = mh.Weapon("Knife", 1, 3, 4, 0, 1, melee=True)
    blade = mh.Weapon("Great blade", 6, 2, 6, -2, 2, melee=True)
    champion = mh.Models(1, [rifle, pistol, blade], name="Champion")
    squad = mh.Attacker(
        "Strike squad",
        [
            mh.Models(7, [rifle, knife], name="Troopers"),
            mh.Models(2, [heavy, knife], name="Gunners"),
            champion,
        ],
    )
    grunts = mh.Unit.of("Grunts", 5, 4, 4, 1, keywords="INFANTRY")
    brute = mh.Unit.of("Brute", 1, 5, 3, 4, keywords="MONSTER")
    scouts = mh.Unit.of("Scouts", 2, 3, 6, 1, keywords="INFANTRY")

    volley = [
        mh.Use("Troopers", "Rifle", grunts),
        mh.Use("Champion", "Rifle", grunts),
        mh.Use("Gunners", "Heavy gun", brute),
    ]
    shots = mh.resolve(squad, volley)
    assert [p.label for p in shots["Grunts"].pools] == ["Rifle x7 + Rifle"]  # one pool of 16
    p = [shots[t].p_destroyed for t in shots.targets]
    assert shots.p_all_destroyed == pytest.approx(p[0] * p[1], abs=1e-15)
    assert shots.p_any_destroyed == pytest.approx(1 - (1 - p[0]) * (1 - p[1]), abs=1e-15)
    alternative = mh.resolve(
        squad,
        [
            mh.Use("Troopers", "Rifle", grunts),
            mh.Use("Champion", "Plasma pistol", brute),
            mh.Use("Gunners", "Heavy gun", brute),
        ],
    )
    with pytest.raises(mh.ProfileError, match=r"either its \[PISTOL\].*not both"):
        mh.resolve(squad, [*volley, mh.Use("Champion", "Plasma pistol", brute)])

    brawl = [
        mh.Use("Troopers", "Knife", grunts),
        mh.Use("Gunners", "Knife", grunts),
        mh.Use("Champion", "Great blade", split={grunts: 4, brute: 2}),
    ]
    fight = mh.resolve(squad, brawl, phase="fight")
    assert fight["Brute"].p_destroyed == pytest.approx((5 / 6 * 2 / 3 * 2 / 3) ** 2)

    def best(targets: list[mh.Unit], metric: str) -> tuple[tuple[int, ...], float, float]:
        top = mh.best_splits(champion, "Great blade", targets, metric=metric).iloc[0]
        split = tuple(int(top[t.name]) for t in targets)
        return split, float(top["expected killed"]), float(top["P(destroyed) Brute"])

    kills_2 = best([grunts, brute], "mean_killed")
    brute_2 = best([grunts, brute], "p_destroyed:Brute")
    kills_3 = best([grunts, scouts, brute], "mean_killed")
    brute_3 = best([grunts, scouts, brute], "p_destroyed:Brute")
    # the splits the prose names (Grunts / Brute, then Grunts / Scouts / Brute)
    splits = (kills_2[0], brute_2[0], kills_3[0], brute_3[0])
    assert splits == ((5, 1), (1, 5), (3, 2, 1), (1, 1, 4))
    # a blade attack kills a Grunt with probability 25/54 and a Scout with 25/36
    assert kills_2[1] == pytest.approx(5 * 25 / 54)
    assert kills_3[1] == pytest.approx(3 * 25 / 54 + 2 * 25 / 36)
    return {
        "Grunts mean killed": f"{shots['Grunts'].killed.mean():.2f}",
        "P(Grunts destroyed)": pct(shots["Grunts"].p_destroyed),
        "P(Brute destroyed)": pct(shots["Brute"].p_destroyed),
        "P(all destroyed)": pct(shots.p_all_destroyed),
        "P(any destroyed)": pct(shots.p_any_destroyed),
        "pistol: P(Brute destroyed)": pct(alternative["Brute"].p_destroyed),
        "pistol: P(any destroyed)": pct(alternative.p_any_destroyed),
        "pistol: P(Grunts destroyed)": pct(alternative["Grunts"].p_destroyed),
        "pistol: P(all destroyed)": pct(alternative.p_all_destroyed),
        "split: P(Brute destroyed)": pct(fight["Brute"].p_destroyed),
        "best of 2 for kills": f"{kills_2[1]:.2f}",
        "best of 2 for the Brute": pct(brute_2[2]),
        "best of 2 for the Brute, kills": f"{brute_2[1]:.2f}",
        "best of 3 for kills": f"{kills_3[1]:.2f}",
        "best of 3 for the Brute": pct(brute_3[2]),
    }


def real_armies() -> dict[str, str]:
    data = Path(__file__).resolve().parent / "data"
    catalogue = mh.read_catalogue(data / "bsdata")
    warriors = catalogue.get("Necron Warriors")
    model = warriors.models[0].name
    flayers = warriors.loadouts()[0]
    reapers = warriors.loadouts(wargear={model: ["Gauss reaper", "Close combat weapon"]})[0]
    half = mh.Context(half_range=True)
    loadouts = [
        mh.Loadout("flayers", flayers.weapons, flayers.points),
        mh.Loadout("half", flayers.weapons, flayers.points, context=half),
        mh.Loadout("reapers", reapers.weapons, reapers.points),
    ]
    enemies = [catalogue.get(n).target() for n in ("Boyz", "Burna Boyz", "Termagants")]
    frame = mh.compare(loadouts, enemies).set_index(["loadout", "target"])
    best = frame.points_destroyed_per_100_points.idxmax()
    assert best == ("reapers", "Burna Boyz")
    necrons = mh.read_roster(
        data / "rosters" / "necrons.rosz", leaders={"Necron Warriors": "Overlord"}
    )
    orks = mh.read_roster(data / "rosters" / "orks.rosz")
    table = mh.compare(orks.loadouts(), necrons.targets()).set_index(["loadout", "target"])
    top = table.points_destroyed_per_100_points.idxmax()
    assert top == ("Boyz (melee)", "Necron Warriors led by Overlord")
    led = necrons.targets()[0]
    boyz = {x.name: x for x in orks.loadouts()}["Boyz (melee)"]
    res = mh.attack(boyz.weapons, led.unit)
    overlord = res.killed_in("Overlord").at_least(1)
    assert round(1 / overlord, -3) == 77_000  # "only about one fight in 77,000"
    assert orks.detachment is not None and orks.detachment.name == "War Horde"
    breaka = mh.read_roster(data / "rosters" / "real" / "orks_11e_attached.json")
    boyz_target = {t.name: t for t in breaka.targets()}["Breaka Boyz led by Bigboss"]
    lascannon = mh.Weapon("Lascannon", 2, 3, 12, -3, "D6+1")
    calm = mh.attack([(lascannon, 3)], boyz_target.unit)
    riled = mh.attack([(lascannon, 3)], boyz_target.unit, context=mh.Context(assume="riled up"))
    horde = mh.Detachment("War Horde", (mh.units.parts.AbilityText("Get Stuck In",
        "Melee weapons equipped by **^^Orks^^** models from your army have the "
        "**[SUSTAINED HITS 1]** ability."),))  # fmt: skip
    dakka = mh.Detachment("More Dakka!", (mh.units.parts.AbilityText("Dakka! Dakka! Dakka!",
        "Friendly **ORKS INFANTRY** units' ranged attacks have **[ASSAULT]**. - In your "
        "Shooting phase, if the Waaagh! is active for your army, friendly **ORKS INFANTRY** "
        "units' ranged attacks have **[SUSTAINED HITS 1]**."),))  # fmt: skip
    compared = mh.io.compare_detachments(
        breaka, [None, horde, dakka], mh.targets.STANDARD, context=mh.Context(assume="waaagh")
    )
    damage = compared.pivot(index="target", columns="detachment", values="mean_damage")
    line = damage.loc["Line infantry"]
    averages = damage.mean()
    assert averages.idxmax() == "War Horde"  # "War Horde brings ..."
    return {
        "three lascannons": f"{calm.killed.mean():.2f}",
        "three lascannons riled up": f"{riled.killed.mean():.2f}",
        "Line infantry, no detachment": f"{line['none']:.2f}",
        "Line infantry, War Horde": f"{line['War Horde']:.2f}",
        "More Dakka adds": f"{line['More Dakka!'] - line['none']:.2f}",
        "War Horde on average": f"{averages['War Horde']:.2f}",
        "no detachment on average": f"{averages['none']:.2f}",
        "flayers vs Boyz": f"{frame.loc[('flayers', 'Boyz'), 'mean_killed']:.2f}",
        "flayers at half range vs Boyz": f"{frame.loc[('half', 'Boyz'), 'mean_killed']:.2f}",
        "reapers vs Boyz": f"{frame.loc[('reapers', 'Boyz'), 'mean_killed']:.2f}",
        "best trade": f"{frame.points_destroyed_per_100_points[best]:.2f}",
        "best roster trade": f"{table.points_destroyed_per_100_points[top]:.2f}",
        "Boyz into the led unit": f"{res.killed.mean():.2f}",
    }


def turns_and_durability() -> dict[str, str]:
    tank = mh.targets.get("Vehicle").unit
    melta = mh.Weapon("Multi-melta", 2, 4, strength=9, ap=-4, damage="D6", abilities="[MELTA 2]")
    lascannon = mh.Weapon("Lascannon", 1, 3, strength=12, ap=-3, damage="D6+1")
    autocannon = mh.Weapon("Predator autocannon", 2, 3, strength=9, ap=-1, damage=3)
    steps = [
        {"weapons": [(melta, 2)], "context": mh.Context(half_range=True)},
        {"weapons": [(lascannon, 2)]},
        {"weapons": [(autocannon, 1), (lascannon, 2)]},
    ]
    one = mh.sequence(steps, tank)
    two = mh.sequence(steps, tank, start=one.final)
    p1, p2, p3 = one.p_destroyed
    after = two.final.p_destroyed
    assert one.final.damage.mean() < tank.total_wounds  # "the average says it survives"
    catalogue = mh.read_catalogue(Path(__file__).resolve().parent / "data" / "bsdata")
    units = [catalogue.get(name).target() for name in ("Necron Warriors", "Boyz")]
    table = mh.durability(units).set_index(["unit", "role"])
    rifles, lascannons = "general purpose", "anti-tank"
    ew = "effective_wounds_per_100_points"
    for unit in ("Necron Warriors", "Boyz"):  # "both are at their best against lascannons"
        assert table.loc[unit, ew].idxmax() == lascannons
    return {
        "after the bike": pct(p1),
        "after the Devastators": pct(p2),
        "after the Predator": pct(p3),
        "mean wounds taken": f"{one.final.damage.mean():.2f}",
        "after turn two": pct(after),
        "dies in turn two if it survived": pct((after - p3) / (1 - p3)),
        "rifle squads for the Warriors": str(table.loc[("Necron Warriors", rifles), "copies_90"]),
        "rifle squads for the Boyz": str(table.loc[("Boyz", rifles), "copies_90"]),
        "Warriors EW vs rifles": f"{table.loc[('Necron Warriors', rifles), ew]:.2f}",
        "Boyz EW vs rifles": f"{table.loc[('Boyz', rifles), ew]:.2f}",
        "Warriors EW vs lascannons": f"{table.loc[('Necron Warriors', lascannons), ew]:.2f}",
    }


def plans() -> dict[str, str]:
    data = Path(__file__).resolve().parent / "data" / "rosters"
    necrons = mh.read_roster(data / "necrons.rosz", leaders={"Necron Warriors": "Overlord"})
    orks = mh.read_roster(data / "orks.rosz")
    shooting = [
        x for x in necrons.loadouts() if isinstance(x, mh.AttackOptions) and x.phase == "shooting"
    ]
    threats = orks.targets()
    by_points = mh.plan_army(shooting, threats, metric="points_destroyed")
    by_killed = mh.plan_army(shooting, threats, metric="mean_killed")
    at_least = mh.plan_army(shooting, threats, metric="at_least:1")
    assert set(by_killed.frame()["target"]) == {"Boyz", "Burna Boyz"}
    assert set(at_least.frame()["target"]) == {"Burna Boyz"}
    assert threats[0].name == "Warboss"
    ark = next(x for x in shooting if x.name == "Doomsday Ark (ranged)")
    boyz = next(t for t in threats if t.name == "Boyz")
    ranking = mh.rank_pool_orders(list(ark.weapons), boyz.unit, context=ark.context)
    assert ranking.label(ranking.best).startswith("Gauss flayer array")
    scores = dict(zip(ranking.orders, ranking.scores, strict=True))
    immortals = next(x for x in shooting if x.name == "Immortals (ranged)")
    given = mh.attack(list(immortals.weapons), boyz.unit, context=immortals.context)
    best = mh.attack(
        list(immortals.weapons), boyz.unit, context=immortals.context, allocation="defender-best"
    )
    assert best.target.groups[0].name == "Boss Nob"
    return {
        "points plan": f"{by_points.value:.1f}",
        "points naive": f"{by_points.naive:.1f}",
        "killed plan": f"{by_killed.value:.2f}",
        "at least one": pct(at_least.value),
        "flayers first": f"{scores[ranking.best][0]:.2f}",
        "cannon first": f"{scores[(0, 1)][0]:.2f}",
        "boys first": f"{given.killed.mean():.2f}",
        "nob first": f"{best.killed.mean():.2f}",
    }


def app() -> dict[str, str]:
    bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    melta = mh.Weapon("Melta rifle", 1, 3, 9, -4, "D6", abilities="[MELTA 2]")
    plasma = mh.Weapon("Plasma gun", attacks=1, skill=3, strength=8, ap=-3, damage=2)
    loadouts = {
        "bolters": ([(bolt, 10)], 180),
        "two meltas": ([(bolt, 8), (melta, 2)], 190),
        "plasma": ([(bolt, 8), (plasma, 2)], 190),
    }
    far = mh.compare(loadouts, "Vehicle").set_index("loadout").mean_damage
    frame = mh.compare(loadouts, "Vehicle", context=mh.Context(half_range=True))
    near = frame.set_index("loadout").mean_damage
    assert near.drop("two meltas").equals(far.drop("two meltas"))
    return {
        "bolters": f"{far['bolters']:.2f}",
        "two meltas": f"{far['two meltas']:.2f}",
        "plasma": f"{far['plasma']:.2f}",
        "two meltas within half range": f"{near['two meltas']:.2f}",
    }


CLAIMS: dict[str, Callable[[], dict[str, str]]] = {
    "01_quickstart.ipynb": quickstart,
    "02_compare_loadouts.ipynb": compare_loadouts,
    "03_allocation_and_characters.ipynb": allocation,
    "04_exact_vs_monte_carlo.ipynb": exact_vs_monte_carlo,
    "05_multiple_targets.ipynb": multiple_targets,
    "06_real_armies.ipynb": real_armies,
    "07_turns_and_durability.ipynb": turns_and_durability,
    "08_plans.ipynb": plans,
    "09_app.ipynb": app,
}


# --------------------------------------------------------------------------- tests
def test_the_notebooks_are_the_documented_ones() -> None:
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


@pytest.mark.system
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
