"""The CLI's verbs, one module per group; each module has ``register(subparsers, json_flag)``."""
