"""Human-readable reasons for a paired Swiss round: one line per board, then the PAB.

Per board: the score group of each player (scores before the round, with acceleration), who
floats down or up, and whether each player's colour preference (C.04.3 article 1.7: absolute,
strong or mild) is met. The PAB line says why that player could receive it (C2, C5, C9).
"""

from __future__ import annotations

from decimal import Decimal

from pairing.swiss.model import Colour, SwissInput, SwissRound
from pairing.swiss.state import PlayerState, build_states, scoring_tenths

__all__ = ["explain"]

_COLOUR_NAME = {Colour.WHITE: "White", Colour.BLACK: "Black", Colour.NONE: "no colour"}


def _points(tenths: int) -> str:
    return str(Decimal(tenths) / 10)


def _strength(p: PlayerState) -> str:
    if p.colour_preference is Colour.NONE:
        return "no"
    if p.absolute_preference:
        return "absolute"
    return "strong" if p.strong_preference else "mild"


def _colour_note(p: PlayerState, got: Colour) -> str:
    if p.colour_preference is Colour.NONE:
        return f"{p.number} has no colour preference, gets {_COLOUR_NAME[got]}"
    wanted = _COLOUR_NAME[p.colour_preference]
    verdict = "met" if p.colour_preference is got else "not met"
    return f"{p.number} {_strength(p)} preference for {wanted} {verdict}"


def _board(number: int, white: PlayerState, black: PlayerState, score: list[int]) -> str:
    sw, sb = score[white.index], score[black.index]
    if sw == sb:
        groups = f"both in score group {_points(sw)}"
    else:
        high, low = (white, black) if sw > sb else (black, white)
        groups = (
            f"{high.number} floats down from {_points(score[high.index])}, "
            f"{low.number} floats up from {_points(score[low.index])}"
        )
    colours = "; ".join((_colour_note(white, Colour.WHITE), _colour_note(black, Colour.BLACK)))
    return f"board {number}: {white.number} - {black.number}: {groups}; {colours}"


def _bye(swiss: SwissInput, states: list[PlayerState], score: list[int], pab: int) -> str:
    win = scoring_tenths(swiss.scoring)["win"]
    present = [p for p in states if p.number not in swiss.absent]

    def eligible(p: PlayerState) -> bool:
        return not any(not r.played and r.points >= win for r in p.rounds)

    player = states[pab - 1]
    lowest = min((score[p.index] for p in present if eligible(p)), default=score[player.index])
    peers = [p for p in present if eligible(p) and score[p.index] == score[player.index]]
    fewest = min((p.played_games for p in peers), default=player.played_games)
    return (
        f"PAB: {pab}: {len(present)} players present (odd); {pab} never received a win's "
        f"points without playing (C2); score {_points(score[player.index])}, lowest eligible "
        f"score {_points(lowest)} (C5); {player.played_games} games played, fewest among "
        f"{len(peers)} eligible players of that score: {fewest} (C9)"
    )


def explain(swiss: SwissInput, result: SwissRound) -> list[str]:
    """Reasons for ``result``, the pairing of round ``swiss.round_to_pair``: one line per board.

    The lines state facts computed from the input (score groups, floats, colour preferences
    and the PAB's eligibility), so they hold for any pairing engine's result.
    """
    states = build_states(swiss)
    score = [p.score_back(swiss.rounds_played) for p in states]
    lines = [
        _board(number, states[white - 1], states[black - 1], score)
        for number, (white, black) in enumerate(result.boards, start=1)
    ]
    if result.pab is not None:
        lines.append(_bye(swiss, states, score, result.pab))
    return lines
