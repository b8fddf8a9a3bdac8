"""The library calls of the reliability suite, made in a capped child (see reliability_child).

:data:`TABLE` holds named calls taking JSON arguments; :data:`FACTORIES` every public
constructor and parser, each with valid arguments that a test replaces some of, and a use
of the object built (an attack, a query) so that a value accepted by a constructor but
mishandled later is caught too. Every call takes the sandbox's paths first (see
:func:`reliability_child.sandbox`).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mathhammer as mh
from mathhammer import abilities
from mathhammer.model import values

Paths = dict[str, str]

WEAPON: dict[str, Any] = {
    "name": "w",
    "attacks": 2,
    "skill": 3,
    "strength": 4,
    "ap": -1,
    "damage": 1,
    "abilities": "",
}
GROUP: dict[str, Any] = {"count": 5, "toughness": 4, "save": 3, "wounds": 2}
PROFILE: dict[str, Any] = {
    "name": "m",
    "toughness": 4,
    "save": 3,
    "wounds": 2,
    "max_count": 5,
    "weapons": ("w",),
}


def gun(**changes: Any) -> mh.Weapon:
    return mh.Weapon(**{**WEAPON, **changes})


def target() -> mh.Unit:
    return mh.Unit.of("t", 5, 4, 3, 2, keywords="INFANTRY")


def shoot(weapon: Any = None, unit: Any = None, weapons: Any = None, **options: Any) -> float:
    """An attack with the exact engine and a short Monte Carlo: a value either accepts."""
    weapons = weapons or [(weapon if weapon is not None else gun(), 3)]
    unit = unit if unit is not None else target()
    exact = mh.attack(weapons, unit, **options)
    mh.simulate(weapons, unit, trials=50, rng=1, **options)
    return float(exact.killed.mean())


def weapon_with(ability: Any) -> float:
    return shoot(gun(abilities=(ability,)))


def sheet(**changes: Any) -> Any:
    wargear = mh.Wargear("w", (gun(),))
    models = (mh.ModelProfile(**PROFILE),)
    return mh.Datasheet(**{"name": "s", "models": models, "wargear": (wargear,), **changes})


def use_sheet(datasheet: Any) -> object:
    """Its unit, and each of its loadouts against it."""
    return [shoot(weapons=lo.weapons, unit=datasheet.unit()) for lo in datasheet.loadouts()]


def use_models(models: Any) -> object:
    attacker = mh.Attacker("a", models)
    return mh.resolve(attacker, [mh.Use("all", "w", target())])


def d6() -> mh.Dist:
    return mh.parse_dice("D6").dist


def queried(dist: Any) -> object:
    """The queries of a distribution a caller makes first."""
    return (dist.mean(), dist.std(), dist.at_least(1), dist.ppf(0.5), dist.describe())


#: name -> (constructor, valid arguments, use of the object built). A test replaces some of
#: the constructor's parameters (see :func:`parameters`) with hostile values.
FACTORIES: dict[str, tuple[Callable[..., Any], dict[str, Any], Callable[[Any], object]]] = {
    "Weapon": (mh.Weapon, {**WEAPON, "bs": None, "melee": False}, shoot),
    "ModelGroup": (mh.ModelGroup, GROUP, lambda g: shoot(unit=mh.Unit("t", g))),
    "Unit": (
        lambda **k: mh.Unit(groups=mh.ModelGroup(**GROUP), **k),
        {"name": "t", "keywords": (), "stealth": False, "leadership": None},
        lambda u: shoot(unit=u),
    ),
    "Unit.of": (
        mh.Unit.of,
        {"name": "t", "models": 5, "toughness": 4, "save": 3, "wounds": 2},
        lambda u: shoot(unit=u),
    ),
    "Context": (mh.Context, {}, lambda c: shoot(gun(abilities="[LETHAL HITS]"), context=c)),
    "Modifiers": (mh.Modifiers, {}, lambda m: shoot(modifiers=m)),
    "MortalWounds": (
        mh.MortalWounds,
        {"amount": "D3"},
        lambda m: mh.attack([m], target()).damage.mean(),
    ),
    "Dice": (mh.Dice, {"expression": "D6"}, lambda d: queried(d.dist)),
    "parse_dice": (mh.parse_dice, {"value": "D6"}, lambda d: queried(d.dist)),
    "ModelProfile": (mh.ModelProfile, PROFILE, lambda m: use_sheet(sheet(models=(m,)))),
    "Datasheet": (sheet, {"faction": "", "keywords": (), "points": ()}, use_sheet),
    "Wargear": (
        mh.Wargear,
        {"name": "w", "profiles": ()},
        lambda w: use_sheet(sheet(wargear=(w,))),
    ),
    "Target": (
        lambda **k: mh.Target(target(), **k),
        {"points": 100},
        lambda t: mh.compare([mh.Loadout("l", [(gun(), 2)], points=50)], [t]),
    ),
    "Loadout": (
        lambda **k: mh.Loadout(weapons=[(gun(), 2)], **k),
        {"name": "l", "points": 50},
        lambda lo: mh.compare([lo], [mh.Target(target(), points=100)]),
    ),
    "AttackOptions": (
        lambda **k: mh.AttackOptions(options=[[(gun(), 2)]], **k),
        {"name": "a", "phase": "shooting", "points": 50},
        lambda a: mh.compare([a], [mh.Target(target(), points=100)]),
    ),
    "Models": (
        lambda **k: mh.Models(weapons=gun(), **k),
        {"count": 5, "name": "m", "keywords": ()},
        use_models,
    ),
    "Use": (
        lambda **k: mh.Use(**{"weapon": "w", "target": target(), **k}),
        {"models": "all", "count": None},
        lambda u: mh.resolve(mh.Attacker("a", mh.Models(5, gun())), [u]),
    ),
    "Attacker": (lambda **k: mh.Attacker(models=mh.Models(5, gun()), **k), {"name": "a"}, repr),
    "attach_leaders": (
        lambda **k: mh.attach_leaders(target(), mh.Unit.of("l", 1, 4, 3, 4), **k),
        {"name": None},
        lambda u: shoot(unit=u),
    ),
    "compare": (
        lambda **k: mh.compare([mh.Loadout("l", [(gun(), 2)])], [target()], **k),
        {"rules": "11e", "metric": "mean_damage"},
        repr,
    ),
    "attack": (lambda **k: mh.attack([(gun(), 2)], target(), **k), {"rules": "11e"}, repr),
    "simulate": (
        lambda **k: mh.simulate([(gun(), 2)], target(), **k),
        {"trials": 100, "rng": 1},
        lambda r: r.killed.mean(),
    ),
    "get_ruleset": (mh.get_ruleset, {"rules": "11e"}, repr),
    "targets.get": (mh.targets.get, {"name": "Line infantry"}, lambda t: shoot(unit=t.unit)),
    "Dist": (mh.Dist, {"pmf": [0.5, 0.5]}, queried),
    "Dist.binomial": (mh.Dist.binomial, {"n": 10, "p": 0.5}, queried),
    "Dist.uniform": (mh.Dist.uniform, {"low": 1, "high": 6}, queried),
    "Dist.constant": (mh.Dist.constant, {"k": 3}, queried),
    "Dist.from_samples": (mh.Dist.from_samples, {"samples": [1, 2], "minlength": 0}, queried),
    "Dist.mixture": (
        lambda **k: mh.Dist.mixture(dists=[d6(), d6()], **k),
        {"weights": [1, 1]},
        queried,
    ),
    "Dist.repeat": (lambda **k: d6().repeat(**k), {"times": 3}, queried),
    "Dist.thin": (lambda **k: d6().thin(**k), {"p": 0.5}, queried),
    "Dist.convolve": (lambda **k: d6().convolve(**k), {"other": 2}, queried),
    "Dist.queries": (
        lambda **k: (d6().ppf(k["q"]), d6().at_least(k["k"]), d6().thresholds(k["top"])),
        {"q": 0.5, "k": 3, "top": None},
        repr,
    ),
    "Dist.describe": (lambda **k: d6().describe(**k), {"at_least": [1, 2]}, repr),
    "parse_abilities": (abilities.parse_abilities, {"abilities": "[BLAST]"}, repr),
    "parse_token": (abilities.parse_token, {"token": "BLAST"}, repr),
    **{
        f"values.{name}": (getattr(values, name), {"value": "3+"}, repr)
        for name in (
            "parse_roll",
            "parse_save",
            "parse_bs",
            "parse_leadership",
            "parse_skill",
            "parse_optional_roll",
        )
    },
    **{  # the package's own: a test may register more in its process, not in the child's
        f"abilities.{cls.__name__}": (cls, {}, weapon_with)
        for cls in abilities.ability_classes()
        if cls.__module__.startswith("mathhammer.")
    },
}


def parameters(factory: str) -> tuple[str, ...]:
    """The parameters of a factory a test may replace: its valid arguments' names, and for
    a public constructor every parameter it takes that has no object as its value."""
    make, valid, _ = FACTORIES[factory]
    try:
        signature = inspect.signature(make).parameters.values()
    except (TypeError, ValueError):
        signature = {}.values()
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    taken = [p.name for p in signature if p.kind in named and p.name not in _OBJECTS]
    return tuple(dict.fromkeys([*valid, *taken]))


#: Parameters whose values are objects of the library (the factories make them), and the
#: names and bounds a parser's caller gives for its messages rather than values.
_OBJECTS = ("groups", "weapons", "models", "dists", "suite", "field", "low", "high", "torrent_ok")


def build(factory: str, changes: dict[str, Any], paths: Paths) -> object:
    """Make the factory's object with ``changes`` to its valid arguments, then use it."""
    make, valid, use = FACTORIES[factory]
    return use(make(**{**valid, **changes}))


