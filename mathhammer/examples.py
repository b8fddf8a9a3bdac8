"""Named example attacks, bundled for the demo command, the benchmarks and the docs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .model.profiles import ModelGroup, Unit, Weapon

__all__ = ["EXAMPLES", "Example"]


@dataclass(frozen=True)
class Example:
    """An attack to show: weapons against a target, with a one-line description."""

    name: str
    description: str
    weapons: Any
    target: Unit


_BOLTER = Weapon("Bolter", attacks=1, skill=3, strength=4, ap=0, damage=1)
_HEAVY = Weapon("Heavy gun", attacks=1, skill=3, strength=5, ap=-1, damage="D6")
_CHAIN = Weapon(
    "Chain gun",
    attacks=1,
    skill=3,
    strength=4,
    ap=0,
    damage=1,
    abilities="[SUSTAINED HITS 1], [LETHAL HITS]",
)
_NEEDLE = Weapon(
    "Needle rifle",
    attacks=1,
    skill=3,
    strength=4,
    ap=-1,
    damage=2,
    abilities="[ANTI-INFANTRY 4+], [DEVASTATING WOUNDS]",
)
_LED_UNIT = Unit(
    "Led unit",
    [
        ModelGroup(10, toughness=4, save=3, wounds=2, name="Veterans"),
        ModelGroup(10, toughness=4, save=4, wounds=1, name="Troopers"),
        ModelGroup(1, toughness=4, save=2, wounds=5, invuln=4, character=True, name="Captain"),
    ],
    keywords="INFANTRY",
)

EXAMPLES: tuple[Example, ...] = (
    Example(
        "bolters-vs-line",
        "10 attacks BS3+ S4 AP0 D1 against 10 models T4 Sv3+ W1",
        [(_BOLTER, 10)],
        Unit.of("Line infantry", models=10, toughness=4, save=3, wounds=1),
    ),
    Example(
        "heavy-vs-elite",
        "60 attacks BS3+ S5 AP-1, damage D6 against 20 models T4 Sv3+ W3",
        [(_HEAVY, 60)],
        Unit.of("Elite infantry", models=20, toughness=4, save=3, wounds=3),
    ),
    Example(
        "heavy-vs-big-unit",
        "160 attacks BS3+ S5 AP-1, damage D6 against 200 models T4 Sv3+ W3",
        [(_HEAVY, 160)],
        Unit.of("Massed elites", models=200, toughness=4, save=3, wounds=3),
    ),
    Example(
        "heavy-vs-led-unit",
        "60 attacks BS3+ S5 AP-1, damage D6 against 10x W2 Sv3+, 10x W1 Sv4+ "
        "and a CHARACTER W5 Sv2+ InSv4+",
        [(_HEAVY, 60)],
        _LED_UNIT,
    ),
    Example(
        "sustained-lethal-vs-elite",
        "20 attacks BS3+ S4 AP0 D1 [SUSTAINED HITS 1], [LETHAL HITS] against 5x T4 Sv3+ W2",
        [(_CHAIN, 20)],
        Unit.of("Elite squad", models=5, toughness=4, save=3, wounds=2, keywords="INFANTRY"),
    ),
    Example(
        "devastating-anti-vs-led-unit",
        "20 attacks BS3+ S4 AP-1 D2 [ANTI-INFANTRY 4+], [DEVASTATING WOUNDS] against the led unit",
        [(_NEEDLE, 20)],
        _LED_UNIT,
    ),
)
