"""The write side: a tournament's state and its fold (`state`), what a user enters (`inputs`),
and one pure decider per command, which the service (`pipelines.commands`) calls between its
read of the stream and its append.

A decider is a function of the state, the command and what it must consult, each a required
keyword argument (the imported rating lists as a `lists.Lists`, the clock as a value); it
returns the events the command appends, or raises a `errors.CommandError` before any exists.
It reads no store, no clock and no environment. One module per thing a director changes:

    state     TournamentState and `evolve` / `project`, the fold of a tournament's events
    inputs    the command models (PlayerInput, ...), each field's rule once (events.validate)
    errors    the refusals: CommandError, UnknownTournament, UnknownPlayer
    lists     the imported rating lists a registration consults (`Lists`)
    players   register, edit, remove, withdraw, re-enter
    registration  a player's own entry, approve, decline, check-in (the clock as ``now``)
    rounds    a bye asked in advance, two players kept apart, two boards swapped
    results   a result entered or corrected, one board or a batch (a team board M.B)
    pairing   the next round paired (the engine given), or paired by hand
    undo      rounds taken back to the archive, and restored
    tournaments   create (the settings checked against `Catalogues`), edit, tie-breaks
    prizes    the prize list (an age category needs the event's year)
    team_state    a team event's team fold: teams, rosters, line-ups, team rounds
    teams     a team, a member (registered by `players.register`), line-up, bye, forbid,
              acceleration, a match forfeited, a team round paired (the team engine given)
    base      what they share: an event from the input, a known player, how a message says
              a player (``No. 4 (Berg, Anna)``), the next player id
"""