# ------------------------------------------------------------------ named calls
def _attack(a: Any, d: Any, text: Any, count: Any, models: Any, wounds: Any) -> float:
    unit = mh.Unit.of("t", models, 4, 3, wounds, keywords="INFANTRY")
    return float(mh.attack([(gun(attacks=a, damage=d, abilities=text), count)], unit).killed.mean())


def _read(reader: str, path: str, *options: Any) -> object:
    """One of the public readers on a path, as a caller would use what it returns."""
    if reader == "read_defences":
        return _defences(path)
    if reader == "targets.load":
        return [t.name for t in mh.targets.load(path)]
    if reader == "read_army":
        army = mh.read_army(path, faction=options[0] if options else None)
        return len(army.loadouts), len(army.targets), len(army.datasheets)
    if reader == "read_roster":
        return [u.name for u in mh.read_roster(path).units]
    if reader in ("read_catalogue", "read_wahapedia"):
        return [d.name for d in getattr(mh, reader)(path)]
    return getattr(mh, reader)(path)


def _defences(path: str) -> object:
    """The defensive abilities quoted in a file like ``tests/data/defences/abilities.json``,
    each read, then all of them together (a file the test itself cannot parse reads none)."""
    from mathhammer.io import read_defences
    from mathhammer.units.parts import AbilityText

    try:
        entries = json.loads(Path(path).read_bytes().decode("utf-8", "replace"))
    except (ValueError, RecursionError):  # the test's own reading of the file
        entries = []
    texts = [
        AbilityText(e["name"], e["text"])
        for e in (entries if isinstance(entries, list) else [])
        if isinstance(e, dict) and isinstance(e.get("name"), str) and isinstance(e.get("text"), str)
    ]
    for text in texts:
        read_defences([text])
    return read_defences(texts).invuln


