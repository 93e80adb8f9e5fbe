"""A tournament's projected state as the norm rules' inputs, and the report of every player.

1.4.2: games against opponents outside FIDE federations are the arbiter's call (FID players
count); games decided other than over the board (forfeits) and byes are not games; in a round
robin, games against an unrated opponent who scored nothing against the rated players are
left out (1.4.2b). Ratings and titles are the players' registered ones: the rating list at
the start of the event (1.4.6).
"""

from __future__ import annotations

from events.domain import ByeKind, Colour, Outcome, System
from projections.norms.model import Applicant, CountedGame, EventFacts, Opponent, PlayerNorms
from projections.norms.rules import NO_FEDERATION
from projections.norms.search import best_subsets
from projections.state import Pairing, PlayerState, TournamentState

__all__ = ["applicants", "event_facts", "fide_rating", "norm_report", "swiss_exemption"]

_ROUND_ROBINS = frozenset({System.ROUNDROBIN, System.TEAM_ROUNDROBIN})
_WINS = {Colour.WHITE: Outcome.WHITE_WINS, Colour.BLACK: Outcome.BLACK_WINS}
_FORFEIT_WINS = {Colour.WHITE: Outcome.WHITE_WINS_FORFEIT, Colour.BLACK: Outcome.BLACK_WINS_FORFEIT}
_NORM_HOLDERS = frozenset({"GM", "IM", "WGM", "WIM"})
"""1.4.3d: the titles of the ten title-holders a Swiss needs for its exemption."""


def _chess_points(p: Pairing) -> float:
    """1, ½ or 0 of a game played, whatever the event's scoring (3-1-0 events included)."""
    if p.outcome is Outcome.DRAW:
        return 0.5
    return 1.0 if p.colour is not None and p.outcome is _WINS[p.colour] else 0.0


def _forfeit_win(p: Pairing) -> bool:
    return p.colour is not None and p.outcome is _FORFEIT_WINS[p.colour]


def fide_rating(player: PlayerState) -> int | None:
    """The rating the norm rules read: the registered one, a rating of 0 or less being none
    (unrated: counted as 1400 by 1.4.6c, never as 0)."""
    return player.rating if player.rating is not None and player.rating > 0 else None


def _opponent(player: PlayerState) -> Opponent:
    return Opponent(player.id, player.title, player.federation, fide_rating(player))


def _zero_unrated(state: TournamentState) -> set[int]:
    """1.4.2b (round robins): unrated players who scored nothing against the rated ones."""
    if state.system not in _ROUND_ROBINS:
        return set()
    out: set[int] = set()
    for pid, player in state.players.items():
        if fide_rating(player) is not None:
            continue
        against_rated = [
            p
            for p in state.pairings(pid)
            if p.played and p.opponent is not None and fide_rating(state.players[p.opponent])
        ]
        if against_rated and all(_chess_points(p) == 0 for p in against_rated):
            out.add(pid)
    return out


def applicants(state: TournamentState) -> list[Applicant]:
    """Every player with the games the rules count, in start-rank order."""
    ignored = _zero_unrated(state)
    ranks = state.start_ranks()
    out: list[Applicant] = []
    for pid in sorted(state.players, key=lambda p: ranks.get(p, 0)):
        player = state.players[pid]
        games: list[CountedGame] = []
        credited: list[int] = []
        for p in state.pairings(pid, state.complete_round):
            if p.played and p.opponent is not None:
                if p.opponent not in ignored:
                    games.append(
                        CountedGame(p.round, _opponent(state.players[p.opponent]), _chess_points(p))
                    )
            elif p.bye is ByeKind.PAIRING or _forfeit_win(p):
                credited.append(p.round)
        out.append(
            Applicant(
                pid,
                player.name,
                player.title,
                player.federation,
                player.sex,
                tuple(games),
                tuple(credited),
            )
        )
    return out


def swiss_exemption(state: TournamentState) -> bool:
    """1.4.3d: a Swiss with, in every round, at least 20 FIDE-rated players not of the host
    federation, from at least 3 federations, at least 10 of them GM, IM, WGM or WIM (a player
    counts if he missed at most one round, a pairing-allocated bye not being missed)."""
    host = state.settings.federation
    if host is None or state.system in _ROUND_ROBINS or not state.rounds:
        return False
    last = state.complete_round
    counted: list[PlayerState] = []
    for pid, player in state.players.items():
        missed = sum(
            1
            for p in state.pairings(pid, last)
            if not p.played and p.bye is not ByeKind.PAIRING and not _forfeit_win(p)
        )
        fed = player.federation
        if missed <= 1 and fide_rating(player) and fed not in (None, host, NO_FEDERATION):
            counted.append(player)
    federations = {p.federation for p in counted}
    titled = sum(1 for p in counted if p.title in _NORM_HOLDERS)
    return len(counted) >= 20 and len(federations) >= 3 and titled >= 10


def event_facts(state: TournamentState, *, exempt: bool = False) -> EventFacts:
    """The event as the rules see it; ``exempt``: the director says 1.4.3a-c apply (a national
    championship's final, a national team championship, a zonal)."""
    return EventFacts(
        rounds=state.total_rounds,
        predetermined=state.system in _ROUND_ROBINS,
        federation_exempt=exempt or swiss_exemption(state),
    )


def norm_report(state: TournamentState, *, exempt: bool = False) -> list[PlayerNorms]:
    """Each player's norms: the whole event per sought title, and each norm made."""
    facts = event_facts(state, exempt=exempt)
    out: list[PlayerNorms] = []
    for applicant in applicants(state):
        whole, made = best_subsets(applicant, facts)
        out.append(PlayerNorms(applicant, whole, made))
    return out
