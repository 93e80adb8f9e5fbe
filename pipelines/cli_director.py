"""The director's controls on the command line: event data, player edits, forbidden pairs,
hand-made pairings, board swaps, truncations.

Registered on the shared app by `pipelines.cli` (imported at its end). The commands are thin:
validation and events live in `pipelines.director`.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["dash_results"]

_GLOBAL_WITH_VALUE = frozenset({"--store", "--as"})
_DASH_RESULTS = frozenset({"-+", "+-", "--"})


def dash_results(argv: Sequence[str]) -> list[str]:
    """``argv`` with a result written ``-+``, ``+-`` or ``--`` moved behind a ``--``.

    Click reads a word starting with a dash as an option (and ``--`` as the end of options),
    so ``arbiter result T 4 8 -+`` would fail; the word is moved to the end, after ``--``,
    where it can only be the RESULT argument. A command line that already has ``--`` is
    left as it is.

    >>> dash_results(["--store", "s.duckdb", "result", "t", "4", "8", "-+", "--correct"])
    ['--store', 's.duckdb', 'result', 't', '4', '8', '--correct', '--', '-+']
    >>> dash_results(["result", "t", "1", "2", "--"])
    ['result', 't', '1', '2', '--', '--']
    >>> dash_results(["result", "t", "1", "2", "--", "-+"])
    ['result', 't', '1', '2', '--', '-+']
    """
    words = list(argv)
    i = 0
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in _GLOBAL_WITH_VALUE else 1
    if i >= len(words) or words[i] != "result":
        return words
    rest = words[i + 1 :]
    if "--" in rest and rest.index("--") == len(rest) - 2:
        return words  # already `... -- RESULT`
    dashed = [w for w in rest if w in _DASH_RESULTS]
    if len(dashed) != 1:
        return words
    rest.remove(dashed[0])
    return [*words[: i + 1], *rest, "--", dashed[0]]
