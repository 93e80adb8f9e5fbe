"""``arbiter-pairings``: a drop-in pairing engine with the bbpPairings/JaVaFo command line.

    arbiter-pairings --dutch in.trf -p [out.txt]     pair the next round
    arbiter-pairings --dutch in.trf -c               re-pair every played round and compare
    arbiter-pairings --burstein in.trf -p [out.txt]  the same with bbpPairings' Burstein system
    arbiter-pairings --dutch-2017 in.trf -p          the Dutch system, 2017 rules (bbpPairings v5)
    arbiter-pairings --dubov in.trf -p               the Dubov system (2026 rules; XXZ = absent)
    arbiter-pairings --team in.trf -p [out.txt]      FIDE Team Swiss (C.04.6), TRF-2026 team records

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

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from events.domain import Colour
from events.errors import ArbiterError, PairingError, UserError
from events.result_codes import ResultCode
from ingest.errors import IngestError
from ingest.limits import read_input
from ingest.trf import TotalRoundsRecord, TrfFile, cut_before_round, parse_trf
from pairing import burstein, dubov, dutch, dutch2017
from pairing.swiss.model import SwissInput, SwissRound
from pairing.team.model import TeamRound
from pipelines.exits import report
from pipelines.swiss_from_trf import swiss_input_from_trf, swiss_input_with_absent

__all__ = ["main"]

EXIT_OK, EXIT_NO_PAIRING, EXIT_INVALID, EXIT_FILE, EXIT_DIFFER = 0, 1, 3, 5, 4
VERSION = (
    "arbiter-pairings 0.3 (FIDE Dutch 2025 and 2017 rules, Burstein, Dubov 2026; "
    "bbpPairings v6 and v5 compatible)"
)

Engine = Callable[[SwissInput], SwissRound]
Reader = Callable[[TrfFile], SwissInput]


def _system(args: argparse.Namespace) -> tuple[str, Engine, Reader]:
    """The TRF system code expected, the engine and the input reader of the chosen system."""
    if args.burstein:
        return "FIDE_BURSTEIN", burstein.pair, swiss_input_from_trf
    if args.dutch_2017:
        return "FIDE_DUTCH", dutch2017.pair, swiss_input_from_trf
    if args.dubov:
        return "FIDE_DUBOV", dubov.pair, swiss_input_with_absent
    return "FIDE_DUTCH", dutch.pair, swiss_input_from_trf


def format_round(result: SwissRound) -> str:
    """The ``-p`` output: number of boards, then ``white black`` lines, the PAB as ``id 0``."""
    lines = [f"{w} {b}" for w, b in result.boards]
    if result.pab is not None:
        lines.append(f"{result.pab} 0")
    return "\n".join([str(len(lines)), *lines]) + "\n"


def _played(trf: TrfFile, k: int) -> tuple[SwissRound, set[frozenset[int]]]:
    """Round ``k`` as the file paired it, and its boards without colours (forfeits: a TRF
    may leave the colour of a game not played out)."""
    boards: list[tuple[int, int]] = []
    colourless: set[frozenset[int]] = set()
    pab = None
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
    return SwissRound(boards=tuple(boards), pab=pab), colourless


def _same(ours: SwissRound, theirs: SwissRound, colourless: set[frozenset[int]]) -> bool:
    """The same boards and PAB; a board whose colours the file left out matches either way."""
    if ours.pab != theirs.pab or len(ours.boards) != len(theirs.boards):
        return False
    seated = set(theirs.boards)
    return all(b in seated or frozenset(b) in colourless for b in ours.boards)


def _paired_in(trf: TrfFile, k: int) -> set[int]:
    """Players the file pairs in round ``k``: with an opponent, or the PAB."""
    return {
        p.number
        for p in trf.players
        if len(p.rounds) >= k
        and (p.rounds[k - 1].opponent is not None or p.rounds[k - 1].result is ResultCode.PAB)
    }


def _initial_colour(trf: TrfFile, played: int) -> Colour:
    complete = replace(trf, records=(*trf.records, TotalRoundsRecord("XXR", played + 1)))
    return swiss_input_from_trf(complete).initial_colour


def _check(trf: TrfFile, name: str, pair: Engine, read: Reader = swiss_input_from_trf) -> int:
    """Re-pair every round the file has; print each round's differences and a summary line.

    Returns the number of rounds that differ (or that no valid pairing exists for).
    """
    played = max((len(p.rounds) for p in trf.players), default=0)
    differ: list[int] = []
    total = max(trf.total_rounds or played, played)
    colour = _initial_colour(trf, played)
    for k in range(1, played + 1):
        print(f"{name}: Round #{k}")
        request = read(cut_before_round(trf, k, total, colour))
        # As bbpPairings' checker: whoever the file did not pair in round k was absent.
        paired = _paired_in(trf, k)
        absent = {p.number for p in request.players if p.number not in paired}
        request = request.model_copy(update={"absent": request.absent | absent})
        try:
            ours = pair(request)
        except PairingError:
            print(f"No valid pairing exists for round {k}.")
            differ.append(k)
            continue
        theirs, colourless = _played(trf, k)
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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arbiter-pairings",
        description=__doc__.splitlines()[0],
        epilog="exit status: 0 ok (also -c with differences), 1 no valid pairing, "
        "3 invalid input, 4 -c --strict with differences, 5 file error, 70 internal error, "
        "130 interrupted",
    )
    system = parser.add_mutually_exclusive_group()
    system.add_argument("--dutch", action="store_true", help="FIDE Dutch system (2025 rules)")
    system.add_argument("--burstein", action="store_true", help="Burstein (bbpPairings' rules)")
    system.add_argument(
        "--dutch-2017", action="store_true", help="FIDE Dutch system, 2017 rules (2017-2025)"
    )
    system.add_argument("--dubov", action="store_true", help="FIDE Dubov system (2026 rules)")
    system.add_argument(
        "--team", action="store_true", help="FIDE Team Swiss (C.04.6): pairs teams, not players"
    )
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code (see the module's table)."""
    try:
        return _run(argv)
    except PairingError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_NO_PAIRING
    except ArbiterError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_INVALID
    except (Exception, KeyboardInterrupt) as exc:
        return report(exc, "arbiter-pairings")


