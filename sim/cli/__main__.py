"""`python -m sim.cli ...`: the same command line as the `sim` script."""

import sys

from sim.cli.main import main

sys.exit(main())
