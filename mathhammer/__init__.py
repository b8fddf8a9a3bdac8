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

from . import abilities, plots, targets
from .abilities import UnknownAbilityWarning
from .attack import attack
from .attacking import (
    Attacker,
    Models,
    UnitAttackResult,
    UnitSimulationResult,
    Use,
    best_splits,
    resolve,
    simulate_uses,
)
from .compare import Loadout, compare
from .context import Context, Modifiers
from .dice import Dice, parse_dice
from .dist import Dist
from .errors import (
    AllocationOrderError,
    DiceSyntaxError,
    DistributionError,
    LimitError,
    MathhammerError,
    ProfileError,
    RulesError,
)
from .montecarlo import simulate
from .plots import plot_at_least, plot_compare
from .profiles import ModelGroup, MortalWounds, Pool, Unit, Weapon, gather_pools
from .result import AttackResult, GroupResult, PoolResult, SimulationResult
from .targets import Target

__version__ = "0.1.0"

__all__ = [
    "AllocationOrderError",
    "AttackResult",
    "Attacker",
    "Context",
    "Dice",
    "DiceSyntaxError",
    "Dist",
    "DistributionError",
    "GroupResult",
    "LimitError",
    "Loadout",
    "MathhammerError",
    "ModelGroup",
    "Models",
    "Modifiers",
    "MortalWounds",
    "Pool",
    "PoolResult",
    "ProfileError",
    "RulesError",
    "SimulationResult",
    "Target",
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
    "parse_dice",
    "plot_at_least",
    "plot_compare",
    "plots",
    "resolve",
    "simulate",
    "simulate_uses",
    "targets",
]
