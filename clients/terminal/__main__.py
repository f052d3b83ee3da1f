"""``python -m clients.terminal CODE --name Ana [--server URL] [--lang fr]``."""

import sys

from clients.terminal.app import main

sys.exit(main())
