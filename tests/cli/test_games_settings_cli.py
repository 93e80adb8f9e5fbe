"""Each game's settings reachable from the command line, in a subprocess as a director types
them: seed positions of a knockout, the options `tournament create --help` lists, the go
pairing as printed (ranks, clubs, handicap and komi) and `pair --explain` naming players."""

from __future__ import annotations

from pathlib import Path

from tests.cli.games_cli import Cli


def test_knockout_seeds_decide_the_first_round(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "store.duckdb")
    cli("tournament", "create", "--name", "Cup", "--id", "cup", "--system", "knockout",
        "--rounds", "2")  # fmt: skip
    # registered in another order, rated against the seeding: the seeds decide
    for name, seed, rating in [("Dahl, D", 4, 2400), ("Berg, B", 2, 2000),
                               ("Aas, A", 1, 1900), ("Carl, C", 3, 2300)]:  # fmt: skip
        cli("player", "add", "cup", "--name", name, "--seed", str(seed), "--rating", str(rating))
    rows = cli.json("pair", "cup")
    assert [(r["white"]["name"], r["black"]["name"]) for r in rows] == [
        ("Aas, A", "Dahl, D"),
        ("Berg, B", "Carl, C"),
    ]
    line = Cli(tmp_path / "store.duckdb").refused(
        "player", "add", "cup", "--name", "Eik, E", "--seed", "2"
    )
    assert line == "error: --seed 2 is already player No. 2's (Berg, B)"


def test_create_help_lists_each_games_settings(tmp_path: Path) -> None:
    text = Cli(tmp_path / "store.duckdb")("tournament", "create", "--help")
    for option in ("--pairing", "--draw-seed", "--handicaps", "--no-early-adjustment",
                   "--phantom-score", "--bar", "--floor", "--komi"):  # fmt: skip
        assert option in text
    assert "circle" in text
    assert "seeds" in text
    add = Cli(tmp_path / "store.duckdb")("player", "add", "--help")
    assert "--seed" in add
    assert "--aga-rating" in add


def test_go_pairing_printed_in_go_terms_and_explained_by_name(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "store.duckdb")
    cli("tournament", "create", "--name", "Go", "--id", "go", "--game", "go",
        "--system", "gopair", "--rounds", "2")  # fmt: skip
    for name, aga, club in [("Abe, Ko", "5.5", "PALO"), ("Kim, Bo", "2.8", "NYGC"),
                            ("Gray, Al", "-4.6", "BOST"), ("Jones, Di", "-16.4", "")]:  # fmt: skip
        club_opt = ["--club", club] if club else []  # an empty --club is refused
        cli("player", "add", "go", "--name", name, "--aga-rating", aga, *club_opt)
    done = cli.run("pair", "go", "--explain")
    assert done.code == 0, done.err
    head, *boards = done.out.splitlines()
    assert head.split() == [
        "board", "no", "white", "rank", "pts", "result", "pts", "black", "rank", "no",
        "handicap", "komi",
    ]  # fmt: skip
    assert "Abe, Ko (PALO)" in boards[0]
    assert "Kim, Bo (NYGC)" in boards[0]
    notes = [line for line in done.err.splitlines() if line.startswith("board")]
    assert notes[0].startswith("board 1 (Abe, Ko - Kim, Bo): gopair score")
    rows = cli.json("pairings", "go")
    assert [(r["handicap"], r["komi"]) for r in rows] == [(2, 0.5), (10, 0.5)]
    sheet = tmp_path / "r1.txt"
    sheet.write_text("1 W+\n2 B+\n")
    cli("results", "go", "--round", "1", "--file", str(sheet))
    assert [r["result"] for r in cli.json("pairings", "go")] == ["W+", "B+"]


def test_carrom_and_othello_results_in_their_own_terms(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "store.duckdb")
    for game in ("carrom", "othello"):
        cli("tournament", "create", "--name", game, "--id", game, "--game", game,
            "--system", "swiss", "--rounds", "2")  # fmt: skip
        for name in ("Ito, A", "Kim, B"):
            cli("player", "add", game, "--name", name)
        cli("pair", game)
        cli("result", game, "1", "1", "25-0" if game == "carrom" else "40-24")
    for game, result in (("carrom", "25-0"), ("othello", "40-24")):
        head, board = cli("pairings", game).splitlines()[:2]
        # the columns: board, no, white (two words), pts, result, pts, black, no (unrated)
        assert head.split()[5] == "result"
        assert board.split()[5] == result
    assert cli.json("pairings", "carrom")[0]["result"] == "25-0"
