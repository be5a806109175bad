"""How commands print recall entries (the shape lives in :mod:`dreamd.explain`)."""

from __future__ import annotations

from dreamd.explain import candidate_json

__all__ = ["candidate_json"]
