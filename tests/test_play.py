"""`ttr-maps play`: the table (who sees what, who moves), its server's safety and the command's refusals."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_maps.cli.main import cli
from ttr_maps.engine.game import Game
from ttr_maps.engine.statefile import load_state
from ttr_maps.play import HUMAN, TableError, new_table, play_app, resume_table
from ttr_maps.web import run_in_thread

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests/scenarios/variants/tiny.yaml"


def table(tmp_path: Path, seats=(HUMAN, "expert"), seed=3):
    return new_table(Game.from_file(TINY, len(seats)), list(seats), tmp_path / "game.yaml", seed)


def play_out(t, rng: random.Random, limit: int = 2000) -> int:
    moves = 0
    while t.waiting_for() != "over" and moves < limit:
        if t.waiting_for() == "bot":
            assert t.bot_step()
        elif t.waiting_for() == "handover":
            t.reveal(t.state.current_player())
        else:
            t.act(t.shown, rng.choice(t.view()["legal"])["text"])
        moves += 1
    return moves


def test_the_page_gets_the_observation_of_the_seat_on_screen_only(tmp_path):
    t = table(tmp_path)
    rng = random.Random(5)
    while t.waiting_for() != "over":
        v = t.view()
        assert v["seat"] == 0
        assert v["observation"] == t.state.observation(0)  # the engine's observation, nothing more
        assert all(isinstance(p["cards"], int) for p in v["observation"]["players"])
        if t.waiting_for() == "bot":
            assert v["legal"] == []
            t.bot_step()
        else:
            assert {a["text"] for a in v["legal"]} == {t.game.action_text(a) for a in t.state.legal_actions()}
            t.act(0, rng.choice(v["legal"])["text"])
    scores = t.view()["scores"]
    sheet = t.state.score_sheet()
    assert [p["total"] for p in scores["players"]] == [p.total for p in sheet.players]
    assert scores["winners"] == list(sheet.winners)


def test_hot_seat_shows_no_hand_until_the_person_whose_turn_it_is_takes_the_screen(tmp_path):
    t = table(tmp_path, seats=(HUMAN, HUMAN))
    rng = random.Random(2)
    handovers = 0
    while t.waiting_for() != "over":
        if t.waiting_for() == "handover":
            handovers += 1
            v = t.view()
            assert v["seat"] is None and v["observation"]["hand"] == {} and v["tickets"] == {"kept": [], "offered": []}
            assert v["legal"] == []
            other = 1 - t.state.current_player()
            with pytest.raises(TableError):
                t.reveal(other)  # only the seat whose turn it is
            t.reveal(t.state.current_player())
        seat = t.shown
        assert t.view()["observation"] == t.state.observation(seat)
        t.act(seat, rng.choice(t.view()["legal"])["text"])
    assert handovers > 2


def test_an_illegal_move_is_refused_with_the_rule_that_forbids_it(tmp_path):
    t = table(tmp_path)
    t.act(0, "keep 0 1")  # setup: keep both tickets
    with pytest.raises(TableError) as refused:
        t.act(1, "draw blind")
    assert "not your turn" in str(refused.value) and "docs/rules.md#" in refused.value.rule
    while t.waiting_for() == "bot":
        t.bot_step()
    with pytest.raises(TableError) as refused:
        t.act(0, "draw faceup 7")
    assert refused.value.rule and "docs/rules.md#" in refused.value.rule
    # A route nobody can pay for with an empty hand: the page's question "why can I not claim it?"
    t.state.hands[0] = [0] * len(t.state.hands[0])
    with pytest.raises(TableError) as refused:
        t.why_not_claim(0, "a-d")
    assert "payment" in str(refused.value) and "claiming-a-route" in refused.value.rule


def test_every_refusal_of_a_persons_move_names_its_rule(tmp_path):
    """Whatever the person tries that the rules stop, the answer carries a docs/rules.md section (the page links it)."""
    t = table(tmp_path)
    t.act(0, "keep 0 1")
    while t.waiting_for() == "bot":
        t.bot_step()
    t.state.hands[0] = [0] * len(t.state.hands[0])
    tries = {
        "not an action": lambda: t.act(0, "fly to the moon"),
        "two actions": lambda: t.act(0, "draw blind; draw blind"),
        "no such route": lambda: t.why_not_claim(0, "nowhere"),
        "no such place": lambda: t.why_not_at(0, "atlantis"),
        "a place where the hand pays no station": lambda: t.why_not_at(0, "a"),
    }
    for what, attempt in tries.items():
        with pytest.raises(TableError) as refused:
            attempt()
        assert refused.value.rule and "docs/rules.md#" in refused.value.rule, what


def test_a_place_refusal_says_which_rule_of_stations_or_passengers(tmp_path):
    def at_turn(variant: str):
        t = new_table(Game.from_file(ROOT / f"maps/variants/{variant}.yaml", 2), [HUMAN, "random"], tmp_path / f"{variant}.yaml", 1)
        while not (t.waiting_for() == "you" and t.state.observation(0)["phase"] == "turn"):
            if t.waiting_for() == "bot":
                t.bot_step()
            else:
                t.act(0, max((a["text"] for a in t.view()["legal"]), key=lambda a: (a.startswith("keep"), len(a))))
        t.state.hands[0] = [0] * len(t.state.hands[0])  # nothing to pay a station with
        return t

    usa = at_turn("usa")
    with pytest.raises(TableError) as refused:
        usa.why_not_at(0, "denver")
    assert refused.value.rule.endswith("docs/rules.md#a-turn)")
    europe = at_turn("europe")
    with pytest.raises(TableError) as refused:
        europe.why_not_at(0, "wien")
    assert "station" in str(refused.value) and refused.value.rule.endswith("docs/rules.md#stations)")
    marklin = at_turn("marklin")
    with pytest.raises(TableError) as refused:
        marklin.why_not_at(0, "berlin")
    assert "passenger" in str(refused.value) and refused.value.rule.endswith("docs/rules.md#passengers-and-goods)")


def test_every_move_is_saved_and_a_saved_game_resumes_where_it_stopped(tmp_path):
    t = table(tmp_path)
    rng = random.Random(9)
    for _ in range(6):
        if t.waiting_for() == "bot":
            t.bot_step()
        else:
            t.act(0, rng.choice(t.view()["legal"])["text"])
    saved = load_state(tmp_path / "game.yaml")
    assert [t.game.action_text(a) for a in saved.history] == [t.game.action_text(a) for a in t.state.history]
    again = resume_table(saved, [HUMAN, "expert"], tmp_path / "game.yaml")
    assert again.view()["observation"] == t.view()["observation"]
    play_out(again, rng)
    assert again.waiting_for() == "over"
    assert load_state(tmp_path / "game.yaml").is_terminal()


@pytest.fixture
def server(tmp_path):
    running = run_in_thread(play_app(table(tmp_path)))
    yield running
    running.stop()


def _request(running, path, body=None, token=True, host=None):
    req = urllib.request.Request(f"http://127.0.0.1:{running.port}{path}", method="POST" if body is not None else "GET",
                                 data=None if body is None else json.dumps(body).encode())
    if token:
        req.add_header("X-TTR-Token", running.token)
    if host:
        req.add_header("Host", host)
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def test_the_server_refuses_moves_without_token_foreign_hosts_bad_bodies_and_early_state_files(server):
    status, view = _request(server, "/api/view")
    assert status == 200 and view["waiting"] == "you"
    assert _request(server, "/api/act", {"seat": 0, "action": "keep 0 1"}, token=False)[0] == 403
    assert _request(server, "/api/view", host="evil.example:80")[0] == 403
    status, answer = _request(server, "/api/act", {"seat": "zero", "action": "keep 0 1"})
    assert status == 400 and "seat" in answer["error"]
    status, answer = _request(server, "/api/act", {"seat": 0, "action": "draw blind"})
    assert status == 409 and "keep" in answer["error"] and "docs/rules.md#" in answer["rule"]
    status, answer = _request(server, "/api/state-file")
    assert status == 403 and "not over" in answer["error"]
    status, view = _request(server, "/api/act", {"seat": 0, "action": "keep 0 1"})
    assert status == 200 and len(view["tickets"]["kept"]) == 2


def test_the_rules_page_has_the_anchors_refusals_link_to(server):
    from ttr_maps.engine import errors

    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/rules", timeout=20) as r:
        page = r.read().decode()
    for name in ("R_CLAIM", "R_TURN", "R_KEEP", "R_TUNNEL", "R_STATION"):
        anchor = getattr(errors, name).split("#", 1)[1].rstrip(")")
        assert f"id='{anchor}'" in page, anchor


def test_play_refuses_to_overwrite_a_file_and_unknown_bots(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.yaml").write_text("mine\n")
    r = CliRunner().invoke(cli, ["play", str(TINY), "--no-open"])
    assert r.exit_code == 2 and "game.yaml exists" in r.output
    assert (tmp_path / "game.yaml").read_text() == "mine\n"
    r = CliRunner().invoke(cli, ["play", str(TINY), "--bots", "nobody", "-o", "g2.yaml", "--no-open"])
    assert r.exit_code == 2 and "unknown bot nobody" in r.output
    r = CliRunner().invoke(cli, ["play", str(TINY), "--humans", "4", "-o", "g3.yaml", "--no-open"])
    assert r.exit_code == 2 and "more than the 2 seats" in r.output


def test_a_ticket_mix_is_offered_by_pile_names(tmp_path):
    """Märklin announces how many tickets from each pile: the page's choices say which pile each number is."""
    t = new_table(Game.from_file(ROOT / "maps/variants/marklin.yaml", 2), [HUMAN, "random"], tmp_path / "g.yaml", 1)
    offered = {a["text"]: a.get("label") for a in t.view()["legal"] if a["kind"] == "tickets"}
    assert offered["tickets 1 3"] == "1 short + 3 long"
    assert set(offered) == {"tickets 0 4", "tickets 1 3", "tickets 2 2", "tickets 3 1", "tickets 4 0"}


