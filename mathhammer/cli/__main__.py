"""``python -m mathhammer.cli``, the same as ``python -m mathhammer``."""

import sys

from . import main

if __name__ == "__main__":  # pragma: no cover (a module walk imports it too: run only as -m)
    sys.exit(main())
