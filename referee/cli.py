"""The `referee` command: demo, run, replay, games, identify, enroll, print-deck, markers.

User mistakes (a bad path, an unknown game, a malformed log line) print one clear line and exit
with status 2; they never show a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from pathlib import Path

EXIT_USAGE = 2


def _examples_dir() -> Path:
    return Path(str(resources.files("referee") / "examples"))


def cmd_replay(args: argparse.Namespace) -> int:
    from referee.replay import replay_file

    path = Path(args.log)
    if not path.exists() and not path.suffix:
        bundled = _examples_dir() / f"{args.log}.jsonl"
        if bundled.exists():
            path = bundled
    replay_file(path, args.json, sys.stdout)
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    from referee.rules.registry import find_game, game_names

    infos = [find_game(n).describe() for n in game_names()]
    if args.json:
        print(json.dumps(infos, indent=2))
        return 0
    for info in infos:
        lo, hi = info["seats"]
        style = "turn-based" if info["turn_based"] else "real-time"
        print(f"{info['name']:<18} {info['title']} ({lo}-{hi} seats, {style})")
        for name, opt in info["options"].items():
            print(f"    {name:<22} default {opt['default']!r:<8} {opt['help']}")
        for name, what in info["manual_actions"].items():
            print(f"    manual: {name:<14} {what}")
    print(f"\nExample matches: referee replay {_examples_dir()}/<game>.jsonl")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from referee.demo import run_demo

    return run_demo(args)


def cmd_run(args: argparse.Namespace) -> int:
    from referee.appliance import run_appliance

    return run_appliance(args)


def cmd_identify(args: argparse.Namespace) -> int:
    from referee.vision_cli import identify_images

    return identify_images(args.images, args.deck, args.json)


def cmd_enroll(args: argparse.Namespace) -> int:
    from vision.enroll import enroll

    deck = enroll(args.name, Path(args.directory))
    print(f"enrolled deck {deck.name!r}: {len(deck.codes)} cards; use --deck {deck.name}")
    return 0


def cmd_print_deck(args: argparse.Namespace) -> int:
    from vision.print_deck import write_deck

    out = Path(args.output or f"{args.game}-deck.pdf")
    write_deck(args.game, out)
    print(f"wrote {out}: print at 100% scale (no 'fit to page')")
    return 0


def cmd_markers(args: argparse.Namespace) -> int:
    from vision.markers import write_marker_sheet

    out = Path(args.output)
    write_marker_sheet(out)
    print(f"wrote {out}: print at 100% scale and put one marker at each table corner")
    return 0


def cmd_matches(args: argparse.Namespace) -> int:
    from referee.config import load_config
    from referee.store import MatchStore

    config = load_config(Path(args.config) if args.config else None)
    store = MatchStore(Path(config.store.path))
    if args.export is not None:
        sys.stdout.write(store.export_log(args.export))
        return 0
    for m in store.list_matches():
        print(json.dumps(m, default=str))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="referee", description="Tabletop referee for fast card games")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("demo", help="a simulated match refereed live, with the dashboard")
    s.add_argument("--game", default="wackee-six")
    s.add_argument("--seats", type=int, default=4)
    s.add_argument("--port", type=int, default=8080)
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--speed", type=float, default=1.0, help="1.0 = real time")
    s.add_argument("--duration", type=float, default=None, help="stop after this many seconds")
    s.add_argument("--no-vision", action="store_true", help="skip rendering frames (faster)")
    s.set_defaults(func=cmd_demo)

    s = sub.add_parser("run", help="the appliance: camera, pads, buzzer, dashboard")
    s.add_argument("--config", default=None, help="TOML configuration file")
    s.set_defaults(func=cmd_run)

    s = sub.add_parser("replay", help="judge a table log again and print verdicts and scores")
    s.add_argument("log", help="a .jsonl table log, or the name of a bundled example game")
    s.add_argument("--json", action="store_true", help="JSON Lines: one verdict a line, then scores")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser("games", help="list the games and their options")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_games)

    s = sub.add_parser("identify", help="recognise the cards in photos",
                       description="Recognise the cards in photos. Where the four table markers "
                       "show, only the cards inside the area they mark are reported.")
    s.add_argument("images", nargs="+")
    s.add_argument("--deck", default="standard")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_identify)

    s = sub.add_parser("enroll", help="enrol your own deck from photos named by card code")
    s.add_argument("name")
    s.add_argument("directory")
    s.set_defaults(func=cmd_enroll)

    s = sub.add_parser("print-deck", help="write a print-and-play PDF of a game's deck")
    s.add_argument("game")
    s.add_argument("-o", "--output", default=None)
    s.set_defaults(func=cmd_print_deck)

    s = sub.add_parser("markers", help="write the printable sheet of table-corner markers")
    s.add_argument("-o", "--output", default="table-markers.pdf")
    s.set_defaults(func=cmd_markers)

    s = sub.add_parser("matches", help="list stored matches, or export one as a table log")
    s.add_argument("--config", default=None)
    s.add_argument("--export", type=int, default=None, metavar="ID")
    s.set_defaults(func=cmd_matches)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except (ValueError, RuntimeError, OSError) as err:
        print(f"referee: error: {err}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
