"""``python -m dreamd`` runs the command-line interface."""

import sys

from dreamd.cli import main

sys.exit(main())
