"""Which words choose the rows a large store's keyword search ranks (kenning.store.keywordplan)."""

from __future__ import annotations

from kenning.store.keywordplan import KeywordPlan, plan


def test_every_word_when_all_fit() -> None:
    assert plan({"x": 10.0, "y": 20.0}, 1_000_000, budget=2_000) == KeywordPlan(("x", "y"))


def test_rare_words_fill_half_the_budget_rarest_first_in_query_order() -> None:
    rows = {"a": 900.0, "b": 400.0, "c": 500.0, "d": 50_000.0}
    got = plan(rows, 1_000_000, budget=2_000)
    assert got.any_of == ("b", "c")  # a would pass 1,000
    assert got.together == (("a", "d"),)  # 1M x 0.0009 x 0.05 = 45 joint rows


def test_common_words_choose_rows_holding_two_of_them() -> None:
    rows = {"service": 60_000.0, "deadlock": 25_000.0, "billing": 17_000.0, "fix": 90_000.0}
    got = plan(rows, 1_000_000, budget=2_000)
    assert got.any_of == ()
    # Pairs by fewest joint rows (425, 1,020, 1,530, ...) while they fit 1,000 in all.
    assert got.together == (("deadlock", "billing"),)
    assert set(got.words) == {"deadlock", "billing"}


def test_when_no_pair_fits_the_fewest_words_that_fit_together() -> None:
    rows = {"a": 900_000.0, "b": 800_000.0, "c": 700_000.0, "d": 10_000.0}
    got = plan(rows, 1_000_000, budget=2_000)
    # d alone is 10,000; every pair is over 1,000; d, c, b together: 10,000 x .7 x .8 = 5,600,
    # with a as well 5,040: none fits, so all four are required.
    assert got == KeywordPlan((), (("a", "b", "c", "d"),))


def test_one_common_word_alone_is_still_searched() -> None:
    assert plan({"service": 60_000.0}, 1_000_000, budget=2_000) == KeywordPlan(("service",))


def test_an_absent_word_costs_nothing_and_the_others_still_compete() -> None:
    rows = {"known": 0.0, "bazel": 15_000.0, "permissions": 17_000.0}
    got = plan(rows, 1_000_000, budget=2_000)
    assert got.any_of == ("known",)
    assert got.together == (("bazel", "permissions"),)
