"""One job on one workspace, end to end: lock, read, plan, apply, and say what happened.

Lives here: ``sweep`` (light -> REM -> deep -> diary, with the model stage when configured),
``backfill`` and ``backfill_steps`` (grounded backfill and its rollback, as the CLI and the
control API run them), ``harness`` (``rem-harness`` in a temporary copy), ``demo`` (the
embedded demo), ``progress`` (progress lines on stderr).

May import: everything below it (host, model, recall, workspace, store, engine, shared).

The rule: a run that fails fails its workspace, recorded and visible, never the caller.
"""