def test_the_command_starts_a_game_and_play_on_its_state_file_continues_it(tmp_path, monkeypatch):
    """`ttr-maps play VARIANT -o g.yaml` then `ttr-maps play g.yaml`: the same game, saved to the same file."""
    import ttr_maps.play
    import ttr_maps.web

    monkeypatch.chdir(tmp_path)
    served = []
    monkeypatch.setattr(ttr_maps.play, "play_app", lambda t: served.append(t) or t)
    monkeypatch.setattr(ttr_maps.web, "serve", lambda app, **kw: None)
    r = CliRunner().invoke(cli, ["play", str(TINY), "--players", "3", "--bots", "random", "--seed", "3", "-o", "g.yaml", "--no-open"])
    assert r.exit_code == 0, r.output
    first = served[-1]
    assert first.seats == [HUMAN, "random", "random"] and first.save_path == Path("g.yaml")
    rng = random.Random(4)
    for _ in range(12):
        if first.waiting_for() == "bot":
            first.bot_step()
        else:
            first.act(0, rng.choice(first.view()["legal"])["text"])
    r = CliRunner().invoke(cli, ["play", "g.yaml", "--humans", "2", "--no-open"])
    assert r.exit_code == 0, r.output
    again = served[-1]
    assert again.save_path == Path("g.yaml") and again.seats == [HUMAN, HUMAN, "expert"]
    assert [again.game.action_text(a) for a in again.state.history] == [first.game.action_text(a) for a in first.state.history]
    assert again.state.observation(0) == first.state.observation(0)
    assert "resumed from g.yaml" in again.view()["log"][0]["text"]
    play_out(again, rng)
    assert load_state(tmp_path / "g.yaml").is_terminal()
    r = CliRunner().invoke(cli, ["score", "g.yaml"])
    assert r.exit_code == 0 and "Winner" in r.output


