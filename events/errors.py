"""The error tree: every error a user can cause is an `ArbiterError` with an exit code.

The command lines catch `ArbiterError` only. Anything else that escapes is a bug: the CLIs
print a short "please report" line and exit with `BUG_EXIT_CODE`, never as a user error.

```
ArbiterError                      exit 1
├── UserError (ValueError)        exit 1   bad input, unknown object, refused command
│   └── NotFound                  exit 1   no such tournament, player, truncation ...
├── RetryableError                exit 3   busy store or cache, stale version: run it again
└── PairingError (ValueError)     exit 1   an engine cannot pair (base of every engine error)
```

Every layer subclasses these where its errors are raised (`events.store.StoreBusy`,
`ingest.errors.IngestError`, `pairing.dutch.NoValidPairingError` ...); the README's exit-code
table lists them all. This module sits in the lowest layer so that every other layer can
raise these errors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Self

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = [
    "BUG_EXIT_CODE",
    "INTERRUPTED_EXIT_CODE",
    "USAGE_EXIT_CODE",
    "ArbiterError",
    "NotFound",
    "PairingError",
    "RetryableError",
    "UserError",
]

USAGE_EXIT_CODE = 2
"""Wrong command-line usage (typer's own code)."""

BUG_EXIT_CODE = 70
"""An unexpected exception: a bug in arbiter (sysexits' EX_SOFTWARE)."""

INTERRUPTED_EXIT_CODE = 130
"""Interrupted by Ctrl-C (128 + SIGINT), as shells report it."""


class ArbiterError(Exception):
    """Root of every error a user can cause; the message is one line fit for a user."""

    exit_code: ClassVar[int] = 1


class UserError(ArbiterError, ValueError):
    """Bad input or a refused command: fix the input and run it again."""

    @classmethod
    def from_validation(cls, exc: ValidationError, context: str = "") -> Self:
        """The first field error of a pydantic model built from the user's input, in one line.

        ``context`` (a file, a tournament) prefixes the message when given.
        """
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or exc.title
        message = f"invalid {where}: {first['msg']}"
        return cls(f"{context}: {message}" if context else message)


class NotFound(UserError):
    """The named object (tournament, player, round, truncation, file) does not exist."""


class RetryableError(ArbiterError):
    """Nothing is wrong with the command: the store was busy or changed; run it again."""

    exit_code: ClassVar[int] = 3


class PairingError(ArbiterError, ValueError):
    """A pairing engine cannot pair the round as asked."""
