"""Nomic World engine: one behaviour per test, named after the rule it checks."""

from __future__ import annotations

import json

import pytest

from bot.games.base import CHANCE, Chance, IllegalMove, InvalidNotation, Reason
from bot.games.nomic import RULES
from bot.games.nomic.initial_set import INITIAL_SET
from bot.games.nomic.moves import End, Join, Judge, Lapse, Leave, Path, Propose, Skip, Start, Vote
from bot.games.nomic.rules import tally
from bot.games.nomic.state import record, settings

from .helpers import ALICE, BOB, CAROL, game, move, play, propose, roll, run, turn

pytestmark = pytest.mark.unit


def rule_text(s, n):
    return record(s, n).text


def amend(rule, text, effect):
    """The JSON of a proposal to amend ``rule`` with ``effect``."""
    return json.dumps({"action": "amend", "rule": rule, "text": text, "effect": effect})


# ------------------------------------------------------------------ lobby and joining (rule 101)

def test_lobby_waits_for_the_expected_joins_then_any_player_starts():
    s = RULES.initial({}, 2)
    assert RULES.to_act(s) == frozenset({0})
    assert RULES.legal_moves(s, 0) == [Join(1, "Player 1")]
    s, ev = play(s, 0, "join 501 Zed")
    assert ev[0].kind == "join"
    with pytest.raises(IllegalMove, match="Waiting for 1 more"):
        RULES.apply(s, 0, Start())
    s, _ = play(s, 1, "join 502 Amy")
    assert RULES.to_act(s) == frozenset({0})
    s, ev = play(s, 1, "start")
    assert s.status == "running" and s.round == 1
    assert [e.kind for e in ev] == ["start", "round", "turn"]


def test_start_needs_two_players():
    s = RULES.initial({}, 0)
    s, _ = play(s, 0, "join 7 Solo")
    assert RULES.to_act(s) == frozenset({1})  # waiting for a second player
    with pytest.raises(IllegalMove, match="at least two"):
        RULES.apply(s, 0, Start())


def test_join_takes_the_next_seat_and_a_user_joins_once():
    s = RULES.initial({}, 3)
    s, _ = play(s, 0, "join 9 Ann")
    with pytest.raises(IllegalMove, match="seat 1"):
        RULES.apply(s, 2, Join(10, "Ben"))
    with pytest.raises(IllegalMove, match="already in this game"):
        RULES.apply(s, 1, Join(9, "Ann again"))
    with pytest.raises(IllegalMove, match="empty"):
        RULES.apply(s, 1, Join(10, ""))
    with pytest.raises(IllegalMove, match="limit is 32"):
        RULES.apply(s, 1, Join(10, "x" * 33))


def test_joining_during_a_round_plays_from_the_next_round():
    s = game()
    s, ev = play(s, 3, "join 200 Aaron")  # alphabetically first, but joins mid-round
    assert s.players[3].status == "pending"
    assert "plays from round 2" in ev[0].text
    assert RULES.out_of_turn(game(), 3, Join(200, "Aaron"))
    s = turn(s)  # alice proposes: Aaron does not vote
    assert record(s, 201).voters == (0, 1, 2)
    s2 = propose(move(s, "N"), "enact x")
    with pytest.raises(IllegalMove, match="from round 2 on"):
        RULES.apply(s2, 3, Vote(True))
    s = turn(turn(s))
    assert s.round == 2 and s.players[3].status == "active"
    assert s.current == 3  # Aaron sorts first in round 2


def test_initial_set_is_in_effect_word_for_word():
    s = game()
    assert s.effect_order == tuple(range(101, 116))
    assert [r.number for r in INITIAL_SET] == list(range(101, 116))
    assert rule_text(s, 109).startswith("1. A d6 is rolled. The roll is known as the 'movement distance'")
    assert record(s, 107).title == "Defintion: Movement"  # the source's spelling
    assert "Positive Y is North" in rule_text(s, 115)


# ------------------------------------------------------------------ rounds and turns (rules 102, 103)

