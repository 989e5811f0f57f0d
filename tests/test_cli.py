"""The `referee` command: replay, games, and clear errors instead of tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main
from referee.rules import game_names

EXAMPLES = Path(__file__).resolve().parent.parent / "referee" / "examples"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", game_names())
def test_every_game_ships_an_example_that_replays(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["replay", str(EXAMPLES / f"{game}.jsonl")], capsys)
    assert code == 0, err
    assert "Scores after" in out
    assert "LEGAL" in out and "ILLEGAL" in out  # every example shows both kinds of call


@pytest.mark.parametrize("game", game_names())
def test_replay_is_identical_every_time(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    outs = [run(["replay", str(EXAMPLES / f"{game}.jsonl"), "--json"], capsys)[1] for _ in range(2)]
    assert outs[0] == outs[1]
    lines = [json.loads(x) for x in outs[0].splitlines()]
    assert all("verdict" in x and "text" in x for x in lines[:-1])
    assert set(lines[-1]["scores"]) == {"rounds", "totals", "winner", "over"}


def test_replay_by_bundled_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["replay", "wonky"], capsys)
    assert code == 0 and out.startswith("Wonky: ")


def test_games_lists_every_game_and_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["games"], capsys)
    assert code == 0
    for name in game_names():
        assert name in out
    assert "grace_s" in out and "target_score" in out
    code, out, _ = run(["games", "--json"], capsys)
    assert [g["name"] for g in json.loads(out)] == game_names()


def write(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "match.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


HEADER = json.dumps({"format": "referee-table-log", "version": 1, "game": "wackee-six",
                     "seats": [{"seat": 1, "name": "Ann", "colour": "red"},
                               {"seat": 2, "name": "Bob", "colour": "blue"}]})


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([HEADER, '{"t": 1, "kind": "card", "seat": 1, "card": "R1"}'],
         "line 2: 'card' event is missing the field 'to'"),
        ([HEADER, '{"t": 1, "kind": "press", "seat": 1}', "{oops"], "line 3: not valid JSON"),
        ([HEADER.replace("wackee-six", "poker")], "unknown game 'poker'"),
        ([HEADER, '{"t": 9, "kind": "press", "seat": 1}', '{"t": 1, "kind": "press", "seat": 2}'],
         "line 3: out of order"),
    ],
)
def test_a_bad_log_is_one_clear_error(tmp_path: Path, lines: list[str], message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(["replay", write(tmp_path, lines)], capsys)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_missing_log_file_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(["replay", "/nonexistent/match.jsonl"], capsys)
    assert code == 2 and "no table log at /nonexistent/match.jsonl" in err
