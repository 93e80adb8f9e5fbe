"""``arbiter-pairings``: a drop-in pairing engine with the bbpPairings/JaVaFo command line.

    arbiter-pairings --dutch in.trf -p [out.txt]     pair the next round
    arbiter-pairings --dutch in.trf -c               re-pair every played round and compare
    arbiter-pairings --burstein in.trf -p [out.txt]  the same with bbpPairings' Burstein system
    arbiter-pairings --dutch-2017 in.trf -p          the Dutch system, 2017 rules (bbpPairings v5)
    arbiter-pairings --dubov in.trf -p               the Dubov system (2026 rules; XXZ = absent)
    arbiter-pairings --team in.trf -p [out.txt]      FIDE Team Swiss (C.04.6), TRF-2026 team records
    arbiter-pairings --team in.trf -c                re-pair every played round of a team file
    arbiter-pairings --dutch -g [config] -o out.trf [-s seed]
                                                     a random tournament paired by the engine
                                                     (docs/generator.md: the config keys)
    arbiter-pairings --team -g [config] -o out.trf [-s seed]
                                                     a random team tournament (TRF-2026 teams)

Exit codes are bbpPairings' (formats.md 2.6), so that programs written for it keep working:

    0   paired; for -c: checked (differences are printed, as bbpPairings does)
    4   -c --strict: at least one round differs from the file's pairing
    1   no valid pairing exists (a `PairingError`)
    3   invalid input or request (any other `ArbiterError`: the file, the options)
    5   file access error (the input cannot be read or the output written)
    70  internal error: a bug, reported in one line (`ARBITER_DEBUG=1` for the traceback)
    130 interrupted (Ctrl-C)

``-c`` prints ``FILE: Round #k`` for each round, the two pairings side by side where they
differ, and a last line ``FILE: N of M rounds identical[; round(s) ... differ]``.

Errors are one line on stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from functools import partial
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, TypeAlias

from events.domain import Colour
from events.errors import ArbiterError, PairingError, UserError
from events.result_codes import ResultCode
from ingest.errors import IngestError
from ingest.limits import read_input
from ingest.textio import path_text
from ingest.trf import InPlayRecord, TrfFile, cut_before_round, parse_trf
from pairing.contract import PairedRound, boards_of
from pipelines.engines.adapters import EngineEntry
from pipelines.engines.registry import flagged

if TYPE_CHECKING:
    import argparse

__all__ = ["main", "paired_in", "played_in_file", "rounds_paired"]

EXIT_OK, EXIT_NO_PAIRING, EXIT_INVALID, EXIT_FILE, EXIT_DIFFER = 0, 1, 3, 5, 4
VERSION = (
    "arbiter-pairings 0.3 (FIDE Dutch 2025 and 2017 rules, Burstein, Dubov 2026; "
    "bbpPairings v6 and v5 compatible)"
)


_Args: TypeAlias = "argparse.Namespace | SimpleNamespace"
"""The parsed command line: argparse's, or `_arguments`' own for the common form."""


def _option(flag: str) -> str:
    """The argparse attribute of a flag: ``--dutch-2017`` -> ``dutch_2017``."""
    return flag.removeprefix("--").replace("-", "_")


def _engine(args: _Args) -> tuple[str, EngineEntry[Any, Any]]:
    """The chosen flag and its registry engine; no flag: the first (``--dutch``)."""
    rows = flagged()
    row = next((r for r in rows if getattr(args, _option(str(r.flag)))), rows[0])
    return str(row.flag), row.engine


def format_round(paired: PairedRound) -> str:
    """The ``-p`` output: number of lines, then ``white black`` per board (teams for
    ``--team``), the PAB as ``id 0``."""
    lines = [f"{b.white} {b.black or 0}" for b in paired.boards]
    return "\n".join([str(len(lines)), *lines]) + "\n"


def _in_play(trf: TrfFile, k: int) -> list[InPlayRecord]:
    """The ``BRD`` boards of round ``k``: a round in play when the file was written."""
    return [r for r in trf.records if isinstance(r, InPlayRecord) and r.round == k]


def played_in_file(trf: TrfFile, k: int) -> tuple[PairedRound, set[frozenset[int]]]:
    """Round ``k`` as the file paired it, and its boards without colours (forfeits: a TRF
    may leave the colour of a game not played out)."""
    boards: list[tuple[int, int]] = []
    colourless: set[frozenset[int]] = set()
    pab = None
    in_play = _in_play(trf, k)
    if in_play:
        games = [(b.white, b.black) for b in in_play if b.black is not None]
        pab = next((b.white for b in in_play if b.black is None), None)
        return PairedRound(boards_of(games, pab)), colourless
    for player in trf.players:
        if len(player.rounds) >= k:
            entry = player.rounds[k - 1]
            if entry.opponent is not None and entry.colour is Colour.WHITE:
                boards.append((player.number, entry.opponent))
            elif entry.opponent is not None and entry.colour is Colour.NONE:
                if player.number < entry.opponent:
                    boards.append((player.number, entry.opponent))
                colourless.add(frozenset((player.number, entry.opponent)))
            elif entry.result is ResultCode.PAB:
                pab = player.number
    return PairedRound(boards_of(boards, pab)), colourless


def _seating(paired: PairedRound) -> tuple[list[tuple[int, int]], int | None]:
    """The (white, black) boards and the PAB."""
    games = [(b.white, b.black) for b in paired.boards if b.black is not None]
    return games, next((b.white for b in paired.boards if b.black is None), None)


def _same(ours: PairedRound, theirs: PairedRound, colourless: AbstractSet[frozenset[int]]) -> bool:
    """The same boards and PAB; a board whose colours the file left out matches either way."""
    (our_games, our_pab), (their_games, their_pab) = _seating(ours), _seating(theirs)
    if our_pab != their_pab or len(our_games) != len(their_games):
        return False
    seated = set(their_games)
    return all(b in seated or frozenset(b) in colourless for b in our_games)


def paired_in(trf: TrfFile, k: int) -> AbstractSet[int]:
    """Players the file pairs in round ``k``: with an opponent, or the PAB."""
    in_play = _in_play(trf, k)
    if in_play:
        return {n for b in in_play for n in (b.white, b.black) if n is not None}
    return {
        p.number
        for p in trf.players
        if len(p.rounds) >= k
        and (p.rounds[k - 1].opponent is not None or p.rounds[k - 1].result is ResultCode.PAB)
    }


def rounds_paired(trf: TrfFile) -> int:
    """The last round anybody was paired in (a round of requested byes only is not paired)."""
    rounds = [b.round for b in trf.records if isinstance(b, InPlayRecord)]
    rounds += [
        k
        for p in trf.players
        for k, e in enumerate(p.rounds, start=1)
        if e.opponent is not None or e.result in (ResultCode.PAB, ResultCode.FORFEIT_WIN)
    ]
    return max(rounds, default=0)


def _check(trf: TrfFile, name: str, engine: EngineEntry[Any, Any]) -> int:
    """Re-pair every round the file has; print each round's differences and a summary line.

    Returns the number of rounds that differ (or that no valid pairing exists for).
    """
    reader = engine.trf
    assert reader is not None  # _run checked it
    rounds = (
        _file_rounds(trf, engine)
        if reader.replay is None
        else (
            (r.round, partial(engine.engine, r.request, reader.params), r.played, r.colourless)
            for r in reader.replay(trf)
        )
    )
    differ: list[int] = []
    played = 0
    for k, repair, theirs, colourless in rounds:
        played = k
        print(f"{name}: Round #{k}")
        try:
            ours = repair()
        except PairingError:
            print(f"No valid pairing exists for round {k}.")
            differ.append(k)
            continue
        if not _same(ours, theirs, colourless):
            differ.append(k)
            print("Checker pairings   Tournament pairings")
            mine = format_round(ours).splitlines()[1:]
            file = format_round(theirs).splitlines()[1:]
            for i in range(max(len(mine), len(file))):
                left = mine[i] if i < len(mine) else ""
                right = file[i] if i < len(file) else ""
                print(f"{left:<18} {right}")
    same = played - len(differ)
    detail = f"; round(s) {', '.join(map(str, differ))} differ" if differ else ""
    print(f"{name}: {same} of {played} rounds identical{detail}")
    return len(differ)


_Round = tuple[int, Callable[[], PairedRound], PairedRound, AbstractSet[frozenset[int]]]
"""A round to check: its number, its re-pairing, the file's pairing, its colourless pairs."""


