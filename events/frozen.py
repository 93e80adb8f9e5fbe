"""The base of the pydantic value objects: frozen, no unknown fields."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["Frozen"]


class Frozen(BaseModel):
    """Base of every immutable pydantic value object: frozen, no unknown fields.

    A model's validator is built when it is first used, not when its class is defined: a
    command that reads four event types does not build the fifty models it imports."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