def test_turn_order_is_alphabetical_ignoring_case_then_user_id():
    s = game(["carol", "Bob", "alice", "bob"])  # seats 0..3, user ids 100..103
    order = []
    for _ in range(4):
        order.append(s.current)
        s = turn(s, proposal="enact x", yes=False)
    assert order == [2, 1, 3, 0]  # alice, Bob (id 101), bob (id 103), carol
    assert s.round == 2 and s.current == 2


def test_round_ends_when_everybody_has_had_a_turn():
    s = game()
    for expected in (ALICE, BOB, CAROL):
        assert s.round == 1 and s.current == expected
        s = turn(s, yes=False)
    assert s.round == 2 and s.current == ALICE and s.done == ()


def test_turn_is_movement_then_rule_change():
    s = game()
    assert s.phase == "roll" and isinstance(RULES.to_act(s), Chance)
    s = roll(s, 2)
    assert s.phase == "move" and RULES.to_act(s) == frozenset({ALICE})
    with pytest.raises(IllegalMove, match="cannot propose now: alice must give a path of 2 steps"):
        RULES.apply(s, ALICE, Propose("enact", None, "x"))
    s = move_only(s, "NN")
    assert s.phase == "propose"


def move_only(s, path):
    s, _ = play(s, s.current, path)
    if s.phase == "reveal":
        s, _ = play(s, CHANCE, "reveal Water")
    return s


def test_only_the_current_player_moves_and_proposes():
    s = roll(game(), 1)
    with pytest.raises(IllegalMove, match="alice's turn"):
        RULES.apply(s, BOB, Path("N"))
    assert not RULES.out_of_turn(s, BOB, Path("N"))


# ------------------------------------------------------------------ movement (rules 105-109)

def test_die_roll_is_a_chance_node_of_the_die_size():
    s = game()
    node = RULES.to_act(s)
    assert isinstance(node, Chance) and len(node.outcomes) == 6
    with pytest.raises(IllegalMove, match="1 to 6"):
        play(s, CHANCE, "roll 7")
    with pytest.raises(IllegalMove, match="bot rolls"):
        play(s, ALICE, "roll 3")


def test_path_must_have_exactly_the_rolled_number_of_steps():
    s = roll(game(), 3)
    with pytest.raises(IllegalMove, match="die shows 3") as err:
        play(s, ALICE, "NN")
    assert "NNN" in err.value.legal


def test_path_must_be_shortest_never_doubling_back():
    s = roll(game(), 3)
    with pytest.raises(IllegalMove, match="both north and south"):
        play(s, ALICE, "NSN")
    with pytest.raises(IllegalMove, match="both east and west"):
        play(s, ALICE, "EWN")


def test_path_lands_at_the_sum_of_its_steps():
    s = roll(game(), 4)
    s, ev = play(s, ALICE, "nnwn")
    assert s.path == ((0, 0), (0, 1), (0, 2), (-1, 2), (-1, 3))
    assert ev[0].data["to"] == [-1, 3]


def test_player_is_located_nowhere_while_in_movement():
    s = roll(game(), 2)
    s, _ = play(s, ALICE, "EE")
    assert s.phase == "reveal" and s.players[ALICE].pos is None
    assert RULES.view(s, None).players[ALICE].pos is None
    s, ev = play(s, CHANCE, "reveal Metal")
    assert s.players[ALICE].pos == (2, 0)
    assert ev[0].kind == "reveal" and ev[0].data["resource"] == "Metal"


def test_landing_reveals_an_unknown_space_uniformly_and_passing_reveals_nothing():
    s = roll(game(), 3)
    s, _ = play(s, ALICE, "NNN")
    node = RULES.to_act(s)
    assert isinstance(node, Chance) and node.weights is None
    assert [m.resource for m in node.outcomes] == ["Wood", "Metal", "Water", "Food"]
    s, _ = play(s, CHANCE, "reveal Food")
    assert s.revealed == (((0, 3), "Food"),)  # (0, 1) and (0, 2) stay unknown


