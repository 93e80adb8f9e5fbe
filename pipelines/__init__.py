"""The composition layer: the only one that knows about the command line, the web server and
long-running jobs, and the only one that composes the others (events, pairing, ratings,
ingest, projections). Nobody imports it but the tests and the benchmarks.

Laid out by job (the README's layout table says where a new piece goes):

    commands/   the one write API every door calls (input models, then load, check, append)
    cli/        the `arbiter` command line, one module per command group
    web/        `arbiter serve`: public pages, the JSON API, the forms, accounts
    engines/    the engine registry, state/TRF/OpenGotha -> engine adapters, `arbiter-pairings`
    jobs/       ingest, rating-list runs, the scheduler, the demo
    views/      what reads show (plain data) and its text/JSON/CSV rendering
    process/    console entry points, exit codes, atomic files, crash points
"""
