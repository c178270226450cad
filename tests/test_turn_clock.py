"""The match time control shared by `noughts engine --codingame` and the exported bot:
each turn's search ends a margin before its limit, and the margin grows after a late
answer and shrinks back over the next turns."""

from __future__ import annotations

import io
import math
import time

import noughts
import pytest
from hypothesis import given
from hypothesis import strategies as st
from noughts import codingame
from noughts._core import TurnClock


def test_the_first_turn_has_its_own_limit_and_at_least_five_percent_of_it_as_margin():
    clock = TurnClock(100, 1000, 15)
    assert clock.first_turn and clock.limit_ms == 1000 and clock.margin_ms == pytest.approx(50)
    assert clock.search_ms(200) == pytest.approx(1000 - 50 - 200)
    clock.answered(1000 - 50)  # on time
    assert not clock.first_turn and clock.limit_ms == 100 and clock.margin_ms == pytest.approx(15)
    assert clock.search_ms(3) == pytest.approx(100 - 15 - 3)


def test_a_late_answer_widens_the_margin_by_its_lateness_then_the_margin_shrinks_back():
    clock = TurnClock(100, 100, 15)
    clock.search_ms(0)
    clock.answered(100 - 15 + 40)  # 40 ms past the plan: a descheduled process
    assert clock.lateness_ms == pytest.approx(40)
    assert clock.margin_ms >= 40 + 15 / 2
    margins = []
    for _ in range(40):
        planned = 100 - clock.margin_ms
        clock.search_ms(0)
        clock.answered(planned)  # on time from now on
        margins.append(clock.margin_ms)
    assert all(a >= b for a, b in zip(margins, margins[1:]))
    assert margins[0] > 15 and margins[-1] == pytest.approx(15)


def test_a_tiny_limit_still_searches():
    clock = TurnClock(4, 4, 15)
    assert clock.margin_ms == pytest.approx(2)
    assert clock.search_ms(50) == 1.0  # at least a millisecond, even past the limit


@given(
    base=st.floats(0, 200),
    limit=st.floats(1, 2000),
    first=st.floats(1, 2000),
    turns=st.lists(st.tuples(st.floats(0, 5000), st.floats(-1000, 5000)), max_size=30),
)
def test_the_margin_stays_between_the_given_margin_and_half_the_limit(base, limit, first, turns):
    clock = TurnClock(limit, first, base)
    for spent, elapsed in turns:
        lim = clock.limit_ms
        given_margin = max(base, 0.05 * lim) if clock.first_turn else base
        assert min(given_margin, lim / 2) - 1e-9 <= clock.margin_ms <= lim / 2 + 1e-9
        budget = clock.search_ms(spent)
        assert budget >= 1.0 and math.isfinite(budget)
        clock.answered(elapsed)
        assert clock.lateness_ms >= 0


@pytest.mark.parametrize(
    "args", [(0, 100, 15), (100, -1, 15), (100, 100, -1), (math.nan, 100, 15), (100, 100, math.inf)]
)
def test_nonsense_limits_are_refused(args):
    with pytest.raises(noughts.InvalidOptionError, match="milliseconds"):
        TurnClock(*args)


class _Referee(io.StringIO):
    """Answers each of our moves with a legal reply and no list of valid actions, for `turns` turns."""

    def __init__(self, out: _SlowOnce, turns: int) -> None:
        super().__init__("-1 -1\n0\n")
        self.out, self.turns, self.game = out, turns, noughts.Ultimate(tiebreak=True)

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline(size)
        if line or self.turns <= 1:
            return line
        self.turns -= 1
        self.game.play(codingame.grid_to_id(*map(int, self.out.answers[-1].split())))
        reply = self.game.legal_moves()[0].id
        self.game.play(reply)
        row, col = codingame.id_to_grid(reply)
        self.seek(0)
        self.truncate()
        self.write(f"{row} {col}\n0\n")
        self.seek(0)
        return super().readline(size)


class _SlowOnce(io.StringIO):
    """Standard output whose first answer takes `delay` seconds to go out."""

    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay, self.answers = delay, []

    def write(self, s: str) -> int:
        self.answers.append(s)
        return super().write(s)

    def flush(self) -> None:
        if len(self.answers) == 1:
            time.sleep(self.delay)


def test_the_codingame_mode_widens_its_margin_after_an_answer_that_went_out_late():
    out, diagnostics = _SlowOnce(0.03), io.StringIO()
    codingame.run(
        _Referee(out, 3),
        out,
        ms=100,
        first_ms=100,
        margin_ms=10,
        diagnostics=diagnostics,
        started_at=time.perf_counter(),
    )
    margins = [float(line.split("margin=")[1].split()[0]) for line in diagnostics.getvalue().splitlines()]
    assert len(margins) == 3
    # The first answer went out 30 ms or more after its plan; the next turn keeps that much and more.
    assert margins[0] == pytest.approx(10) and margins[1] >= 35 and margins[1] >= margins[2] > 10


def test_only_a_first_line_that_was_already_waiting_counts_from_the_start_of_the_program():
    clock = TurnClock(100, 1000, 15)
    assert clock.began_before_read_ms(0.05, 300) == pytest.approx(300)  # sent while we started up
    assert clock.began_before_read_ms(500, 900) == 0  # we waited for it: sent as it arrived
    clock.search_ms(0)
    clock.answered(900)
    assert clock.began_before_read_ms(0.05, 5000) == 0  # later turns count from arrival


def test_a_turn_whose_start_up_took_its_budget_does_not_widen_the_next_margins():
    clock = TurnClock(100, 1000, 15)
    assert clock.search_ms(1200) == 1.0
    clock.answered(1202)
    assert clock.lateness_ms < 2 and clock.margin_ms == pytest.approx(15)


class _LateFirstLine(io.StringIO):
    """A referee that sends our first line `delay` seconds after we start reading."""

    def __init__(self, text: str, delay: float) -> None:
        super().__init__(text)
        self.delay = delay

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.tell() == 0:
            time.sleep(self.delay)
        return super().readline(size)


def _first_turn_ms(stdin: io.StringIO, started_ago: float) -> float:
    diagnostics = io.StringIO()
    codingame.run(
        stdin,
        io.StringIO(),
        ms=100,
        first_ms=400,
        diagnostics=diagnostics,
        started_at=time.perf_counter() - started_ago,
    )
    return float(diagnostics.getvalue().split("ms=")[1].split()[0])


def test_the_second_player_gets_its_whole_first_turn():
    # Its first line comes after the first player's answer: it waits for it, and the
    # referee's clock starts when the line is sent, not when the program started.
    assert _first_turn_ms(_LateFirstLine("4 4\n0\n", 0.3), started_ago=0.5) < 700


def test_a_first_line_already_waiting_counts_from_the_start_of_the_program():
    assert _first_turn_ms(io.StringIO("-1 -1\n0\n"), started_ago=0.3) >= 300