def test_a_redeal_of_the_face_up_row_is_a_line_in_the_log(tmp_path):
    """USA: two locomotives face up and a third turned to replace a drawn card: the row is redealt, and the log says so."""
    t = new_table(Game.from_file(ROOT / "maps/variants/usa.yaml", 2), [HUMAN, "random"], tmp_path / "g.yaml", 1)
    while not (t.waiting_for() == "you" and t.state.observation(0)["phase"] == "turn"):
        if t.waiting_for() == "bot":
            t.bot_step()
        else:
            t.act(0, max((a["text"] for a in t.view()["legal"]), key=lambda a: (a.startswith("keep"), len(a))))
    st, kinds = t.state, t.state.t.kinds
    loco, red, blue = kinds.index("locomotive"), kinds.index("red"), kinds.index("blue")
    for slot, card in enumerate([loco, loco, red, blue, blue]):  # the row: the old cards go under the deck
        st.deck.insert(0, st.face_up[slot])
        st.deck.remove(card)
        st.face_up[slot] = card
    st.deck.remove(loco)
    st.deck.append(loco)  # the card that replaces the red one
    before = len(t.log)
    t.act(0, "draw faceup 2")
    lines = [ln.text for ln in t.log[before:]]
    assert lines[0] == "draw faceup 2 (red)" and lines[1].startswith("too many locomotives face up: the row was redealt")
    assert st.counters["face-up-redeals"] >= 1 and st.face_up.count(loco) < 3
    assert t.view()["log"][-1]["text"] == lines[-1]
    # Without a redeal, no such line.
    before = len(t.log)
    t.act(0, "draw blind")
    assert all("redealt" not in ln.text for ln in t.log[before:])


