"""A tournament's projected state as the norm rules' inputs, and the report of every player.

1.4.2: games against opponents outside FIDE federations are the arbiter's call (FID players
count); games decided other than over the board (forfeits) and byes are not games; in a round
robin, games against an unrated opponent who scored nothing against the rated players are
left out (1.4.2b). Ratings are those of the FIDE list in force at the start of the event
(1.4.6) when the caller gives them (a player it does not carry is unrated), else the registered
ones; titles are the registered ones.
"""

from __future__ import annotations

from collections.abc import Mapping

from decide.state import Pairing, PlayerState, TournamentState
from events.domain import ByeKind, Colour, Outcome, System
from projections.norms.model import Applicant, CountedGame, EventFacts, Opponent, PlayerNorms
from projections.norms.rules import NO_FEDERATION
from projections.norms.search import best_subsets

__all__ = [
    "Ratings",
    "applicants",
    "event_facts",
    "norm_ratings",
    "norm_report",
    "swiss_exemption",
]

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


Ratings = Mapping[int, "int | None"]
"""Player number → the FIDE rating the norm rules read (None: unrated)."""


def norm_ratings(state: TournamentState, in_force: Ratings | None = None) -> dict[int, int | None]:
    """Every player's rating for the norm rules (1.4.6: the rating list in force at the start
    of the event): ``in_force`` (the caller's reading of the imported FIDE list, a player it
    does not carry being unrated) where given, else the registered rating; a rating of 0 or
    less is none (unrated: counted as 1400 by 1.4.6c, never as 0)."""
    if in_force is not None:
        return {pid: in_force.get(pid) for pid in state.players}
    return {
        pid: p.rating if p.rating is not None and p.rating > 0 else None
        for pid, p in state.players.items()
    }


def _opponent(player: PlayerState, ratings: Ratings) -> Opponent:
    return Opponent(player.id, player.title, player.federation, ratings[player.id])


def _zero_unrated(state: TournamentState, ratings: Ratings) -> set[int]:
    """1.4.2b (round robins): unrated players who scored nothing against the rated ones."""
    if state.system not in _ROUND_ROBINS:
        return set()
    out: set[int] = set()
    for pid in state.players:
        if ratings[pid] is not None:
            continue
        against_rated = [
            p
            for p in state.pairings(pid)
            if p.played and p.opponent is not None and ratings[p.opponent] is not None
        ]
        if against_rated and all(_chess_points(p) == 0 for p in against_rated):
            out.add(pid)
    return out


def applicants(state: TournamentState, ratings: Ratings | None = None) -> list[Applicant]:
    """Every player with the games the rules count, in start-rank order (``ratings``:
    :func:`norm_ratings`, by default the registered ones)."""
    ratings = norm_ratings(state) if ratings is None else ratings
    ignored = _zero_unrated(state, ratings)
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
                        CountedGame(
                            p.round, _opponent(state.players[p.opponent], ratings), _chess_points(p)
                        )
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


def swiss_exemption(state: TournamentState, ratings: Ratings | None = None) -> bool:
    """1.4.3d: a Swiss with, in every round, at least 20 FIDE-rated players not of the host
    federation, from at least 3 federations, at least 10 of them GM, IM, WGM or WIM (a player
    counts if he missed at most one round, a pairing-allocated bye not being missed)."""
    ratings = norm_ratings(state) if ratings is None else ratings
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
        if missed <= 1 and ratings[pid] is not None and fed not in (None, host, NO_FEDERATION):
            counted.append(player)
    federations = {p.federation for p in counted}
    titled = sum(1 for p in counted if p.title in _NORM_HOLDERS)
    return len(counted) >= 20 and len(federations) >= 3 and titled >= 10


def event_facts(
    state: TournamentState, *, exempt: bool = False, ratings: Ratings | None = None
) -> EventFacts:
    """The event as the rules see it; ``exempt``: the director says 1.4.3a-c apply (a national
    championship's final, a national team championship, a zonal)."""
    return EventFacts(
        rounds=state.total_rounds,
        predetermined=state.system in _ROUND_ROBINS,
        federation_exempt=exempt or swiss_exemption(state, ratings),
    )


def norm_report(
    state: TournamentState, *, exempt: bool = False, in_force: Ratings | None = None
) -> list[PlayerNorms]:
    """Each player's norms: the whole event per sought title, and each norm made
    (``in_force``: the ratings of the FIDE list in force, :func:`norm_ratings`)."""
    ratings = norm_ratings(state, in_force)
    facts = event_facts(state, exempt=exempt, ratings=ratings)
    out: list[PlayerNorms] = []
    for applicant in applicants(state, ratings):
        whole, made = best_subsets(applicant, facts)
        out.append(PlayerNorms(applicant, whole, made))
    return out