#: Named calls: each takes the sandbox's paths, then its JSON arguments.
TABLE: dict[str, Callable[..., object]] = {
    "dice": lambda p, text: mh.parse_dice(text).dist,
    "weapon": lambda p, *a: mh.Weapon("w", *a),
    "group": lambda p, *a: mh.ModelGroup(*a),
    "unit": lambda p, name, keywords, ld: mh.Unit.of(
        name, 5, 4, 3, 1, keywords=keywords, leadership=ld
    ),
    "context": lambda p, field, value: mh.Context(**{field: value}),
    "modifiers": lambda p, field, value: mh.Modifiers(**{field: value}),
    "roll": lambda p, text: values.parse_roll(text),
    "leadership": lambda p, text: values.parse_leadership(text),
    "abilities": lambda p, text: gun(abilities=text).abilities,
    "binomial": lambda p, n, prob: mh.Dist.binomial(n, prob),
    "repeat": lambda p, n: d6().repeat(n),
    "attack": lambda p, *a: _attack(*a),
    "simulate": lambda p, trials, rng: mh.simulate(
        [(gun(), 5)], mh.Unit.of("t", 5, 4, 3, 1), trials=trials, rng=rng
    ),
    "mortal": lambda p, amount: mh.attack(
        [mh.MortalWounds(amount)], mh.Unit.of("t", 5, 4, 3, 2)
    ).damage.mean(),
    "read": lambda p, reader, token, *options: _read(reader, p.get(token, token), *options),
    "read_file": lambda p, reader, path, *options: _read(reader, str(Path(path)), *options),
}

#: The public readers of a path.
READERS = (
    "read_attackers",
    "read_targets",
    "read_roster",
    "read_catalogue",
    "read_wahapedia",
    "read_army",
    "targets.load",
)
