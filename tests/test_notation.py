"""The action notation: every listed action's text reads back as the same action (in random positions of
every bundled variant, hands grown large so payments with four or more locomotives occur), unreadable
text is a usage error (exit 2) and never a traceback, and state files whose history holds any listed
action open again."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from click.testing import CliRunner

from conftest import MAPS, player_range
from ttr_maps.cli.main import cli
from ttr_maps.engine.actions import ClaimTrack, DrawBlind, DrawFaceUp, PayTunnel
from ttr_maps.engine.game import Game
from ttr_maps.engine.notation import NotationError
from ttr_maps.engine.statefile import dump_state, load_state

VARIANTS = sorted(MAPS.glob("variants/*.yaml"))


@lru_cache(maxsize=None)
def game(path, n) -> Game:
    return Game.from_file(path, n)


def _wilds(action) -> int:
    pay = getattr(action, "payment", ())
    return sum(n for kind, n in pay if kind in ("locomotive", "big-locomotive"))


def _configs():
    """Each variant at its smallest player count (fast) and its largest (slow)."""
    for path in VARIANTS:
        fewest, most = player_range(path)
        yield pytest.param(path, fewest, id=f"{path.stem}-{fewest}p")
        yield pytest.param(path, most, id=f"{path.stem}-{most}p", marks=pytest.mark.slow)


@pytest.mark.slow
@pytest.mark.parametrize("path,n", list(_configs()))
def test_every_listed_action_reads_back_as_itself(path, n):
    """A game where players mostly draw, so hands grow and the payments with many locomotives that the
    old notation misread (`2yellow+4loco` as a +4 locomotive) are listed; every listed action's text is
    read back (claims and tunnel payments also without the state, as a state file's history is)."""
    g = game(path, n)
    s = g.new_initial_state(n)
    rng = random.Random(n)
    many_wilds = 0
    for step in range(400):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        if step % 8 == 0 or s.phase_name != "turn":
            for a in legal:
                text = g.action_text(a)
                assert g.parse_actions(text, s) == [a], text
                if isinstance(a, (ClaimTrack, PayTunnel)):
                    assert g.parse_actions(text) == [a], text
                    many_wilds += _wilds(a) >= 4
        draws = [a for a in legal if type(a) in (DrawBlind, DrawFaceUp)]
        s.apply(rng.choice(draws if draws and rng.random() < 0.8 else legal))
    if path.stem in ("usa", "europe", "marklin"):
        assert many_wilds, "no payment with four or more locomotives was listed: the test lost its point"


def test_a_state_whose_history_holds_a_four_locomotive_claim_opens_again(tmp_path):
    """`claim ... 2yellow+4loco` in a history made every state command fail ('unknown card kind')."""
    path = MAPS / "variants" / "usa.yaml"
    g = game(path, 2)
    s = g.new_initial_state(3)
    rng = random.Random(3)
    while not s.is_terminal():
        legal = s.legal_actions()
        four = [a for a in legal if isinstance(a, ClaimTrack) and _wilds(a) == 4 and len(a.payment) == 2]
        if four:
            s.apply(four[0])
            break
        draws = [a for a in legal if type(a) in (DrawBlind, DrawFaceUp)]
        s.apply(rng.choice(draws if draws and rng.random() < 0.9 else legal))
    text = g.action_text(s.history[-1])
    assert "+4loco" in text
    out = tmp_path / "state.yaml"
    out.write_text(dump_state(s, out), encoding="utf-8")
    assert load_state(out) == s
    r = CliRunner().invoke(cli, ["state", "show", str(out)])
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize(
    "text,message",
    [
        ("draw ³", "draw faceup N"),
        ("draw faceup ²", "digits 0-9"),
        ("keep ٣", "digits 0-9"),
        ("claim portland-seattle ² 1red", "no ² track"),
        ("claim portland-seattle 1 ²red", "payment part"),
        ("tunnel pay 1+4", "written `big`"),
        ("draw faceup 1_0", "digits 0-9"),
    ],
)
def test_unreadable_notation_is_a_notation_error(text, message):
    g = game(MAPS / "variants" / "usa.yaml", 2)
    with pytest.raises(NotationError, match=message):
        g.parse_actions(text, g.new_initial_state(1))


def test_payment_parts_are_joined_by_plus_only():
    g = game(MAPS / "variants" / "marklin.yaml", 2)
    from ttr_maps.engine.notation import parse_payment

    assert parse_payment(g, "2yellow+4loco") == (("yellow", 2), ("locomotive", 4))
    assert parse_payment(g, "1red+4loco+1big") == (("red", 1), ("locomotive", 4), ("big-locomotive", 1))
    assert parse_payment(g, "0") == ()


@pytest.mark.parametrize("action", ["draw ³", "claim portland-seattle ² 1red", "keep ٣ 1"])
def test_cli_unicode_digits_are_a_usage_error(tmp_path, action):
    s0 = tmp_path / "s0.yaml"
    runner = CliRunner()
    r = runner.invoke(cli, ["state", "new", str(MAPS / "variants" / "usa.yaml"), "-p", "2", "--seed", "1", "-o", str(s0)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli, ["state", "apply", str(s0), action, "-o", str(tmp_path / "s1.yaml")])
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "Traceback" not in r.output and not (tmp_path / "s1.yaml").exists()


def test_cli_an_unknown_verb_shows_the_usage_with_every_mechanics_verbs(tmp_path):
    s0 = tmp_path / "s0.yaml"
    runner = CliRunner()
    r = runner.invoke(cli, ["state", "new", str(MAPS / "variants" / "europe.yaml"), "-p", "2", "--seed", "1", "-o", str(s0)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli, ["state", "apply", str(s0), "build wien", "-o", str(tmp_path / "s1.yaml")])
    assert r.exit_code == 2 and "cannot read 'build wien'" in r.output
    # The turn's own verbs and each mechanic's (mechanic.Mechanic.usage), once.
    for form in ("draw blind", "claim ROUTE [TRACK] PAYMENT", "station PLACE PAYMENT", "tunnel abandon", "move stop", "flag skip", "standin PAYMENT"):
        assert r.output.count(form) == 1, form
    assert r.output.rstrip().endswith("| pass")
