"""mathhammer: exact probability distributions for wargame attack sequences.

Examples
--------
>>> import mathhammer as mh
>>> bolter = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> marines = mh.Unit.of("Intercessors", models=5, toughness=4, save=3, wounds=2)
>>> res = mh.attack([(bolter, 10)], marines)
>>> round(res.killed.mean(), 3), round(res.killed.at_least(1), 3)
(1.417, 0.87)
"""

from __future__ import annotations

from . import abilities, targets
from .core.dice import Dice, parse_dice
from .core.dist import Dist
from .errors import (
    AllocationOrderError,
    CsvError,
    DiceSyntaxError,
    DistributionError,
    InputFileError,
    LimitError,
    MathhammerError,
    OptionError,
    ProfileError,
    RulesError,
)
from .exact.engine import attack
from .model.ability_text import UnknownAbilityWarning
from .model.context import Context, Modifiers
from .model.pools import MortalWounds, Pool, gather_pools
from .model.profiles import ModelGroup, Unit, Weapon
from .montecarlo.engine import simulate
from .results.attack import AttackResult, GroupResult, PoolResult, TestResult
from .results.simulation import SimulationResult
from .rules import AttackPlan, Ruleset, get_ruleset, plan_attack, register_ruleset, ruleset_names
from .units.compare import Loadout, compare
from .units.resolve import (
    UnitAttackResult,
    UnitSimulationResult,
    best_splits,
    resolve,
    simulate_uses,
)
from .units.selection import Attacker, Models, Use
from .units.targets import Target
from .views import plots
from .views.plots import plot_at_least, plot_compare

__version__ = "0.1.0"

__all__ = [
    "AllocationOrderError",
    "AttackPlan",
    "AttackResult",
    "Attacker",
    "Context",
    "CsvError",
    "Dice",
    "DiceSyntaxError",
    "Dist",
    "DistributionError",
    "GroupResult",
    "InputFileError",
    "LimitError",
    "Loadout",
    "MathhammerError",
    "ModelGroup",
    "Models",
    "Modifiers",
    "MortalWounds",
    "OptionError",
    "Pool",
    "PoolResult",
    "ProfileError",
    "Ruleset",
    "RulesError",
    "SimulationResult",
    "Target",
    "TestResult",
    "Unit",
    "UnitAttackResult",
    "UnitSimulationResult",
    "UnknownAbilityWarning",
    "Use",
    "Weapon",
    "__version__",
    "abilities",
    "attack",
    "best_splits",
    "compare",
    "gather_pools",
    "get_ruleset",
    "parse_dice",
    "plan_attack",
    "plot_at_least",
    "plot_compare",
    "plots",
    "register_ruleset",
    "resolve",
    "ruleset_names",
    "simulate",
    "simulate_uses",
    "targets",
]
