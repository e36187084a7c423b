"""``python -m tiletable_host``: the same as the ``tiletable`` command."""
import sys

from tiletable_host.main import main

sys.exit(main())