def test_landing_on_a_known_space_or_the_origin_reveals_nothing():
    s = game()
    s = move(s, "NN", reveal="Wood")  # alice on (0, 2)
    s = turn(s, yes=False)
    s = turn(s, path="NN", yes=False)  # Bob lands on the known (0, 2)
    assert s.revealed == (((0, 2), "Wood"),)
    s = turn(s, path="N", yes=False)  # Carol reveals (0, 1)
    s = roll(s, 2)
    s, ev = play(s, ALICE, "SS")  # alice back to the origin
    assert s.phase == "propose" and s.players[ALICE].pos == (0, 0)
    assert [e.kind for e in ev] == ["move", "land"] and "origin" in ev[1].text


def test_reveal_only_when_a_space_is_being_revealed():
    s = game()
    with pytest.raises(IllegalMove, match="No space"):
        play(s, CHANCE, "reveal Wood")


# ------------------------------------------------------------------ proposals and votes (rules 110-112)

def test_every_proposal_is_numbered_from_201_adopted_or_not():
    s = game()
    s = turn(s, proposal="enact One.", yes=False)
    s = turn(s, proposal="enact Two.", yes=True)
    s = turn(s, proposal="repeal 202", yes=False)
    assert [r.number for r in s.records[15:]] == [201, 202, 203]
    assert [r.status for r in s.records[15:]] == ["rejected", "in effect", "rejected"]


def test_unanimity_adopts_and_a_no_rejects_once_everybody_has_voted():
    s = propose(move(game(), "N"), "enact Unanimous.")
    s, _ = play(s, ALICE, "vote yes")
    s, _ = play(s, BOB, "vote yes")
    assert s.phase == "vote" and RULES.to_act(s) == frozenset({CAROL})
    s2, ev = play(s, CAROL, "vote yes")
    assert record(s2, 201).status == "in effect"
    assert [e.kind for e in ev] == ["vote", "adopt", "effect", "turn"]
    s3, ev = play(propose(move(game(), "N"), "enact Nope."), BOB, "vote no")
    assert record(s3, 201).status == "open" and s3.phase == "vote"  # a no no longer decides at once
    s3, _ = play(s3, ALICE, "vote yes")
    s3, ev = play(s3, CAROL, "vote yes")
    assert record(s3, 201).status == "rejected" and s3.current == BOB
    assert "2 yes, 1 no" in next(e.text for e in ev if e.kind == "reject")


def test_each_player_has_one_vote_which_may_change_until_everybody_has_voted():
    s = propose(move(game(), "N"), "enact x")
    s, _ = play(s, ALICE, "vote yes")
    with pytest.raises(IllegalMove, match="already voted yes"):
        play(s, ALICE, "vote yes")
    assert RULES.out_of_turn(s, ALICE, Vote(False))
    s, ev = play(s, ALICE, "vote no")
    assert "changes their vote" in ev[0].text and record(s, 201).status == "open"
    s, ev = play(s, BOB, "vote no")
    s, ev = play(s, BOB, "vote yes")  # changed back while carol has not voted
    s, ev = play(s, ALICE, "unvote")  # withdrawn: alice is to vote again
    assert [e.kind for e in ev] == ["unvote"] and "withdraws" in ev[0].text
    assert RULES.to_act(s) == frozenset({ALICE, CAROL})
    with pytest.raises(IllegalMove, match="have not voted"):
        play(s, ALICE, "vote withdraw")
    s, _ = play(s, CAROL, "vote yes")
    s, ev = play(s, ALICE, "vote yes")
    assert record(s, 201).status == "in effect"  # decided when the last voter voted
    with pytest.raises(IllegalMove):
        play(s, ALICE, "vote no")  # too late: decided


def test_no_vote_without_an_open_proposal():
    with pytest.raises(IllegalMove, match="no proposal"):
        play(game(), BOB, "vote yes")


