"""Errors that travel: a class per kind, each a ValueError, with fields that survive pickling."""

from __future__ import annotations

import importlib
import pickle
import pkgutil
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import mathhammer as mh
from mathhammer import errors
from mathhammer.cli import main
from mathhammer.errors import (
    CsvError,
    DiceSyntaxError,
    InputFileError,
    MathhammerError,
    OptionError,
    ProfileError,
    field_error,
)
from mathhammer.io import read_attackers
from mathhammer.io.report import build_report


def every_error_class() -> list[type[MathhammerError]]:
    """Every subclass of MathhammerError defined anywhere in the package."""
    for module in pkgutil.walk_packages(mh.__path__, "mathhammer."):
        if module.name != "mathhammer.__main__":
            importlib.import_module(module.name)
    found: list[type[MathhammerError]] = []
    todo = list(MathhammerError.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls not in found:
            found.append(cls)
            todo.extend(cls.__subclasses__())
    return sorted(found, key=lambda c: c.__name__)


#: Classes built otherwise than by field_error.
SPECIAL: dict[type[MathhammerError], Callable[[], MathhammerError]] = {
    DiceSyntaxError: lambda: DiceSyntaxError("2D", 2, "expected the number of sides after 'D'"),
    CsvError: lambda: CsvError.at(
        "army.csv", 3, "S", "S must be an integer; got 'x'", field_error(ProfileError, "S", "x", 1)
    ),
    InputFileError: lambda: InputFileError.at(
        "suite.json", 2, None, "count must be...", field_error(ProfileError, "count", "> 0", 0)
    ),
}


def example(cls: type[MathhammerError]) -> MathhammerError:
    if cls in SPECIAL:
        return SPECIAL[cls]()
    return field_error(cls, "Weapon.strength", "an integer >= 1", 0, "strength as printed")


def test_the_walk_finds_every_kind() -> None:
    names = {cls.__name__ for cls in every_error_class()}
    assert names >= {
        "ProfileError",
        "AllocationOrderError",
        "DiceSyntaxError",
        "DistributionError",
        "LimitError",
        "RulesError",
        "OptionError",
        "InputFileError",
        "CsvError",
    }


@pytest.mark.parametrize("cls", every_error_class(), ids=lambda c: c.__name__)
def test_every_error_class_is_a_value_error_that_pickles(cls: type[MathhammerError]) -> None:
    assert issubclass(cls, ValueError)
    assert cls.__module__ == "mathhammer.errors", "every error class lives in mathhammer.errors"
    assert cls.__name__ in errors.__all__
    error = example(cls)
    assert type(error) is cls and error.field is not None
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is cls
    assert str(again) == str(error) and again.args == error.args
    assert again.details == error.details and set(again.details) == set(cls.FIELDS)


def test_field_error_keeps_its_parts() -> None:
    error = field_error(OptionError, "trials", "an integer >= 2", 1, "at least two to estimate")
    assert str(error) == "trials must be an integer >= 2; got 1 (at least two to estimate)"
    assert error.details == {
        "field": "trials",
        "constraint": "an integer >= 2",
        "value": 1,
        "hint": "at least two to estimate",
    }


def test_prefixed_keeps_the_class_and_the_fields() -> None:
    error = DiceSyntaxError("D", 1, "expected the number of sides after 'D'")
    located = error.prefixed("Weapon.damage", field="Weapon.damage")
    assert type(located) is DiceSyntaxError and str(located).startswith("Weapon.damage: cannot")
    assert located.field == "Weapon.damage" and located.text == "D" and located.position == 1
    assert error.field == "dice" and str(error).startswith("cannot"), "the original is untouched"


def test_a_value_that_cannot_be_pickled_travels_as_its_repr() -> None:
    def local() -> None:  # a local function cannot be pickled
        pass

    error = field_error(ProfileError, "weapons", "a Weapon", local)
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) and again.value == repr(local)
    assert error.value is local, "only the travelling copy gives up the value"


# ------------------------------------------------------------------ worker processes
def _parse(text: str) -> object:
    return mh.parse_dice(text)


def _weapon(strength: int) -> object:
    return mh.Weapon("Gun", attacks=1, skill=3, strength=strength, ap=0, damage=1)


def _read(path: str) -> object:
    return read_attackers(path)


