"""The host's view: its resolved set-up, host-wide state, the job budget, and status.

Lives here: ``runtime`` (config with OpenClaw's values, workspaces, timezone, owner), ``owner``
(who owns the sweep job), ``state`` (``host.json``: the on/off override, the schedule),
``history`` (sweep history), ``health`` (judged from it), ``schedule`` (the cron schedule as pure
functions), ``jobs`` (the budget of background jobs shared by every process), ``status`` (the
status document and the ``Dreaming status:`` block), ``clock`` (the clock the scheduler, chat
and the fleet wait on).

May import: :mod:`dreamd.recall`, :mod:`dreamd.workspace`, :mod:`dreamd.store`,
:mod:`dreamd.engine`, :mod:`dreamd.model` and the shared top-level modules. The CLI, the daemon
and chat all read it; it knows none of them.
"""
