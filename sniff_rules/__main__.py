"""``python -m sniff_rules``: the same as the ``sniff-rules`` command."""

import sys

from sniff_rules.cli.commands import main

sys.exit(main())
