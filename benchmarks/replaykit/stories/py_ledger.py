"""Stories in ``ledger``, a small Python accounting library (pytest, ruff, SQLAlchemy)."""

from __future__ import annotations

from replaykit.story import (
    Bash,
    Commit,
    Edit,
    Probe,
    Project,
    Read,
    Say,
    Session,
    Story,
    User,
    Write,
    lesson,
)

LEDGER = Project("ledger", "python", {
    "pyproject.toml": (
        '[project]\nname = "ledger"\nversion = "0.3.0"\nrequires-python = ">=3.11"\n'
        'dependencies = ["sqlalchemy>=2"]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'
    ),
    "src/ledger/__init__.py": '"""Double-entry ledger."""\n',
    "src/ledger/money.py": (
        "from decimal import Decimal\n\n\n"
        "def to_cents(amount: Decimal) -> int:\n    return int(amount * 100)\n"
    ),
    "src/ledger/accounts.py": (
        "from ledger.money import to_cents\n\n\n"
        "class Account:\n    def __init__(self, name):\n        self.name = name\n"
        "        self.balance = 0\n"
    ),
    "tests/test_money.py": (
        "from decimal import Decimal\n\nfrom ledger.money import to_cents\n\n\n"
        "def test_to_cents():\n    assert to_cents(Decimal('1.10')) == 110\n"
    ),
})

PYTEST_FAIL = (
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.11.7, pytest-8.3.2, pluggy-1.5.0\n"
    "rootdir: /work/ledger\nconfigfile: pyproject.toml\ncollected 14 items\n\n"
    "tests/test_money.py ..F.                                                 [ 28%]\n"
    "tests/test_accounts.py ..........                                        [100%]\n\n"
    "=================================== FAILURES ===================================\n"
    "_____________________________ test_round_half_even _____________________________\n\n"
    "    def test_round_half_even():\n>       assert to_cents(Decimal('0.125')) == 12\n"
    "E       AssertionError: assert 13 == 12\n\ntests/test_money.py:14: AssertionError\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/test_money.py::test_round_half_even - AssertionError: assert 13 == 12\n"
    "========================= 1 failed, 13 passed in 0.41s ========================="
)
PYTEST_PASS = (
    "..............                                                           [100%]\n"
    "14 passed in 0.38s"
)

ROUNDING = Story(
    id="py-ledger-rounding",
    title="A rounding gotcha found through a failing test, its fix, and the test command",
    project=LEDGER,
    lessons=(
        lesson("round-bankers", "gotcha",
               "Money rounds half-even (banker's rounding) with Decimal.quantize; int() "
               "truncation broke test_round_half_even",
               "banker|ROUND_HALF_EVEN|quantize"),
        lesson("test-cmd", "command", "Run the tests with `uv run pytest -q`",
               "uv run pytest"),
    ),
    also=(
        # session 1, write: "part = (amount / n).quantize(Decimal('0.01'), rounding=ROUND_HALF_EVEN)
        # ... return [*parts, amount - sum(parts)]"
        lesson("also-split-remainder", "fact",
               "split() in src/ledger/split.py rounds each part to cents half-even and gives the "
               "last "
               "part the remainder (amount minus the sum of the others), so no cent is lost",
               "split",
               "remainder|last part|sum|lose|losing|lost"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning! the round-half-even test has been red since friday, can you take "
                 "a look? oh and I'd like you to run the tests with uv run pytest -q, not bare "
                 "pytest, the venv is managed by uv here.", states="test-cmd"),
            Bash("uv run pytest -q", out=PYTEST_FAIL, ok=False),
            Read("src/ledger/money.py"),
            Say("to_cents truncates with int(); amounts must round half-even (banker's "
                "rounding), so 0.125 becomes 12 cents. I'll use Decimal.quantize with "
                "ROUND_HALF_EVEN."),
            Edit("src/ledger/money.py", "from decimal import Decimal\n",
                 "from decimal import ROUND_HALF_EVEN, Decimal\n"),
            Edit("src/ledger/money.py", "    return int(amount * 100)\n",
                 "    return int((amount * 100).quantize(Decimal('1'), "
                 "rounding=ROUND_HALF_EVEN))\n", states="round-bankers"),
            Bash("uv run pytest -q", out=PYTEST_PASS),
            Commit("Round money half-even (banker's rounding) in to_cents"),
            User("nice, thanks"),
        )),
        Session(day=2.1, events=(
            User("hey, can you add a Money.split(n) helper that splits an amount into n parts "
                 "without losing a cent?"),
            Probe("how should split() round the parts? keep it consistent with to_cents",
                  needs=("round-bankers",)),
            Write("src/ledger/split.py",
                  "from decimal import ROUND_HALF_EVEN, Decimal\n\n\n"
                  "def split(amount: Decimal, n: int) -> list[Decimal]:\n"
                  "    part = (amount / n).quantize(Decimal('0.01'), rounding=ROUND_HALF_EVEN)\n"
                  "    parts = [part] * (n - 1)\n    return [*parts, amount - sum(parts)]\n"),
            Probe("run the tests please", needs=("test-cmd",)),
            Bash("uv run pytest -q", out=PYTEST_PASS),
        ), judge={"test-cmd": "not_down"}),
    ),
)

STORIES = [ROUNDING]
