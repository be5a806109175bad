"""The daemon: the composition root of ``dreamd run`` and everything only it runs.

Lives here: ``main`` (the :class:`~dreamd.daemon.main.Daemon`: one TaskGroup, the stop event,
reload), ``scheduler`` (cron fires, the owner's heartbeat), ``workers`` (sweeps in worker
processes), ``backend`` (the :class:`~dreamd.control.Service` the API and chat are answered
from), ``api`` (the aiohttp control API), ``listener`` (connection caps and deadlines), ``page``
(the Dreams page and ``static/``), ``metrics``, ``sdnotify``.

May import: everything but the CLI and the adapters.

The rule: the event loop never waits on files or CPU (threads and worker processes do); every
long-lived task belongs to one TaskGroup; shutdown waits on a stop event, never a poll.
"""