@pytest.mark.system
def test_an_error_in_a_worker_process_arrives_whole(tmp_path: Path) -> None:
    bad = tmp_path / "army.csv"
    bad.write_text("unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\nX,G,1,1,3+,0,0,1,,\n")
    calls: list[tuple[Callable[[Any], object], Any]] = [
        (_parse, "2D"),
        (_weapon, 0),
        (_read, str(bad)),
    ]
    with ProcessPoolExecutor(max_workers=1) as pool:
        futures = [pool.submit(function, argument) for function, argument in calls]
        remote: list[Any] = [future.exception() for future in futures]
    for (function, argument), error in zip(calls, remote, strict=True):
        with pytest.raises(MathhammerError) as info:
            function(argument)
        local = info.value
        assert type(error) is type(local)
        assert isinstance(error, MathhammerError) and str(error) == str(local)
        assert error.details == local.details
    assert [type(e).__name__ for e in remote] == ["DiceSyntaxError", "ProfileError", "CsvError"]
    assert remote[0].position == 2 and remote[2].column == "S" and remote[2].value == 0


# ------------------------------------------------------------------ options, not profiles
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jobs": 0}, "jobs must be an integer >= 1; got 0"),
        ({"jobs": True}, "jobs must be an integer >= 1; got True"),
        ({"trials": 1}, "trials must be 0 or an integer >= 2; got 1"),
        ({"trials": -3}, "trials must be 0 or an integer >= 2; got -3"),
    ],
)
def test_report_options_are_option_errors(options: dict[str, int], message: str) -> None:
    bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    with pytest.raises(OptionError, match=message) as info:
        build_report([mh.Loadout("b", [(bolt, 1)])], [mh.targets.get("Vehicle")], **options)  # type: ignore[arg-type]
    assert not isinstance(info.value, ProfileError)
    assert info.value.field == next(iter(options))


def test_a_bad_metric_is_refused_before_the_report_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, png = tmp_path / "out.csv", tmp_path / "heat.png"
    argv = ["report", "-o", str(out), "--plot", str(png), "--metric", "bogus", "--no-progress"]
    assert main(argv) == 1
    assert "--metric must be one of ['mean_killed'," in capsys.readouterr().err
    assert not out.exists() and not png.exists()
    with pytest.raises(OptionError) as info:
        main(["--debug", *argv])
    assert info.value.field == "--metric" and info.value.value == "bogus"


def test_a_metric_this_report_lacks_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a vocabulary column, but the standard report has no Monte Carlo check
    png = tmp_path / "heat.png"
    argv = ["report", "-o", str(tmp_path / "o.csv"), "--plot", str(png), "--metric", "mc_z"]
    assert main([*argv, "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "--metric must be one of ['mean_killed'," in err and "got 'mc_z'" in err
    assert not png.exists()


def test_warnings_name_the_line_of_the_users_call() -> None:
    # however deep the package's calls run (the decisions over the engine over the
    # ruleset), a warning points at the caller's own line (core/caller.py)
    import inspect
    import warnings

    lasgun = mh.Weapon("L", 1, bs=3, strength=3, abilities="[LETHAL HITS]")
    troops = mh.Unit.of("T", 5, 3, 5, 1, leadership=7)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1  # type: ignore[union-attr]
        mh.attack([(lasgun, 3)], troops, rules="classic", pool_order="best")
        mh.Weapon("G", 1, 3, 4, 0, 1, "[FOO]")
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, line), (__file__, line + 1)}


def test_file_warnings_name_the_line_of_the_users_call(tmp_path: Path) -> None:
    # the CSV readers' warnings (an extra column, the same points on every row of a unit,
    # an ability not understood) point at the call that read the file, too
    import inspect
    import warnings

    targets = tmp_path / "targets.csv"
    targets.write_text(
        "unit,models,T,Sv,W,points,colour\nMob,10,4,5+,1,80,green\nMob,1,4,4+,2,80,green\n"
    )
    attackers = tmp_path / "attackers.csv"
    attackers.write_text(
        "unit,weapon,count,A,BS/WS,S,AP,D,abilities\nSquad,Gun,5,2,3+,4,0,1,[FOO]\n"
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1  # type: ignore[union-attr]
        mh.read_targets(targets)
        mh.read_attackers(attackers)
    assert len(caught) >= 3
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, line), (__file__, line + 1)}
