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
`ingest.errors.IngestError`, `pairing.swiss.NoValidPairingError` ...); the README's exit-code
table lists them all. This module sits in the lowest layer so that every other layer can
raise these errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Self

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = [
    "BUG_EXIT_CODE",
    "INTERRUPTED_EXIT_CODE",
    "USAGE_EXIT_CODE",
    "ArbiterError",
    "Naming",
    "NotFound",
    "PairingError",
    "RetryableError",
    "UserError",
    "braced",
]

USAGE_EXIT_CODE = 2
"""Wrong command-line usage (typer's own code)."""

BUG_EXIT_CODE = 70
"""An unexpected exception: a bug in arbiter (sysexits' EX_SOFTWARE)."""

INTERRUPTED_EXIT_CODE = 130
"""Interrupted by Ctrl-C (128 + SIGINT), as shells report it."""


Naming = Callable[[str], str]
"""How a door names an input field in its messages: the API, the CSV columns and the forms by
the field's own name (``federation``), the command line by its option (``--federation``)."""


def _field_name(name: str) -> str:
    return name


class ArbiterError(Exception):
    """Root of every error a user can cause; the message is one line fit for a user.

    A message that names input fields keeps them apart (`naming`), so that each door can say
    them as its users type them: `render` with the door's `Naming`; ``str()`` names the fields
    themselves (the API's, the CSV's and the forms' way).
    """

    exit_code: ClassVar[int] = 1
    _template: str | None = None
    _fields: tuple[str, ...] = ()

    @classmethod
    def naming(cls, template: str, *fields: str) -> Self:
        """An error whose message is ``template`` with ``{0}``, ``{1}`` ... standing for the
        input fields ``fields`` (literal braces doubled, as in `str.format`).

        >>> err = UserError.naming("{0} registers a second player", "force")
        >>> str(err), err.render(lambda f: "--" + f)
        ('force registers a second player', '--force registers a second player')
        """
        error = cls(template.format(*fields))
        error._template = template
        error._fields = fields
        return error

    def render(self, name: Naming = _field_name) -> str:
        """The message, with every input field it names said by ``name``."""
        if self._template is None:
            return str(self)
        return self._template.format(*(name(f) for f in self._fields))

    def template(self) -> tuple[str, tuple[str, ...]]:
        """The message as a `naming` template and the fields it names (none: the text)."""
        if self._template is None:
            return braced(str(self)), ()
        return self._template, self._fields

    def within(self, context: str) -> Self:
        """The same error, its message prefixed by ``context`` (a tournament, a file line)."""
        template, fields = self.template()
        error = type(self).naming(f"{braced(context)}: {template}", *fields)
        error.__dict__.update({k: v for k, v in self.__dict__.items() if not k.startswith("_")})
        return error


def braced(text: str) -> str:
    """``text`` (a user's input, a name) safe inside a `naming` template: braces doubled.

    >>> braced("a {b}")
    'a {{b}}'
    """
    return text.replace("{", "{{").replace("}", "}}")


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
