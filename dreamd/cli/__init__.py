"""The command-line interface: ``main(argv) -> int`` (:mod:`dreamd.cli.main`) and its verbs.

One module per verb group (``sweeping``, ``memory``, ``rem``, ``undo``, ``shadow``, ``service``,
``demo``, ``configuration``, ``completion``), each with ``register(subparsers, json_flag)``;
``options`` holds the options every command shares and how usage errors surface, ``context``
resolves what every command needs, ``client`` talks to a running daemon over its socket.

May import: everything but the adapters. Nothing imports the CLI.

The rule: ``dreamd: error: ...`` and exit 1 for what the user can fix, 2 for usage, 130 for ^C,
a traceback log and 3 for a bug; ``--json`` output is stable, and with ``--json`` every error is
``{"ok": false, "error": {"type", "message"}}`` on stdout instead.
"""
