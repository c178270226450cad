"""``python -m noughts``: the command line, as the ``noughts`` command."""

import sys

from noughts.cli import main

sys.exit(main())
