"""Buzzer patterns: data, played in the background, interrupting, recorded; under MockFactory."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware import DEFAULT_PATTERNS, Buzzer, NullBuzzer, RecordingBuzzer, UnknownPatternError
from hardware.buzzer import check_patterns

QUICK = {"two": ((0.001, 0.001), (0.001, 0.0)), "one": ((0.001, 0.0),), "long": ((30.0, 0.0),)}


def states(factory: MockFactory, pin: int) -> list[bool]:
    return [bool(s.state) for s in factory.pin(pin).states]


def test_default_patterns_are_the_five_and_distinct() -> None:
    assert set(DEFAULT_PATTERNS) == {"legal", "illegal", "call_accepted", "count", "round_over"}
    assert len(set(DEFAULT_PATTERNS.values())) == 5
    assert len(DEFAULT_PATTERNS["count"]) == 3  # 1-2-3
    for pattern in DEFAULT_PATTERNS.values():
        assert all(on > 0 and off >= 0 for on, off in pattern)


def test_pattern_plays_as_pin_states(factory: MockFactory) -> None:
    with Buzzer(18, patterns=QUICK) as buzzer:
        factory.pin(18).clear_states()
        buzzer.play("two")
        assert buzzer.wait_idle(timeout=5)
        assert states(factory, 18) == [False, True, False, True, False]


def test_active_low_buzzer_inverts_the_pin(factory: MockFactory) -> None:
    with Buzzer(18, active_high=False, patterns=QUICK) as buzzer:
        factory.pin(18).clear_states()
        buzzer.play("one")
        assert buzzer.wait_idle(timeout=5)
        assert states(factory, 18) == [True, False, True]


def test_play_does_not_block_and_new_pattern_interrupts(factory: MockFactory) -> None:
    with Buzzer(18, patterns=QUICK) as buzzer:
        factory.pin(18).clear_states()
        buzzer.play("long")  # 30 s: returning at all proves play() does not wait for it
        for _ in range(1000):
            if factory.pin(18).state:
                break
            buzzer.wait_idle(timeout=0.001)
        assert factory.pin(18).state  # buzzing now
        buzzer.play("one")
        assert buzzer.wait_idle(timeout=5)  # would take 30 s if "long" were not interrupted
        assert states(factory, 18) == [False, True, False, True, False]


def test_stop_silences(factory: MockFactory) -> None:
    with Buzzer(18, patterns=QUICK) as buzzer:
        buzzer.play("long")
        buzzer.stop()
        assert buzzer.wait_idle(timeout=5)
        assert not factory.pin(18).state


def test_unknown_pattern_is_a_clear_value_error(factory: MockFactory) -> None:
    with Buzzer(18) as buzzer:
        with pytest.raises(UnknownPatternError, match="'legall'.*known patterns: call_accepted"):
            buzzer.play("legall")
        with pytest.raises(ValueError):
            NullBuzzer().play("nope")
        with pytest.raises(ValueError):
            RecordingBuzzer().play("nope")


def test_close_is_idempotent_and_frees_the_pin(factory: MockFactory) -> None:
    buzzer = Buzzer(18, patterns=QUICK)
    buzzer.play("long")
    buzzer.close()
    buzzer.close()
    assert buzzer.closed
    assert not factory.pin(18).state
    with Buzzer(18) as again:  # the pin is free
        assert again.device.pin.info.name == "GPIO18"


def test_tonal_buzzer_plays_the_pattern_tone() -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    with Buzzer(18, tonal=True, patterns=QUICK, tones={"long": "A4"}, pin_factory=factory) as b:
        b.play("long")
        for _ in range(1000):
            if b.device.is_active:
                break
            b.wait_idle(timeout=0.001)
        assert b.device.tone is not None and b.device.tone.note == "A4"
        b.stop()
        assert b.wait_idle(timeout=5)
        assert b.device.tone is None


def test_recording_buzzer_records_name_and_time() -> None:
    now = [5.0]
    rec = RecordingBuzzer(clock=lambda: now[0])
    rec.play("legal")
    now[0] = 6.5
    rec.play("round_over")
    assert rec.played == [("legal", 5.0), ("round_over", 6.5)]
    assert rec.names == ["legal", "round_over"]
    rec.close()
    assert rec.closed


def test_null_buzzer_accepts_known_names_silently() -> None:
    with NullBuzzer() as b:
        for name in DEFAULT_PATTERNS:
            b.play(name)
        assert b.wait_idle()


def test_pattern_data_is_checked() -> None:
    assert check_patterns({"x": [[0.1, 0], [0.2, 0.1]]}) == {"x": ((0.1, 0.0), (0.2, 0.1))}
    with pytest.raises(ValueError, match="'x' needs at least one step"):
        check_patterns({"x": []})
    with pytest.raises(ValueError, match="'y' must be a list of"):
        check_patterns({"y": [0.1]})
