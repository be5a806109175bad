"""``python -m dreamd`` runs the command-line interface."""

from dreamd.cli.main import entry

entry()
