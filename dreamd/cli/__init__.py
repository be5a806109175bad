"""The command-line interface: ``main(argv) -> int`` (:mod:`dreamd.cli.main`) and its verbs.

One module per verb group (``sweeping``, ``memory``, ``rem``, ``shadow``, ``service``, ``demo``),
each with ``register(subparsers, json_flag)``; ``context`` resolves what every command needs,
``client`` talks to a running daemon over its socket.

May import: everything but the adapters. Nothing imports the CLI.

The rule: ``dreamd: error: ...`` and exit 1 for what the user can fix, 2 for usage, 130 for ^C,
a traceback log and 3 for a bug; ``--json`` output is stable.
"""