def test_adopted_change_takes_effect_at_the_beginning_of_the_next_turn():
    s = propose(move(game(), "N"),
                '{"action": "amend", "rule": 109, "text": "A d8 is rolled.", "effect": "d8"}')
    assert settings(s).die == 6
    s, ev = play(s, ALICE, "vote yes")
    s, ev = play(s, BOB, "vote yes")
    s, ev = play(s, CAROL, "vote yes")
    kinds = [e.kind for e in ev]
    assert kinds.index("adopt") < kinds.index("effect") < kinds.index("turn")
    hist = record(s, 201).history
    assert [(n.what, n.round, n.turn) for n in hist] == [
        ("proposed", 1, 1), ("adopted", 1, 1), ("took effect", 1, 2)]
    assert len(RULES.to_act(s).outcomes) == 8  # Bob's roll is a d8
    assert rule_text(s, 109) == "A d8 is rolled."


def test_change_adopted_in_the_last_turn_of_a_round_takes_effect_in_the_next_round():
    s = turn(turn(game(), yes=False), yes=False)
    s = turn(s, proposal="enact Late.", yes=True)
    assert [(n.what, n.round, n.turn) for n in record(s, 203).history][-1] == ("took effect", 2, 1)


def test_proposals_and_settings_of_the_view():
    s = propose(move(game(), "E"), "enact Hello.")
    s, _ = play(s, BOB, "vote yes")
    v = RULES.view(s, BOB)
    assert v.proposal.number == 201 and v.proposal.yes == (BOB,) and v.proposal.waiting == (ALICE, CAROL)
    assert v.proposal.needed == "unanimous" and v.viewer == BOB
    assert (v.die, v.votes_needed, v.turn_order, v.phases) == (6, "unanimous", "alphabetical", "both")
    assert dict(v.setting_rules) == {"die": 109, "votes": 112, "order": 102, "phases": 103}


def test_proposal_checks_text_and_action():
    s = move(game(), "N")
    with pytest.raises(IllegalMove, match="empty"):
        RULES.apply(s, ALICE, Propose("enact", None, ""))
    with pytest.raises(IllegalMove, match="give no rule number"):
        RULES.apply(s, ALICE, Propose("enact", 105, "x"))
    with pytest.raises(IllegalMove, match="limit is 1500"):
        RULES.apply(s, ALICE, Propose("enact", None, "x" * 1501))
    with pytest.raises(IllegalMove, match="carries no effect"):
        play(s, ALICE, 'propose {"action": "repeal", "rule": 105, "effect": "end"}')
    with pytest.raises(IllegalMove, match="leave rule 104 as it is"):
        RULES.apply(s, ALICE, Propose("amend", 104, rule_text(s, 104)))


# ------------------------------------------------------------------ amend and repeal

def test_repeal_takes_a_rule_out_of_effect_with_history():
    s = turn(game(), proposal="repeal 104")
    assert record(s, 104).status == "repealed" and 104 not in s.effect_order
    assert record(s, 201).status == "applied"
    assert [n.what for n in record(s, 104).history] == ["initial", "repealed"]
    assert record(s, 104).history[-1].ref == 201


def test_amended_rule_can_be_amended_again_and_keeps_its_number_and_place():
    s = turn(game(), proposal="amend 105 Spaces are squares.")
    s = turn(s, proposal="amend 105 Spaces are hexagons.")
    r = record(s, 105)
    assert r.text == "Spaces are hexagons." and r.status == "in effect"
    assert [n.what for n in r.history] == ["initial", "amended", "amended"]
    assert r.history[2].text == "Spaces are squares."  # the previous text is kept
    assert s.effect_order == tuple(range(101, 116))


def test_amended_rule_can_be_repealed():
    s = turn(game(), proposal="amend 105 Spaces are squares.")
    s = turn(s, proposal="repeal 105")
    assert record(s, 105).status == "repealed"


def test_repealed_rule_cannot_be_amended_or_repealed_again():
    s = move(turn(game(), proposal="repeal 104"), "N")
    with pytest.raises(IllegalMove, match="104 was repealed by 201"):
        play(s, s.current, "propose amend 104 Back.")
    with pytest.raises(IllegalMove, match="104 was repealed by 201, so it can no longer be repealed"):
        play(s, s.current, "propose repeal 104")


