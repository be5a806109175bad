"""dreamd: background memory consolidation ("dreaming") for AI-agent Markdown workspaces.

The package is a functional core (``dreamd.phases``, pure planners) inside a thin I/O shell
(``workspace`` reads, ``writer`` writes, ``sweep`` sequences one workspace, ``cli`` drives).
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