def _pointed_at(item: dict) -> str:
    """How the page (play.js) offers a legal action: what a person points at to make it."""
    if item["kind"] == "keep":
        return "keep boxes"  # one box per offered ticket; the ticked ones, in order, make the text
    if item["kind"] == "tickets":
        return "tickets button"
    if item["kind"] == "draw":
        return "deck" if item["text"] == "draw blind" else "face-up card" if item.get("slot") is not None else "nothing"
    if item["kind"] == "claim":
        return "route" if item.get("route") else "nothing"
    if item.get("place"):
        return "place"
    return "other moves button"


@pytest.mark.slow  # every bundled and example variant to its end: about 40 s of CPU
@pytest.mark.parametrize("variant", sorted([*ROOT.glob("maps/variants/*.yaml"), *ROOT.glob("examples/*-rules.yaml")]),
                         ids=lambda p: p.stem)
def test_every_variant_plays_to_its_end_by_what_the_page_offers(tmp_path, variant):
    """Every bundled and example variant, a whole game against a bot by the page's choices alone: every legal action
    the engine lists is on the page as something to point at (a card, the deck, a route, a place, a button, the
    ticket boxes), and the end is scored as `ttr-maps score` scores the saved game. The game is saved as JSON (a save
    path ending .json; the page's other tests save YAML): a save after every move, 4.9 ms in YAML, was three quarters
    of these games' CPU, and the YAML of every variant's games is written and read again by test_engine.py's random
    games and by the soak test."""
    t = new_table(Game.from_file(variant, 2), [HUMAN, "random"], tmp_path / "g.json", seed=1)
    rng = random.Random(1)
    pointed: set[str] = set()
    for _ in range(3000):
        if t.waiting_for() == "over":
            break
        if t.waiting_for() == "bot":
            t.bot_step()
            continue
        view = t.view()  # what the page receives: one view a move, as the page asks for one
        legal = view["legal"]
        assert {t.game.action_text(a) for a in t.state.legal_actions()} == {a["text"] for a in legal}
        for item in legal:
            how = _pointed_at(item)
            assert how != "nothing", item
            if how == "keep boxes":  # the page builds 'keep i j ...' from the ticked boxes, lowest first
                picked = [int(x) for x in item["text"].split()[1:]]
                assert picked == sorted(set(picked)) and all(0 <= i < len(view["tickets"]["offered"]) for i in picked)
            pointed.add(how)
        t.act(0, rng.choice(legal)["text"])
    assert t.waiting_for() == "over"
    assert {"deck", "route", "keep boxes"} <= pointed
    r = CliRunner().invoke(cli, ["score", str(tmp_path / "g.json"), "--format", "json"])
    assert r.exit_code == 0, r.output
    assert [p["total"] for p in json.loads(r.output)["players"]] == [p["total"] for p in t.view()["scores"]["players"]]


