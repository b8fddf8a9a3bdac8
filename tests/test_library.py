"""The datasheet library every importer returns: lookup, search, factions, the report."""

from __future__ import annotations

import pytest

import mathhammer as mh
from mathhammer.io.import_report import ImportReport
from mathhammer.io.library import DatasheetLibrary
from mathhammer.units.datasheet import Datasheet, ModelProfile


def sheet(name: str, faction: str) -> Datasheet:
    model = ModelProfile(name, toughness=4, save=3, wounds=2)
    return Datasheet(name, (model,), faction=faction)


@pytest.fixture
def library() -> DatasheetLibrary:
    report = ImportReport(source="somewhere", datasheets=4)
    return DatasheetLibrary(
        (
            sheet("Intercessor Squad", "Space Marines"),
            sheet("Rhino", "Space Marines"),
            sheet("Rhino", "Chaos Space Marines"),
            sheet("Mek\u2019s Grots", "Orks"),
        ),
        report,
    )


def test_size_order_and_report(library: DatasheetLibrary) -> None:
    assert len(library) == 4
    assert [d.faction for d in library] == [
        "Space Marines",
        "Space Marines",
        "Chaos Space Marines",
        "Orks",
    ]
    assert library.report.source == "somewhere"
    assert library.factions == ("Chaos Space Marines", "Orks", "Space Marines")
    assert DatasheetLibrary(()).report.source == "" and len(DatasheetLibrary(())) == 0


def test_get_ignores_case_spaces_and_apostrophes(library: DatasheetLibrary) -> None:
    assert library.get("  intercessor   SQUAD").name == "Intercessor Squad"
    assert library.get("Mek's Grots").faction == "Orks"
    assert library.get("rhino", faction="chaos space marines").faction == "Chaos Space Marines"


def test_get_explains_a_miss(library: DatasheetLibrary) -> None:
    with pytest.raises(mh.OptionError) as caught:
        library.get("Intercesor Squad")
    error = caught.value
    assert error.field == "datasheet" and error.value == "Intercesor Squad"
    assert error.hint == "did you mean 'Intercessor Squad'?"
    with pytest.raises(mh.OptionError) as caught:
        library.get("Land Raider")
    assert caught.value.hint == "" and "one of the 4 datasheets read" in str(caught.value)
    with pytest.raises(mh.OptionError) as caught:
        library.get("Rhino")
    assert caught.value.field == "faction"
    assert caught.value.hint == "one of ['Chaos Space Marines', 'Space Marines']"


def test_search_and_faction(library: DatasheetLibrary) -> None:
    assert [d.faction for d in library.search("RHI")] == ["Space Marines", "Chaos Space Marines"]
    assert library.search("zzz") == []
    marines = library.faction("space marines")
    assert [d.name for d in marines] == ["Intercessor Squad", "Rhino"]
    assert marines.report is library.report
    assert marines.get("Rhino").faction == "Space Marines"
    with pytest.raises(mh.OptionError) as caught:
        library.faction("Space Marine")
    assert caught.value.hint == "did you mean 'Space Marines'?"