def _file_rounds(trf: TrfFile, engine: EngineEntry[Any, Any]) -> Iterator[_Round]:
    """The rounds of a file of players, each re-paired from the file cut before it."""
    # -c only, and not for --team: pairing one round (-p) does not load the Swiss adapters.
    from pipelines.engines.swiss_from_trf import initial_colour_of_file

    played = rounds_paired(trf)
    total = max(trf.total_rounds or played, played)
    colour = initial_colour_of_file(trf, played)
    for k in range(1, played + 1):
        # As bbpPairings' checker: whoever the file did not pair in round k was absent.
        cut = partial(cut_before_round, trf, k, total, colour)
        yield k, partial(_repair, engine, cut, paired_in(trf, k)), *played_in_file(trf, k)


def _repair(
    engine: EngineEntry[Any, Any], cut: Callable[[], TrfFile], present: AbstractSet[int]
) -> PairedRound:
    return engine.pair_file(cut(), present)


def _arguments(argv: Sequence[str] | None) -> _Args:
    """The command line as argparse reads it (`_parser`). The common ``[--SYSTEM] INPUT -p
    [OUTPUT]`` is read here to the same values without importing argparse: argparse with the
    gettext, shutil and locale it loads costs about 10 ms of start-up, as much as pairing a
    small round. Any other form (options in another order, abbreviations, a file name that
    begins with ``-``, ``-h``) goes to argparse."""
    words = sys.argv[1:] if argv is None else list(argv)
    flags = [str(r.flag) for r in flagged()]
    system = words[0] if words and words[0] in flags else None
    rest = words[1:] if system else words
    plain = [w for i, w in enumerate(rest) if i != 1]  # the input and the output
    if len(rest) in (2, 3) and rest[1] == "-p" and all(w and w[0] != "-" for w in plain):
        chosen = {_option(f): f == system for f in flags}
        output = rest[2] if len(rest) == 3 else "-"
        fixed = {"r": False, "c": False, "strict": False, "g": None, "o": None, "s": None}
        return SimpleNamespace(**chosen, **fixed, input=rest[0], p=output)
    return _parser().parse_args(words)


