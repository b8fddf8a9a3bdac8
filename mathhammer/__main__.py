"""``python -m mathhammer``."""

import sys

from .cli import main

sys.exit(main())
