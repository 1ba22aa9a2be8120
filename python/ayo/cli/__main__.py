"""``python -m ayo.cli``: the same as the ``ayo`` command."""

import sys

from ayo.cli import main

sys.exit(main())