def _parser() -> argparse.ArgumentParser:
    import argparse  # not for the common command line (`_arguments`)

    parser = argparse.ArgumentParser(
        prog="arbiter-pairings",
        description=__doc__.splitlines()[0],
        epilog="exit status: 0 ok (also -c with differences), 1 no valid pairing, "
        "3 invalid input, 4 -c --strict with differences, 5 file error, 70 internal error, "
        "130 interrupted",
    )
    system = parser.add_mutually_exclusive_group()
    for row in flagged():
        system.add_argument(str(row.flag), action="store_true", help=row.engine.title)
    parser.add_argument("-r", action="store_true", help="print the version")
    parser.add_argument("input", nargs="?", help="TRF input file")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("-p", nargs="?", const="-", metavar="OUTPUT", help="pair the next round")
    mode.add_argument(
        "-c",
        action="store_true",
        help="check every played round: print the differences of each round and a summary "
        "line 'FILE: N of M rounds identical'; exit 0 (as bbpPairings), or 4 with --strict "
        "when a round differs",
    )
    parser.add_argument(
        "--strict", action="store_true", help="with -c: exit 4 when any round differs"
    )
    mode.add_argument(
        "-g",
        nargs="?",
        const="",
        metavar="CONFIG",
        help="generate a random tournament paired round by round by the engine; "
        "CONFIG holds Key=value lines (PlayersNumber, RoundsNumber, DrawPercentage, "
        "ForfeitRate, RetiredRate, HalfPointByeRate, ZeroPointByeRate, LateEntryRate, "
        "HighestRating, LowestRating, HasWhiteAdvantage, WhiteAdvantage, PointsForWin, "
        "PointsForDraw, PointsForLoss, PointsForForfeitLoss, PointsForPAB, Acceleration; "
        "with --team also TeamsNumber, BoardsNumber, ColourPreferenceType, PrimaryScore, "
        "PointsForMatchWin, PointsForMatchDraw, PointsForMatchLoss); "
        "keys left out are drawn from the seed; see docs/generator.md",
    )
    parser.add_argument("-o", metavar="OUTPUT", help="with -g: the generated TRF file")
    parser.add_argument(
        "-s", type=int, metavar="SEED", help="with -g: the random seed (same seed, same file)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code (see the module's table)."""
    try:
        return _run(argv)
    except PairingError as exc:
        return _error(_one_line(exc), EXIT_NO_PAIRING)
    except ArbiterError as exc:
        return _error(_one_line(exc), EXIT_INVALID)
    except (Exception, KeyboardInterrupt) as exc:
        from pipelines.process.exits import report  # on a bug only (it imports traceback)

        return report(exc, "arbiter-pairings")


def _one_line(text: object) -> str:
    """`pipelines.process.exits.one_line`, imported on an error only (start-up)."""
    from pipelines.process.exits import one_line

    return one_line(text)


def _error(text: str, code: int) -> int:
    """``text`` as the one ``error:`` line on stderr; returns the exit ``code``."""
    print(f"error: {text}", file=sys.stderr)
    return code


def _run(argv: Sequence[str] | None) -> int:
    args = _arguments(argv)
    if args.r:
        print(VERSION)
        if args.input is None:
            return EXIT_OK
    if args.g is not None:
        return _generate(args)
    if args.input is None or (args.p is None and not args.c):
        return _error("give an input file and -p [output] or -c", EXIT_INVALID)
    path = path_text(args.input)  # as pathlib prints it, without loading pathlib (start-up)
    try:
        data = read_input(path)  # a regular file of bounded size: a FIFO never blocks
    except IngestError as exc:
        return _error(str(exc), EXIT_FILE)
    try:
        trf = parse_trf(path, data)
    except IngestError as exc:
        return _error(str(exc), EXIT_INVALID)
    for warning in trf.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    flag, engine = _engine(args)
    reader = engine.trf
    assert reader is not None  # every flagged line reads TRF files
    if args.c and reader.present is None and reader.replay is None:
        return _error(f"-c is not available with {flag}", EXIT_INVALID)
    # As bbpPairings: the flag chooses the system; the file's 092/192 record only informs it
    # (a team file's scoring, a _BAKU acceleration), it never refuses the file.
    try:
        if args.c:
            from pathlib import Path

            differ = _check(trf, Path(path).name, engine)
            return EXIT_DIFFER if differ and args.strict else EXIT_OK
        paired = engine.pair_file(trf)
    except IngestError as exc:
        return _error(str(exc), EXIT_INVALID)
    except PairingError as exc:
        return _error(f"{path}: {exc}", EXIT_NO_PAIRING)
    except UserError as exc:
        return _error(f"{path}: {_one_line(exc)}", EXIT_INVALID)
    return _write(args.p, format_round(paired))


_GENERATED: dict[str, tuple[str, bool]] = {
    "--dutch": ("FIDE_DUTCH_2025", False),
    "--dutch-2017": ("FIDE_DUTCH_2017", True),
    "--burstein": ("FIDE_BURSTEIN", False),
    "--dubov": ("FIDE_DUBOV", False),
}
"""The systems ``-g`` generates: flag -> the ``092`` text, and whether the file is written in
bbpPairings v5's TRF16 records (``XXR``, ``XXC``, ``BBW``…) rather than TRF-2026's."""


def _generate(args: _Args) -> int:
    """``-g [CONFIG] -o OUTPUT [-s SEED]``: a random tournament paired by the chosen engine."""
    import random
    from pathlib import Path

    from pipelines.engines.generator import generate
    from pipelines.engines.generator_config import GeneratorConfig, read_config
    from projections.exports.trf import write_trf

    flag, engine = _engine(args)
    if flag not in _GENERATED and flag != "--team":
        return _error(f"-g is not available with {flag}", EXIT_INVALID)
    if args.o is None:
        return _error("-g needs -o OUTPUT, the file to write", EXIT_INVALID)
    if args.input is not None:
        return _error("-g takes no input file (a model file is not supported)", EXIT_INVALID)
    config = GeneratorConfig()
    if args.g:
        try:
            data = read_input(Path(args.g))
        except IngestError as exc:
            return _error(str(exc), EXIT_FILE)
        try:
            config = read_config(args.g, data.decode("utf-8"))
        except UnicodeDecodeError:
            return _error(f"{args.g}: not UTF-8 text", EXIT_INVALID)
    if args.s is not None and args.s < 0:
        return _error(f"-s {args.s}: the seed must be 0 or more", EXIT_INVALID)
    seed = args.s if args.s is not None else random.SystemRandom().randrange(2**32)
    if flag == "--team":
        from pipelines.engines.team_generator import generate_teams

        if config.acceleration != "none":
            text = f"-g --team: Acceleration={config.acceleration} is not available for team"
            return _error(f"{text} tournaments", EXIT_INVALID)

        return _write(args.o, write_trf(generate_teams(config, seed, engine.pair_file)))
    system, trf16 = _GENERATED[flag]
    trf = generate(config, seed, system, engine.pair_file, trf16=trf16)
    return _write(args.o, write_trf(trf))


def _write(target: str, text: str) -> int:
    """``-p TARGET``: the pairing to a file, or to stdout for ``-``; EXIT_FILE if unwritable."""
    if target == "-":
        sys.stdout.write(text)
        return EXIT_OK
    try:
        with open(path_text(target), "w", encoding="utf-8") as out:  # as Path.write_text
            out.write(text)
    except OSError as exc:
        return _error(f"{target}: {exc.strerror}", EXIT_FILE)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