def _run(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.r:
        print(VERSION)
        if args.input is None:
            return EXIT_OK
    if args.input is None or (args.p is None and not args.c):
        print("error: give an input file and -p [output] or -c", file=sys.stderr)
        return EXIT_INVALID
    path = Path(args.input)
    try:
        data = read_input(path)  # a regular file of bounded size: a FIFO never blocks
    except IngestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FILE
    try:
        trf = parse_trf(path, data)
    except IngestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INVALID
    for warning in trf.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.team:
        return _run_team(trf, path, args)
    expected, pair, read = _system(args)
    system = (trf.system or expected).upper()
    if not system.startswith(expected):
        print(f"error: {path}: unsupported tournament type {system!r}", file=sys.stderr)
        return EXIT_INVALID
    try:
        if args.c:
            differ = _check(trf, path.name, pair, read)
            return EXIT_DIFFER if differ and args.strict else EXIT_OK
        result = pair(read(trf))
    except IngestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except PairingError as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return EXIT_NO_PAIRING
    except UserError as exc:
        print(f"error: {path}: {' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_INVALID
    return _write(args.p, format_round(result))


def _run_team(trf: TrfFile, path: Path, args: argparse.Namespace) -> int:
    """``--team``: the team pairing of the next round (``white black`` per match, ``TPN 0``)."""
    from pairing import team
    from pipelines.team_from_trf import team_input_from_trf

    if args.c:
        print("error: -c is not available with --team", file=sys.stderr)
        return EXIT_INVALID
    system = (trf.system or "FIDE_TEAM").upper()
    if "TEAM" not in system:
        print(f"error: {path}: unsupported tournament type {system!r}", file=sys.stderr)
        return EXIT_INVALID
    try:
        result = team.pair(team_input_from_trf(trf))
    except IngestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except PairingError as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return EXIT_NO_PAIRING
    return _write(args.p, format_team_round(result))


def format_team_round(result: TeamRound) -> str:
    """The ``--team -p`` output: number of lines, ``white black`` per match, ``TPN 0``."""
    lines = [f"{p.white} {p.black}" for p in result.pairs]
    if result.pab is not None:
        lines.append(f"{result.pab} 0")
    return "\n".join([str(len(lines)), *lines]) + "\n"


def _write(target: str, text: str) -> int:
    """``-p TARGET``: the pairing to a file, or to stdout for ``-``; EXIT_FILE if unwritable."""
    if target == "-":
        sys.stdout.write(text)
        return EXIT_OK
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"error: {target}: {exc.strerror}", file=sys.stderr)
        return EXIT_FILE
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
