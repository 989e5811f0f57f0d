"""Configuration: defaults in code, one TOML file, errors naming file/key/fix, docs in step."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from referee.config import Config, ConfigError, load_config, parse_config

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "deploy" / "config.example.toml"
DOCS = ROOT / "docs" / "configuration.md"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file() -> None:
    c = load_config(None)
    assert c.table.seats == 4 and c.table.width_mm == 1100.0
    assert c.camera.source == "picamera" and (c.camera.width, c.camera.height, c.camera.fps) == (
        1280,
        720,
        30,
    )
    assert not c.hardware.enabled and c.hardware.pads == {1: 17, 2: 27, 3: 22, 4: 23}
    assert (c.web.host, c.web.port, c.web.admin_pin) == ("0.0.0.0", 8080, "")
    assert c.web.app_config()["admin_pin"] is None
    assert c.match.game == "wackee-six" and c.match.options == {}
    assert c.store.path == Path("~/.local/share/referee/matches.sqlite3").expanduser()
    assert c.source is None


def test_file_overrides_and_passes_match_options(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[table]
seats = 3
width_mm = 600

[camera]
source = "usb:1"

[hardware]
enabled = true
pads = { 1 = 5, 2 = 6, 3 = 13 }
tilt = "switch"

[web]
port = 9000
admin_pin = 2468

[match]
game = "slap-wacky"
target_score = 3
grace_s = 0.2

[store]
path = "data/m.sqlite3"
""",
    )
    c = load_config(path)
    assert c.table.seats == 3 and c.table.width_mm == 600.0
    assert c.camera.kind == "usb" and c.camera.argument == "1"
    assert (
        c.hardware.enabled
        and c.hardware.pads == {1: 5, 2: 6, 3: 13}
        and c.hardware.tilt == "switch"
    )
    assert c.web.port == 9000 and c.web.admin_pin == "2468"
    assert c.match.game == "slap-wacky" and c.match.options == {"target_score": 3, "grace_s": 0.2}
    assert c.store.path == tmp_path / "data" / "m.sqlite3"  # relative to the config file
    assert c.source == path


def test_bad_toml_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "[web]\nport = 8080\nhost = 0.0.0.0\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert str(path) in message and "line 3" in message and "host = 0.0.0.0" in message
    assert "Traceback" not in message


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("[tabel]\nseats = 2\n", "tabel", "did you mean 'table'"),
        ("[web]\nprot = 80\n", "web.prot", "did you mean 'port'"),
        ('[web]\nport = "8080"\n', "web.port", "whole number"),
        ("[web]\nport = 70000\n", "web.port", "1..65535"),
        ("[table]\nseats = 2.5\n", "table.seats", "whole number"),
        ('[table]\nwidth_mm = "wide"\n', "table.width_mm", "must be a number"),
        ('[camera]\nsource = "webcam"\n', "camera.source", '"usb:0"'),
        ('[camera]\nsource = "usb:x"\n', "camera.source", "not a camera source"),
        ("[hardware]\nenabled = true\npads = { 1 = 17, 2 = 17 }\n", "hardware.pads.2", "GPIO17"),
        ('[hardware]\npads = { 1 = "17" }\n', "hardware.pads.1", "BCM GPIO number"),
        ("[hardware]\nenabled = true\npads = { 1 = 17 }\n", "hardware.pads", "seat 2 has no pad"),
        ('[hardware]\nbuzer = "active"\n', "hardware.buzer", "did you mean 'buzzer'"),
        ('[match]\ngame = "snap"\n', "match.game", "'slap-wacky'"),
        ("[match]\noptions = { a = 1 }\n", "match.options", "directly in [match]"),
        ("[store]\npath = 5\n", "store.path", "file path in quotes"),
        ('[web]\nadmin_pin = "12 34"\n', "web.admin_pin", "digits or letters"),
        ("web = 5\n", "web", "[web] section"),
    ],
)
def test_mistakes_name_the_key_and_the_fix(tmp_path: Path, text: str, key: str, words: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    err = info.value
    assert err.key == key and err.path == path
    assert str(err).startswith(f"{path}: {key}: ")
    assert words in str(err)
    assert isinstance(err, ValueError)


def test_missing_file_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="file not found; copy deploy/config.example.toml"):
        load_config(tmp_path / "nope.toml")


def test_example_file_loads_and_equals_the_defaults() -> None:
    """deploy/config.example.toml shows every default: loading it changes nothing."""
    example = load_config(EXAMPLE)
    assert dataclasses.replace(example, source=None) == Config()


def _options() -> list[tuple[str, str]]:
    out = []
    for section in dataclasses.fields(Config):
        if section.name == "source":
            continue
        cls = type(getattr(Config(), section.name))
        for f in dataclasses.fields(cls):
            if section.name == "match" and f.name == "options":
                continue
            out.append((section.name, f.name))
    return out


@pytest.mark.parametrize(("section", "option"), _options())
def test_every_option_is_documented_once_and_in_the_example(section: str, option: str) -> None:
    docs = DOCS.read_text(encoding="utf-8")
    example = EXAMPLE.read_text(encoding="utf-8")
    headings = re.findall(rf"^### `{section}\.{option}`", docs, flags=re.MULTILINE)
    assert len(headings) == 1, f"docs/configuration.md needs one '### `{section}.{option}`'"
    body = re.split(rf"^\[{section}\]$", example, flags=re.MULTILINE)[1].split("\n[", 1)[0]
    assert re.search(rf"^#?\s*{option} = ", body, flags=re.MULTILINE), f"{option} not in example"


def test_parse_config_without_a_path() -> None:
    with pytest.raises(ConfigError, match=r"^configuration: line 1: not valid TOML"):
        parse_config("[web\n")


def test_the_lens_field_of_view_is_read_and_checked(tmp_path: Path) -> None:
    assert load_config(None).camera.hfov_deg == 66.0
    c = load_config(write(tmp_path, "[camera]\nhfov_deg = 102\n"))
    assert c.camera.hfov_deg == 102.0
    with pytest.raises(ConfigError, match="hfov_deg"):
        load_config(write(tmp_path, "[camera]\nhfov_deg = 400\n"))