def _view_with_hidden_changed(t, rng: random.Random) -> str:
    """What the page would receive now if everything hidden from the seat on screen were different: the deck's
    order, the other seats' hands, kept tickets and offers, the shuffling generator (the state is restored)."""
    s = t.state
    seat = t.shown if t.shown is not None else t.humans[0]
    saved = (s.deck, s.rng, s.hands[:], s.kept[:], s.offers[:])
    n_tickets = len(t.game.t.ticket_keys)
    try:
        s.deck = rng.sample(s.deck, len(s.deck))
        s.rng = random.Random(rng.random())
        for q in range(t.game.num_players):
            if q == seat and t.waiting_for() != "handover":
                continue
            hand = [0] * len(s.hands[q])
            for _ in range(sum(s.hands[q])):
                hand[rng.randrange(len(hand))] += 1
            s.hands[q] = hand
            s.kept[q] = [rng.randrange(n_tickets) for _ in s.kept[q]]
            s.offers[q] = [rng.randrange(n_tickets) for _ in s.offers[q]]
        return json.dumps(t.view(), sort_keys=True)
    finally:
        s.deck, s.rng = saved[0], saved[1]
        s.hands[:], s.kept[:], s.offers[:] = saved[2], saved[3], saved[4]


@pytest.mark.parametrize("variant, seats", [("europe", (HUMAN, "expert")), ("marklin", (HUMAN, "random", "random")),
                                            ("tiny", (HUMAN, HUMAN, "expert"))])
def test_what_the_page_receives_does_not_change_with_what_its_seat_may_not_see(tmp_path, variant, seats):
    """At every point of a whole game, the answer the page gets (`view`) is byte for byte the same when the deck's
    order, the other seats' hands, tickets and offers change; during a hot-seat hand-over, when every hand changes."""
    path = TINY if variant == "tiny" else ROOT / f"maps/variants/{variant}.yaml"
    t = new_table(Game.from_file(path, len(seats)), list(seats), tmp_path / "g.json", seed=2)  # saved as JSON: quicker
    rng, hide = random.Random(7), random.Random(8)
    looked = 0
    while t.waiting_for() != "over":
        if t.waiting_for() != "bot" or rng.random() < 0.3:
            assert _view_with_hidden_changed(t, hide) == json.dumps(t.view(), sort_keys=True)
            looked += 1
        if t.waiting_for() == "bot":
            t.bot_step()
        elif t.waiting_for() == "handover":
            t.reveal(t.state.current_player())
        else:
            t.act(t.shown, rng.choice(t.view()["legal"])["text"])
    assert looked > 30


def test_a_game_saved_under_its_variants_name_resumes(tmp_path, monkeypatch):
    """`ttr-maps play usa -o usa.yaml`: the saved file names its variant so that it is not read as itself."""
    import ttr_maps.play
    import ttr_maps.web

    monkeypatch.chdir(tmp_path)
    served = []
    monkeypatch.setattr(ttr_maps.play, "play_app", lambda t: served.append(t) or t)
    monkeypatch.setattr(ttr_maps.web, "serve", lambda app, **kw: None)
    r = CliRunner().invoke(cli, ["play", "usa", "--seed", "3", "-o", "usa.yaml", "--no-open"])
    assert r.exit_code == 0, r.output
    served[-1].act(0, served[-1].view()["legal"][0]["text"])
    r = CliRunner().invoke(cli, ["play", "usa.yaml", "--no-open"])
    assert r.exit_code == 0, r.output
    assert len(served[-1].state.history) == 1 and served[-1].game.variant.name == served[0].game.variant.name
    r = CliRunner().invoke(cli, ["state", "show", "usa.yaml"])
    assert r.exit_code == 0, r.output
