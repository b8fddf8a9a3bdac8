"""The command line's output files: checked before any work, written all or none.

``-o``, ``--plot`` and ``--html`` are checked as soon as the arguments are read
(:func:`check_outputs`): the folder exists and can be written to, the path is not a folder,
a read-only file needs ``--force``, no two outputs are the same file, and a plot's name
ends in an image format matplotlib writes. The files are then written by
:func:`mathhammer.io.outputs.write_outputs`, so a failure in one (matplotlib's, say)
replaces none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

from ..errors import MathhammerError, OptionError, field_error
from ..io.outputs import OutputPath, check_output, write_output

__all__ = ["FORCE_HINT", "check_outputs", "image_formats", "plot_writer", "write_table"]

#: How to replace a read-only output anyway.
FORCE_HINT = "it is read-only: add --force to replace it"


def image_formats() -> dict[str, str]:
    """The image formats matplotlib writes: file name ending (no dot) -> description.

    Examples
    --------
    >>> formats = image_formats()
    >>> "png" in formats and "svg" in formats and "csv" not in formats
    True
    """
    from matplotlib.backend_bases import FigureCanvasBase

    return dict(FigureCanvasBase.get_supported_filetypes())


def check_outputs(named: Sequence[tuple[str, str | None]], force: bool) -> dict[str, OutputPath]:
    """Check every output named (flag, path; None when not asked for), before any work.

    Returns
    -------
    dict
        The :class:`~mathhammer.io.outputs.OutputPath` of each output asked for, by flag.

    Raises
    ------
    OptionError
        For an output that cannot be written (see :func:`~mathhammer.io.outputs.check_output`),
        a ``--plot`` whose name does not end in an image format, or two outputs that are
        the same file.

    Examples
    --------
    >>> check_outputs([("--plot", "heatmap.txt")], force=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.OptionError: --plot must be a file name ending in an image format...
    """
    checked: dict[str, OutputPath] = {}
    for flag, path in named:
        if path is None:
            continue
        if flag == "--plot":
            _check_image_name(path)
        target = check_output(path, force=force, what=flag, hint=FORCE_HINT)
        _check_distinct(flag, path, target, checked)
        checked[flag] = target
    return checked


def _check_distinct(
    flag: str, path: str, target: OutputPath, checked: dict[str, OutputPath]
) -> None:
    """Refuse an output (``flag``'s ``path``) that is the same file as one ``checked``
    before it."""
    for other, seen in checked.items():
        if not target.direct and seen.path == target.path:
            raise field_error(OptionError, flag, f"a different file from {other}", path)


def _check_image_name(path: str) -> None:
    formats = image_formats()
    suffix = Path(path).suffix.lower().removeprefix(".")
    if suffix not in formats:
        endings = ", ".join(f".{f}" for f in sorted(formats))
        raise field_error(
            OptionError,
            "--plot",
            f"a file name ending in an image format matplotlib writes ({endings})",
            path,
        )


def write_table(outputs: dict[str, OutputPath], frame: Any, what: str) -> None:
    """Write ``frame`` as CSV to ``-o`` when it was asked for (``outputs``: the checked
    outputs, by flag), and say so: "``what`` written to" the path given. A name that a
    spreadsheet would read as a formula is written as text, as the report writes it."""
    from ..io.report_csv import neutralised

    target = outputs.get("--output")
    if target is None:
        return
    write_output(target, lambda out: neutralised(frame).to_csv(out, index=False))
    print(f"{what} written to {target.given}")


def plot_writer(draw: Callable[[], Any], path: str) -> Callable[[IO[bytes]], None]:
    """A writer of the figure ``draw()`` makes (returning its Axes), in the format the
    name of ``path`` ends in; matplotlib's errors become one :class:`OptionError`."""

    def write(handle: IO[bytes]) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure = None
        try:
            axes = draw()
            figure = (axes[0] if isinstance(axes, Sequence | np.ndarray) else axes).figure
            fmt = Path(path).suffix.lower().removeprefix(".")
            figure.savefig(handle, format=fmt, dpi=120, bbox_inches="tight")
        except MathhammerError:
            raise
        except (ValueError, TypeError, RuntimeError, ImportError) as exc:
            # matplotlib's errors, e.g. a format whose writer (LaTeX for .pgf) is missing
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise field_error(
                OptionError, "--plot", "an image matplotlib can draw", path, reason
            ) from exc
        finally:
            if figure is not None:
                plt.close(figure)
            else:
                plt.close("all")

    return write
