"""The base of the pydantic value objects: frozen, no unknown fields."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["Frozen"]


class Frozen(BaseModel):
    """Base of every immutable pydantic value object: frozen, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")
