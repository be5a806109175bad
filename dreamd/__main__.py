"""``python -m dreamd`` runs the command-line interface."""

import sys

from dreamd.cli.main import main

sys.exit(main())