def test_targets_must_be_rules_in_effect():
    s = turn(game(), proposal="enact Rejected rule.", yes=False)   # 201 rejected
    s = turn(s, proposal="amend 103 Turns are fun.", yes=True)      # 202 an amendment
    s = move(s, "N")
    with pytest.raises(IllegalMove, match="no rule 230"):
        play(s, s.current, "propose repeal 230")
    with pytest.raises(IllegalMove, match="202 is a proposal to amend rule 103"):
        play(s, s.current, "propose repeal 202")
    with pytest.raises(IllegalMove, match="201 was not adopted"):
        play(s, s.current, "propose amend 201 Try again.")


def test_enacted_rule_can_be_repealed_and_amended():
    s = turn(game(), proposal="enact Wear hats.")
    s = turn(s, proposal="amend 201 Wear big hats.")
    s = turn(s, proposal="repeal 201")
    r = record(s, 201)
    assert r.status == "repealed" and r.text == "Wear big hats."
    assert [n.what for n in r.history] == ["proposed", "adopted", "took effect", "amended", "repealed"]


# ------------------------------------------------------------------ effects and rule 113

def test_enacted_effect_that_rule_109_overrides_is_refused():
    s = move(game(), "N")
    with pytest.raises(IllegalMove, match=r"Rule 109 already sets the movement die.*amend rule 109"):
        play(s, ALICE, 'propose {"action": "enact", "text": "Roll a d20.", "effect": "die=20"}')


def test_repealing_the_holder_falls_back_to_the_initial_value_and_frees_the_setting():
    s = turn(game(), proposal='{"action": "amend", "rule": 109, "text": "d10.", "effect": "die=10"}')
    assert settings(s).die == 10
    s = turn(s, proposal="repeal 109")
    assert settings(s).die == 6 and settings(s).source("die") is None
    s = turn(s, proposal='{"action": "enact", "text": "A d4 is rolled.", "effect": "die=4"}')
    assert settings(s).die == 4 and settings(s).source("die") == 203


def test_lowest_number_wins_among_rules_carrying_the_same_setting():
    s = turn(game(), proposal="repeal 102")
    s = turn(s, proposal='{"action": "enact", "text": "Join order.", "effect": "order=join"}')   # 202
    s = move(s, "N")
    with pytest.raises(IllegalMove, match="Rule 202 already sets the turn order"):
        play(s, s.current, 'propose {"action": "enact", "text": "Reverse.", "effect": "order=reverse"}')


def test_amend_without_effect_keeps_the_rules_effect():
    s = turn(game(), proposal="amend 109 The die has six sides.")
    assert record(s, 109).effect is not None and settings(s).die == 6


def test_order_effect_join_and_reverse():
    s = game(["carol", "alice", "bob"])
    s = turn(s, proposal='{"action": "amend", "rule": 102, "text": "Join order.", "effect": "order=join"}')
    # alice (seat 1) played; the rest of the round now goes by joining order: carol (0), then bob (2)
    assert s.current == 0
    s = turn(s, proposal='{"action": "amend", "rule": 102, "text": "Z to A.", "effect": "order=reverse"}')
    assert s.current == 2
    s = turn(s, yes=False)
    assert s.round == 2 and s.current == 0  # carol, bob, alice
    assert RULES.view(s, None).order == (0, 2, 1)


def test_votes_effect_majority_and_two_thirds():
    assert tally("majority", 4, 3, 0) == "adopted" and tally("majority", 4, 2, 1) is None
    assert tally("majority", 4, 1, 2) == "rejected" and tally("majority", 3, 2, 1) == "adopted"
    assert tally("two-thirds", 3, 2, 0) == "adopted" and tally("two-thirds", 4, 2, 1) is None
    assert tally("two-thirds", 4, 1, 2) == "rejected"
    assert tally("two-thirds", 6, 3, 1) is None and tally("two-thirds", 6, 4, 2) == "adopted"
    assert tally("unanimous", 2, 2, 0) == "adopted"
    s = game(["a", "b", "c", "d"])
    s = turn(s, proposal='{"action": "amend", "rule": 112, "text": "Majority.", "effect": "votes=majority"}')
    s = propose(move(s, "N"), "enact Majority test.")
    s, _ = play(s, 0, "vote no")
    assert s.phase == "vote"  # one no does not reject any more
    s = run(s, (1, "vote yes"), (2, "vote yes"))
    assert s.phase == "vote"  # 2 of 4 is not a majority
    s, _ = play(s, 3, "vote yes")
    assert record(s, 202).status == "in effect"


