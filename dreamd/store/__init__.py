"""The machine state on disk: the one writer, state files, the lock, events, fingerprints.

Lives here: ``writer`` (the only code that writes workspace files: compare-and-swap, temp file,
fsync, rename, state saved last), ``statefiles`` (reading ``memory/.dreams/*.json``, corrupt
files set aside), ``lock`` (the per-workspace lock), ``events`` (the audit log),
``fingerprint`` (the no-op sweep's proof), ``longterm`` (the long-term layer's file).

May import: :mod:`dreamd.engine` (the types it stores) and the shared top-level modules.

The rule: every write is atomic and checked against what it was planned from; a crash leaves a
file old or new, never half; human text is kept byte for byte.
"""
