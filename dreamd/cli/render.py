"""How commands print recall entries (the shape lives in :mod:`dreamd.engine.explain`)."""

from __future__ import annotations

from dreamd.engine.explain import candidate_json

__all__ = ["candidate_json"]