def test_phases_effect_movement_only_and_rule_change_only():
    s = turn(game(), proposal=amend(103, "Only moving.", "phases=movement"))
    s = move(s, "E")
    assert s.current == CAROL and s.phase == "roll"  # Bob's turn ended after moving
    s = game()
    s = turn(s, proposal=amend(103, "Only rules.", "phases=rule-change"))
    assert s.phase == "propose"  # Bob does not move


def test_end_effect_ends_the_game_when_it_takes_effect():
    s = turn(game(), proposal='{"action": "enact", "text": "The game is over.", "effect": "end"}')
    assert s.status == "over" and RULES.to_act(s) is None
    out = RULES.outcome(s)
    assert out.is_draw and out.reason is Reason.AGREEMENT and "201" in out.detail
    assert RULES.legal_moves(s, 0) == []
    with pytest.raises(IllegalMove, match="over"):
        RULES.apply(s, 0, Vote(True))


# ------------------------------------------------------------------ judgment (rule 114)

def test_judge_is_the_player_preceding_the_current_one():
    s = game()
    assert RULES.view(s, None).judge == CAROL  # alice moves first: the last player judges
    s = turn(s, yes=False)
    assert RULES.view(s, None).judge == ALICE


def test_any_player_invokes_judgment_and_play_waits_for_the_judge():
    s = roll(game(), 2)
    s, ev = play(s, BOB, "judge May alice stand still?")
    assert RULES.to_act(s) == frozenset({CAROL})
    assert ev[0].data["judge"] == CAROL
    with pytest.raises(IllegalMove, match="Carol, the Judge, must first rule"):
        play(s, ALICE, "NN")
    with pytest.raises(IllegalMove, match="Only the Judge, Carol"):
        play(s, ALICE, "ruling Yes.")
    with pytest.raises(IllegalMove, match="Judgment is pending"):
        play(s, ALICE, "judge Another question?")


def test_ruling_becomes_a_rule_at_once_with_the_next_number():
    s = turn(game(), yes=False)               # 201 rejected
    s = roll(s, 1)
    s = run(s, (ALICE, "judge Is NE a path?"), (ALICE, "ruling Yes, as long as it is shortest."))
    r = record(s, 202)
    assert r.kind == "judgment" and r.status == "in effect" and r.proposer == ALICE
    assert s.effect_order[-1] == 202 and s.question is None
    assert [n.what for n in r.history] == ["asked", "ruled"] and r.history[0].text == "Is NE a path?"
    assert s.phase == "move"  # play resumes where it was
    assert RULES.view(s, None).players[ALICE].rulings == 1


def test_judgment_during_a_vote_takes_effect_before_the_pending_proposal():
    s = propose(move(game(), "N"), "enact Proposal first.")   # 201 open
    s = run(s, (ALICE, "vote yes"), (BOB, "judge Can Carol abstain?"), (CAROL, "ruling No."))  # 202 now
    s = run(s, (BOB, "vote yes"), (CAROL, "vote yes"))
    assert s.effect_order[-2:] == (202, 201)


def test_question_lapses_without_a_rule():
    s = run(game(), (BOB, "judge Anything?"))
    s, ev = play(s, CAROL, "lapse")
    assert s.question is None and len(s.records) == 15 and ev[0].kind == "lapse"
    with pytest.raises(IllegalMove, match="no question"):
        play(s, CAROL, "ruling Late.")


def test_judgment_needs_a_running_game_and_a_player():
    s = RULES.initial({}, 2)
    s, _ = play(s, 0, "join 1 A")
    with pytest.raises(IllegalMove, match="once the game has started"):
        play(s, 0, "judge Already?")
    s = game()
    s, _ = play(s, 3, "join 99 Late")
    with pytest.raises(IllegalMove, match="player in this round"):
        play(s, 3, "judge Me?")


