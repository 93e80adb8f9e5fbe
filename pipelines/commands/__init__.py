"""The one write API: every door (the command line, `arbiter batch`, the CSV and results files,
the JSON API, the web forms) changes a tournament through these functions, so a value refused
at one door is refused at every door, with the same field named.

A command loads the tournament, has the request decided (the input models of
`decide.inputs`, whose validators are `events.validate`'s field rules, then a pure decider of
`decide` against the tournament's state and the store's lists, `lists`) and appends its events
with the version it read (`base`). One module per thing a director changes:

    base         load, the state a command decides on, append; the errors
    lists        the store's imported rating lists, as the deciders consult them
    tournaments  create, edit the event's data, tie-breaks
    players      register (one, many, a team member), edit, remove, withdraw, re-enter
    rounds       pair (by the system or by hand), swap boards, forbid pairs, byes
    results      enter and correct results
    undo         undo, restore, the truncations
    teams        teams, rosters, line-ups, team byes, forfeits, acceleration, team pairing
    prizes       the prize list (read from TOML, then decided)
    registration a player's own entry, approve, decline, check-in
    files        the file door: a CSV of players, a file of results

A new command goes in the module of what it changes; its door (a typer command in
`pipelines.cli`, a route in `pipelines.web`) only parses and prints.
"""
