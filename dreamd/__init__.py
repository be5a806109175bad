"""dreamd: background memory consolidation ("dreaming") for AI-agent Markdown workspaces.

A functional core (:mod:`dreamd.engine`: pure planners over data) inside a thin imperative
shell: :mod:`dreamd.workspace` reads, :mod:`dreamd.store` writes, :mod:`dreamd.runs` sequences
one job on one workspace, and :mod:`dreamd.daemon`, :mod:`dreamd.chat` and :mod:`dreamd.cli`
are the ways in. The modules at this level are the few everything uses: ``errors``, ``clock``,
``paths``, ``config`` (and ``settings``, its help text), ``layout`` (the shape of a workspace),
``redaction`` and ``control`` (what a front end may ask of the daemon). ARCHITECTURE.md has the
map.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