# ------------------------------------------------------------------ turn limit, leaving, ending

def test_timeout_skips_movement_and_rule_change():
    s = roll(game(), 3)
    assert RULES.timeout_moves(s) == [(ALICE, Skip())]
    s, ev = RULES.apply(s, ALICE, Skip())
    assert s.current == BOB and s.players[ALICE].pos == (0, 0)
    assert "without moving or proposing" in ev[0].text
    assert len(s.records) == 15  # no number used


def test_timeout_rejects_an_open_proposal():
    s = propose(move(game(), "N"), "enact Slow.")
    s, _ = play(s, BOB, "vote yes")
    [(seat, m)] = RULES.timeout_moves(s)
    s, _ = RULES.apply(s, seat, m)
    assert record(s, 201).status == "rejected" and s.current == BOB
    assert "turn ended" in record(s, 201).history[-1].text


def test_timeout_with_a_question_lets_it_lapse_and_chance_nodes_never_time_out():
    s = run(game(), (BOB, "judge Why?"))
    assert RULES.timeout_moves(s) == [(CAROL, Lapse())]
    assert RULES.timeout_moves(game()) == []  # the die is about to be rolled
    assert RULES.timeout_moves(RULES.initial({}, 2)) == []


def test_skip_is_the_current_players_only():
    s = roll(game(), 3)
    with pytest.raises(IllegalMove, match="Only the current player"):
        RULES.apply(s, BOB, Skip())
    with pytest.raises(IllegalMove, match="rolls or reveals"):
        RULES.apply(game(), ALICE, Skip())


def test_current_player_leaving_ends_the_turn():
    s = game(["a", "b", "c", "d"])
    s = propose(move(s, "N"), "enact Leaving.")
    s, _ev = play(s, 0, "leave")
    assert record(s, 201).status == "rejected" and s.current == 1
    assert s.players[0].status == "left"
    with pytest.raises(IllegalMove, match="cannot rejoin"):
        play(s, 4, "join 100 a")


def test_voter_leaving_can_complete_a_unanimous_vote():
    s = game(["a", "b", "c"])
    s = propose(move(s, "N"), "enact Two agree.")
    s = run(s, (0, "vote yes"), (1, "vote yes"))
    s, _ev = play(s, 2, "leave")
    assert s.status == "running" and record(s, 201).status == "in effect"
    assert record(s, 201).voters == (0, 1)


def test_judge_leaving_lets_the_question_lapse():
    s = game(["a", "b", "c", "d"])
    s = run(s, (1, "judge Q?"))  # judge is d (seat 3)
    s, ev = play(s, 3, "leave")
    assert s.question is None and "Judge left" in ev[-1].text


def test_game_ends_when_fewer_than_two_players_remain():
    s, _ev = play(game(["a", "b"]), 1, "leave")
    assert s.status == "over" and RULES.outcome(s).reason is Reason.ABORTED


def test_admin_end_stops_the_game_and_rejects_an_open_proposal():
    s = propose(move(game(), "N"), "enact Unfinished.")
    assert RULES.out_of_turn(s, CAROL, End())
    s, _ev = RULES.apply(s, CAROL, End())
    assert s.status == "over" and record(s, 201).status == "rejected"
    out = RULES.outcome(s)
    assert out.ranks == (0, 0, 0) and out.winners == frozenset() and out.reason is Reason.ABORTED


def test_end_while_a_player_is_in_movement_lands_them():
    s = roll(game(), 1)
    s, _ = play(s, ALICE, "N")
    s, _ = RULES.apply(s, 1, End())
    assert s.players[ALICE].pos == (0, 1)


# ------------------------------------------------------------------ stats, options, misc

def test_stats_count_proposals_made_and_adopted_per_seat():
    s = turn(game(), yes=True)
    s = turn(s, yes=False)
    s = turn(s, yes=True)
    s = turn(s, yes=False)
    v = RULES.view(s, None)
    assert [(p.proposals, p.adopted) for p in v.players] == [(2, 1), (1, 0), (1, 1)]


