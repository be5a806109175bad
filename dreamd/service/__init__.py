"""dreamd under the host's service manager: systemd units and the macOS LaunchAgent.

Lives here: ``systemd`` (units rendered from ``templates/``), ``launchd`` (the plist),
``target`` (where the definition goes, how it is managed, what it may touch). Pure: values in,
text out; ``dreamd service install`` (:mod:`dreamd.cli.service`) does the writing.

May import: :mod:`dreamd.workspace`, :mod:`dreamd.store` and the shared top-level modules.
"""
