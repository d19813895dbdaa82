"""Which words choose the rows a large store's keyword search ranks (kenning.store.keywordplan)."""

from __future__ import annotations

from kenning.store.keywordplan import KeywordPlan, plan


def test_rare_words_that_fit_the_budget_choose_in_query_order() -> None:
    rows = {"deploy": 300_000.0, "kafka": 900.0, "lag": 800.0}
    assert plan(rows, 1_000_000, budget=2_000) == KeywordPlan(("kafka", "lag"))


def test_the_rarest_first_until_the_budget_is_spent() -> None:
    rows = {"a": 1_500.0, "b": 400.0, "c": 700.0, "d": 50_000.0}
    assert plan(rows, 1_000_000, budget=2_000) == KeywordPlan(("b", "c"))


def test_every_word_when_all_fit() -> None:
    rows = {"x": 10.0, "y": 20.0}
    assert plan(rows, 1_000_000, budget=2_000) == KeywordPlan(("x", "y"))


def test_common_words_only_choose_rows_holding_the_rarest_together() -> None:
    rows = {"service": 60_000.0, "deadlock": 25_000.0, "billing": 17_000.0, "fix": 90_000.0}
    # 1M x 0.017 = 17,000 > 2,000; x 0.025 = 425 <= 2,000: the two rarest, together.
    assert plan(rows, 1_000_000, budget=2_000) == KeywordPlan(("deadlock", "billing"),
                                                             every=True)


def test_one_common_word_alone_is_still_searched() -> None:
    assert plan({"service": 60_000.0}, 1_000_000, budget=2_000) == KeywordPlan(("service",))


def test_when_even_every_word_together_is_too_many_all_are_required() -> None:
    rows = {"a": 900_000.0, "b": 800_000.0}
    assert plan(rows, 1_000_000, budget=2_000) == KeywordPlan(("a", "b"), every=True)