def test_initial_rejects_options_and_bad_seat_counts():
    with pytest.raises(ValueError, match="no match options"):
        RULES.initial({"die": "8"}, 2)
    with pytest.raises(ValueError, match="seats"):
        RULES.initial({}, -1)
    assert RULES.spec.max_seats is None and RULES.spec.min_seats == 2 and RULES.spec.ai_levels == ()


def test_malformed_move_objects_are_refused():
    s = roll(game(), 2)
    with pytest.raises(InvalidNotation):
        RULES.apply(s, ALICE, Path("NX"))
    with pytest.raises(InvalidNotation):
        RULES.apply(s, ALICE, "NN")  # type: ignore[arg-type]


def test_legal_moves_list_paths_and_samples():
    s = roll(game(), 3)
    moves = RULES.legal_moves(s, ALICE)
    assert sum(isinstance(m, Path) for m in moves) == 4 * 2**3 - 4 and Skip() in moves
    assert RULES.legal_moves(s, BOB) == []
    s = move(game(), "N")
    props = [m for m in RULES.legal_moves(s, ALICE) if isinstance(m, Propose)]
    assert Propose("repeal", 101, "") in props and any(m.effect and m.effect.kind == "end" for m in props)
    for m in props:
        RULES.apply(s, ALICE, m)  # every sample is legal


def test_large_rolls_list_one_path_per_destination():
    s = turn(game(), proposal='{"action": "amend", "rule": 109, "text": "d20", "effect": "die=20"}')
    s = roll(s, 20)
    paths = [m for m in RULES.legal_moves(s, s.current) if isinstance(m, Path)]
    assert len(paths) == 80 and all(len(p.steps) == 20 for p in paths)
    ends = set()
    for p in paths:
        RULES.apply(s, s.current, p)
        ends.add((p.steps.count("E") - p.steps.count("W"), p.steps.count("N") - p.steps.count("S")))
    assert len(ends) == 80


def test_vote_and_join_are_the_out_of_turn_moves():
    s = propose(move(game(), "N"), "enact x")
    assert RULES.out_of_turn(s, BOB, Judge("Q?"))
    assert RULES.out_of_turn(s, BOB, Leave())
    assert not RULES.out_of_turn(s, 7, Vote(True))
    assert not RULES.out_of_turn(s, BOB, Propose("enact", None, "y"))
    with pytest.raises(IllegalMove, match="Only the players at the time"):
        RULES.apply(s, 7, Vote(True))


def test_rule_115_aliases_north_is_plus_y_and_east_is_plus_x():
    for path, end in (("N", (0, 1)), ("S", (0, -1)), ("E", (1, 0)), ("W", (-1, 0))):
        s, _ = play(roll(game(), 1), ALICE, path)
        assert s.path[-1] == end


def test_rule_105_every_player_starts_at_the_origin_late_joiners_too():
    s = game()
    assert all(p.pos == (0, 0) for p in s.players)
    s, _ = play(move(s, "EE"), 3, "join 300 Zoe")
    assert s.players[3].pos == (0, 0)


def test_current_player_leaving_keeps_a_pending_question_for_its_judge():
    s = game(["a", "b", "c", "d"])
    s = run(s, (2, "judge Is leaving allowed?"))  # the Judge of a's turn is d
    s, _ = play(s, 0, "leave")
    assert s.current == 1 and s.question is not None and RULES.to_act(s) == frozenset({3})
    s, _ = play(s, 3, "ruling Yes.")
    assert s.phase == "roll" and s.question is None


def test_the_legal_moves_shown_for_a_wrong_path_have_no_duplicates():
    for n in range(1, 21):
        s = roll(game(), n) if n <= 6 else None
        if s is None:
            continue
        with pytest.raises(IllegalMove) as err:
            play(s, ALICE, "N" * (n + 1))
        assert len(set(err.value.legal)) == len(err.value.legal), err.value.legal
    s = roll(game(), 1)
    with pytest.raises(IllegalMove) as err:
        play(s, ALICE, "NN")
    assert err.value.legal == ("N", "E", "S", "W")
