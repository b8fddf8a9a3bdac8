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

import importlib
from typing import TYPE_CHECKING

from . import abilities, rules, targets
from .core.caches import clear as clear_caches
from .core.dice import Dice, parse_dice
from .core.dist import Dist
from .decisions.attack import attack
from .decisions.order import OrderRanking, rank_pool_orders
from .decisions.sequence import sequence
from .errors import (
    AllocationOrderError,
    CsvError,
    DiceSyntaxError,
    DistributionError,
    InputFileError,
    InputFileWarning,
    LimitError,
    MathhammerError,
    OptionError,
    ProfileError,
    RulesError,
)
from .io.attackers_json import load as load_attackers
from .model.ability_text import UnknownAbilityWarning
from .model.context import Context, Modifiers
from .model.pools import MortalWounds, Pool, WeaponsLike, gather_pools
from .model.profiles import ModelGroup, Unit, Weapon
from .montecarlo.engine import simulate
from .results.attack import AttackResult, GroupResult, PoolResult, TestResult
from .results.columns import metric_column
from .results.sequence import SequenceResult
from .results.simulation import SimulationResult
from .results.state import UnitState
from .rules import AttackPlan, Ruleset, get_ruleset, plan_attack, register_ruleset, ruleset_names
from .sweeps.options import SweepExecution, SweepOutput
from .sweeps.read import sweep_top
from .sweeps.run import sweep
from .units.compare import Loadout, compare
from .units.datasheet import Datasheet, Detachment, ModelProfile, Wargear, attach_leaders
from .units.durability import StandardAttacker, durability, standard_attackers
from .units.options import AttackOptions
from .units.parts import AbilityText
from .units.resolve import (
    SequenceAttackResult,
    UnitAttackResult,
    UnitSimulationResult,
    best_splits,
    resolve,
    resolve_sequence,
    simulate_uses,
)
from .units.selection import Attacker, Models, Use
from .units.targeting import TargetPlan, plan_army, plan_targets
from .units.targets import Target
from .views.plots import plot_at_least, plot_compare, plot_durability
from .views.sweep import plot_sweep, sweep_html

if TYPE_CHECKING:  # imported on first use (see __getattr__)
    from .io import (
        read_army,
        read_attackers,
        read_catalogue,
        read_roster,
        read_targets,
        read_wahapedia,
    )
    from .page.explore import explore
    from .page.layout import app

__version__ = "0.1.0"

#: The army readers, imported on first use so that ``import mathhammer`` stays light.
_READERS = (
    "read_army",
    "read_attackers",
    "read_catalogue",
    "read_roster",
    "read_targets",
    "read_wahapedia",
)


def __getattr__(name: str) -> object:
    """``mh.read_roster`` and the other readers of :mod:`mathhammer.io`, loaded lazily."""
    if name in _READERS or name == "io":
        # import_module, not "from . import io": that would ask this hook for "io" again
        io = importlib.import_module(".io", __name__)
        return io if name == "io" else getattr(io, name)
    if name == "app":  # the page (the app extra's Panel is imported when it is shown)
        return importlib.import_module(".page.layout", __name__).app
    if name == "explore":  # loadouts compared with controls (Panel, as the page)
        return importlib.import_module(".page.explore", __name__).explore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names, ``__all__``: what ``dir(mathhammer)`` and completion offer (the
    subpackages behind them are reached through these, not listed beside them)."""
    return sorted(__all__)


__all__ = [
    "AbilityText",
    "AllocationOrderError",
    "AttackOptions",
    "AttackPlan",
    "AttackResult",
    "Attacker",
    "Context",
    "CsvError",
    "Datasheet",
    "Detachment",
    "Dice",
    "DiceSyntaxError",
    "Dist",
    "DistributionError",
    "GroupResult",
    "InputFileError",
    "InputFileWarning",
    "LimitError",
    "Loadout",
    "MathhammerError",
    "ModelGroup",
    "ModelProfile",
    "Models",
    "Modifiers",
    "MortalWounds",
    "OptionError",
    "OrderRanking",
    "Pool",
    "PoolResult",
    "ProfileError",
    "RulesError",
    "Ruleset",
    "SequenceAttackResult",
    "SequenceResult",
    "SimulationResult",
    "StandardAttacker",
    "SweepExecution",
    "SweepOutput",
    "Target",
    "TargetPlan",
    "TestResult",
    "Unit",
    "UnitAttackResult",
    "UnitSimulationResult",
    "UnitState",
    "UnknownAbilityWarning",
    "Use",
    "Wargear",
    "Weapon",
    "WeaponsLike",
    "__version__",
    "abilities",
    "app",
    "attach_leaders",
    "attack",
    "best_splits",
    "clear_caches",
    "compare",
    "durability",
    "explore",
    "gather_pools",
    "get_ruleset",
    "io",
    "load_attackers",
    "metric_column",
    "parse_dice",
    "plan_army",
    "plan_attack",
    "plan_targets",
    "plot_at_least",
    "plot_compare",
    "plot_durability",
    "plot_sweep",
    "rank_pool_orders",
    "read_army",
    "read_attackers",
    "read_catalogue",
    "read_roster",
    "read_targets",
    "read_wahapedia",
    "register_ruleset",
    "resolve",
    "resolve_sequence",
    "rules",
    "ruleset_names",
    "sequence",
    "simulate",
    "simulate_uses",
    "standard_attackers",
    "sweep",
    "sweep_html",
    "sweep_top",
    "targets",
]
