"""Workspaces as found on the host: discovery, the one reader, OpenClaw's install, transcripts.

Lives here: ``discovery`` (which directories to dream and which agents share each), ``reader``
(the only reader of workspace files: builds the :class:`~dreamd.engine.snapshot.Snapshot`),
``openclaw`` (an OpenClaw install's ``openclaw.json``), ``openclaw_state`` (its SQLite
dreaming state), ``statesources`` (the state tables from wherever they live now),
``sessions`` (agents' session transcripts, read from their checkpoints), ``backups`` (the
MEMORY.md and DREAMS.md backups; undo restores MEMORY.md's).

May import: :mod:`dreamd.store`, :mod:`dreamd.engine` and the shared top-level modules.

The rule: reading never writes; a symlinked protected file or folder, or a path leaving the
workspace, is refused here as the writer would refuse it.
"""
