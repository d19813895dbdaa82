"""Stories in two Python services: ``orderdesk`` (a FastAPI order API with SQLAlchemy 2, Alembic
and Celery on Redis) and ``tidepool`` (a click + pandas + pydantic data-pipeline CLI for
tide-gauge readings). Runners: pytest, python -m pytest, uv run pytest, make test/lint, tox,
ruff and mypy."""

from __future__ import annotations

from replaykit.story import (
    Bash,
    Commit,
    Compact,
    Edit,
    Note,
    Probe,
    Project,
    Read,
    Say,
    Session,
    Story,
    Subagent,
    User,
    Write,
    lesson,
)

# --- pytest output helpers --------------------------------------------------------------------


def _bar(text: str) -> str:
    """A pytest separator line: ``text`` centred in 80 columns of '='."""
    return f" {text} ".center(80, "=")


def _q(n: int, secs: float) -> str:
    """``pytest -q`` output of ``n`` passing tests."""
    return f"{'.' * n:<74}[100%]\n{n} passed in {secs:.2f}s"


def _full(head: str, files: list[tuple[str, int]], secs: float) -> str:
    """Verbose-header pytest output of passing ``files`` (path, number of tests)."""
    total = sum(n for _, n in files)
    lines, done = [], 0
    for path, n in files:
        done += n
        lines.append(f"{path + ' ' + '.' * n:<74}[{done * 100 // total:3d}%]")
    return (f"{_bar('test session starts')}\n{head}collected {total} items\n\n"
            + "\n".join(lines) + f"\n\n{_bar(f'{total} passed in {secs:.2f}s')}")


def _tox_ok(env: str, body: str, setup: float, cmd: float) -> str:
    """tox 4 output of one passing env running ``body``."""
    return (f"{env}: commands[0]> pytest\n{body}\n"
            f"  {env}: OK ({setup + cmd:.2f}=setup[{setup:.2f}]+cmd[{cmd:.2f}] seconds)\n"
            f"  congratulations :) ({setup + cmd + 0.07:.2f} seconds)")


OD_HEAD = (
    "platform linux -- Python 3.12.3, pytest-8.2.2, pluggy-1.5.0\n"
    "rootdir: /home/mara/src/orderdesk\nconfigfile: pyproject.toml\ntestpaths: tests\n"
    "plugins: anyio-4.4.0\n"
)
TP_HEAD = (
    "platform linux -- Python 3.12.3, pytest-8.2.2, pluggy-1.5.0\n"
    "cachedir: .tox/py312/.pytest_cache\n"
    "rootdir: /home/dev/tidepool\nconfigfile: pyproject.toml\ntestpaths: tests\n"
)

# --- orderdesk: FastAPI + SQLAlchemy + Alembic + Celery ---------------------------------------

ORDERDESK = Project("orderdesk", "python", {
    "pyproject.toml": """\
[project]
name = "orderdesk"
version = "0.7.2"
description = "Order intake and fulfilment API"
requires-python = ">=3.12"
dependencies = [
    "fastapi>=0.111",
    "uvicorn[standard]>=0.30",
    "sqlalchemy>=2.0.30",
    "alembic>=1.13",
    "psycopg[binary]>=3.1",
    "celery[redis]>=5.4",
    "pydantic-settings>=2.3",
    "httpx>=0.27",
    "structlog>=24.1",
]

[project.optional-dependencies]
dev = ["pytest>=8.2", "ruff>=0.5", "mypy>=1.10"]

[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "-ra"

[tool.ruff]
line-length = 100
src = ["src"]

[tool.mypy]
strict = true
plugins = ["pydantic.mypy"]
""",
    "Makefile": (
        ".PHONY: test lint migrate worker release\n\ntest:\n\tpytest -q\n\n"
        "lint:\n\truff check src tests\n\tmypy src\n\n"
        "migrate:\n\talembic upgrade head\n\n"
        "worker:\n\tcelery -A orderdesk.worker worker -l info\n\n"
        "release:\n\t./scripts/release.sh $(ENV)\n"
    ),
    "README.md": """\
# orderdesk

Order intake and fulfilment API for the wholesale shop (FastAPI, SQLAlchemy 2, Alembic, Celery).

## Setup

Python 3.11+, Postgres 16 and Redis 7 (`docker compose up -d`).

    pip install -e '.[dev]'
    make migrate
    uvicorn orderdesk.main:app --reload
""",
    "docker-compose.yml": """\
services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: orderdesk
      POSTGRES_PASSWORD: orderdesk
      POSTGRES_DB: orderdesk
    ports: ["5432:5432"]
  redis:
    image: redis:7
    ports: ["6379:6379"]
""",
    ".env.example": """\
# Copy to .env for local development. All settings use the ORDERDESK_ prefix.
ORDERDESK_DATABASE_URL=postgresql+psycopg://orderdesk:orderdesk@localhost:5432/orderdesk
# Celery broker and result backend
ORDERDESK_REDIS_URL=redis://localhost:6379/0
ORDERDESK_MAIL_API=http://localhost:8025/api
ORDERDESK_DEBUG=false
""",
    "alembic.ini": """\
[alembic]
script_location = migrations
prepend_sys_path = src
file_template = %%(year)d%%(month).2d%%(day).2d_%%(rev)s_%%(slug)s
""",
    "src/orderdesk/__init__.py": '"""orderdesk: order intake and fulfilment API."""\n',
    "src/orderdesk/settings.py": """\
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ORDERDESK_", env_file=".env")

    database_url: str = "postgresql+psycopg://orderdesk:orderdesk@localhost:5432/orderdesk"
    redis_url: str = "redis://localhost:6379/0"
    mail_api: str = "http://localhost:8025/api"
    debug: bool = False


settings = Settings()
""",
    "src/orderdesk/db.py": """\
from collections.abc import Iterator

from sqlalchemy import create_engine
from sqlalchemy.orm import Session, sessionmaker

from orderdesk.settings import settings

engine = create_engine(settings.database_url, pool_pre_ping=True)
SessionLocal = sessionmaker(bind=engine, expire_on_commit=False)


def get_session() -> Iterator[Session]:
    with SessionLocal() as session:
        yield session
""",
    "src/orderdesk/models.py": """\
import enum
import uuid
from datetime import datetime
from decimal import Decimal

from sqlalchemy import Enum, ForeignKey, Numeric, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class OrderStatus(enum.Enum):
    pending = "pending"
    paid = "paid"
    shipped = "shipped"
    cancelled = "cancelled"


class Customer(Base):
    __tablename__ = "customers"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    email: Mapped[str] = mapped_column(unique=True)
    orders: Mapped[list["Order"]] = relationship(back_populates="customer")


class Order(Base):
    __tablename__ = "orders"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    customer_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("customers.id"))
    status: Mapped[OrderStatus] = mapped_column(
        Enum(OrderStatus, name="order_status"), default=OrderStatus.pending
    )
    total: Mapped[Decimal] = mapped_column(Numeric(12, 2))
    refund_ref: Mapped[str | None]
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())
    customer: Mapped[Customer] = relationship(back_populates="orders")
    lines: Mapped[list["OrderLine"]] = relationship(back_populates="order")


class OrderLine(Base):
    __tablename__ = "order_lines"

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("orders.id"))
    sku: Mapped[str]
    qty: Mapped[int]
    unit_price: Mapped[Decimal] = mapped_column(Numeric(12, 2))
    order: Mapped[Order] = relationship(back_populates="lines")
""",
    "src/orderdesk/api/__init__.py": "",
    "src/orderdesk/api/orders.py": """\
import uuid
from decimal import Decimal

from fastapi import APIRouter, Depends, HTTPException
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select
from sqlalchemy.orm import Session

from orderdesk.db import get_session
from orderdesk.models import Order, OrderStatus
from orderdesk.worker import send_confirmation

router = APIRouter(prefix="/orders", tags=["orders"])


class LineOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    sku: str
    qty: int
    unit_price: Decimal


class OrderOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    status: OrderStatus
    total: Decimal
    lines: list[LineOut]


class OrderIn(BaseModel):
    customer_id: uuid.UUID
    total: Decimal


@router.get("/{order_id}", response_model=OrderOut)
def get_order(order_id: uuid.UUID, session: Session = Depends(get_session)) -> Order:
    order = session.get(Order, order_id)
    if order is None:
        raise HTTPException(status_code=404, detail="order not found")
    return order


@router.get("", response_model=list[OrderOut])
def list_orders(customer_id: uuid.UUID, session: Session = Depends(get_session)) -> list[Order]:
    stmt = select(Order).where(Order.customer_id == customer_id).order_by(Order.created_at)
    return list(session.scalars(stmt))


@router.post("", response_model=OrderOut, status_code=201)
def create_order(body: OrderIn, session: Session = Depends(get_session)) -> Order:
    order = Order(customer_id=body.customer_id, total=body.total)
    session.add(order)
    session.commit()
    send_confirmation.delay(str(order.id))
    return order
""",
    "src/orderdesk/mailer.py": """\
\"\"\"Outgoing mail through the provider's HTTP API (patched out in tests).\"\"\"

import httpx

from orderdesk.settings import settings


def send_mail(to: str, template: str, **params: str) -> None:
    resp = httpx.post(
        f"{settings.mail_api}/send",
        json={"to": to, "template": template, "params": params},
        timeout=10,
    )
    resp.raise_for_status()
""",
    "src/orderdesk/worker.py": """\
import uuid

from celery import Celery
from sqlalchemy.orm import Session

from orderdesk.db import SessionLocal
from orderdesk.mailer import send_mail
from orderdesk.models import Order, OrderStatus
from orderdesk.settings import settings

app = Celery("orderdesk", broker=settings.redis_url, backend=settings.redis_url)
app.conf.update(task_serializer="json", accept_content=["json"], task_acks_late=True)


class OrderNotFound(Exception):
    pass


def _load(session: Session, order_id: str) -> Order:
    order = session.get(Order, uuid.UUID(order_id))
    if order is None:
        raise OrderNotFound(f"order {order_id} not found")
    return order


@app.task
def send_confirmation(order_id: str) -> None:
    with SessionLocal() as session:
        order = _load(session, order_id)
        send_mail(order.customer.email, "order_confirmed", order_id=order_id)


@app.task
def mark_paid(order_id: str, payment_ref: str) -> None:
    with SessionLocal() as session:
        order = _load(session, order_id)
        order.status = OrderStatus.paid
        session.commit()
""",
    "src/orderdesk/main.py": """\
from fastapi import FastAPI

from orderdesk.api import orders

app = FastAPI(title="orderdesk")
app.include_router(orders.router)


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}
""",
    "migrations/env.py": """\
from alembic import context
from sqlalchemy import engine_from_config, pool

from orderdesk.models import Base
from orderdesk.settings import settings

config = context.config
config.set_main_option("sqlalchemy.url", settings.database_url)


def run_migrations_online() -> None:
    connectable = engine_from_config(
        config.get_section(config.config_ini_section, {}),
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    with connectable.connect() as connection:
        context.configure(connection=connection, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()


run_migrations_online()
""",
    "migrations/versions/20240312_a1f3c9e2b7d4_init.py": """\
\"\"\"init

Revision ID: a1f3c9e2b7d4
Revises:
Create Date: 2024-03-12 10:04:51.118233
\"\"\"
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "a1f3c9e2b7d4"
down_revision = None


def upgrade() -> None:
    status = sa.Enum("pending", "paid", "shipped", "cancelled", name="order_status")
    op.create_table(
        "customers",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("email", sa.String(), nullable=False, unique=True),
    )
    op.create_table(
        "orders",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("customer_id", sa.Uuid(), sa.ForeignKey("customers.id"), nullable=False),
        sa.Column("status", status, nullable=False),
        sa.Column("total", sa.Numeric(12, 2), nullable=False),
        sa.Column("refund_ref", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(), server_default=sa.func.now(), nullable=False),
    )
    op.create_table(
        "order_lines",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("order_id", sa.Uuid(), sa.ForeignKey("orders.id"), nullable=False),
        sa.Column("sku", sa.String(), nullable=False),
        sa.Column("qty", sa.Integer(), nullable=False),
        sa.Column("unit_price", sa.Numeric(12, 2), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("order_lines")
    op.drop_table("orders")
    op.drop_table("customers")
    sa.Enum(name="order_status").drop(op.get_bind())
""",
    "tests/conftest.py": """\
from contextlib import nullcontext

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from orderdesk.db import get_session
from orderdesk.main import app
from orderdesk.models import Base
from orderdesk.worker import app as celery_app

TEST_DB = "postgresql+psycopg://orderdesk:orderdesk@localhost:5432/orderdesk_test"

celery_app.conf.task_always_eager = True


@pytest.fixture(scope="session")
def engine():
    eng = create_engine(TEST_DB)
    Base.metadata.create_all(eng)
    yield eng
    Base.metadata.drop_all(eng)


@pytest.fixture
def db_session(engine):
    with engine.connect() as conn:
        trans = conn.begin()
        session = Session(bind=conn, join_transaction_mode="create_savepoint")
        yield session
        session.close()
        trans.rollback()


@pytest.fixture
def client(db_session, monkeypatch):
    monkeypatch.setattr("orderdesk.worker.SessionLocal", lambda: nullcontext(db_session))
    monkeypatch.setattr("orderdesk.worker.send_mail", lambda *args, **kwargs: None)
    app.dependency_overrides[get_session] = lambda: db_session
    yield TestClient(app)
    app.dependency_overrides.clear()
""",
    "tests/test_health.py": """\
def test_health(client):
    resp = client.get("/health")
    assert resp.status_code == 200
    assert resp.json()["status"] == "ok"
""",
    "tests/test_orders.py": """\
from decimal import Decimal

from orderdesk.models import Customer, Order, OrderLine


def _customer(db_session) -> Customer:
    customer = Customer(email="ada@example.com")
    db_session.add(customer)
    db_session.flush()
    return customer


def test_create_and_get_order(client, db_session):
    customer = _customer(db_session)
    resp = client.post("/orders", json={"customer_id": str(customer.id), "total": "19.90"})
    assert resp.status_code == 201
    order_id = resp.json()["id"]
    body = client.get(f"/orders/{order_id}").json()
    assert body["status"] == "pending"
    assert body["total"] == "19.90"


def test_list_orders_includes_lines(client, db_session):
    customer = _customer(db_session)
    order = Order(customer=customer, total=Decimal("5.00"))
    order.lines.append(OrderLine(sku="TEA-01", qty=2, unit_price=Decimal("2.50")))
    db_session.add(order)
    db_session.flush()
    body = client.get("/orders", params={"customer_id": str(customer.id)}).json()
    assert [line["sku"] for line in body[0]["lines"]] == ["TEA-01"]


def test_missing_order_is_404(client):
    resp = client.get("/orders/00000000-0000-0000-0000-000000000000")
    assert resp.status_code == 404
""",
})

# --- tidepool: click + pandas + pydantic pipeline CLI ------------------------------------------

TIDEPOOL = Project("tidepool", "python", {
    "pyproject.toml": """\
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "tidepool"
version = "1.4.0"
description = "Tide-gauge data pipeline"
requires-python = ">=3.11"
dependencies = [
    "click>=8.1",
    "pandas>=2.1",
    "pyarrow>=15",
    "pydantic>=1.10",
]

[project.optional-dependencies]
dev = ["pytest>=8", "ruff>=0.4", "mypy>=1.9"]

[project.scripts]
tidepool = "tidepool.cli:main"

[tool.pytest.ini_options]
testpaths = ["tests"]
filterwarnings = ["error"]

[tool.ruff]
line-length = 100
target-version = "py311"

[tool.ruff.lint]
select = ["E", "F", "I", "B", "UP"]

[tool.mypy]
strict = true
files = ["src/tidepool"]
""",
    "tox.ini": """\
[tox]
env_list = py311, py312, lint

[testenv]
extras = dev
commands = pytest {posargs}

[testenv:lint]
extras = dev
commands =
    ruff check src tests
    ruff format --check src tests
    mypy
""",
    "src/tidepool/__init__.py": (
        '"""tidepool: clean and aggregate tide-gauge readings."""\n\n__version__ = "1.4.0"\n'
    ),
    "src/tidepool/stations.py": """\
\"\"\"Gauge stations: id -> (display name, IANA timezone of the raw exports).\"\"\"

STATIONS: dict[str, tuple[str, str]] = {
    "KWAJ": ("Kwajalein", "Pacific/Kwajalein"),
    "BOST": ("Boston", "America/New_York"),
    "BRST": ("Brest", "Europe/Paris"),
}
""",
    "src/tidepool/schema.py": """\
from datetime import datetime

from pydantic import BaseModel, validator

UNITS = {"m", "ft"}


class Reading(BaseModel):
    station_id: str
    ts: datetime
    value: float
    unit: str = "m"

    @validator("unit")
    def known_unit(cls, v: str) -> str:
        if v not in UNITS:
            raise ValueError(f"unknown unit {v!r}")
        return v

    class Config:
        frozen = True


class Station(BaseModel):
    id: str
    name: str
    tz: str
""",
    "src/tidepool/io.py": """\
from pathlib import Path

import pandas as pd

from tidepool.schema import Reading

COLUMNS = ["station_id", "ts", "value", "unit"]


def read_readings(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, comment="#", parse_dates=["ts"])


def validate_rows(df: pd.DataFrame) -> list[Reading]:
    return [Reading(**rec) for rec in df.to_dict(orient="records")]


def read_table(path: Path) -> pd.DataFrame:
    return pd.read_parquet(path)


def write_table(df: pd.DataFrame, path: Path) -> None:
    df.to_parquet(path, index=False)
""",
    "src/tidepool/transform.py": """\
import pandas as pd

FT_TO_M = 0.3048


def _to_metres(row: pd.Series) -> float:
    if row["unit"] == "ft":
        return row["value"] * FT_TO_M
    return row["value"]


def clean(df: pd.DataFrame) -> pd.DataFrame:
    df = df.dropna(subset=["value"]).copy()
    df["value"] = df.apply(_to_metres, axis=1)
    df["unit"] = "m"
    return df.drop_duplicates(subset=["station_id", "ts"])


def daily_means(df: pd.DataFrame) -> pd.DataFrame:
    return (
        df.set_index("ts")
        .groupby("station_id")["value"]
        .resample("1D")
        .mean()
        .reset_index()
    )
""",
    "src/tidepool/cli.py": """\
from pathlib import Path

import click

from tidepool.io import read_readings, read_table, validate_rows, write_table
from tidepool.transform import clean, daily_means


@click.group()
@click.version_option()
def main() -> None:
    \"\"\"tidepool: clean and aggregate tide-gauge readings.\"\"\"


@main.command()
@click.argument("src", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def ingest(src: Path, out: Path) -> None:
    \"\"\"Clean a raw gauge export and write it as a table.\"\"\"
    df = read_readings(src)
    validate_rows(df)
    df = clean(df)
    write_table(df, out)
    click.echo(f"wrote {len(df)} rows to {out}")


@main.command()
@click.argument("table", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def report(table: Path) -> None:
    \"\"\"Print the daily mean water level per station.\"\"\"
    click.echo(daily_means(read_table(table)).to_string(index=False))
""",
    "tests/test_transform.py": """\
import pandas as pd
import pytest

from tidepool.transform import clean, daily_means


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "station_id": ["KWAJ", "KWAJ", "KWAJ"],
            "ts": pd.to_datetime(["2024-03-01 00:00", "2024-03-01 06:00", "2024-03-01 06:00"]),
            "value": [1.20, 3.0, 3.0],
            "unit": ["m", "ft", "ft"],
        }
    )


def test_clean_converts_feet_and_dedupes() -> None:
    out = clean(_frame())
    assert len(out) == 2
    assert (out["unit"] == "m").all()
    assert out["value"].iloc[1] == pytest.approx(0.9144)


def test_daily_means() -> None:
    out = daily_means(clean(_frame()))
    assert out["value"].iloc[0] == pytest.approx((1.20 + 0.9144) / 2)
""",
    "tests/test_cli.py": """\
from pathlib import Path

from click.testing import CliRunner

from tidepool.cli import main

RAW = "# station export v2\\nstation_id,ts,value,unit\\nKWAJ,2024-03-01T00:00,1.2,m\\n"


def test_ingest_writes_table(tmp_path: Path) -> None:
    src = tmp_path / "raw.csv"
    src.write_text(RAW)
    out = tmp_path / "clean.parquet"
    result = CliRunner().invoke(main, ["ingest", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "wrote 1 rows" in result.output
    assert out.exists()
""",
    "tests/test_schema.py": """\
import pandas as pd
import pytest

from tidepool.io import validate_rows


def _rows(**overrides: object) -> pd.DataFrame:
    row = {"station_id": 8443970, "ts": pd.Timestamp("2024-03-01"), "value": 1.0, "unit": "m"}
    row.update(overrides)
    return pd.DataFrame([row])


def test_numeric_station_ids_become_strings() -> None:
    assert validate_rows(_rows())[0].station_id == "8443970"


def test_unknown_unit_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown unit"):
        validate_rows(_rows(unit="fathom"))
""",
})

# === orderdesk stories ========================================================================

# --- py-orderdesk-enum-migration --------------------------------------------------------------

ALEMBIC_INFO = (
    "INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\n"
    "INFO  [alembic.runtime.migration] Will assume transactional DDL.\n"
)
REV_REFUNDED = "migrations/versions/20240408_5c2e81d0f3a7_add_refunded_order_status.py"
REV_INDEX = "migrations/versions/20240411_9d04be6a21c5_index_orders_created_at.py"
REV_PHONE = "migrations/versions/20240416_3b7f52c8e019_add_customers_phone.py"
REV_PARTIAL = "migrations/versions/20240420_e61a0c4d7b92_add_partially_refunded_order_status.py"

MIGRATE_UNSAFE_ENUM = "alembic upgrade head\n" + ALEMBIC_INFO + (
    "INFO  [alembic.runtime.migration] Running upgrade a1f3c9e2b7d4 -> 5c2e81d0f3a7, "
    "add refunded order status\n"
    "Traceback (most recent call last):\n"
    '  File "/home/mara/src/orderdesk/.venv/lib/python3.12/site-packages/sqlalchemy/engine/'
    'base.py", line 1967, in _exec_single_context\n'
    "    self.dialect.do_execute(\n"
    '  File "/home/mara/src/orderdesk/.venv/lib/python3.12/site-packages/sqlalchemy/engine/'
    'default.py", line 924, in do_execute\n'
    "    cursor.execute(statement, parameters)\n"
    '  File "/home/mara/src/orderdesk/.venv/lib/python3.12/site-packages/psycopg/cursor.py", '
    "line 732, in execute\n"
    "    raise ex.with_traceback(None)\n"
    "psycopg.errors.UnsafeNewEnumValueUsage: unsafe use of new value \"refunded\" of enum type "
    "order_status\n"
    "HINT:  New enum values must be committed before they can be used.\n\n"
    "The above exception was the direct cause of the following exception:\n\n"
    "Traceback (most recent call last):\n"
    '  File "/home/mara/src/orderdesk/.venv/bin/alembic", line 8, in <module>\n'
    "    sys.exit(main())\n"
    "  [... 14 lines of alembic/sqlalchemy frames ...]\n"
    f'  File "/home/mara/src/orderdesk/{REV_REFUNDED}", line 15, in upgrade\n'
    "    op.execute(\n"
    "sqlalchemy.exc.DBAPIError: (psycopg.errors.UnsafeNewEnumValueUsage) unsafe use of new value "
    "\"refunded\" of enum type order_status\n"
    "HINT:  New enum values must be committed before they can be used.\n"
    "[SQL: UPDATE orders SET status = 'refunded' WHERE status = 'cancelled' AND refund_ref IS "
    "NOT NULL]\n"
    "(Background on this error at: https://sqlalche.me/e/20/dbapi)\n"
    "make: *** [Makefile:11: migrate] Error 1"
)
MIGRATE_OK_REFUNDED = (
    "alembic upgrade head\n" + ALEMBIC_INFO
    + "INFO  [alembic.runtime.migration] Running upgrade a1f3c9e2b7d4 -> 5c2e81d0f3a7, "
    "add refunded order status"
)
ROUNDTRIP_INDEX = ALEMBIC_INFO + (
    "INFO  [alembic.runtime.migration] Running upgrade 5c2e81d0f3a7 -> 9d04be6a21c5, "
    "index orders.created_at\n" + ALEMBIC_INFO
    + "INFO  [alembic.runtime.migration] Running downgrade 9d04be6a21c5 -> 5c2e81d0f3a7, "
    "index orders.created_at\n" + ALEMBIC_INFO
    + "INFO  [alembic.runtime.migration] Running upgrade 5c2e81d0f3a7 -> 9d04be6a21c5, "
    "index orders.created_at"
)
ALEMBIC_DB_DOWN = (
    "Traceback (most recent call last):\n"
    '  File "/home/mara/src/orderdesk/.venv/lib/python3.12/site-packages/sqlalchemy/engine/'
    'base.py", line 145, in __init__\n'
    "    self._dbapi_connection = engine.raw_connection()\n"
    "  [... 22 lines of sqlalchemy/psycopg frames ...]\n"
    "psycopg.OperationalError: connection failed: connection to server at \"127.0.0.1\", "
    "port 5432 failed: Connection refused\n"
    "\tIs the server running on that host and accepting TCP/IP connections?\n\n"
    "The above exception was the direct cause of the following exception:\n\n"
    "Traceback (most recent call last):\n"
    '  File "/home/mara/src/orderdesk/.venv/bin/alembic", line 8, in <module>\n'
    "    sys.exit(main())\n"
    "  [... 31 lines of alembic/sqlalchemy frames ...]\n"
    "sqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection failed: connection "
    "to server at \"127.0.0.1\", port 5432 failed: Connection refused\n"
    "\tIs the server running on that host and accepting TCP/IP connections?\n"
    "(Background on this error at: https://sqlalche.me/e/20/e3q8)"
)
ROUNDTRIP_PHONE = ALEMBIC_INFO + (
    "INFO  [alembic.runtime.migration] Running upgrade 9d04be6a21c5 -> 3b7f52c8e019, "
    "add customers.phone\n" + ALEMBIC_INFO
    + "INFO  [alembic.runtime.migration] Running downgrade 3b7f52c8e019 -> 9d04be6a21c5, "
    "add customers.phone\n" + ALEMBIC_INFO
    + "INFO  [alembic.runtime.migration] Running upgrade 9d04be6a21c5 -> 3b7f52c8e019, "
    "add customers.phone"
)
ROUNDTRIP_PARTIAL = ALEMBIC_INFO + (
    "INFO  [alembic.runtime.migration] Running upgrade 3b7f52c8e019 -> e61a0c4d7b92, "
    "add partially_refunded order status\n" + ALEMBIC_INFO
    + "INFO  [alembic.runtime.migration] Running downgrade e61a0c4d7b92 -> 3b7f52c8e019, "
    "add partially_refunded order status\n" + ALEMBIC_INFO
    + "INFO  [alembic.runtime.migration] Running upgrade 3b7f52c8e019 -> e61a0c4d7b92, "
    "add partially_refunded order status"
)

MIG_REFUNDED = '''\
"""add refunded order status

Revision ID: 5c2e81d0f3a7
Revises: a1f3c9e2b7d4
Create Date: 2024-04-08 09:41:12.530174
"""
from alembic import op

revision = "5c2e81d0f3a7"
down_revision = "a1f3c9e2b7d4"


def upgrade() -> None:
    op.execute("ALTER TYPE order_status ADD VALUE 'refunded'")
    op.execute(
        "UPDATE orders SET status = 'refunded' "
        "WHERE status = 'cancelled' AND refund_ref IS NOT NULL"
    )


def downgrade() -> None:
    # Postgres cannot drop a value from an enum type; 'refunded' stays defined.
    op.execute("UPDATE orders SET status = 'cancelled' WHERE status = 'refunded'")
'''
MIG_INDEX = '''\
"""index orders.created_at

Revision ID: 9d04be6a21c5
Revises: 5c2e81d0f3a7
Create Date: 2024-04-11 14:02:37.904411
"""
from alembic import op

revision = "9d04be6a21c5"
down_revision = "5c2e81d0f3a7"


def upgrade() -> None:
    op.create_index("ix_orders_created_at", "orders", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_orders_created_at", table_name="orders")
'''
MIG_PHONE = '''\
"""add customers.phone

Revision ID: 3b7f52c8e019
Revises: 9d04be6a21c5
Create Date: 2024-04-16 10:15:08.221930
"""
import sqlalchemy as sa
from alembic import op

revision = "3b7f52c8e019"
down_revision = "9d04be6a21c5"


def upgrade() -> None:
    op.add_column("customers", sa.Column("phone", sa.String(length=16), nullable=True))


def downgrade() -> None:
    op.drop_column("customers", "phone")
'''
MIG_PARTIAL = '''\
"""add partially_refunded order status

Revision ID: e61a0c4d7b92
Revises: 3b7f52c8e019
Create Date: 2024-04-20 11:48:55.017264
"""
from alembic import op

revision = "e61a0c4d7b92"
down_revision = "3b7f52c8e019"


def upgrade() -> None:
    # A new enum value can't be used in the transaction that adds it: commit it first.
    with op.get_context().autocommit_block():
        op.execute("ALTER TYPE order_status ADD VALUE IF NOT EXISTS 'partially_refunded'")
    op.execute(
        "UPDATE orders SET status = 'partially_refunded' "
        "WHERE status = 'paid' AND refund_ref IS NOT NULL"
    )


def downgrade() -> None:
    # Postgres cannot drop a value from an enum type; 'partially_refunded' stays defined.
    op.execute("UPDATE orders SET status = 'paid' WHERE status = 'partially_refunded'")
'''

ENUM_MIGRATION = Story(
    id="py-orderdesk-enum-migration",
    title="Alembic house rules (new revisions only, round-trip), a Postgres enum gotcha, and "
          "why green pytest says nothing about migrations",
    project=ORDERDESK,
    lessons=(
        lesson("alembic-new-rev", "convention",
               "Never edit an Alembic migration that is already merged (staging has run it); "
               "always add a new revision",
               "alembic|migration|revision", "merged|applied|existing|already",
               "edit|modif|rewrit|touch|change"),
        lesson("enum-autocommit", "gotcha",
               "Alembic autogenerate does not detect new values of the Postgres enum "
               "order_status; write ALTER TYPE order_status ADD VALUE by hand inside "
               "op.get_context().autocommit_block(), because a new enum value can't be used in "
               "the transaction that adds it (UnsafeNewEnumValueUsage)",
               "enum|order_status", "alter type|add value|autocommit|UnsafeNewEnumValueUsage"),
        lesson("tests-create-all", "fact",
               "The pytest database orderdesk_test is built with Base.metadata.create_all in "
               "tests/conftest.py, not by Alembic, so a green test run says nothing about the "
               "migrations",
               "create_all", "alembic|migration"),
        lesson("migrate-roundtrip", "convention",
               "Every migration must round-trip before it is committed: alembic upgrade head, "
               "alembic downgrade -1, alembic upgrade head",
               "downgrade", "upgrade|round-trip|round trip|roundtrip|round-trips"),
        lesson("dev-db-compose", "command",
               "The dev Postgres and Redis run in Docker: `docker compose up -d db redis`",
               "docker compose|docker-compose", "db|postgres"),
    ),
    also=(
        # session 0, bash: "make migrate" (runs `alembic upgrade head`); session 1, say: "like `make
        # migrate` on the dev DB"
        lesson("also-make-migrate", "command",
               "Apply the Alembic migrations to the dev database with `make migrate` (runs alembic "
               "upgrade head)",
               "make migrate"),
        # session 0, bash: "make test" -> "pytest -q ... 4 passed"
        lesson("also-make-test", "command",
               "Run the test suite with `make test` (runs pytest -q)",
               "make test"),
        # session 0, write: "# Postgres cannot drop a value from an enum type; 'refunded' stays
        # defined."
        lesson("also-enum-downgrade", "gotcha",
               "Postgres cannot drop a value from an enum type, so the downgrade of an "
               "order_status "
               "addition only moves the rows back to the old status and the value stays defined "
               "(the upgrade uses ADD VALUE IF NOT EXISTS)",
               "enum|order_status",
               r"re:(cannot|can't|can not|unable to|no way to)\s+(be\s+)?(drop|remov)|"
               r"(stays|remains|stay|remain)\s+defined|(not|never)\s+(be\s+)?(dropped|removed)"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning! hope your weekend was better than mine, I spent all of saturday "
                 "re-hanging the garage door 🙃. anyway: finance wants a `refunded` order status. "
                 "cancelled orders that already have a refund_ref should become refunded when "
                 "this ships. one thing that bugs me, since you'll be touching migrations: people "
                 "going back and editing a migration that's already merged. staging has already "
                 "run it, so the edit just silently never happens there. always add a new alembic "
                 "revision, never touch an existing one.", states="alembic-new-rev"),
            Read("src/orderdesk/models.py"),
            Edit("src/orderdesk/models.py", '    cancelled = "cancelled"\n',
                 '    cancelled = "cancelled"\n    refunded = "refunded"\n'),
            Bash('alembic revision --autogenerate -m "add refunded order status"',
                 out=ALEMBIC_INFO + f"  Generating /home/mara/src/orderdesk/{REV_REFUNDED} ...  "
                 "done"),
            Say("Autogenerate wrote an empty upgrade(): it compares tables, columns and indexes, "
                "but not the labels of a Postgres enum type, so the new value has to be added by "
                "hand. I'll put the ALTER TYPE plus the backfill of cancelled orders that have a "
                "refund_ref into the new revision."),
            Write(REV_REFUNDED, MIG_REFUNDED),
            Bash("make migrate", out=MIGRATE_UNSAFE_ENUM, ok=False, exit=2),
            Say("Postgres refuses to use an enum value inside the transaction that added it "
                "(UnsafeNewEnumValueUsage), and Alembic runs each revision in a single "
                "transaction, so the UPDATE can't see 'refunded' yet. Fix: run the ALTER TYPE "
                "order_status ADD VALUE inside op.get_context().autocommit_block(), which commits "
                "it on its own before the backfill runs. Any future status value needs the same "
                "treatment, and autogenerate won't write it for us.", states="enum-autocommit"),
            Edit(REV_REFUNDED, "    op.execute(\"ALTER TYPE order_status ADD VALUE 'refunded'\")\n",
                 "    # A new enum value can't be used in the transaction that adds it: commit it "
                 "first.\n    with op.get_context().autocommit_block():\n"
                 "        op.execute(\"ALTER TYPE order_status ADD VALUE IF NOT EXISTS "
                 "'refunded'\")\n"),
            Bash("make migrate", out=MIGRATE_OK_REFUNDED),
            Bash("make test", out="pytest -q\n" + _q(4, 1.62)),
            Commit("Add refunded order status\n\nALTER TYPE order_status ADD VALUE runs in an "
                   "autocommit block: Postgres won't use a new enum value in the transaction "
                   "that added it."),
            User("nice, thank you! that autocommit thing would have bitten me for sure"),
        )),
        Session(day=3, events=(
            User("hey, ops wants to filter orders by date in the admin and it's a seq scan on 2M "
                 "rows. can you add an index on orders.created_at?"),
            Edit("src/orderdesk/models.py",
                 "    created_at: Mapped[datetime] = mapped_column(server_default=func.now())\n",
                 "    created_at: Mapped[datetime] = mapped_column(server_default=func.now(), "
                 "index=True)\n"),
            Bash('alembic revision --autogenerate -m "index orders.created_at"',
                 out=ALEMBIC_INFO + "INFO  [alembic.autogenerate.compare] Detected added index "
                 "'ix_orders_created_at' on '('created_at',)'\n"
                 f"  Generating /home/mara/src/orderdesk/{REV_INDEX} ...  done"),
            Write(REV_INDEX, MIG_INDEX),
            Bash("pytest -q", out=_q(4, 1.58)),
            User("cool. wait, quick question: the tests were green on friday while that first "
                 "migration was still broken. do they even run the migrations?"),
            Read("tests/conftest.py"),
            Say("They don't. The session-scoped `engine` fixture in tests/conftest.py builds "
                "orderdesk_test with Base.metadata.create_all straight from the models, so "
                "Alembic never runs under pytest: a broken or missing migration still gives you a "
                "green suite. The only thing that exercises the migrations is running alembic "
                "against a real database, like `make migrate` on the dev DB.",
                states="tests-create-all"),
            User("right, that's what I suspected. ok then, going forward make sure every "
                 "migration round-trips before you commit it: upgrade head, downgrade -1, upgrade "
                 "head again. we got burned in march by a downgrade that nobody had ever run.",
                 states="migrate-roundtrip"),
            Bash("alembic upgrade head && alembic downgrade -1 && alembic upgrade head",
                 out=ROUNDTRIP_INDEX),
            Bash("curl -s localhost:8000/health", ok=False, exit=7,
                 out="curl: (7) Failed to connect to localhost port 8000 after 0 ms: Couldn't "
                     "connect to server"),
            Say("The round-trip is clean. (Nothing is listening on :8000, the dev server just "
                "isn't running; that doesn't matter for an index.) Committing."),
            Commit("Index orders.created_at for the admin date filter"),
        )),
        Session(day=8, notes=(
            Note("- Dev Postgres + Redis: `docker compose up -d db redis` (tests and alembic "
                 "need the db up)", states="dev-db-compose"),
        ), events=(
            Probe("morning! support wants customers' phone numbers on file. add a nullable phone "
                  "column to customers please, E.164 strings so 16 chars is plenty",
                  needs=("alembic-new-rev", "migrate-roundtrip")),
            Edit("src/orderdesk/models.py",
                 "from sqlalchemy import Enum, ForeignKey, Numeric, func\n",
                 "from sqlalchemy import Enum, ForeignKey, Numeric, String, func\n"),
            Edit("src/orderdesk/models.py",
                 "    email: Mapped[str] = mapped_column(unique=True)\n",
                 "    email: Mapped[str] = mapped_column(unique=True)\n"
                 "    phone: Mapped[str | None] = mapped_column(String(16))\n"),
            Bash('alembic revision --autogenerate -m "add customers.phone"', out=ALEMBIC_DB_DOWN,
                 ok=False, exit=1),
            Bash("docker compose up -d db redis",
                 out="[+] Running 3/3\n ✔ Network orderdesk_default    Created   0.1s\n"
                     " ✔ Container orderdesk-db-1     Started   0.6s\n"
                     " ✔ Container orderdesk-redis-1  Started   0.6s"),
            Bash('alembic revision --autogenerate -m "add customers.phone"',
                 out=ALEMBIC_INFO + "INFO  [alembic.autogenerate.compare] Detected added column "
                 "'customers.phone'\n"
                 f"  Generating /home/mara/src/orderdesk/{REV_PHONE} ...  done"),
            Write(REV_PHONE, MIG_PHONE),
            Bash("alembic upgrade head && alembic downgrade -1 && alembic upgrade head",
                 out=ROUNDTRIP_PHONE),
            Bash("make test", out="pytest -q\n" + _q(4, 1.71)),
            Say("New revision 3b7f52c8e019 adds customers.phone (VARCHAR(16), nullable); the "
                "existing revisions are untouched, and it upgrades, downgrades and re-upgrades "
                "cleanly on the dev DB. Tests pass."),
            Commit("Add nullable customers.phone (E.164)"),
            User("👍 thanks"),
        )),
        Session(day=12, events=(
            Probe("finance again 🙄 they now also want a partially_refunded status, for orders "
                  "where only some lines were refunded. existing paid orders that have a "
                  "refund_ref are exactly those, they should move over",
                  needs=("enum-autocommit",)),
            Edit("src/orderdesk/models.py", '    refunded = "refunded"\n',
                 '    refunded = "refunded"\n    partially_refunded = "partially_refunded"\n'),
            Bash('alembic revision -m "add partially_refunded order status"',
                 out=f"  Generating /home/mara/src/orderdesk/{REV_PARTIAL} ...  done"),
            Write(REV_PARTIAL, MIG_PARTIAL),
            Bash("alembic upgrade head && alembic downgrade -1 && alembic upgrade head",
                 out=ROUNDTRIP_PARTIAL),
            Bash("make test", out="pytest -q\n" + _q(4, 1.66)),
            Commit("Add partially_refunded order status"),
            Probe("CI is green on this branch, so I can merge it, right?",
                  needs=("tests-create-all", "migrate-roundtrip")),
            Say("CI being green only tells us the models are consistent: the test database is "
                "built from the models, not from the migrations. What covers the migration is "
                "the upgrade / downgrade -1 / upgrade run above against the dev database, and "
                "that was clean too. So yes, good to merge."),
            User("great, merging. have a good weekend!"),
        )),
    ),
)

# --- py-orderdesk-order-cache -----------------------------------------------------------------

CACHE_PY = '''\
"""Read-through cache for order reads, on the Redis that Celery already uses."""

import json
from collections.abc import Callable
from typing import Any

import redis

from orderdesk.settings import settings

TTL_SECONDS = 300
_redis = redis.Redis.from_url(settings.redis_url)


def cached(key: str, load: Callable[[], Any]) -> Any:
    hit = _redis.get(key)
    if hit is not None:
        return json.loads(hit)
    value = load()
    _redis.setex(key, TTL_SECONDS, json.dumps(value, default=str))
    return value
'''
GET_ORDER_PLAIN = '''\
@router.get("/{order_id}", response_model=OrderOut)
def get_order(order_id: uuid.UUID, session: Session = Depends(get_session)) -> Order:
    order = session.get(Order, order_id)
    if order is None:
        raise HTTPException(status_code=404, detail="order not found")
    return order
'''
GET_ORDER_CACHED = '''\
@router.get("/{order_id}", response_model=OrderOut)
def get_order(order_id: uuid.UUID, session: Session = Depends(get_session)) -> Any:
    def load() -> Any:
        order = session.get(Order, order_id)
        if order is None:
            raise HTTPException(status_code=404, detail="order not found")
        return OrderOut.model_validate(order).model_dump(mode="json")

    return cached(f"order:{order_id}", load)
'''
LIST_ORDERS_PLAIN = '''\
@router.get("", response_model=list[OrderOut])
def list_orders(customer_id: uuid.UUID, session: Session = Depends(get_session)) -> list[Order]:
    stmt = select(Order).where(Order.customer_id == customer_id).order_by(Order.created_at)
    return list(session.scalars(stmt))
'''
LIST_ORDERS_CACHED = '''\
@router.get("", response_model=list[OrderOut])
def list_orders(customer_id: uuid.UUID, session: Session = Depends(get_session)) -> Any:
    def load() -> Any:
        stmt = select(Order).where(Order.customer_id == customer_id).order_by(Order.created_at)
        return [OrderOut.model_validate(o).model_dump(mode="json") for o in session.scalars(stmt)]

    return cached(f"orders:customer:{customer_id}", load)
'''
LIST_ORDERS_SELECTIN = '''\
@router.get("", response_model=list[OrderOut])
def list_orders(customer_id: uuid.UUID, session: Session = Depends(get_session)) -> list[Order]:
    stmt = (
        select(Order)
        .where(Order.customer_id == customer_id)
        .options(selectinload(Order.lines))
        .order_by(Order.created_at)
    )
    return list(session.scalars(stmt))
'''
ORDER_LINES_CACHED = '''\


@router.get("/{order_id}/lines", response_model=list[LineOut])
def get_order_lines(order_id: uuid.UUID, session: Session = Depends(get_session)) -> Any:
    def load() -> Any:
        order = session.get(Order, order_id)
        if order is None:
            raise HTTPException(status_code=404, detail="order not found")
        return [LineOut.model_validate(line).model_dump(mode="json") for line in order.lines]

    return cached(f"order:{order_id}:lines", load)
'''
ORDER_LINES_PLAIN = '''\


@router.get("/{order_id}/lines", response_model=list[LineOut])
def get_order_lines(
    order_id: uuid.UUID, session: Session = Depends(get_session)
) -> list[OrderLine]:
    order = session.get(Order, order_id)
    if order is None:
        raise HTTPException(status_code=404, detail="order not found")
    return order.lines
'''
TEST_ORDER_LINES = '''\


def test_order_lines(client, db_session):
    customer = _customer(db_session)
    order = Order(customer=customer, total=Decimal("5.00"))
    order.lines.append(OrderLine(sku="TEA-01", qty=2, unit_price=Decimal("2.50")))
    db_session.add(order)
    db_session.flush()
    body = client.get(f"/orders/{order.id}/lines").json()
    assert body == [{"sku": "TEA-01", "qty": 2, "unit_price": "2.50"}]
'''
PYTEST_REDIS_DOWN = (
    ".FFF                                                                     [100%]\n"
    f"{_bar('FAILURES')}\n"
    "__________________________ test_create_and_get_order ___________________________\n"
    "tests/test_orders.py:18: in test_create_and_get_order\n"
    '    body = client.get(f"/orders/{order_id}").json()\n'
    "src/orderdesk/api/orders.py:48: in get_order\n"
    '    return cached(f"order:{order_id}", load)\n'
    "src/orderdesk/cache.py:16: in cached\n"
    "    hit = _redis.get(key)\n"
    ".venv/lib/python3.12/site-packages/redis/commands/core.py:1829: in get\n"
    '    return self.execute_command("GET", name, keys=[name])\n'
    ".venv/lib/python3.12/site-packages/redis/connection.py:707: in connect\n"
    "    raise ConnectionError(self._error_message(e))\n"
    "E   redis.exceptions.ConnectionError: Error 111 connecting to localhost:6379. Connection "
    "refused.\n"
    "_______________________ test_list_orders_includes_lines ________________________\n"
    "tests/test_orders.py:29: in test_list_orders_includes_lines\n"
    '    body = client.get("/orders", params={"customer_id": str(customer.id)}).json()\n'
    "src/orderdesk/api/orders.py:57: in list_orders\n"
    '    return cached(f"orders:customer:{customer_id}", load)\n'
    "src/orderdesk/cache.py:16: in cached\n"
    "    hit = _redis.get(key)\n"
    "E   redis.exceptions.ConnectionError: Error 111 connecting to localhost:6379. Connection "
    "refused.\n"
    "__________________________ test_missing_order_is_404 ___________________________\n"
    "tests/test_orders.py:34: in test_missing_order_is_404\n"
    '    resp = client.get("/orders/00000000-0000-0000-0000-000000000000")\n'
    "src/orderdesk/api/orders.py:48: in get_order\n"
    '    return cached(f"order:{order_id}", load)\n'
    "src/orderdesk/cache.py:16: in cached\n"
    "    hit = _redis.get(key)\n"
    "E   redis.exceptions.ConnectionError: Error 111 connecting to localhost:6379. Connection "
    "refused.\n"
    f"{_bar('short test summary info')}\n"
    "FAILED tests/test_orders.py::test_create_and_get_order - redis.exceptions.ConnectionError: "
    "Error 111 connecting to localhost:6379. Connection refused.\n"
    "FAILED tests/test_orders.py::test_list_orders_includes_lines - redis.exceptions."
    "ConnectionError: Error 111 connecting to localhost:6379. Connection refused.\n"
    "FAILED tests/test_orders.py::test_missing_order_is_404 - redis.exceptions.ConnectionError: "
    "Error 111 connecting to localhost:6379. Connection refused.\n"
    "3 failed, 1 passed in 2.07s"
)
RUFF_UNUSED_CACHE = """\
src/orderdesk/api/orders.py:3:20: F401 [*] `typing.Any` imported but unused
  |
1 | import uuid
2 | from decimal import Decimal
3 | from typing import Any
  |                    ^^^ F401
4 |
5 | from fastapi import APIRouter, Depends, HTTPException
  |
  = help: Remove unused import: `typing.Any`

src/orderdesk/api/orders.py:10:29: F401 [*] `orderdesk.cache.cached` imported but unused
   |
 8 | from sqlalchemy.orm import Session, selectinload
 9 |
10 | from orderdesk.cache import cached
   |                             ^^^^^^ F401
11 | from orderdesk.db import get_session
12 | from orderdesk.models import Order, OrderLine, OrderStatus
   |
   = help: Remove unused import: `orderdesk.cache.cached`

Found 2 errors.
[*] 2 fixable with the `--fix` option."""
CUSTOMERS_SUMMARY_PY = '''\
import uuid
from datetime import datetime
from decimal import Decimal

from fastapi import APIRouter, Depends
from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from orderdesk.db import get_session
from orderdesk.models import Order, OrderLine, OrderStatus

router = APIRouter(prefix="/customers", tags=["customers"])


class OrderSummary(BaseModel):
    id: uuid.UUID
    status: OrderStatus
    total: Decimal
    created_at: datetime
    line_count: int


@router.get("/{customer_id}/order-summary", response_model=list[OrderSummary])
def order_summary(
    customer_id: uuid.UUID, session: Session = Depends(get_session)
) -> list[OrderSummary]:
    stmt = (
        select(
            Order.id,
            Order.status,
            Order.total,
            Order.created_at,
            func.count(OrderLine.id).label("line_count"),
        )
        .outerjoin(OrderLine)
        .where(Order.customer_id == customer_id)
        .group_by(OrderLine.order_id)
        .order_by(Order.created_at)
    )
    return [OrderSummary.model_validate(row._mapping) for row in session.execute(stmt)]
'''
TEST_CUSTOMERS_SUMMARY = '''\
from decimal import Decimal

from orderdesk.models import Customer, Order, OrderLine


def test_order_summary_counts_lines(client, db_session):
    customer = Customer(email="bulk@example.com")
    order = Order(customer=customer, total=Decimal("12.00"))
    order.lines.extend(
        [
            OrderLine(sku="TEA-01", qty=1, unit_price=Decimal("4.00")),
            OrderLine(sku="TEA-02", qty=2, unit_price=Decimal("4.00")),
        ]
    )
    db_session.add_all([customer, order, Order(customer=customer, total=Decimal("0.00"))])
    db_session.flush()
    body = client.get(f"/customers/{customer.id}/order-summary").json()
    assert sorted(row["line_count"] for row in body) == [0, 2]
'''
PYTEST_GROUPING_ERROR = (
    ".....F                                                                   [100%]\n"
    f"{_bar('FAILURES')}\n"
    "_______________________ test_order_summary_counts_lines ________________________\n"
    "tests/test_customers.py:17: in test_order_summary_counts_lines\n"
    '    body = client.get(f"/customers/{customer.id}/order-summary").json()\n'
    "src/orderdesk/api/customers.py:41: in order_summary\n"
    "    return [OrderSummary.model_validate(row._mapping) for row in session.execute(stmt)]\n"
    ".venv/lib/python3.12/site-packages/sqlalchemy/engine/default.py:924: in do_execute\n"
    "    cursor.execute(statement, parameters)\n"
    ".venv/lib/python3.12/site-packages/psycopg/cursor.py:732: in execute\n"
    "    raise ex.with_traceback(None)\n"
    "E   sqlalchemy.exc.ProgrammingError: (psycopg.errors.GroupingError) column \"orders.id\" "
    "must appear in the GROUP BY clause or be used in an aggregate function\n"
    "E   LINE 1: SELECT orders.id, orders.status, orders.total, orders.created_at, count(...\n"
    "E                  ^\n"
    "E   [SQL: SELECT orders.id, orders.status, orders.total, orders.created_at, "
    "count(order_lines.id) AS line_count\n"
    "E   FROM orders LEFT OUTER JOIN order_lines ON orders.id = order_lines.order_id\n"
    "E   WHERE orders.customer_id = %(customer_id_1)s::UUID GROUP BY order_lines.order_id "
    "ORDER BY orders.created_at]\n"
    "E   [parameters: {'customer_id_1': UUID('5a0c2e8f-91d4-4b7e-a3c6-2f18d0b9e741')}]\n"
    "E   (Background on this error at: https://sqlalche.me/e/20/f405)\n"
    f"{_bar('short test summary info')}\n"
    "FAILED tests/test_customers.py::test_order_summary_counts_lines - sqlalchemy.exc."
    "ProgrammingError: (psycopg.errors.GroupingError) column \"orders.id\" must appear in the "
    "GROUP BY clause or be used in an aggregate function\n"
    "1 failed, 5 passed in 2.21s"
)

ORDER_CACHE = Story(
    id="py-orderdesk-order-cache",
    title="A Redis cache for slow order reads serves stale status after worker updates; it is "
          "reverted and the real cause (an N+1 on Order.lines) fixed",
    project=ORDERDESK,
    lessons=(
        lesson("order-cache", "decision",
               "Order reads (GET /orders/{id}, GET /orders) go through a Redis read-through "
               "cache in src/orderdesk/cache.py with a 300 s TTL, to take load off Postgres",
               "cache|caching|cached", "redis", "TTL|300|5 min|five min|5-min"),
        lesson("cache-stale", "gotcha",
               "Don't cache order reads in Redis: the Celery task mark_paid writes order status "
               "straight to Postgres, so cached orders showed a stale status; the cache was "
               "reverted",
               "cache|caching|cached", "stale|invalidat|out of date|outdated"),
        lesson("lines-selectinload", "gotcha",
               "The slow order listing was an N+1: serialising OrderOut.lines lazy-loads each "
               "order's lines; query with .options(selectinload(Order.lines))",
               "selectinload|N+1|lazy", "lines"),
    ),
    also=(
        # session 1, say: "With expire_on_commit=False the objects keep their loaded values after
        # commit ... create_order commits and then returns the Order"
        lesson("also-expire-on-commit", "fact",
               "SessionLocal in src/orderdesk/db.py uses expire_on_commit=False so objects keep "
               "their "
               "loaded values after commit; create_order commits and then returns the Order, which "
               "FastAPI serialises without an extra SELECT",
               "expire_on_commit",
               "keep|retain|loaded|extra query|extra select|serialis|serializ"),
        # session 4, say: "I grouped by order_lines.order_id, which is NULL for an order without
        # lines ... Grouping by the orders primary key fixes both."
        lesson("also-group-by-order-id", "gotcha",
               "Aggregates over orders outer-joined to order_lines must GROUP BY Order.id (the "
               "orders "
               "primary key), not order_lines.order_id, which is NULL for orders without lines and "
               "makes Postgres raise GroupingError",
               "group by|grouping|group_by|GroupingError",
               "primary key|Order.id|orders.id"),
        # session 0, bash: "python -m pytest -q --tb=short" -> "4 passed"
        lesson("also-pytest-cmd", "command",
               "Run the tests with `python -m pytest -q` (add --tb=short for short tracebacks)",
               "python -m pytest"),
        # session 1, bash: "ruff check src tests" -> "All checks passed!" (session 3 it flags unused
        # imports)
        lesson("also-ruff-check", "command",
               "Lint with `ruff check src tests`",
               "ruff check"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hi! Grafana says p95 on the order endpoints went from ~120ms to ~1.8s since "
                 "the B2B import landed last week. the big wholesale accounts have hundreds of "
                 "orders each. can you make it faster? my gut says caching, we already run redis "
                 "for celery anyway"),
            Read("src/orderdesk/api/orders.py"),
            Say("A cache is the quickest win here: I'll add a small read-through cache in "
                "src/orderdesk/cache.py on the Redis we already run for Celery, with a 300 s TTL, "
                "and put get_order and list_orders behind it. A few minutes of lag should be "
                "acceptable for order views, and it takes the repeated reads off Postgres "
                "without new infrastructure.", states="order-cache"),
            Write("src/orderdesk/cache.py", CACHE_PY),
            Edit("src/orderdesk/api/orders.py", "from decimal import Decimal\n",
                 "from decimal import Decimal\nfrom typing import Any\n"),
            Edit("src/orderdesk/api/orders.py", "from orderdesk.db import get_session\n",
                 "from orderdesk.cache import cached\nfrom orderdesk.db import get_session\n"),
            Edit("src/orderdesk/api/orders.py", GET_ORDER_PLAIN, GET_ORDER_CACHED),
            Edit("src/orderdesk/api/orders.py", LIST_ORDERS_PLAIN, LIST_ORDERS_CACHED),
            Bash("python -m pytest -q --tb=short", out=PYTEST_REDIS_DOWN, ok=False, exit=1),
            Say("Redis isn't running locally, so every cached read fails on connect. Starting it "
                "from docker compose."),
            Bash("docker compose up -d redis",
                 out="[+] Running 1/1\n ✔ Container orderdesk-redis-1  Started   0.5s"),
            Bash("python -m pytest -q --tb=short", out=_q(4, 1.74)),
            Commit("Cache order reads in Redis (300s TTL)"),
            User("nice. I'll deploy it after lunch and keep an eye on the graphs"),
        )),
        Session(day=2, noise=True, events=(
            User("morning! graphs look way better btw, p95 back under 200ms. slow day today, "
                 "mostly cleanup"),
            Say("Good to hear. What's on the cleanup list?"),
            User("first, can you explain what `expire_on_commit=False` does in db.py? Jonas "
                 "asked me in review and I realised I'm not 100% sure"),
            Read("src/orderdesk/db.py"),
            Say("By default a SQLAlchemy Session expires every loaded object when you commit, so "
                "the next attribute access triggers a fresh SELECT. With expire_on_commit=False "
                "the objects keep their loaded values after commit. That matters here because "
                "create_order commits and then returns the Order, and FastAPI serialises it "
                "afterwards; without the flag that would cost an extra query per response."),
            User("ah ok, makes sense. the health endpoint should also report the app version, "
                 "can you add that?"),
            Edit("src/orderdesk/__init__.py",
                 '"""orderdesk: order intake and fulfilment API."""\n',
                 '"""orderdesk: order intake and fulfilment API."""\n\n__version__ = "0.7.2"\n'),
            Edit("src/orderdesk/main.py", "from orderdesk.api import orders\n",
                 "from orderdesk import __version__\nfrom orderdesk.api import orders\n"),
            Edit("src/orderdesk/main.py", '    return {"status": "ok"}\n',
                 '    return {"status": "ok", "version": __version__}\n'),
            Bash("python -m pytest tests/test_health.py -q", out=_q(1, 0.61)),
            Bash("ruff check src tests", out="All checks passed!"),
            Commit("Report the app version on /health"),
            User("perfect. ok I'm leaving early today, kid has a school play 🎭 thanks!"),
        )),
        Session(day=5, events=(
            Probe("the warehouse scanners are going to hit a new endpoint a lot: GET "
                  "/orders/{id}/lines, just the lines of one order. can you add it? same "
                  "performance treatment as the other order endpoints please",
                  needs=("order-cache",)),
            Edit("src/orderdesk/api/orders.py",
                 "    send_confirmation.delay(str(order.id))\n    return order\n",
                 "    send_confirmation.delay(str(order.id))\n    return order\n"
                 + ORDER_LINES_CACHED),
            Edit("tests/test_orders.py",
                 "    assert resp.status_code == 404\n",
                 "    assert resp.status_code == 404\n" + TEST_ORDER_LINES),
            Bash("python -m pytest tests/test_orders.py -q --tb=short", out=_q(4, 1.69)),
            Say("Added GET /orders/{order_id}/lines behind the same Redis cache as the other "
                "reads (key order:{id}:lines) plus a test."),
            Commit("Add GET /orders/{id}/lines for the warehouse scanners"),
            User("thanks!"),
        )),
        Session(day=9, judge={"order-cache": "down"}, events=(
            User("we have a problem. support got ~20 tickets since monday: customers pay, get "
                 "the payment email, but the order page still says 'pending' for a few minutes. "
                 "some of them paid twice 😬 can you look asap?"),
            Read("src/orderdesk/worker.py"),
            Say("Found it. Payments are confirmed by the Celery task mark_paid, which sets "
                "status=paid directly in Postgres and never touches Redis, so GET /orders/{id} "
                "keeps serving the cached 'pending' copy until the entry expires. Invalidating "
                "from the worker would fix this one path, but every writer (worker, admin "
                "scripts, manual SQL fixes) would have to remember to do it. I'd rather not "
                "cache order state at all: it goes stale as soon as anything writes behind the "
                "API's back. Before ripping it out, let me find out why the endpoints were slow "
                "in the first place.", fails="order-cache", states="cache-stale"),
            Subagent(agent_type="Explore", report=(
                "Profiled GET /orders?customer_id=... for the largest wholesale customer (412 "
                "orders) against a copy of the dev DB, with SQLAlchemy echo on and the cache "
                "bypassed. The request issues 413 SELECTs: one for orders, then one `SELECT ... "
                "FROM order_lines WHERE %(param_1)s::UUID = order_lines.order_id` per order, "
                "fired when OrderOut serialises `lines` (the relationship is lazy-loaded by "
                "default). That N+1 accounts for ~1.6 s of the 1.8 s. Adding "
                "`.options(selectinload(Order.lines))` to the list query makes it 2 SELECTs and "
                "~85 ms locally. get_order has the same pattern but only ever loads one order, "
                "so it's cheap. No other hot paths found."), states="lines-selectinload"),
            Edit("src/orderdesk/api/orders.py", GET_ORDER_CACHED, GET_ORDER_PLAIN),
            Edit("src/orderdesk/api/orders.py", LIST_ORDERS_CACHED, LIST_ORDERS_SELECTIN),
            Edit("src/orderdesk/api/orders.py", ORDER_LINES_CACHED, ORDER_LINES_PLAIN),
            Edit("src/orderdesk/api/orders.py",
                 "from sqlalchemy.orm import Session\n\nfrom orderdesk.cache import cached\n"
                 "from orderdesk.db import get_session\n"
                 "from orderdesk.models import Order, OrderStatus\n",
                 "from sqlalchemy.orm import Session, selectinload\n\n"
                 "from orderdesk.cache import cached\nfrom orderdesk.db import get_session\n"
                 "from orderdesk.models import Order, OrderLine, OrderStatus\n"),
            Bash("ruff check src tests", out=RUFF_UNUSED_CACHE, ok=False, exit=1),
            Edit("src/orderdesk/api/orders.py", "from typing import Any\n", ""),
            Edit("src/orderdesk/api/orders.py", "from orderdesk.cache import cached\n", ""),
            Bash("git rm -q src/orderdesk/cache.py && python -m pytest -q --tb=short",
                 out=_q(5, 1.52)),
            Commit("Drop the Redis order cache, fix the N+1 instead\n\nThe cache served a stale "
                   "status after mark_paid (the worker writes straight to Postgres). The real "
                   "slowness was lazy-loading Order.lines per order; list_orders now uses "
                   "selectinload."),
            User("thanks, that was quick. deploying now and I'll let support know"),
        )),
        Session(day=14, events=(
            Probe("ops wants a dashboard tile listing every order of a customer with its line "
                  "count. can you add GET /customers/{id}/order-summary? the dashboard polls it "
                  "every 10 seconds for a bunch of customers, so it'll get a lot of traffic",
                  needs=("cache-stale", "lines-selectinload")),
            Say("Polling every 10 s is fine without any cache as long as the query is cheap: "
                "I'll count the lines in SQL with a GROUP BY rather than loading them, so it's "
                "one query however many orders a customer has, and it reads straight from "
                "Postgres, so a status change made by the worker shows up on the next poll."),
            Write("src/orderdesk/api/customers.py", CUSTOMERS_SUMMARY_PY),
            Edit("src/orderdesk/main.py", "from orderdesk.api import orders\n",
                 "from orderdesk.api import customers, orders\n"),
            Edit("src/orderdesk/main.py", "app.include_router(orders.router)\n",
                 "app.include_router(orders.router)\napp.include_router(customers.router)\n"),
            Write("tests/test_customers.py", TEST_CUSTOMERS_SUMMARY),
            Bash("python -m pytest -q --tb=short", out=PYTEST_GROUPING_ERROR, ok=False, exit=1),
            Say("Postgres rejects the GROUP BY: I grouped by order_lines.order_id, which is NULL "
                "for an order without lines and doesn't make the order's columns functionally "
                "dependent. Grouping by the orders primary key fixes both."),
            Edit("src/orderdesk/api/customers.py", "        .group_by(OrderLine.order_id)\n",
                 "        .group_by(Order.id)\n"),
            Bash("python -m pytest -q --tb=short", out=_q(6, 1.88)),
            Commit("Add GET /customers/{id}/order-summary for the ops dashboard"),
            User("ty!"),
        )),
    ),
)

# --- py-orderdesk-house-style -----------------------------------------------------------------

STATUS_ROUTE = '''\
        raise HTTPException(status_code=404, detail="order not found")
    return order


@router.get("/{order_id}/status", response_model=StatusOut)
def get_order_status(order_id: uuid.UUID, session: Session = Depends(get_session)) -> Order:
    order = session.get(Order, order_id)
    if order is None:
        raise HTTPException(status_code=404, detail="order not found")
    return order


@router.get("", response_model=list[OrderOut])'''
TEST_STATUS = '''\


def test_order_status(client, db_session):
    customer = _customer(db_session)
    resp = client.post("/orders", json={"customer_id": str(customer.id), "total": "3.00"})
    order_id = resp.json()["id"]
    body = client.get(f"/orders/{order_id}/status").json()
    assert body == {"id": order_id, "status": "pending"}
'''
MAKE_TEST_RESPONSE_VALIDATION = (
    "pytest -q\n"
    "....F                                                                    [100%]\n"
    f"{_bar('FAILURES')}\n"
    "______________________________ test_order_status _______________________________\n\n"
    "client = <starlette.testclient.TestClient object at 0x7f9a4c2b1e50>\n"
    "db_session = <sqlalchemy.orm.session.Session object at 0x7f9a4c2b3a10>\n\n"
    "    def test_order_status(client, db_session):\n"
    "        customer = _customer(db_session)\n"
    '        resp = client.post("/orders", json={"customer_id": str(customer.id), '
    '"total": "3.00"})\n'
    '        order_id = resp.json()["id"]\n'
    '>       body = client.get(f"/orders/{order_id}/status").json()\n\n'
    "tests/test_orders.py:42: \n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
    "[... 38 lines of starlette/fastapi frames ...]\n"
    "E   fastapi.exceptions.ResponseValidationError: 1 validation errors:\n"
    "E     {'type': 'model_attributes_type', 'loc': ('response',), 'msg': 'Input should be a "
    "valid dictionary or object to extract fields from', 'input': <orderdesk.models.Order "
    "object at 0x7f9a4bf0d6d0>}\n\n"
    ".venv/lib/python3.12/site-packages/fastapi/routing.py:155: ResponseValidationError\n"
    f"{_bar('short test summary info')}\n"
    "FAILED tests/test_orders.py::test_order_status - fastapi.exceptions."
    "ResponseValidationError: 1 validation errors:\n"
    "1 failed, 4 passed in 1.93s\n"
    "make: *** [Makefile:4: test] Error 1"
)
CANCEL_ROUTE = '''\
    send_confirmation.delay(str(order.id))
    return order


@router.post("/{order_id}/cancel", response_model=StatusOut)
def cancel_order(order_id: uuid.UUID, session: Session = Depends(get_session)) -> Order:
    order = session.get(Order, order_id, with_for_update=True)
    if order is None:
        raise HTTPException(status_code=404, detail="order not found")
    if order.status is not OrderStatus.pending:
        raise HTTPException(status_code=409, detail=f"order is {order.status.value}")
    order.status = OrderStatus.cancelled
    session.commit()
    log.info("order_cancelled", order_id=str(order.id))
    return order
'''
TEST_CANCEL = '''\
    assert body == {"id": order_id, "status": "pending"}


def test_cancel_only_pending(client, db_session):
    customer = _customer(db_session)
    resp = client.post("/orders", json={"customer_id": str(customer.id), "total": "3.00"})
    order_id = resp.json()["id"]
    assert client.post(f"/orders/{order_id}/cancel").json()["status"] == "cancelled"
    assert client.post(f"/orders/{order_id}/cancel").status_code == 409
'''
DEPS_PY = '''\
from dataclasses import dataclass

from fastapi import Query


@dataclass(frozen=True)
class Page:
    limit: int
    offset: int


def page_params(
    limit: int = Query(50, ge=1, le=200), offset: int = Query(0, ge=0)
) -> Page:
    return Page(limit=limit, offset=offset)
'''
LIST_PAGED = '''\
def list_orders(
    customer_id: uuid.UUID,
    page: Page = Depends(page_params),
    session: Session = Depends(get_session),
) -> list[Order]:
    stmt = (
        select(Order)
        .where(Order.customer_id == customer_id)
        .order_by(Order.created_at)
        .limit(page.limit)
        .offset(page.offset)
    )
    return list(session.scalars(stmt))
'''
TEST_PAGED = '''\
    assert client.post(f"/orders/{order_id}/cancel").status_code == 409


def test_list_orders_paginates(client, db_session):
    customer = _customer(db_session)
    for total in ("1.00", "2.00", "3.00"):
        client.post("/orders", json={"customer_id": str(customer.id), "total": total})
    params = {"customer_id": str(customer.id), "limit": 2}
    first = client.get("/orders", params=params).json()
    rest = client.get("/orders", params={**params, "offset": 2}).json()
    assert [o["total"] for o in first + rest] == ["1.00", "2.00", "3.00"]
    assert client.get("/orders", params={**params, "limit": 500}).status_code == 422
'''
MAKE_TEST_PAGED_FAIL = (
    "pytest -q\n"
    "......F                                                                  [100%]\n"
    f"{_bar('FAILURES')}\n"
    "__________________________ test_list_orders_paginates __________________________\n\n"
    "client = <starlette.testclient.TestClient object at 0x7f1e0a9c4e90>\n"
    "db_session = <sqlalchemy.orm.session.Session object at 0x7f1e0a9c6b50>\n\n"
    "    def test_list_orders_paginates(client, db_session):\n"
    "        customer = _customer(db_session)\n"
    '        for total in ("1.00", "2.00", "3.00"):\n'
    '            client.post("/orders", json={"customer_id": str(customer.id), "total": total})\n'
    '        params = {"customer_id": str(customer.id), "limit": 2}\n'
    '        first = client.get("/orders", params=params).json()\n'
    '        rest = client.get("/orders", params={**params, "offset": 2}).json()\n'
    '>       assert [o["total"] for o in first + rest] == ["1.00", "2.00", "3.00"]\n'
    "E       AssertionError: assert ['3.00', '1.00', '3.00'] == ['1.00', '2.00', '3.00']\n"
    "E         \n"
    "E         At index 0 diff: '3.00' != '1.00'\n"
    "E         Use -v to get more diff\n\n"
    "tests/test_orders.py:61: AssertionError\n"
    f"{_bar('short test summary info')}\n"
    "FAILED tests/test_orders.py::test_list_orders_paginates - AssertionError: assert ['3.00', "
    "'1.00', '3.00'] == ['1.00', '2.00', '3.00']\n"
    "1 failed, 6 passed in 2.02s\n"
    "make: *** [Makefile:4: test] Error 1"
)
UV_PYTEST_FULL = _full(OD_HEAD, [("tests/test_health.py", 1), ("tests/test_orders.py", 6)],
                       2.11)
SHIP_ROUTE = '''\
    logger.info("order %s cancelled", order.id)
    return order


@router.post("/{order_id}/ship", response_model=StatusOut)
def ship_order(
    order_id: uuid.UUID,
    operator: str = Header(alias="X-Operator"),
    session: Session = Depends(get_session),
) -> Order:
    order = session.get(Order, order_id, with_for_update=True)
    if order is None:
        raise HTTPException(status_code=404, detail="order not found")
    if order.status is not OrderStatus.paid:
        raise HTTPException(status_code=409, detail=f"order is {order.status.value}")
    order.status = OrderStatus.shipped
    session.commit()
    logger.info("order %s shipped by %s", order.id, operator)
    return order
'''
TEST_SHIP = '''\
    assert client.get("/orders", params={**params, "limit": 500}).status_code == 422


def test_ship_needs_paid(client, db_session):
    customer = _customer(db_session)
    order = Order(customer=customer, total=Decimal("4.00"), status=OrderStatus.paid)
    db_session.add(order)
    db_session.flush()
    headers = {"X-Operator": "kim"}
    assert client.post(f"/orders/{order.id}/ship", headers=headers).json()["status"] == "shipped"
    assert client.post(f"/orders/{order.id}/ship", headers=headers).status_code == 409
'''

HOUSE_STYLE = Story(
    id="py-orderdesk-house-style",
    title="House rules stated in passing (response models, logging, imports, test command), "
          "then two of them changed after a retro",
    project=ORDERDESK,
    lessons=(
        lesson("response-model", "convention",
               "Every route declares a response_model (a Pydantic schema, from_attributes); "
               "never return raw dicts or ORM rows without one",
               "response_model|response model", "dict|ORM"),
        lesson("log-structlog", "convention",
               "Log with structlog (`log = structlog.get_logger()` at module top, key=value "
               "events), never print()",
               "structlog", "get_logger|print|key=value"),
        lesson("log-stdlib", "convention",
               "Logging uses the standard library: `logger = logging.getLogger(__name__)` at "
               "module top, %s-style message args; the structured logging library was dropped",
               "getLogger|stdlib|standard library", "logging|logger"),
        lesson("test-make", "command", "Run the tests with `make test` (what CI runs)",
               "make test"),
        lesson("test-uv", "command",
               "Run the tests with `uv run pytest` (the repo moved to uv; the Makefile target "
               "uses the old .venv and is going away)",
               "uv run pytest|uv run -- pytest|uv run python -m pytest"),
        lesson("uv-sync-extra", "gotcha",
               "pytest lives in the `dev` extra, so a uv environment needs `uv sync --extra "
               "dev`, otherwise `uv run pytest` fails with 'Failed to spawn: pytest'",
               "uv sync", "extra"),
        lesson("abs-imports", "convention",
               "Absolute imports only (`from orderdesk.db import get_session`), never relative "
               "ones (`from ..db import ...`)",
               "absolute|relative", "import"),
        lesson("now-txn-time", "gotcha",
               "Postgres now() is the transaction start time, so rows created in one test "
               "transaction share created_at; ordered listings need Order.id as tie-breaker",
               "now()|transaction start|transaction_timestamp", "created_at"),
    ),
    also=(
        # session 1, bash: "make lint" -> "ruff check src tests / All checks passed! / mypy src /
        # Success"
        lesson("also-make-lint", "command",
               "Lint with `make lint`, which runs ruff check src tests and mypy src (strict)",
               "make lint|ruff check src|mypy src"),
        # session 2, user/write/compact: "put the params in their own module as a dependency we can
        # reuse for the customer endpoints later" / "the new pagination dependency in
        # src/orderdesk/api/deps.py"
        lesson("also-page-params", "convention",
               "List pagination is the reusable dependency page_params -> Page in "
               "src/orderdesk/api/deps.py (limit default 50, max 200; offset), to be reused for "
               "the "
               "customer endpoints",
               "page_params|deps.py|orderdesk.api.deps",
               "paginat|limit|offset|page"),
        # session 1, probe: "cancel an order while it's still pending ... 409 if it's already paid
        # or shipped"; session 4, probe: "mark orders as shipped ... only from paid"
        lesson("also-status-transitions", "fact",
               "Order status transitions: POST /orders/{id}/cancel only while pending, POST "
               "/orders/{id}/ship only from paid (X-Operator header, logged); any other status "
               "gets "
               "a 409",
               "cancel|ship",
               "pending|paid",
               "409|conflict|only"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hi! first time using you on orderdesk, so some context: it's the order API "
                 "for our tea shop's wholesale side, FastAPI + SQLAlchemy + celery, four of us "
                 "on it. today: the mobile app wants a lightweight status check, GET "
                 "/orders/{id}/status that returns just the id and the status, no lines. when "
                 "you're done run make test, that's exactly what CI runs.", states="test-make"),
            Read("src/orderdesk/api/orders.py"),
            Say("I'll add it next to get_order. Should it return a plain {\"id\", \"status\"} "
                "dict, or do you want a schema for it?"),
            User("the standard here is every route declares a response_model, so a small schema "
                 "please. we don't return bare dicts or ORM rows without one; the app team "
                 "codes against the OpenAPI docs.", states="response-model"),
            Edit("src/orderdesk/api/orders.py",
                 "class OrderIn(BaseModel):\n    customer_id: uuid.UUID\n    total: Decimal\n",
                 "class OrderIn(BaseModel):\n    customer_id: uuid.UUID\n    total: Decimal\n\n\n"
                 "class StatusOut(BaseModel):\n    id: uuid.UUID\n    status: OrderStatus\n"),
            Edit("src/orderdesk/api/orders.py",
                 '        raise HTTPException(status_code=404, detail="order not found")\n'
                 '    return order\n\n\n@router.get("", response_model=list[OrderOut])',
                 STATUS_ROUTE),
            Edit("tests/test_orders.py", "    assert resp.status_code == 404\n",
                 "    assert resp.status_code == 404\n" + TEST_STATUS),
            Bash("make test", out=MAKE_TEST_RESPONSE_VALIDATION, ok=False, exit=2),
            Say("StatusOut is missing from_attributes, so FastAPI can't build it from the ORM "
                "Order the route returns. Giving it the same model_config as the other "
                "schemas."),
            Edit("src/orderdesk/api/orders.py",
                 "class StatusOut(BaseModel):\n    id: uuid.UUID\n",
                 "class StatusOut(BaseModel):\n    model_config = ConfigDict(from_attributes=True)"
                 "\n\n    id: uuid.UUID\n"),
            Bash("make test", out="pytest -q\n" + _q(5, 1.77)),
            User("👍 looks good. one thing that bugs me in PRs lately: print() debugging left "
                 "in. we log through structlog here, `log = structlog.get_logger()` at the top "
                 "of the module and key=value events. so please never print.",
                 states="log-structlog"),
            Commit("Add GET /orders/{id}/status for the mobile app"),
        )),
        Session(day=2, events=(
            User("morning! status update from my side: the payment provider migration is "
                 "finally done, and the mobile team shipped the status check yesterday, so "
                 "thanks for that. I'm on support rotation this week so I'll be slow to answer. "
                 "oh, and while I remember: we always use absolute imports here, `from "
                 "orderdesk.db import get_session`, never `from ..db import ...`. a relative one "
                 "snuck into Jonas's branch and I'd like the codebase to stay consistent. anyway, "
                 "on to today's thing.", states="abs-imports"),
            Probe("customers should be able to cancel an order while it's still pending: POST "
                  "/orders/{id}/cancel, 409 if it's already paid or shipped",
                  needs=("response-model", "log-structlog")),
            Edit("src/orderdesk/api/orders.py",
                 "from fastapi import APIRouter, Depends, HTTPException\n",
                 "import structlog\nfrom fastapi import APIRouter, Depends, HTTPException\n"),
            Edit("src/orderdesk/api/orders.py",
                 'router = APIRouter(prefix="/orders", tags=["orders"])\n',
                 'router = APIRouter(prefix="/orders", tags=["orders"])\n'
                 "log = structlog.get_logger()\n"),
            Edit("src/orderdesk/api/orders.py",
                 "    send_confirmation.delay(str(order.id))\n    return order\n", CANCEL_ROUTE),
            Edit("tests/test_orders.py",
                 '    assert body == {"id": order_id, "status": "pending"}\n', TEST_CANCEL),
            Bash("make test", out="pytest -q\n" + _q(6, 1.95)),
            Bash("make lint", out="ruff check src tests\nAll checks passed!\nmypy src\n"
                                  "Success: no issues found in 9 source files"),
            Commit("Let customers cancel pending orders"),
            User("great, thanks"),
        )),
        Session(day=6, events=(
            Probe("hey. GET /orders returns everything for a customer and the B2B accounts have "
                  "hundreds of orders. add limit/offset pagination, default 50, max 200. put the "
                  "params in their own module as a dependency we can reuse for the customer "
                  "endpoints later", needs=("abs-imports",)),
            Write("src/orderdesk/api/deps.py", DEPS_PY),
            Edit("src/orderdesk/api/orders.py", "from orderdesk.db import get_session\n",
                 "from orderdesk.api.deps import Page, page_params\n"
                 "from orderdesk.db import get_session\n"),
            Edit("src/orderdesk/api/orders.py",
                 LIST_ORDERS_PLAIN.split("\n", 1)[1], LIST_PAGED),
            Edit("tests/test_orders.py",
                 '    assert client.post(f"/orders/{order_id}/cancel").status_code == 409\n',
                 TEST_PAGED),
            Bash("make test", out=MAKE_TEST_PAGED_FAIL, ok=False, exit=2),
            Say("The three orders come back in a different order on each query: created_at "
                "defaults to Postgres now(), which is the transaction start time, and the test "
                "creates all three inside one transaction, so they share the same created_at "
                "and ORDER BY created_at alone is non-deterministic. In production the same "
                "happens for orders inserted in one bulk transaction. Adding Order.id as a "
                "tie-breaker makes pages stable.", states="now-txn-time"),
            Edit("src/orderdesk/api/orders.py", "        .order_by(Order.created_at)\n"
                 "        .limit(page.limit)\n",
                 "        .order_by(Order.created_at, Order.id)\n        .limit(page.limit)\n"),
            Bash("make test", out="pytest -q\n" + _q(7, 2.04)),
            Compact(instructions="Keep the house rules (response_model on every route, "
                                 "structlog for logging, absolute imports, make test), the new "
                                 "pagination dependency in src/orderdesk/api/deps.py, and why "
                                 "list ordering needs Order.id as a tie-breaker."),
            User("thanks. can you also add the same pagination to the order lines endpoint... "
                 "actually no, never mind, an order never has that many lines. just commit it"),
            Commit("Paginate GET /orders (limit/offset, max 200)"),
        )),
        Session(day=11, events=(
            User("morning! two housekeeping things from yesterday's retro. first: we moved the "
                 "repo to uv last week (Jonas did the lockfile). from now on run the suite with "
                 "`uv run pytest`; the Makefile target still points at the old .venv and is "
                 "going away.", replaces="test-make", states="test-uv"),
            Bash("uv run pytest", ok=False, exit=2,
                 out="error: Failed to spawn: `pytest`\n  Caused by: No such file or directory "
                     "(os error 2)"),
            Say("uv's environment has no pytest: it's in the `dev` optional extra in "
                "pyproject.toml, and a plain `uv sync` only installs the main dependencies. The "
                "env needs `uv sync --extra dev` once.", states="uv-sync-extra"),
            Bash("uv sync --extra dev",
                 out="Resolved 54 packages in 2ms\nPrepared 6 packages in 512ms\n"
                     "Installed 8 packages in 19ms\n + iniconfig==2.0.0\n + mypy==1.10.1\n"
                     " + mypy-extensions==1.0.0\n + packaging==24.1\n + pluggy==1.5.0\n"
                     " + pytest==8.2.2\n + ruff==0.5.1\n + typing-extensions==4.12.2"),
            Bash("uv run pytest", out=UV_PYTEST_FULL),
            User("ah right, forgot about the extra, thanks. second thing, and this one's "
                 "bigger: we're ripping out the structured logging lib, the log pipeline on the "
                 "new infra wants plain stdlib records. going forward just use the standard "
                 "library: `logger = logging.getLogger(__name__)` at the top of each module, "
                 "message strings with %s args.", replaces="log-structlog", states="log-stdlib"),
            Edit("src/orderdesk/api/orders.py", "import uuid\nfrom decimal import Decimal\n",
                 "import logging\nimport uuid\nfrom decimal import Decimal\n"),
            Edit("src/orderdesk/api/orders.py", "import structlog\nfrom fastapi",
                 "from fastapi"),
            Edit("src/orderdesk/api/orders.py", "log = structlog.get_logger()\n",
                 "logger = logging.getLogger(__name__)\n"),
            Edit("src/orderdesk/api/orders.py",
                 '    log.info("order_cancelled", order_id=str(order.id))\n',
                 '    logger.info("order %s cancelled", order.id)\n'),
            Edit("pyproject.toml", '    "structlog>=24.1",\n', ""),
            Bash("uv run pytest -q", out=_q(7, 2.08)),
            Commit("Replace structlog with stdlib logging"),
            User("perfect 🙏"),
        )),
        Session(day=14, events=(
            User("hi! back from two days off. let's keep going"),
            Bash("git stauts", ok=False, exit=1,
                 out="git: 'stauts' is not a git command. See 'git --help'.\n\n"
                     "The most similar command is\n\tstatus"),
            Bash("git status --short", out=""),
            Probe("the warehouse needs to mark orders as shipped: POST /orders/{id}/ship, only "
                  "from paid. and we need to see afterwards who shipped what, they'll send an "
                  "X-Operator header", needs=("response-model", "log-stdlib")),
            Edit("src/orderdesk/api/orders.py",
                 "from fastapi import APIRouter, Depends, HTTPException\n",
                 "from fastapi import APIRouter, Depends, Header, HTTPException\n"),
            Edit("src/orderdesk/api/orders.py",
                 '    logger.info("order %s cancelled", order.id)\n    return order\n', SHIP_ROUTE),
            Edit("tests/test_orders.py",
                 "from orderdesk.models import Customer, Order, OrderLine\n",
                 "from orderdesk.models import Customer, Order, OrderLine, OrderStatus\n"),
            Edit("tests/test_orders.py",
                 '    assert client.get("/orders", params={**params, "limit": 500}).status_code'
                 " == 422\n", TEST_SHIP),
            Probe("run the tests", needs=("test-uv",)),
            Bash("uv run pytest -q", out=_q(8, 2.16)),
            Commit("Let the warehouse mark paid orders shipped (logs the operator)"),
            User("great, thanks!"),
        )),
    ),
)

# --- py-orderdesk-celery-tasks ----------------------------------------------------------------

TRACKING_TASK_BAD = '''\
        order.status = OrderStatus.paid
        session.commit()


@app.task
def send_tracking_email(order: Order, tracking_url: str) -> None:
    send_mail(order.customer.email, "order_shipped", tracking_url=tracking_url)
'''
TRACKING_TASK_IDS = '''\
@app.task
def send_tracking_email(order_id: str, tracking_url: str) -> None:
    with SessionLocal() as session:
        order = _load(session, order_id)
        send_mail(order.customer.email, "order_shipped", tracking_url=tracking_url)
'''
SHIP_ENDPOINT = '''\
    send_confirmation.delay(str(order.id))
    return order


class ShipIn(BaseModel):
    tracking_url: str


@router.post("/{order_id}/ship", response_model=OrderOut)
def ship_order(
    order_id: uuid.UUID, body: ShipIn, session: Session = Depends(get_session)
) -> Order:
    order = session.get(Order, order_id)
    if order is None:
        raise HTTPException(status_code=404, detail="order not found")
    order.status = OrderStatus.shipped
    session.commit()
    send_tracking_email.delay(order, body.tracking_url)
    return order
'''
TEST_SHIP_TRACKING = '''\
    assert resp.status_code == 404


def test_ship_order(client, db_session):
    customer = _customer(db_session)
    resp = client.post("/orders", json={"customer_id": str(customer.id), "total": "8.00"})
    order_id = resp.json()["id"]
    resp = client.post(f"/orders/{order_id}/ship", json={"tracking_url": "https://t.example/1"})
    assert resp.status_code == 200
    assert resp.json()["status"] == "shipped"
'''
CONFTEST_WORKER = '''\
celery_app.conf.update(broker_url="memory://", result_backend="cache+memory://")


@pytest.fixture(scope="session")
def celery_worker():
    with start_worker(celery_app, pool="solo") as worker:
        yield worker
'''
TEST_TASKS = '''\
from decimal import Decimal

from orderdesk.models import Customer, Order
from orderdesk.worker import send_tracking_email


def test_tracking_email_goes_through_the_broker(celery_worker, client, db_session, monkeypatch):
    sent = []
    monkeypatch.setattr("orderdesk.worker.send_mail", lambda to, template, **kw: sent.append(to))
    order = Order(customer=Customer(email="ship@example.com"), total=Decimal("8.00"))
    db_session.add(order)
    db_session.flush()
    send_tracking_email.delay(str(order.id), "https://t.example/1").get(timeout=10)
    assert sent == ["ship@example.com"]
'''
PYTEST_PING_ASSERT = (
    "E                                                                        [100%]\n"
    f"{_bar('ERRORS')}\n"
    "________ ERROR at setup of test_tracking_email_goes_through_the_broker _________\n"
    "tests/conftest.py:21: in celery_worker\n"
    '    with start_worker(celery_app, pool="solo") as worker:\n'
    "/usr/lib/python3.12/contextlib.py:137: in __enter__\n"
    "    return next(self.gen)\n"
    ".venv/lib/python3.12/site-packages/celery/contrib/testing/worker.py:120: in start_worker\n"
    "    assert ping.name in app.tasks\n"
    "E   AssertionError: assert 'celery.ping' in {'celery.accumulate': <@task: "
    "celery.accumulate of orderdesk at 0x7f0c5e2a8d10>, 'celery.backend_cleanup': <@task: "
    "celery.backend_cleanup of orderdesk at 0x7f0c5e2a8d10>, 'celery.chain': <@task: "
    "celery.chain of orderdesk at 0x7f0c5e2a8d10>, 'celery.chord': <@task: celery.chord of "
    "orderdesk at 0x7f0c5e2a8d10>, ...}\n"
    "E    +  where 'celery.ping' = <@task: celery.ping of default at 0x7f0c5e31b4d0>.name\n"
    "E    +  and   {'celery.accumulate': ..., ...} = <Celery orderdesk at 0x7f0c5e2a8d10>.tasks\n"
    f"{_bar('short test summary info')}\n"
    "ERROR tests/test_tasks.py::test_tracking_email_goes_through_the_broker - AssertionError: "
    "assert 'celery.ping' in {'celery.accumulate': <@task: celery.accumulate of orderdesk at "
    "0x7f0c5e2a8d10>, ...}\n"
    "1 error in 0.94s"
)
BULK_ROUTE_EARLY = '''\
    send_tracking_email.delay(str(order.id), body.tracking_url)
    return order


class BulkIn(BaseModel):
    orders: list[OrderIn]


@router.post("/bulk", response_model=list[OrderOut], status_code=201)
def create_orders_bulk(body: BulkIn, session: Session = Depends(get_session)) -> list[Order]:
    orders = []
    for item in body.orders:
        order = Order(customer_id=item.customer_id, total=item.total)
        session.add(order)
        session.flush()
        send_confirmation.delay(str(order.id))
        orders.append(order)
    session.commit()
    return orders
'''
BULK_BODY_EARLY = '''\
    orders = []
    for item in body.orders:
        order = Order(customer_id=item.customer_id, total=item.total)
        session.add(order)
        session.flush()
        send_confirmation.delay(str(order.id))
        orders.append(order)
    session.commit()
    return orders
'''
BULK_BODY_AFTER_COMMIT = '''\
    orders = [Order(customer_id=item.customer_id, total=item.total) for item in body.orders]
    session.add_all(orders)
    session.commit()
    for order in orders:
        send_confirmation.delay(str(order.id))
    return orders
'''
TEST_BULK = '''\
    assert resp.json()["status"] == "shipped"


def test_bulk_create(client, db_session):
    customer = _customer(db_session)
    items = [{"customer_id": str(customer.id), "total": t} for t in ("1.00", "2.50")]
    resp = client.post("/orders/bulk", json={"orders": items})
    assert resp.status_code == 201
    assert [o["total"] for o in resp.json()] == ["1.00", "2.50"]
'''
WORKER_LOG_RACE = """\
[2024-05-02 14:12:09,101: INFO/MainProcess] Task orderdesk.worker.send_confirmation[5e0c71d2-\
9a3f-4b8e-8d21-0f6c3b7a9e14] received
[2024-05-02 14:12:09,118: ERROR/MainProcess] Task orderdesk.worker.send_confirmation[5e0c71d2-\
9a3f-4b8e-8d21-0f6c3b7a9e14] raised unexpected: OrderNotFound('order 0b6c8f7e-2d41-4c9a-b3e5-\
7f19a2c4d860 not found')
Traceback (most recent call last):
  File "/home/mara/src/orderdesk/.venv/lib/python3.12/site-packages/celery/app/trace.py", \
line 453, in trace_task
    R = retval = fun(*args, **kwargs)
  File "/home/mara/src/orderdesk/src/orderdesk/worker.py", line 29, in send_confirmation
    order = _load(session, order_id)
  File "/home/mara/src/orderdesk/src/orderdesk/worker.py", line 22, in _load
    raise OrderNotFound(f"order {order_id} not found")
orderdesk.worker.OrderNotFound: order 0b6c8f7e-2d41-4c9a-b3e5-7f19a2c4d860 not found
[2024-05-02 14:12:09,131: ERROR/MainProcess] Task orderdesk.worker.send_confirmation[a81f0e37-\
55c2-4d0b-9e6a-3c2d7b1f8a05] raised unexpected: OrderNotFound('order 4e2a9c13-7b5d-4f08-a1c6-\
92d0e8b3f757 not found')
[2024-05-02 14:12:09,144: ERROR/MainProcess] Task orderdesk.worker.send_confirmation[c3d94b0a-\
1e7f-4a26-b85c-6f0a2e9d1c38] raised unexpected: OrderNotFound('order 9d17b4e0-3c8a-4e5f-b2d6-\
0a4c7e1f9b23 not found')
[2024-05-02 14:12:09,163: INFO/MainProcess] Task orderdesk.worker.send_confirmation[7b0e5f2c-\
8d4a-4c3e-9f1b-2a6d0c8e4b71] succeeded in 0.012s: None
[2024-05-02 14:12:09,175: INFO/MainProcess] Task orderdesk.worker.send_confirmation[e5a2c8d1-\
0f3b-4e7a-a9c4-5d1b8f2e6c09] succeeded in 0.011s: None"""
WORKER_LOG_OK = """\
[2024-05-02 14:19:40,522: INFO/MainProcess] Task orderdesk.worker.send_confirmation[2c8e4a1f-\
6b3d-4f0e-9a57-e1d3b0c7f942] succeeded in 0.013s: None
[2024-05-02 14:19:40,537: INFO/MainProcess] Task orderdesk.worker.send_confirmation[91f0d6b3-\
2a4e-4c8d-b7e1-3f5a9c0d2e68] succeeded in 0.011s: None
[2024-05-02 14:19:40,549: INFO/MainProcess] Task orderdesk.worker.send_confirmation[d4b7e2a0-\
8c1f-4e3a-95d6-7a0e2f4c1b83] succeeded in 0.010s: None
[2024-05-02 14:19:40,561: INFO/MainProcess] Task orderdesk.worker.send_confirmation[6e3a0c9d-\
4b2f-4d7e-a8c1-0f9e5d3b7a26] succeeded in 0.011s: None
[2024-05-02 14:19:40,574: INFO/MainProcess] Task orderdesk.worker.send_confirmation[b0c5f8e2-\
1d7a-4e9b-8c3f-2e6a4d0b9f15] succeeded in 0.012s: None"""
REFUND_TASK = '''\
        send_mail(order.customer.email, "order_shipped", tracking_url=tracking_url)


@app.task(autoretry_for=(httpx.HTTPError,), retry_backoff=True, max_retries=5)
def notify_refund(order_id: str) -> None:
    with SessionLocal() as session:
        order = _load(session, order_id)
        resp = httpx.post(
            f"{settings.payments_api}/refunds",
            json={"order_id": order_id, "refund_ref": order.refund_ref},
            timeout=10,
        )
        resp.raise_for_status()
'''
REFUND_ROUTE = '''\
        send_confirmation.delay(str(order.id))
    return orders


class RefundIn(BaseModel):
    refund_ref: str


@router.post("/{order_id}/refund", response_model=OrderOut)
def refund_order(
    order_id: uuid.UUID, body: RefundIn, session: Session = Depends(get_session)
) -> Order:
    order = session.get(Order, order_id)
    if order is None:
        raise HTTPException(status_code=404, detail="order not found")
    order.status = OrderStatus.cancelled
    order.refund_ref = body.refund_ref
    session.commit()
    notify_refund.delay(str(order.id))
    return order
'''
TEST_REFUND_TASK = '''\
    assert sent == ["ship@example.com"]


def test_refund_notifies_provider(celery_worker, client, db_session, monkeypatch):
    posted = []
    monkeypatch.setattr(
        "orderdesk.worker.httpx.post",
        lambda url, json, timeout: posted.append(json) or httpx.Response(200, request=REQ),
    )
    order = Order(customer=Customer(email="refund@example.com"), total=Decimal("8.00"))
    db_session.add(order)
    db_session.flush()
    client.post(f"/orders/{order.id}/refund", json={"refund_ref": "re_42"})
    notify_refund.delay(str(order.id)).get(timeout=10)
    assert posted[-1] == {"order_id": str(order.id), "refund_ref": "re_42"}
'''

CELERY_TASKS = Story(
    id="py-orderdesk-celery-tasks",
    title="Celery: eager-mode tests hide a serialisation bug, replaced by a real in-memory "
          "worker; tasks enqueued before the commit race the worker",
    project=ORDERDESK,
    lessons=(
        lesson("worker-module", "fact",
               "The Celery app and all tasks live in src/orderdesk/worker.py; a worker is "
               "started with `make worker` (celery -A orderdesk.worker worker -l info)",
               "worker.py|orderdesk.worker", "celery|task"),
        lesson("eager-tests", "decision",
               "Tests run Celery tasks eagerly (task_always_eager=True in tests/conftest.py), "
               "so the suite needs no broker or Redis",
               "task_always_eager|always_eager|eagerly",
               "no broker|without a broker|broker-free|no redis|without redis"),
        lesson("task-args-json", "gotcha",
               "Celery task arguments must be JSON-serialisable: pass str(order.id) and load "
               "the row inside the task, never the ORM Order (kombu EncodeError: Object of type "
               "Order is not JSON serializable)",
               "EncodeError|serializable|serialisable|serialize|serialise",
               "ORM|str(order.id)|order id|Order object|ids"),
        lesson("celery-worker-fixture", "decision",
               "Task tests run through a real in-process worker (celery_worker fixture in "
               "tests/conftest.py: start_worker on the memory:// broker, celery.contrib.testing."
               "tasks imported for celery.ping) instead of task_always_eager, so arguments are "
               "serialised like in production",
               "celery_worker|start_worker|contrib.testing"),
        lesson("enqueue-after-commit", "gotcha",
               "Enqueue Celery tasks only after session.commit(): a task queued before the "
               "commit can run before the row is visible and fail with OrderNotFound",
               "after commit|after the commit|after session.commit|before the commit|"
               "before commit|after committing|before committing",
               "task|delay|enqueue|queue"),
    ),
    also=(
        # session 0, say: "The client fixture also patches send_mail and points the worker's
        # SessionLocal at the test transaction."
        lesson("also-client-fixture", "fact",
               "The client fixture in tests/conftest.py patches orderdesk.worker.send_mail to a "
               "no-op, "
               "points the worker's SessionLocal at the test transaction and overrides get_session",
               "client fixture|conftest",
               "send_mail|SessionLocal",
               "patch|monkeypatch|points|pointed|override|nullcontext|no-op|stub"),
        # session 3, probe + edit: "their API is slow and flaky so it should happen in the
        # background" / "@app.task(autoretry_for=(httpx.HTTPError,), retry_backoff=True,
        # max_retries=5)\ndef notify_refund"
        lesson("also-refund-retry", "decision",
               "Calls to the slow, flaky payment provider run in the background Celery task "
               "notify_refund (worker.py, settings.payments_api) with "
               "autoretry_for=(httpx.HTTPError,), "
               "retry_backoff=True, max_retries=5",
               "notify_refund|payment provider|payments_api",
               "autoretry|retry|retries|backoff"),
        # session 1, user: "yes, do it. slower tests are fine if they're honest"
        lesson("also-honest-tests", "preference",
               "The user accepts slower tests as long as they are honest, i.e. exercise the real "
               "production path instead of a shortcut that hides bugs",
               "slow",
               "honest|faithful|realistic|over speed|over fast"),
        # session 1, bash: "python -m pytest -q" -> "6 passed"
        lesson("also-pytest-cmd", "command",
               "Run the tests with `python -m pytest -q`",
               "python -m pytest"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hey! new ticket from the warehouse: when an order ships, the customer should "
                 "get an email with the tracking link. can you add a celery task for that, plus "
                 "the endpoint the warehouse calls, POST /orders/{id}/ship with a tracking_url?"),
            Read("src/orderdesk/worker.py"),
            Say("All Celery tasks live in src/orderdesk/worker.py (the app is orderdesk.worker; "
                "`make worker` starts one with celery -A orderdesk.worker worker -l info). I'll "
                "add send_tracking_email there next to send_confirmation and call it from the "
                "new route.", states="worker-module"),
            Edit("src/orderdesk/worker.py",
                 "        order.status = OrderStatus.paid\n        session.commit()\n",
                 TRACKING_TASK_BAD),
            Edit("src/orderdesk/api/orders.py",
                 "from orderdesk.worker import send_confirmation\n",
                 "from orderdesk.worker import send_confirmation, send_tracking_email\n"),
            Edit("src/orderdesk/api/orders.py",
                 "    send_confirmation.delay(str(order.id))\n    return order\n", SHIP_ENDPOINT),
            Edit("tests/test_orders.py", "    assert resp.status_code == 404\n",
                 TEST_SHIP_TRACKING),
            Bash("pytest -q", out=_q(5, 1.69)),
            User("nice. out of curiosity, how do the tests run celery tasks? I never start "
                 "redis for them"),
            Read("tests/conftest.py"),
            Say("tests/conftest.py sets task_always_eager = True on the Celery app, so .delay() "
                "just runs the task inline in the test process: no broker, no Redis needed for "
                "the suite. The client fixture also patches send_mail and points the worker's "
                "SessionLocal at the test transaction.", states="eager-tests"),
            Commit("Email the tracking link when an order ships"),
        )),
        Session(day=3, judge={"eager-tests": "down"}, events=(
            User("the ship endpoint 500s on staging 😕 sentry has this:\n\n```\n"
                 "kombu.exceptions.EncodeError: Object of type Order is not JSON serializable\n"
                 '  File "orderdesk/api/orders.py", line 74, in ship_order\n'
                 "    send_tracking_email.delay(order, body.tracking_url)\n```\n\n"
                 "but the tests pass??"),
            Say("The task gets the ORM Order object itself. Celery serialises task arguments to "
                "JSON before they go to Redis, and an Order isn't JSON-serialisable, hence "
                "kombu's EncodeError. Task arguments have to be plain data: pass str(order.id) "
                "and load the order inside the task with the worker's own session, the way "
                "send_confirmation does. The tests didn't catch it because in eager mode the "
                "task function is called directly and the arguments are never serialised.",
                states="task-args-json"),
            Edit("src/orderdesk/worker.py",
                 "@app.task\ndef send_tracking_email(order: Order, tracking_url: str) -> None:\n"
                 '    send_mail(order.customer.email, "order_shipped", '
                 "tracking_url=tracking_url)\n", TRACKING_TASK_IDS),
            Edit("src/orderdesk/api/orders.py",
                 "    send_tracking_email.delay(order, body.tracking_url)\n",
                 "    send_tracking_email.delay(str(order.id), body.tracking_url)\n"),
            User("ugh, so the test setup lied to us. I don't want that to happen again, what "
                 "are the options?"),
            Say("Drop task_always_eager and run task tests through a real worker: "
                "celery.contrib.testing's start_worker runs an in-process worker thread, and "
                "with the memory:// broker every .delay() goes through the same JSON "
                "serialisation as production. I'd wrap it in a session-scoped celery_worker "
                "fixture in conftest and use it in a new tests/test_tasks.py. A bit slower, but "
                "it catches exactly this class of bug.",
                replaces="eager-tests", states="celery-worker-fixture"),
            User("yes, do it. slower tests are fine if they're honest"),
            Edit("tests/conftest.py", "import pytest\nfrom fastapi.testclient import TestClient\n",
                 "import pytest\nfrom celery.contrib.testing.worker import start_worker\n"
                 "from fastapi.testclient import TestClient\n"),
            Edit("tests/conftest.py", "celery_app.conf.task_always_eager = True\n",
                 CONFTEST_WORKER),
            Write("tests/test_tasks.py", TEST_TASKS),
            Bash("python -m pytest tests/test_tasks.py -q --tb=short", out=PYTEST_PING_ASSERT,
                 ok=False, exit=1),
            Say("start_worker checks the worker with the built-in celery.ping task, which is "
                "only registered once celery.contrib.testing.tasks is imported. Importing it in "
                "conftest."),
            Edit("tests/conftest.py",
                 "from celery.contrib.testing.worker import start_worker\n",
                 "import celery.contrib.testing.tasks  # noqa: F401  (registers celery.ping)\n"
                 "from celery.contrib.testing.worker import start_worker\n"),
            Bash("python -m pytest -q", out=_q(6, 3.41)),
            Commit("Pass order ids to send_tracking_email; test tasks through a real worker\n\n"
                   "task_always_eager skipped argument serialisation, which hid the "
                   "EncodeError on staging."),
        )),
        Session(day=6, end=None, events=(
            Probe("wholesale customers want to upload orders in bulk: POST /orders/bulk with a "
                  "list of orders. every new order should still get its confirmation email, "
                  "same as single orders",
                  needs=("task-args-json", "worker-module", "celery-worker-fixture")),
            Edit("src/orderdesk/api/orders.py",
                 "    send_tracking_email.delay(str(order.id), body.tracking_url)\n"
                 "    return order\n", BULK_ROUTE_EARLY),
            Edit("tests/test_orders.py", '    assert resp.json()["status"] == "shipped"\n',
                 TEST_BULK),
            Bash("python -m pytest -q", out=_q(7, 3.52)),
            Bash("celery -A orderdesk.worker worker -l info --pool solo &> /tmp/worker.log & "
                 "uvicorn orderdesk.main:app --port 8000 &> /tmp/api.log & sleep 3 && "
                 "curl -s -o /dev/null -w '%{http_code}\\n' -X POST localhost:8000/orders/bulk "
                 "-H 'content-type: application/json' -d @/tmp/bulk5.json", out="201"),
            Bash("grep -E 'raised|succeeded' -A6 /tmp/worker.log | grep -v '^--'",
                 out=WORKER_LOG_RACE),
            Say("Three of the five confirmations failed with OrderNotFound. The route enqueues "
                "each task right after flush(), i.e. before the commit: the worker picks the "
                "message up within milliseconds, opens its own session, and the row isn't "
                "visible yet because the API's transaction hasn't committed. The last two only "
                "succeeded because the commit happened to land first. Tasks must be enqueued "
                "after session.commit(), never from inside the transaction.",
                states="enqueue-after-commit"),
            Edit("src/orderdesk/api/orders.py", BULK_BODY_EARLY, BULK_BODY_AFTER_COMMIT),
            Bash("python -m pytest -q", out=_q(7, 3.47)),
            Bash("curl -s -o /dev/null -w '%{http_code}\\n' -X POST localhost:8000/orders/bulk "
                 "-H 'content-type: application/json' -d @/tmp/bulk5.json && sleep 2 && "
                 "grep -E 'raised|succeeded' /tmp/worker.log | tail -5", out="201\n"
                 + WORKER_LOG_OK),
            Say("All five confirmations go out now. I'll stop the local worker and API and "
                "commit."),
        )),
        Session(day=9, judge={"enqueue-after-commit": "up"}, events=(
            User("morning. my terminal died on thursday right when you were about to commit, "
                 "laptop battery 🙃 no idea what state things are in"),
            Bash("git status --short", out=" M src/orderdesk/api/orders.py\n"
                                           " M tests/test_orders.py"),
            Bash("git diff --stat",
                 out=" src/orderdesk/api/orders.py | 16 ++++++++++++++++\n"
                     " tests/test_orders.py        |  9 +++++++++\n"
                     " 2 files changed, 25 insertions(+)"),
            Bash("python -m pytest -q", out=_q(7, 3.49)),
            Commit("Bulk order creation; enqueue confirmations after the commit\n\nTasks queued "
                   "before the commit ran before the rows were visible (OrderNotFound in the "
                   "worker)."),
            Probe("next: when a refund is issued (POST /orders/{id}/refund with a refund_ref) we "
                  "have to notify the payment provider. their API is slow and flaky so it should "
                  "happen in the background",
                  needs=("task-args-json", "enqueue-after-commit", "celery-worker-fixture")),
            Edit("src/orderdesk/worker.py",
                 '        send_mail(order.customer.email, "order_shipped", '
                 "tracking_url=tracking_url)\n", REFUND_TASK),
            Edit("src/orderdesk/worker.py", "import uuid\n\nfrom celery import Celery\n",
                 "import uuid\n\nimport httpx\nfrom celery import Celery\n"),
            Edit("src/orderdesk/settings.py", '    mail_api: str = "http://localhost:8025/api"\n',
                 '    mail_api: str = "http://localhost:8025/api"\n'
                 '    payments_api: str = "http://localhost:8090/v1"\n'),
            Edit("src/orderdesk/api/orders.py",
                 "        send_confirmation.delay(str(order.id))\n    return orders\n",
                 REFUND_ROUTE),
            Edit("src/orderdesk/api/orders.py",
                 "from orderdesk.worker import send_confirmation, send_tracking_email\n",
                 "from orderdesk.worker import notify_refund, send_confirmation, "
                 "send_tracking_email\n"),
            Edit("tests/test_tasks.py", '    assert sent == ["ship@example.com"]\n',
                 TEST_REFUND_TASK),
            Edit("tests/test_tasks.py",
                 "from decimal import Decimal\n\nfrom orderdesk.models import Customer, Order\n"
                 "from orderdesk.worker import send_tracking_email\n",
                 "from decimal import Decimal\n\nimport httpx\n\n"
                 "from orderdesk.models import Customer, Order\n"
                 "from orderdesk.worker import notify_refund, send_tracking_email\n\n"
                 'REQ = httpx.Request("POST", "http://payments.test/refunds")\n'),
            Bash("python -m pytest -q", out=_q(8, 3.88)),
            Commit("Notify the payment provider of refunds from a background task"),
        )),
    ),
)

# --- py-orderdesk-settings-deploy -------------------------------------------------------------

UVICORN_PSYCOPG2 = """\
Traceback (most recent call last):
  File "/home/mara/src/orderdesk/.venv/bin/uvicorn", line 8, in <module>
    sys.exit(main())
  [... 12 lines of click/uvicorn frames ...]
  File "/home/mara/src/orderdesk/src/orderdesk/main.py", line 3, in <module>
    from orderdesk.api import orders
  File "/home/mara/src/orderdesk/src/orderdesk/api/orders.py", line 9, in <module>
    from orderdesk.db import get_session
  File "/home/mara/src/orderdesk/src/orderdesk/db.py", line 8, in <module>
    engine = create_engine(settings.database_url, pool_pre_ping=True)
  File "<string>", line 2, in create_engine
  File "/home/mara/src/orderdesk/.venv/lib/python3.12/site-packages/sqlalchemy/util/\
deprecations.py", line 281, in warned
    return fn(*args, **kwargs)  # type: ignore[no-any-return]
  File "/home/mara/src/orderdesk/.venv/lib/python3.12/site-packages/sqlalchemy/engine/\
create.py", line 599, in create_engine
    dbapi = dbapi_meth(**dbapi_args)
  File "/home/mara/src/orderdesk/.venv/lib/python3.12/site-packages/sqlalchemy/dialects/\
postgresql/psycopg2.py", line 690, in import_dbapi
    import psycopg2
ModuleNotFoundError: No module named 'psycopg2'"""
RELEASE_STAGING = """\
./scripts/release.sh staging
==> building ghcr.io/leafline/orderdesk:4b8e1d2 (python:3.12-slim)
[+] Building 71.4s (14/14) FINISHED
==> pushing ghcr.io/leafline/orderdesk:4b8e1d2
4b8e1d2: digest: sha256:9c4f0a7e1b3d52c8e6f1a0b9d7c3e5f2a4b6c8d0e1f3a5b7c9d2e4f6a8b0c1d3 \
size: 2417
==> running migrations on staging (job orderdesk-migrate-4b8e1d2)
INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
INFO  [alembic.runtime.migration] Will assume transactional DDL.
job.batch/orderdesk-migrate-4b8e1d2 condition met
==> rolling out orderdesk-api, orderdesk-worker
deployment "orderdesk-api" successfully rolled out
deployment "orderdesk-worker" successfully rolled out
==> staging is at 4b8e1d2"""
DSN_VALIDATOR = '''\
    debug: bool = False
    payment_webhook_secret: str = ""

    @field_validator("database_url")
    @classmethod
    def psycopg3_scheme(cls, v: str) -> str:
        if not v.startswith("postgresql+psycopg://"):
            raise ValueError("database_url must start with postgresql+psycopg:// (psycopg 3)")
        return v
'''
TEST_SETTINGS = '''\
import pytest
from pydantic import ValidationError

from orderdesk.settings import Settings


def test_rejects_a_url_without_the_psycopg3_driver(monkeypatch):
    monkeypatch.setenv("ORDERDESK_DATABASE_URL", "postgresql://u:p@db/orderdesk")
    with pytest.raises(ValidationError, match=r"postgresql\\+psycopg://"):
        Settings()
'''

SETTINGS_DEPLOY = Story(
    id="py-orderdesk-settings-deploy",
    title="Where config lives, the psycopg 3 URL scheme gotcha (twice), .env.example upkeep, "
          "and the release command from MEMORY.md",
    project=ORDERDESK,
    lessons=(
        lesson("settings-prefix", "fact",
               "Config is the pydantic-settings Settings class in src/orderdesk/settings.py; "
               "every env var has the ORDERDESK_ prefix (ORDERDESK_DATABASE_URL, "
               "ORDERDESK_REDIS_URL, ...)",
               "ORDERDESK_", "settings|env"),
        lesson("psycopg-scheme", "gotcha",
               "Database URLs must use the postgresql+psycopg:// scheme: a bare postgresql:// "
               "makes SQLAlchemy load psycopg2, which isn't installed (ModuleNotFoundError: No "
               "module named 'psycopg2')",
               "psycopg2|postgresql+psycopg", "postgresql://|scheme|url|dialect|driver"),
        lesson("env-example", "convention",
               "Every new setting also goes into .env.example with a one-line comment",
               ".env.example|env.example", "setting|variable|var"),
        lesson("release-cmd", "command",
               "Deploys go through `make release ENV=staging|production` (builds and pushes the "
               "image, then runs the migrations on the target)",
               "make release"),
    ),
    also=(
        # session 3, commit: "Fail fast on a database URL without the psycopg 3 driver"
        # (field_validator on database_url, tests/test_settings.py)
        lesson("also-dsn-validator", "fact",
               "Settings has a field_validator on database_url that rejects any URL not starting "
               "with "
               "postgresql+psycopg:// at startup (pydantic ValidationError), covered by "
               "tests/test_settings.py",
               "validator|validat|ValidationError|fail fast|fails fast",
               "database_url|DATABASE_URL|database url|DSN"),
        # session 3, bash: "kubectl -n orderdesk-staging logs deploy/orderdesk-worker --tail=4"
        lesson("also-staging-logs", "command",
               "Staging runs on Kubernetes in namespace orderdesk-staging (deployments "
               "orderdesk-api "
               "and orderdesk-worker); read logs with `kubectl -n orderdesk-staging logs "
               "deploy/orderdesk-worker`",
               "kubectl",
               "orderdesk-staging"),
        # session 3, say/probe: "I can't resolve the staging hostname from this machine, probably
        # VPN-only" / "I'm on VPN, health is fine"
        lesson("also-staging-vpn", "fact",
               "The staging host orderdesk.staging.internal only resolves on the VPN, so the "
               "assistant cannot curl staging /health itself; the user checks it",
               "orderdesk.staging.internal|staging host|staging hostname",
               "VPN|resolve"),
        # session 2, say + user: "payment_webhook_secret ... empty by default" / "ok leave it empty
        # for now, we'll tighten it when the handler lands"
        lesson("also-webhook-secret", "decision",
               "ORDERDESK_PAYMENT_WEBHOOK_SECRET (settings.payment_webhook_secret) stays empty by "
               "default for now; it gets tightened (required when debug is false) when the webhook "
               "handler lands",
               "webhook|payment_webhook_secret|PAYMENT_WEBHOOK_SECRET",
               "empty|tighten|required"),
        # session 1, bash: "make test" -> "pytest -q ... 4 passed"
        lesson("also-make-test", "command",
               "Run the test suite with `make test` (runs pytest -q)",
               "make test"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hi! I'm setting up orderdesk on my new laptop and the API won't even start. I "
                 "exported ORDERDESK_DATABASE_URL=postgresql://orderdesk:orderdesk@localhost:5432"
                 "/orderdesk like the old wiki page says, and uvicorn dies with `No module named "
                 "'psycopg2'`. but we use psycopg 3, no?"),
            Read("src/orderdesk/settings.py"),
            Bash("uvicorn orderdesk.main:app --port 8000", out=UVICORN_PSYCOPG2, ok=False,
                 exit=1),
            Say("Right, the project uses psycopg 3 (psycopg[binary] in pyproject). Config comes "
                "from the Settings class in src/orderdesk/settings.py (pydantic-settings), and "
                "every variable has the ORDERDESK_ prefix, so your ORDERDESK_DATABASE_URL "
                "overrides the default. The catch is the URL scheme: with a bare postgresql:// "
                "SQLAlchemy picks its default Postgres driver, psycopg2, which isn't installed. "
                "The URL has to say postgresql+psycopg://. The wiki page predates the switch to "
                "psycopg 3.", states=("settings-prefix", "psycopg-scheme")),
            User("ahh. fixed the export, it starts now. I'll update the wiki"),
            Bash("curl -s localhost:8000/health", out='{"status":"ok"}'),
            User("while you're here: make sure any new setting you ever add also lands in "
                 ".env.example with a one-line comment. new hires copy that file on day one and "
                 "then wonder why things break. and can you put the psycopg note in there too?",
                 states="env-example"),
            Edit(".env.example",
                 "# Copy to .env for local development. All settings use the ORDERDESK_ prefix.\n",
                 "# Copy to .env for local development. All settings use the ORDERDESK_ prefix.\n"
                 "# Must be postgresql+psycopg:// (psycopg 3); plain postgresql:// loads "
                 "psycopg2.\n"),
            Commit("Note the psycopg 3 URL scheme in .env.example"),
            User("thanks!"),
        )),
        Session(day=3, noise=True, events=(
            User("morning! nothing urgent today. I'm reviewing Jonas's PR later and wanted to "
                 "understand a couple of things first"),
            User("what does pool_pre_ping do in db.py? is it expensive?"),
            Read("src/orderdesk/db.py"),
            Say("pool_pre_ping makes the pool test each connection with a cheap round trip when "
                "it's checked out, and silently replaces it if the server dropped it (after a "
                "Postgres restart, or an idle timeout on a proxy). The cost is one round trip "
                "per checkout, well under a millisecond on the same network."),
            User("ok cool. and the `-ra` in addopts?"),
            Say("It makes pytest print a short summary line for every test that didn't plainly "
                "pass (failed, errored, skipped, xfailed...), so skips don't go unnoticed."),
            User("makes sense. can you run the tests so I know main is green before I start "
                 "reviewing"),
            Bash("make test", out="pytest -q\n" + _q(4, 1.64)),
            Bash("ruff check src tests", out="All checks passed!"),
            User("nice. tiny thing: the FastAPI title should be 'orderdesk API', not "
                 "'orderdesk', it's what shows in the docs header"),
            Edit("src/orderdesk/main.py", 'app = FastAPI(title="orderdesk")\n',
                 'app = FastAPI(title="orderdesk API")\n'),
            Bash("pytest -q tests/test_health.py", out=_q(1, 0.58)),
            Commit("Rename the OpenAPI title to 'orderdesk API'"),
            User("thanks. I'm at PyCon next week btw, so it'll be quiet. anything I should "
                 "see? jk, I'll figure it out 😄"),
            Say("Enjoy it! The hallway track is usually the best part."),
        )),
        Session(day=7, notes=(
            Note("- Deploys go through `make release ENV=staging|production` (builds + pushes "
                 "the image, then runs migrations on the target)", states="release-cmd"),
        ), events=(
            Probe("we're switching payment providers and the new webhook needs a signing "
                  "secret. can you add it to our config so the webhook handler can read it "
                  "later?", needs=("settings-prefix", "env-example")),
            Edit("src/orderdesk/settings.py", "    debug: bool = False\n",
                 '    debug: bool = False\n    payment_webhook_secret: str = ""\n'),
            Edit(".env.example", "ORDERDESK_DEBUG=false\n",
                 "ORDERDESK_DEBUG=false\n# Signing secret for the payment provider's webhooks "
                 "(from their dashboard)\nORDERDESK_PAYMENT_WEBHOOK_SECRET=\n"),
            Bash("make test", out="pytest -q\n" + _q(4, 1.70)),
            Say("Added payment_webhook_secret to Settings (env ORDERDESK_PAYMENT_WEBHOOK_SECRET, "
                "empty by default) and documented it in .env.example. The handler can read "
                "settings.payment_webhook_secret."),
            User("great. hmm, should an empty default even be allowed? in prod it must be set"),
            Say("Making it required would force every dev and test run to set it. A middle "
                "ground is to validate at startup only when debug is false; easiest to add "
                "together with the handler, since that's when it starts to matter."),
            User("ok leave it empty for now, we'll tighten it when the handler lands"),
            Commit("Add ORDERDESK_PAYMENT_WEBHOOK_SECRET setting"),
        )),
        Session(day=12, events=(
            Probe("hey! can you ship main to staging? ops said the cluster is free this "
                  "afternoon", needs=("release-cmd",)),
            Bash("git status --short && git log --oneline -3",
                 out="4b8e1d2 Add ORDERDESK_PAYMENT_WEBHOOK_SECRET setting\n"
                     "91c0a7f Rename the OpenAPI title to 'orderdesk API'\n"
                     "e2d5b38 Note the psycopg 3 URL scheme in .env.example"),
            Bash("make release ENV=staging", out=RELEASE_STAGING),
            Bash("curl -s https://orderdesk.staging.internal/health", ok=False, exit=6,
                 out="curl: (6) Could not resolve host: orderdesk.staging.internal"),
            Say("Staging is at 4b8e1d2 (image pushed, migrations job done, api and worker "
                "rolled out). I can't resolve the staging hostname from this machine, probably "
                "VPN-only, so I couldn't hit /health myself."),
            Probe("I'm on VPN, health is fine. but ops says the workers on staging are "
                  "crash-looping since the deploy. they rotated the database credentials this "
                  "morning and pasted the new DSN into the secret; the API pods are fine, they "
                  "just haven't restarted since", needs=("psycopg-scheme", "settings-prefix")),
            Bash("kubectl -n orderdesk-staging logs deploy/orderdesk-worker --tail=4",
                 out='  File "/app/.venv/lib/python3.12/site-packages/sqlalchemy/dialects/'
                     'postgresql/psycopg2.py", line 690, in import_dbapi\n'
                     "    import psycopg2\nModuleNotFoundError: No module named 'psycopg2'"),
            Say("Same thing as on your laptop: the rotated secret's ORDERDESK_DATABASE_URL most "
                "likely starts with postgresql:// instead of postgresql+psycopg://, so "
                "SQLAlchemy tries psycopg2 and the worker dies at import. The API pods will do "
                "the same on their next restart. Ops needs to change the scheme in the secret."),
            User("yep, postgresql://. ops fixed it, workers are up. can we make the app fail "
                 "with a clearer message next time?"),
            Edit("src/orderdesk/settings.py",
                 '    debug: bool = False\n    payment_webhook_secret: str = ""\n',
                 DSN_VALIDATOR),
            Edit("src/orderdesk/settings.py",
                 "from pydantic_settings import BaseSettings, SettingsConfigDict\n",
                 "from pydantic import field_validator\n"
                 "from pydantic_settings import BaseSettings, SettingsConfigDict\n"),
            Write("tests/test_settings.py", TEST_SETTINGS),
            Bash("make test", out="pytest -q\n" + _q(5, 1.81)),
            Commit("Fail fast on a database URL without the psycopg 3 driver"),
            User("🙏 have a good weekend"),
        )),
    ),
)

# --- py-orderdesk-async-revert ----------------------------------------------------------------

LIST_FILTER_UNTYPED = '''\
def _filter_status(stmt, status):
    if status is None:
        return stmt
    return stmt.where(Order.status == status)


@router.get("", response_model=list[OrderOut])
def list_orders(
    customer_id: uuid.UUID,
    status: OrderStatus | None = None,
    session: Session = Depends(get_session),
) -> list[Order]:
    stmt = select(Order).where(Order.customer_id == customer_id).order_by(Order.created_at)
    return list(session.scalars(_filter_status(stmt, status)))
'''
TEST_STATUS_FILTER = '''\
    assert resp.status_code == 404


def test_list_orders_filters_by_status(client, db_session):
    customer = _customer(db_session)
    db_session.add_all(
        [
            Order(customer=customer, total=Decimal("1.00"), status=OrderStatus.paid),
            Order(customer=customer, total=Decimal("2.00")),
        ]
    )
    db_session.flush()
    params = {"customer_id": str(customer.id), "status": "paid"}
    assert [o["total"] for o in client.get("/orders", params=params).json()] == ["1.00"]
'''
MAKE_LINT_UNTYPED = """\
ruff check src tests
All checks passed!
mypy src
src/orderdesk/api/orders.py:46: error: Function is missing a type annotation  [no-untyped-def]
src/orderdesk/api/orders.py:59: error: Call to untyped function "_filter_status" in typed \
context  [no-untyped-call]
Found 2 errors in 1 file (checked 9 source files)
make: *** [Makefile:8: lint] Error 1"""
MAKE_LINT_OK = ("ruff check src tests\nAll checks passed!\nmypy src\n"
                "Success: no issues found in 9 source files")
DB_ASYNC = '''\
from collections.abc import AsyncIterator, Iterator

from sqlalchemy import create_engine
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import Session, sessionmaker

from orderdesk.settings import settings

engine = create_engine(settings.database_url, pool_pre_ping=True)
SessionLocal = sessionmaker(bind=engine, expire_on_commit=False)

async_engine = create_async_engine(
    settings.database_url.replace("+psycopg", "+asyncpg"), pool_pre_ping=True
)
AsyncSessionLocal = async_sessionmaker(async_engine, expire_on_commit=False)


def get_session() -> Iterator[Session]:
    with SessionLocal() as session:
        yield session


async def get_async_session() -> AsyncIterator[AsyncSession]:
    async with AsyncSessionLocal() as session:
        yield session
'''
DB_POOL = '''\
from collections.abc import Iterator

from sqlalchemy import create_engine
from sqlalchemy.orm import Session, sessionmaker

from orderdesk.settings import settings

# API pods run FastAPI's default threadpool (40 threads): size the pool so they don't queue.
engine = create_engine(
    settings.database_url, pool_pre_ping=True, pool_size=20, max_overflow=20, pool_timeout=10
)
SessionLocal = sessionmaker(bind=engine, expire_on_commit=False)


def get_session() -> Iterator[Session]:
    with SessionLocal() as session:
        yield session
'''
READS_SYNC_TYPED = '''\
@router.get("/{order_id}", response_model=OrderOut)
def get_order(order_id: uuid.UUID, session: Session = Depends(get_session)) -> Order:
    order = session.get(Order, order_id)
    if order is None:
        raise HTTPException(status_code=404, detail="order not found")
    return order


def _filter_status(
    stmt: Select[tuple[Order]], status: OrderStatus | None
) -> Select[tuple[Order]]:
    if status is None:
        return stmt
    return stmt.where(Order.status == status)


@router.get("", response_model=list[OrderOut])
def list_orders(
    customer_id: uuid.UUID,
    status: OrderStatus | None = None,
    session: Session = Depends(get_session),
) -> list[Order]:
    stmt = select(Order).where(Order.customer_id == customer_id).order_by(Order.created_at)
    return list(session.scalars(_filter_status(stmt, status)))
'''
READS_ASYNC = '''\
@router.get("/{order_id}", response_model=OrderOut)
async def get_order(
    order_id: uuid.UUID, session: AsyncSession = Depends(get_async_session)
) -> Order:
    order = await session.get(Order, order_id)
    if order is None:
        raise HTTPException(status_code=404, detail="order not found")
    return order


def _filter_status(
    stmt: Select[tuple[Order]], status: OrderStatus | None
) -> Select[tuple[Order]]:
    if status is None:
        return stmt
    return stmt.where(Order.status == status)


@router.get("", response_model=list[OrderOut])
async def list_orders(
    customer_id: uuid.UUID,
    status: OrderStatus | None = None,
    session: AsyncSession = Depends(get_async_session),
) -> list[Order]:
    stmt = select(Order).where(Order.customer_id == customer_id).order_by(Order.created_at)
    return list(await session.scalars(_filter_status(stmt, status)))
'''
READS_ASYNC_EAGER = READS_ASYNC.replace(
    "    order = await session.get(Order, order_id)\n",
    "    order = await session.get(Order, order_id, options=[selectinload(Order.lines)])\n",
).replace(
    "    stmt = select(Order).where(Order.customer_id == customer_id).order_by(Order.created_at)\n"
    "    return list(await",
    "    stmt = (\n        select(Order)\n        .where(Order.customer_id == customer_id)\n"
    "        .options(selectinload(Order.lines))\n        .order_by(Order.created_at)\n    )\n"
    "    return list(await",
)
READS_SYNC_EAGER = READS_ASYNC_EAGER.replace(
    "async def get_order(\n    order_id: uuid.UUID, session: AsyncSession = "
    "Depends(get_async_session)\n) -> Order:\n    order = await session.get(",
    "def get_order(order_id: uuid.UUID, session: Session = Depends(get_session)) -> Order:\n"
    "    order = session.get(",
).replace(
    "async def list_orders(", "def list_orders(",
).replace(
    "    session: AsyncSession = Depends(get_async_session),\n",
    "    session: Session = Depends(get_session),\n",
).replace("    return list(await session.scalars(", "    return list(session.scalars(")
MISSING_GREENLET_LOG = """\
INFO:     127.0.0.1:51422 - "GET /orders?customer_id=7d1f0c52-3b9a-4f0e-9d55-0c2b8e6f41aa \
HTTP/1.1" 500 Internal Server Error
ERROR:    Exception in ASGI application
Traceback (most recent call last):
  [... 27 lines of uvicorn/starlette/fastapi frames ...]
  File "/home/mara/src/orderdesk/.venv/lib/python3.12/site-packages/fastapi/routing.py", \
line 155, in serialize_response
    value, errors_ = field.validate(response_content, {}, loc=("response",))
  [... 9 lines of pydantic/sqlalchemy frames ...]
  File "/home/mara/src/orderdesk/.venv/lib/python3.12/site-packages/sqlalchemy/util/\
_concurrency_py3k.py", line 123, in await_only
    raise exc.MissingGreenlet(
sqlalchemy.exc.MissingGreenlet: greenlet_spawn has not been called; can't call await_only() \
here. Was IO attempted in an unexpected place? (Background on this error at: \
https://sqlalche.me/e/20/xd2s)"""
MAKE_TEST_ASYNC_OVERRIDE = (
    "pytest -q\n"
    ".FF.F                                                                    [100%]\n"
    f"{_bar('FAILURES')}\n"
    "__________________________ test_create_and_get_order ___________________________\n"
    "tests/test_orders.py:19: in test_create_and_get_order\n"
    '    assert body["status"] == "pending"\n'
    "E   KeyError: 'status'\n"
    "_______________________ test_list_orders_includes_lines ________________________\n"
    "tests/test_orders.py:30: in test_list_orders_includes_lines\n"
    '    assert [line["sku"] for line in body[0]["lines"]] == ["TEA-01"]\n'
    "E   IndexError: list index out of range\n"
    "______________________ test_list_orders_filters_by_status ______________________\n"
    "tests/test_orders.py:48: in test_list_orders_filters_by_status\n"
    '    assert [o["total"] for o in client.get("/orders", params=params).json()] == ["1.00"]\n'
    "E   AssertionError: assert [] == ['1.00']\n"
    "E     \n"
    "E     Right contains one more item: '1.00'\n"
    "E     Use -v to get more diff\n"
    f"{_bar('short test summary info')}\n"
    "FAILED tests/test_orders.py::test_create_and_get_order - KeyError: 'status'\n"
    "FAILED tests/test_orders.py::test_list_orders_includes_lines - IndexError: list index out "
    "of range\n"
    "FAILED tests/test_orders.py::test_list_orders_filters_by_status - AssertionError: assert "
    "[] == ['1.00']\n"
    "3 failed, 2 passed in 2.36s\n"
    "make: *** [Makefile:4: test] Error 1"
)
CUSTOMER_SEARCH_PY = '''\
import uuid

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from orderdesk.api.orders import StatusOut
from orderdesk.db import get_session
from orderdesk.models import Customer, Order, OrderStatus

router = APIRouter(prefix="/customers", tags=["customers"])

OPEN = (OrderStatus.pending, OrderStatus.paid)


class CustomerOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    email: str
    orders: list[StatusOut]


@router.get("", response_model=list[CustomerOut])
def search_customers(
    email: str = Query(min_length=3), session: Session = Depends(get_session)
) -> list[Customer]:
    stmt = (
        select(Customer)
        .where(Customer.email.startswith(email.lower()))
        .options(selectinload(Customer.orders.and_(Order.status.in_(OPEN))))
        .order_by(Customer.email)
        .limit(20)
    )
    return list(session.scalars(stmt))
'''
TEST_CUSTOMER_SEARCH = '''\
from decimal import Decimal

from orderdesk.models import Customer, Order, OrderStatus


def test_search_returns_open_orders_only(client, db_session):
    customer = Customer(email="tea@example.com")
    db_session.add_all(
        [
            Order(customer=customer, total=Decimal("1.00")),
            Order(customer=customer, total=Decimal("2.00"), status=OrderStatus.shipped),
        ]
    )
    db_session.flush()
    body = client.get("/customers", params={"email": "tea@"}).json()
    assert [o["status"] for o in body[0]["orders"]] == ["pending"]
'''
RUFF_ALL_MIGRATION = """\
migrations/versions/20240312_a1f3c9e2b7d4_init.py:9:30: F401 [*] \
`sqlalchemy.dialects.postgresql` imported but unused
   |
 7 | import sqlalchemy as sa
 8 | from alembic import op
 9 | from sqlalchemy.dialects import postgresql
   |                                 ^^^^^^^^^^ F401
10 |
11 | revision = "a1f3c9e2b7d4"
   |
   = help: Remove unused import: `sqlalchemy.dialects.postgresql`

Found 1 error.
[*] 1 fixable with the `--fix` option."""

ASYNC_REVERT = Story(
    id="py-orderdesk-async-revert",
    title="Going async with AsyncSession looks like the fix for a load-test ceiling, hits "
          "MissingGreenlet and test-fixture trouble, and is abandoned for a bigger pool",
    project=ORDERDESK,
    lessons=(
        lesson("make-lint", "convention",
               "Get `make lint` (ruff check + mypy --strict on src) clean before committing; CI "
               "blocks on it",
               "make lint"),
        lesson("async-session", "decision",
               "Order endpoints move to async def with SQLAlchemy's AsyncSession on asyncpg, "
               "for more concurrency under the B2B import load",
               "AsyncSession|asyncpg", "async def|concurren|throughput"),
        lesson("missing-greenlet", "gotcha",
               "With AsyncSession, touching a lazy relationship (OrderOut serialising "
               "order.lines) raises MissingGreenlet; every relationship a response uses must "
               "be eager-loaded (selectinload)",
               "MissingGreenlet|greenlet_spawn", "lazy|relationship|selectinload|lines"),
        lesson("sync-handlers", "decision",
               "Route handlers stay plain `def` with the sync Session (FastAPI runs them in its "
               "threadpool); the async conversion was abandoned. The load-test ceiling was the "
               "5+10 connection pool, now pool_size=20, max_overflow=20 in db.py",
               "plain def|sync def|threadpool|thread pool|pool_size",
               "handler|route|endpoint|session|pool"),
    ),
    also=(
        # session 1, Say: "the API tests override get_session with the transactional test session,
        # while the converted routes depend on get_async_session: they read the dev database"
        # session 4, Say: "tests can swap it via dependency_overrides (conftest does that to inject
        # the transactional test session)"
        lesson("also-tests-override-get-session", "gotcha",
               "API tests get the transactional db_session only through conftest's "
               "app.dependency_overrides[get_session]; a route that gets its session any other way "
               "(get_async_session, calling SessionLocal() itself) reads the dev database and "
               "never "
               "sees the rows the test created",
               "dependency_overrides|dependency override|overrides get_session|override "
               "get_session|"
               "overriding get_session",
               "test|conftest|db_session"),
        # session 2, Subagent: "worker.py uses the sync SessionLocal in every task and Celery has no
        # native async tasks, so the sync engine stays"
        lesson("also-celery-sync-engine", "fact",
               "The Celery worker (worker.py) shares the models and uses the sync SessionLocal in "
               "every task; Celery has no native async tasks, so a sync engine is needed there "
               "regardless of what the API does",
               "celery|worker", "sync|SessionLocal"),
        # session 2, Commit: "selectinload on the order reads stays."
        lesson("also-selectinload-stays", "decision",
               "The order read queries (get_order, list_orders) keep selectinload(Order.lines) "
               "even "
               "after going back to the sync Session",
               "selectinload", "stay|stays|kept|keep|sync"),
        # session 3, User: "load test with the bigger pool: 170 rps on GET /orders before Postgres
        # CPU becomes the limit"
        lesson("also-load-test-170rps", "fact",
               "With the 20+20 pool the load test reaches about 170 rps on GET /orders; the limit "
               "is now Postgres CPU (it was ~40 rps on the 5+10 pool)",
               "170|Postgres CPU|database CPU", "rps|load test|load-test|limit|bottleneck"),
        # session 3, Say: "`ruff check .` also scans migrations/, where the autogenerated init
        # revision has an unused `postgresql` import ... outside what CI lints (make lint covers src
        # and tests)"
        lesson("also-ruff-migrations", "gotcha",
               "`ruff check .` also scans migrations/ and flags the autogenerated init revision's "
               "unused postgresql import (F401); CI only lints src and tests via make lint, so "
               "leave the generated migrations alone",
               "migrations", "ruff|F401|lint"),
        # session 0 .. 4, Bash: "make test" -> "pytest -q ... passed"
        lesson("also-make-test", "command",
               "Run the test suite with `make test` (pytest -q)",
               "make test"),
        # session 4, User: "the README still says Python 3.11+, but we need 3.12 now"
        lesson("also-python-312", "fact",
               "orderdesk needs Python 3.12 (requires-python >=3.12; the README now says "
               "Python 3.12+)",
               r"re:3\.12\+|>=\s?3\.12|\b(need|needs|require|requires)\b.{0,20}3\.12"),
    ),
    sessions=(
        Session(day=0, events=(
            User("hey! finally unpacked the last boxes from the move 📦 so back to normal. "
                 "before I forget, since you'll be committing here a lot: make sure `make lint` "
                 "is clean before you commit anything. CI blocks on ruff + mypy and it's "
                 "annoying to find a red X an hour later.", states="make-lint"),
            User("today's small thing: GET /orders should take an optional ?status= filter, the "
                 "warehouse only wants the paid ones"),
            Edit("src/orderdesk/api/orders.py", LIST_ORDERS_PLAIN, LIST_FILTER_UNTYPED),
            Edit("tests/test_orders.py", "    assert resp.status_code == 404\n",
                 TEST_STATUS_FILTER),
            Edit("tests/test_orders.py",
                 "from orderdesk.models import Customer, Order, OrderLine\n",
                 "from orderdesk.models import Customer, Order, OrderLine, OrderStatus\n"),
            Bash("make test", out="pytest -q\n" + _q(5, 1.71)),
            Bash("make lint", out=MAKE_LINT_UNTYPED, ok=False, exit=2),
            Edit("src/orderdesk/api/orders.py",
                 "def _filter_status(stmt, status):\n",
                 "def _filter_status(\n    stmt: Select[tuple[Order]], status: OrderStatus | "
                 "None\n) -> Select[tuple[Order]]:\n"),
            Edit("src/orderdesk/api/orders.py", "from sqlalchemy import select\n",
                 "from sqlalchemy import Select, select\n"),
            Bash("make lint", out=MAKE_LINT_OK),
            Commit("Filter GET /orders by status"),
            User("🙌"),
        )),
        Session(day=4, events=(
            User("load test results are in 📈 under the B2B import we top out around 40 rps on "
                 "GET /orders and the API pods sit mostly idle, waiting on Postgres. I was "
                 "thinking we go async end to end? FastAPI is built for it"),
            Say("Idle CPU while waiting on I/O is the profile where async helps. Plan: an async "
                "engine on asyncpg with AsyncSession and a get_async_session dependency, and "
                "async def order routes for more concurrency per pod; the Celery worker keeps "
                "the sync engine. I'll start with the two read endpoints so we can load-test "
                "them before converting the rest.", states="async-session"),
            Edit("pyproject.toml", '    "psycopg[binary]>=3.1",\n',
                 '    "psycopg[binary]>=3.1",\n    "asyncpg>=0.29",\n'),
            Bash("pip install -e '.[dev]'",
                 out="Obtaining file:///home/mara/src/orderdesk\n  Installing build dependencies "
                     "... done\n  Checking if build backend supports build_editable ... done\n"
                     "Collecting asyncpg>=0.29 (from orderdesk==0.7.2)\n  Downloading "
                     "asyncpg-0.29.0-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
                     ".metadata (4.4 kB)\n[...]\nSuccessfully installed asyncpg-0.29.0 "
                     "orderdesk-0.7.2"),
            Write("src/orderdesk/db.py", DB_ASYNC),
            Edit("src/orderdesk/api/orders.py", READS_SYNC_TYPED, READS_ASYNC),
            Edit("src/orderdesk/api/orders.py",
                 "from sqlalchemy.orm import Session\n\nfrom orderdesk.db import get_session\n",
                 "from sqlalchemy.ext.asyncio import AsyncSession\n"
                 "from sqlalchemy.orm import Session, selectinload\n\n"
                 "from orderdesk.db import get_async_session, get_session\n"),
            Bash("uvicorn orderdesk.main:app --port 8000 &> /tmp/api.log & sleep 2 && "
                 "curl -s -o /dev/null -w '%{http_code}\\n' "
                 "'localhost:8000/orders?customer_id=7d1f0c52-3b9a-4f0e-9d55-0c2b8e6f41aa'",
                 out="500"),
            Bash("tail -n 14 /tmp/api.log", out=MISSING_GREENLET_LOG),
            Say("MissingGreenlet: OrderOut serialises order.lines after the query, which "
                "triggers a lazy load, and a lazy load is implicit I/O that AsyncSession can't "
                "do outside an await. Under AsyncSession every relationship a response touches "
                "has to be eager-loaded, so both queries get selectinload(Order.lines).",
                states="missing-greenlet"),
            Edit("src/orderdesk/api/orders.py", READS_ASYNC, READS_ASYNC_EAGER),
            Bash("make test", out=MAKE_TEST_ASYNC_OVERRIDE, ok=False, exit=2),
            Say("The endpoint works now, but the API tests override get_session with the "
                "transactional test session, while the converted routes depend on "
                "get_async_session: they read the dev database and never see the rows the "
                "tests create. The fixtures need an async twin of db_session that shares the "
                "test's transaction; that's the next step."),
            User("ok, let's pick that up next time, I have to run. leave it uncommitted"),
        )),
        Session(day=8, events=(
            User("morning. so I slept on the async thing and talked to Priya. she pointed out "
                 "the celery worker shares all the models and uses the sync session, so we'd "
                 "run two engines with two pools against the same Postgres, and every "
                 "relationship anywhere needs eager loading or it blows up at runtime. before "
                 "deciding, can you check how deep that rabbit hole actually is?"),
            Subagent(agent_type="Explore", report=(
                "Surveyed src/orderdesk for what finishing the AsyncSession conversion would "
                "take. 1) Relationship access that would need eager loading: 11 sites "
                "(api/orders.py: lines x3, customer x2; worker.py: order.customer in "
                "send_confirmation and the mailer params). Each one fails with MissingGreenlet "
                "at runtime, not at import, so only full test coverage would find them. 2) "
                "worker.py uses the sync SessionLocal in every task and Celery has no native "
                "async tasks, so the sync engine stays: two pools per process. 3) Tests: "
                "conftest's transactional db_session is sync; an async twin needs its own "
                "connection, so data created with db_session is invisible to async routes "
                "unless every test is rewritten. 4) Load test: the API pods run one uvicorn "
                "worker with FastAPI's default threadpool of 40 threads, but db.py uses "
                "SQLAlchemy's default pool (pool_size=5, max_overflow=10). The load-test logs "
                "show QueuePool timeouts, so requests were queueing on 15 connections — that "
                "alone explains 'idle CPU, waiting on Postgres'.")),
            User("yeah, that settles it. scratch the async migration: back to plain def "
                 "handlers with the normal Session, FastAPI's threadpool was never the problem. "
                 "we bump the connection pool instead so the 40 threads don't queue on 15 "
                 "connections.", fails="async-session", states="sync-handlers"),
            Bash("git status --short", out=" M pyproject.toml\n M src/orderdesk/api/orders.py\n"
                                           " M src/orderdesk/db.py"),
            Write("src/orderdesk/db.py", DB_POOL),
            Edit("src/orderdesk/api/orders.py", READS_ASYNC_EAGER, READS_SYNC_EAGER),
            Edit("src/orderdesk/api/orders.py",
                 "from sqlalchemy.ext.asyncio import AsyncSession\n"
                 "from sqlalchemy.orm import Session, selectinload\n\n"
                 "from orderdesk.db import get_async_session, get_session\n",
                 "from sqlalchemy.orm import Session, selectinload\n\n"
                 "from orderdesk.db import get_session\n"),
            Edit("pyproject.toml", '    "asyncpg>=0.29",\n', ""),
            Bash("make test", out="pytest -q\n" + _q(5, 1.69)),
            Bash("make lint", out=MAKE_LINT_OK),
            Commit("Keep order routes sync; raise the DB pool to 20+20\n\nThe async conversion "
                   "is abandoned: the Celery worker needs the sync engine anyway, lazy "
                   "relationships raise MissingGreenlet at runtime, and the load test was "
                   "queueing on a 5+10 pool, not on the threadpool. selectinload on the order "
                   "reads stays."),
            User("thanks. I'll rerun the load test this afternoon"),
        )),
        Session(day=12, events=(
            User("load test with the bigger pool: 170 rps on GET /orders before Postgres CPU "
                 "becomes the limit 🎉"),
            Probe("next up, customer search for the support tool: GET /customers?email= "
                  "(prefix match) that also returns each customer's open orders, i.e. pending "
                  "or paid", needs=("sync-handlers", "make-lint")),
            Write("src/orderdesk/api/customers.py", CUSTOMER_SEARCH_PY),
            Edit("src/orderdesk/api/orders.py",
                 "class OrderIn(BaseModel):\n    customer_id: uuid.UUID\n    total: Decimal\n",
                 "class OrderIn(BaseModel):\n    customer_id: uuid.UUID\n    total: Decimal\n\n\n"
                 "class StatusOut(BaseModel):\n    model_config = ConfigDict(from_attributes=True)"
                 "\n\n    id: uuid.UUID\n    status: OrderStatus\n"),
            Edit("src/orderdesk/main.py", "from orderdesk.api import orders\n",
                 "from orderdesk.api import customers, orders\n"),
            Edit("src/orderdesk/main.py", "app.include_router(orders.router)\n",
                 "app.include_router(orders.router)\napp.include_router(customers.router)\n"),
            Write("tests/test_customers.py", TEST_CUSTOMER_SEARCH),
            Bash("make test", out="pytest -q\n" + _q(6, 1.83)),
            Bash("ruff check .", out=RUFF_ALL_MIGRATION, ok=False, exit=1),
            Say("`ruff check .` also scans migrations/, where the autogenerated init revision "
                "has an unused `postgresql` import. That's untouched generated code and outside "
                "what CI lints (make lint covers src and tests), so I'm leaving it alone."),
            Bash("make lint", out=MAKE_LINT_OK.replace("9 source files", "10 source files")),
            Commit("Add customer search with open orders for the support tool"),
            Probe("the second load-test round is next week, with the customer search in the "
                  "mix. anything we should tune on the API side beforehand?",
                  needs=("sync-handlers",)),
            Say("Mostly the pool: at 20+20 connections per pod against 40 threadpool threads "
                "we're matched now. If the search shows up as slow, an index on "
                "lower(customers.email) with text_pattern_ops would make the prefix match "
                "cheap; otherwise I'd leave the handlers as they are."),
        )),
        Session(day=15, noise=True, events=(
            User("hi! quiet friday. a couple of small things"),
            User("what's the difference between Depends(get_session) and just calling "
                 "SessionLocal() inside the route?"),
            Say("With Depends, FastAPI opens the session per request, closes it after the "
                "response, and tests can swap it via dependency_overrides (conftest does that "
                "to inject the transactional test session). Calling SessionLocal() in the route "
                "works, but you manage its lifetime yourself and tests can't replace it."),
            User("got it. what's the current alembic head on my dev db?"),
            Bash("alembic current", out=ALEMBIC_INFO + "a1f3c9e2b7d4 (head)"),
            User("ok. the README still says Python 3.11+, but we need 3.12 now. fix that?"),
            Read("README.md"),
            Edit("README.md", "Python 3.11+, Postgres 16", "Python 3.12+, Postgres 16"),
            Commit("README: Python 3.12"),
            User("thanks. is `requests` still needed anywhere? I see it in my venv"),
            Bash("grep -rn 'import requests' src tests", ok=False, exit=1, out=""),
            Say("Nothing imports it, and it isn't in pyproject.toml either: it's in your venv "
                "as a dependency of another package, so there's nothing to remove on our side."),
            Bash("make test", out="pytest -q\n" + _q(6, 1.80)),
            User("cool, have a nice weekend!"),
        )),
    ),
)

# === tidepool stories =========================================================================

# --- py-tidepool-dst --------------------------------------------------------------------------

TO_UTC = '''\
def to_utc(df: pd.DataFrame) -> pd.DataFrame:
    """Localise each station's naive local timestamps (see STATIONS) and convert to UTC."""
    parts = []
    for station, group in df.groupby("station_id"):
        tz = STATIONS[str(station)][1]
        local = group["ts"].dt.tz_localize(tz)
        parts.append(group.assign(ts=local.dt.tz_convert("UTC")))
    return pd.concat(parts)


def clean(df: pd.DataFrame) -> pd.DataFrame:
    df = to_utc(df.dropna(subset=["value"]))
'''
TEST_FALL_BACK = '''\
    assert out["value"].iloc[0] == pytest.approx((1.20 + 0.9144) / 2)


def test_fall_back_hour_is_kept_apart() -> None:
    ts = ["2023-11-05 00:30", "2023-11-05 01:30", "2023-11-05 01:30", "2023-11-05 02:30"]
    df = pd.DataFrame(
        {"station_id": "BOST", "ts": pd.to_datetime(ts), "value": [1.0, 1.1, 1.2, 1.3]}
    ).assign(unit="m")
    out = clean(df)
    assert len(out) == 4
    assert out["ts"].is_monotonic_increasing
'''
PYTEST_AMBIGUOUS = (
    ".....F                                                                   [100%]\n"
    f"{_bar('FAILURES')}\n"
    "______________________ test_fall_back_hour_is_kept_apart _______________________\n\n"
    "    def test_fall_back_hour_is_kept_apart() -> None:\n"
    '        ts = ["2023-11-05 00:30", "2023-11-05 01:30", "2023-11-05 01:30", '
    '"2023-11-05 02:30"]\n'
    "        df = pd.DataFrame(\n"
    '            {"station_id": "BOST", "ts": pd.to_datetime(ts), "value": [1.0, 1.1, 1.2, '
    "1.3]}\n"
    '        ).assign(unit="m")\n'
    ">       out = clean(df)\n\n"
    "tests/test_transform.py:35: \n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
    "src/tidepool/transform.py:25: in clean\n"
    '    df = to_utc(df.dropna(subset=["value"]))\n'
    "src/tidepool/transform.py:19: in to_utc\n"
    '    local = group["ts"].dt.tz_localize(tz)\n'
    "[... 6 lines of pandas frames ...]\n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n\n"
    ">   ???\n"
    "E   pytz.exceptions.AmbiguousTimeError: Cannot infer dst time from 2023-11-05 01:30:00, "
    "try using the 'ambiguous' argument\n\n"
    "tzconversion.pyx:371: AmbiguousTimeError\n"
    f"{_bar('short test summary info')}\n"
    "FAILED tests/test_transform.py::test_fall_back_hour_is_kept_apart - pytz.exceptions."
    "AmbiguousTimeError: Cannot infer dst time from 2023-11-05 01:30:00, try using the "
    "'ambiguous' argument\n"
    "1 failed, 5 passed in 0.93s"
)
TIDEPOOL_HELP = """\
Usage: tidepool [OPTIONS] COMMAND [ARGS]...

  tidepool: clean and aggregate tide-gauge readings.

Options:
  --version  Show the version and exit.
  --help     Show this message and exit.

Commands:
  ingest  Clean a raw gauge export and write it as a table.
  report  Print the daily mean water level per station."""
INGEST_HELP = """\
Usage: tidepool ingest [OPTIONS] SRC

  Clean a raw gauge export and write it as a table.

Options:
  -o, --out FILE  [required]
  --help          Show this message and exit."""
LATEST_CMD = '''\
    click.echo(daily_means(read_table(table)).to_string(index=False))


@main.command()
@click.argument("table", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def latest(table: Path) -> None:
    """Print the latest reading per station, in the station's local time."""
    df = read_table(table).sort_values("ts").groupby("station_id").tail(1)
    for row in df.itertuples():
        local = row.ts.tz_convert(STATIONS[row.station_id][1])
        click.echo(f"{row.station_id}  {local:%Y-%m-%d %H:%M %Z}  {row.value:.3f} m")
'''
TEST_LATEST = '''\
    assert out.exists()


def test_latest_prints_station_local_time(tmp_path: Path) -> None:
    table = tmp_path / "t.parquet"
    pd.DataFrame(
        {
            "station_id": ["BOST", "BOST"],
            "ts": pd.to_datetime(["2024-03-12 11:00", "2024-03-12 12:00"], utc=True),
            "value": [1.1, 1.2],
            "unit": ["m", "m"],
        }
    ).to_parquet(table)
    result = CliRunner().invoke(main, ["latest", str(table)])
    assert result.exit_code == 0, result.output
    assert "BOST  2024-03-12 08:00 EST  1.200 m" in result.output
'''
TOX_LATEST_FAIL = (
    "py312: commands[0]> pytest\n"
    f"{_bar('test session starts')}\n{TP_HEAD}collected 7 items\n\n"
    "tests/test_cli.py .F                                                     [ 28%]\n"
    "tests/test_schema.py ..                                                  [ 57%]\n"
    "tests/test_transform.py ...                                              [100%]\n\n"
    f"{_bar('FAILURES')}\n"
    "____________________ test_latest_prints_station_local_time _____________________\n"
    "\n[...]\n"
    "        result = CliRunner().invoke(main, [\"latest\", str(table)])\n"
    "        assert result.exit_code == 0, result.output\n"
    '>       assert "BOST  2024-03-12 08:00 EST  1.200 m" in result.output\n'
    "E       AssertionError: assert 'BOST  2024-03-12 08:00 EST  1.200 m' in 'BOST  2024-03-12 "
    "08:00 EDT  1.200 m\\n'\n"
    "E        +  where 'BOST  2024-03-12 08:00 EDT  1.200 m\\n' = <Result okay>.output\n\n"
    "tests/test_cli.py:33: AssertionError\n"
    f"{_bar('short test summary info')}\n"
    "FAILED tests/test_cli.py::test_latest_prints_station_local_time - AssertionError: assert "
    "'BOST  2024-03-12 08:00 EST  1.200 m' in 'BOST  2024-03-12 08:00 EDT  1.200 m\\n'\n"
    f"{_bar('1 failed, 6 passed in 1.21s')}\n"
    "  py312: exit 1 (2.03 seconds) /home/dev/tidepool> pytest pid=48211\n"
    "  py312: FAIL code 1 (9.98=setup[7.95]+cmd[2.03] seconds)\n"
    "  evaluation failed :( (10.05 seconds)"
)
DAILY_LOCAL = '''\
def daily_means(df: pd.DataFrame) -> pd.DataFrame:
    """Mean level per station and *local* calendar day (the station's own midnight)."""
    parts = []
    for station, group in df.groupby("station_id"):
        local = group.set_index("ts").tz_convert(STATIONS[str(station)][1])
        means = local["value"].resample("1D").mean().rename_axis("date").reset_index()
        means["date"] = means["date"].dt.date
        parts.append(means.assign(station_id=station))
    return pd.concat(parts, ignore_index=True)[["station_id", "date", "value"]]
'''
DAILY_UTC = '''\
def daily_means(df: pd.DataFrame) -> pd.DataFrame:
    return (
        df.set_index("ts")
        .groupby("station_id")["value"]
        .resample("1D")
        .mean()
        .reset_index()
    )
'''
TEST_LOCAL_DAY = '''\
    assert out["ts"].is_monotonic_increasing


def test_daily_means_use_the_local_day() -> None:
    ts = pd.to_datetime(["2024-03-29 22:00", "2024-03-30 10:00"])
    df = pd.DataFrame({"station_id": "BOST", "ts": ts, "value": [9.0, 1.0], "unit": "m"})
    out = daily_means(clean(df))
    assert [str(d) for d in out["date"]] == ["2024-03-29", "2024-03-30"]
    assert list(out["value"]) == [9.0, 1.0]
'''
WEEKLY = '''\
    return pd.concat(parts, ignore_index=True)[["station_id", "date", "value"]]


def weekly_means(df: pd.DataFrame) -> pd.DataFrame:
    """Mean level per station and local Monday-to-Sunday week, labelled by its Monday."""
    parts = []
    for station, group in df.groupby("station_id"):
        local = group.set_index("ts").tz_convert(STATIONS[str(station)][1])
        weeks = local["value"].resample("W-MON", label="left", closed="left").mean()
        weeks.index = weeks.index.date
        parts.append(weeks.rename_axis("week").reset_index().assign(station_id=station))
    return pd.concat(parts, ignore_index=True)[["station_id", "week", "value"]]
'''
TEST_WEEKLY = '''\
    assert list(out["value"]) == [9.0, 1.0]


def test_weekly_means_run_monday_to_sunday() -> None:
    ts = pd.to_datetime(["2024-06-02 23:30", "2024-06-03 00:30", "2024-06-09 23:30"])
    df = pd.DataFrame({"station_id": "BRST", "ts": ts, "value": [5.0, 1.0, 3.0], "unit": "m"})
    out = weekly_means(clean(df))
    assert [str(w) for w in out["week"]] == ["2024-05-27", "2024-06-03"]
    assert list(out["value"]) == [5.0, 2.0]
'''
TOX_FULL_LINT_FAIL = (
    "py311: commands[0]> pytest\n" + _q(9, 1.18) + "\n"
    "py311: OK ✔ in 2.31 seconds\n"
    "py312: commands[0]> pytest\n" + _q(9, 1.09) + "\n"
    "py312: OK ✔ in 2.12 seconds\n"
    "lint: commands[0]> ruff check src tests\nAll checks passed!\n"
    "lint: commands[1]> ruff format --check src tests\n"
    "Would reformat: tests/test_schema.py\n1 file would be reformatted, 10 files already "
    "formatted\n"
    "  lint: exit 1 (0.09 seconds) /home/dev/tidepool> ruff format --check src tests "
    "pid=50312\n"
    "  py311: OK (2.31=setup[1.13]+cmd[1.18] seconds)\n"
    "  py312: OK (2.12=setup[1.03]+cmd[1.09] seconds)\n"
    "  lint: FAIL code 1 (0.41=setup[0.32]+cmd[0.09] seconds)\n"
    "  evaluation failed :( (4.93 seconds)"
)

DST = Story(
    id="py-tidepool-dst",
    title="Naive station-local timestamps: UTC inside, DST-ambiguous localisation, and daily "
          "aggregates on the station's own calendar day",
    project=TIDEPOOL,
    lessons=(
        lesson("utc-inside", "convention",
               "All timestamps inside tidepool are tz-aware UTC: localise raw station times "
               "once at ingest, convert to local time only for display",
               "UTC", "timestamp|tz-aware|aware|internal|inside|ingest"),
        lesson("stations-tz", "fact",
               "Each station's IANA timezone (the zone its raw exports are written in) is in "
               "STATIONS in src/tidepool/stations.py",
               "stations.py|STATIONS", "timezone|tz|IANA|zone"),
        lesson("dst-ambiguous", "gotcha",
               "Raw exports are naive local time; on the DST fall-back night tz_localize raises "
               "AmbiguousTimeError for the repeated 01:00 hour, so localise per station with "
               "ambiguous='infer' (rows sorted by ts) and nonexistent='shift_forward'",
               "ambiguous|AmbiguousTimeError", "tz_localize|localiz|localis|DST"),
        lesson("tox-quick", "command",
               "Quick check: `tox -e py312`; run the full `tox` (py311, py312, lint) before "
               "pushing, as CI does",
               "tox -e py312|tox -e"),
        lesson("local-day", "gotcha",
               "Daily and weekly aggregates must follow each station's local calendar day: "
               "convert to the station tz before resampling; resampling the UTC index cuts "
               "days at UTC midnight (Boston's day then starts at 20:00 the evening before)",
               "local calendar|local day|local date|local midnight|station's local|"
               "station-local|own midnight", "resampl|daily|day|aggregat"),
    ),
    also=(
        # session 1, User: "oh the raw data isn't in the repo, it's on the share"
        lesson("also-raw-data-on-share", "fact",
               "The raw gauge exports are not in the repo (there is no data/raw); they live on the "
               "shared drive",
               "raw", "share|shared drive|not in the repo"),
        # session 4, Say + User: "lint fails only on the formatting of tests/test_schema.py" / "ah
        # that's Jonas's file, he has a PR for it. push"
        lesson("also-test-schema-format-jonas", "gotcha",
               "The full `tox` run's lint env fails on `ruff format --check` for "
               "tests/test_schema.py; "
               "that is Jonas's file with his own PR pending, so don't reformat it in unrelated "
               "changes",
               "test_schema.py", "format|Jonas"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning! heads up from the Boston harbour office: their November report "
                 "shows 25 hourly values on Nov 5 and the daily mean for that day is off. the "
                 "raw exports are in station local time with no offset (yes, really). we always "
                 "keep everything in UTC internally: localise once at ingest, convert only when "
                 "printing. so I guess something skips that?", states="utc-inside"),
            Read("src/tidepool/io.py"),
            Read("src/tidepool/stations.py"),
            Say("Nothing localises at all: read_readings parses ts as naive datetimes and "
                "clean() keeps them that way, so Boston's 01:00 hour on Nov 5, which happens "
                "twice, lands in one naive hour. The zone of each station's exports is already "
                "in STATIONS in src/tidepool/stations.py (IANA names), so clean() can localise "
                "per station from there and convert to UTC.", states="stations-tz"),
            Edit("src/tidepool/transform.py", "import pandas as pd\n\nFT_TO_M = 0.3048\n",
                 "import pandas as pd\n\nfrom tidepool.stations import STATIONS\n\n"
                 "FT_TO_M = 0.3048\n"),
            Edit("src/tidepool/transform.py",
                 'def clean(df: pd.DataFrame) -> pd.DataFrame:\n'
                 '    df = df.dropna(subset=["value"]).copy()\n', TO_UTC),
            Edit("tests/test_transform.py",
                 '    assert out["value"].iloc[0] == pytest.approx((1.20 + 0.9144) / 2)\n',
                 TEST_FALL_BACK),
            Bash("python3 -m pytest -q", out=PYTEST_AMBIGUOUS, ok=False, exit=1),
            Say("That's the fall-back night: 01:00-01:59 happens twice in Boston, and "
                "tz_localize refuses to guess which occurrence is which (AmbiguousTimeError). "
                "The exports are in time order, so ambiguous='infer' can tell the first 01:30 "
                "(EDT) from the second (EST) from the sequence, as long as each station's rows "
                "are sorted. The spring-forward gap is the mirror image (02:xx doesn't exist), "
                "which nonexistent='shift_forward' handles. Every DST zone will hit this, so "
                "it goes into to_utc for all stations.", states="dst-ambiguous"),
            Edit("src/tidepool/transform.py", '        local = group["ts"].dt.tz_localize(tz)\n',
                 '        group = group.sort_values("ts")\n'
                 '        local = group["ts"].dt.tz_localize(\n'
                 '            tz, ambiguous="infer", nonexistent="shift_forward"\n        )\n'),
            Bash("python3 -m pytest -q", out=_q(6, 0.88)),
            Commit("Localise raw station times to UTC at ingest (DST-safe)"),
            User("great, thanks! I'll tell Boston"),
        )),
        Session(day=2, noise=True, events=(
            User("hey! low-key day. can you remind me which commands the CLI has? I'm writing "
                 "the onboarding doc"),
            Bash("tidepool --help", out=TIDEPOOL_HELP),
            Say("Two commands: `ingest SRC -o OUT` cleans a raw export into a table, and "
                "`report TABLE` prints daily means per station. Plus --version and --help."),
            User("and the ingest options?"),
            Bash("tidepool ingest --help", out=INGEST_HELP),
            User("can you make the ingest help say 'Clean a raw gauge export (CSV) and write it "
                 "as a Parquet table.'"),
            Edit("src/tidepool/cli.py",
                 '    """Clean a raw gauge export and write it as a table."""\n',
                 '    """Clean a raw gauge export (CSV) and write it as a Parquet table."""\n'),
            Bash("python3 -m pytest -q tests/test_cli.py", out=_q(1, 0.44)),
            Bash("ls data/raw", ok=False, exit=2,
                 out="ls: cannot access 'data/raw': No such file or directory"),
            User("oh the raw data isn't in the repo, it's on the share. nvm. which pandas are "
                 "we on, btw?"),
            Bash("python3 -c 'import pandas; print(pandas.__version__)'", out="2.2.2"),
            Commit("cli: clearer ingest help"),
            User("thanks! going for lunch 🥪"),
        )),
        Session(day=6, events=(
            Probe("we're getting a new gauge next week: Nuuk, Greenland, id NUUK. can you set "
                  "things up so its exports ingest correctly?", needs=("stations-tz",)),
            Edit("src/tidepool/stations.py", '    "BRST": ("Brest", "Europe/Paris"),\n',
                 '    "BRST": ("Brest", "Europe/Paris"),\n'
                 '    "NUUK": ("Nuuk", "America/Nuuk"),\n'),
            Probe("also a `tidepool latest TABLE` command that prints the most recent reading "
                  "per station with its time in the station's own time; the harbour masters "
                  "keep asking what 'UTC' means 🙄", needs=("utc-inside", "stations-tz")),
            Edit("src/tidepool/cli.py",
                 "    click.echo(daily_means(read_table(table)).to_string(index=False))\n",
                 LATEST_CMD),
            Edit("src/tidepool/cli.py", "from tidepool.transform import clean, daily_means\n",
                 "from tidepool.stations import STATIONS\n"
                 "from tidepool.transform import clean, daily_means\n"),
            Edit("tests/test_cli.py", "    assert out.exists()\n", TEST_LATEST),
            Edit("tests/test_cli.py", "from click.testing import CliRunner\n",
                 "import pandas as pd\nfrom click.testing import CliRunner\n"),
            User("btw I usually just run `tox -e py312` for a quick check, and the full `tox` "
                 "before pushing, that's what CI runs", states="tox-quick"),
            Bash("tox -e py312", out=TOX_LATEST_FAIL, ok=False, exit=1),
            Say("My test was wrong, not the command: on 12 March Boston is already on daylight "
                "time (DST started on the 10th), so 12:00 UTC is 08:00 EDT. Fixing the "
                "expectation."),
            Edit("tests/test_cli.py", '    assert "BOST  2024-03-12 08:00 EST  1.200 m" in',
                 '    assert "BOST  2024-03-12 08:00 EDT  1.200 m" in'),
            Bash("tox -e py312", out=_tox_ok("py312", _full(TP_HEAD, [
                ("tests/test_cli.py", 2), ("tests/test_schema.py", 2),
                ("tests/test_transform.py", 3)], 1.17), 7.88, 1.96)),
            Commit("Add station NUUK; cli: latest command in station local time"),
        )),
        Session(day=9, events=(
            User("question from Boston: their 'daily mean' for 30 March looks like it includes "
                 "the evening before. is that the UTC thing again?"),
            Subagent(report=(
                "Traced the report path. daily_means in src/tidepool/transform.py resamples the "
                "UTC `ts` index with resample('1D'), so each 'day' runs from 00:00 to 24:00 "
                "UTC. For BOST (America/New_York) that is 20:00 EDT the previous evening to "
                "20:00 EDT, so the 30 March mean mixes four hours of 29 March, exactly what "
                "Boston sees. Every station not on UTC is shifted the same way (KWAJ by 12 "
                "hours). Fix: convert each station's series to its zone from STATIONS before "
                "resampling and label the bucket with the local date; stored ts stays UTC. "
                "Nothing else in the package aggregates by day.")),
            Say("So the aggregation has to happen on each station's local calendar day: "
                "convert to the station's zone, resample there, keep storage in UTC.",
                states="local-day"),
            Edit("src/tidepool/transform.py", DAILY_UTC, DAILY_LOCAL),
            Edit("tests/test_transform.py", '    assert out["ts"].is_monotonic_increasing\n',
                 TEST_LOCAL_DAY),
            Bash("cd ~/tidepool && python3 -m pytest -q -x", out=_q(8, 0.97)),
            Bash("tox -e py312", out=_tox_ok("py312", _full(TP_HEAD, [
                ("tests/test_cli.py", 2), ("tests/test_schema.py", 2),
                ("tests/test_transform.py", 4)], 1.21), 7.91, 2.02)),
            Commit("Daily means per station-local day, not per UTC day"),
            User("thanks, that explains a whole folder of weird emails"),
        )),
        Session(day=13, events=(
            Probe("Brest wants weekly means too, Monday to Sunday. can you add them next to the "
                  "daily ones?", needs=("local-day", "utc-inside")),
            Edit("src/tidepool/transform.py",
                 '    return pd.concat(parts, ignore_index=True)[["station_id", "date", "value"]]'
                 "\n", WEEKLY),
            Edit("tests/test_transform.py", '    assert list(out["value"]) == [9.0, 1.0]\n',
                 TEST_WEEKLY),
            Edit("tests/test_transform.py",
                 "from tidepool.transform import clean, daily_means\n",
                 "from tidepool.transform import clean, daily_means, weekly_means\n"),
            Probe("run the quick check please", needs=("tox-quick",)),
            Bash("tox -e py312", out=_tox_ok("py312", _full(TP_HEAD, [
                ("tests/test_cli.py", 2), ("tests/test_schema.py", 2),
                ("tests/test_transform.py", 5)], 1.26), 7.84, 2.09)),
            Say("Green. weekly_means converts to each station's zone first, like daily_means, "
                "so a Brest week runs from local Monday 00:00 to Sunday 24:00."),
            User("ok, full run then I'll push"),
            Bash("tox", out=TOX_FULL_LINT_FAIL, ok=False, exit=1),
            Say("Both test envs pass; lint fails only on the formatting of tests/test_schema.py, "
                "which this branch doesn't touch."),
            User("ah that's Jonas's file, he has a PR for it. push"),
            Commit("Weekly means per station-local week"),
            Bash("git push", out="To github.com:hydro-lab/tidepool.git\n"
                                 "   7a1c9e2..d03b5f8  main -> main"),
        )),
    ),
)

# --- py-tidepool-pydantic-v2 ------------------------------------------------------------------

V1_WARNING = (
    "pydantic.warnings.PydanticDeprecatedSince20: Pydantic V1 style `@validator` validators "
    "are deprecated. You should migrate to Pydantic V2 style `@field_validator` validators, see "
    "the migration guide for more details. Deprecated in Pydantic V2.0 to be removed in V3.0. "
    "See Pydantic V2 Migration Guide at https://errors.pydantic.dev/2.7/migration/"
)
TOX_PYDANTIC2_COLLECT = (
    "py312: install_deps> python -I -m pip install 'pytest>=8' 'ruff>=0.4' 'mypy>=1.9'\n"
    "py312: install_package> python -I -m pip install --force-reinstall --no-deps "
    "/home/dev/tidepool/.tox/.tmp/package/1/tidepool-1.4.0.tar.gz\n"
    "py312: commands[0]> pytest\n"
    f"{_bar('test session starts')}\n{TP_HEAD}collected 2 items / 2 errors\n\n"
    f"{_bar('ERRORS')}\n"
    "______________________ ERROR collecting tests/test_cli.py _______________________\n"
    "tests/test_cli.py:5: in <module>\n    from tidepool.cli import main\n"
    "src/tidepool/cli.py:5: in <module>\n"
    "    from tidepool.io import read_readings, read_table, validate_rows, write_table\n"
    "src/tidepool/io.py:5: in <module>\n    from tidepool.schema import Reading\n"
    "src/tidepool/schema.py:8: in <module>\n    class Reading(BaseModel):\n"
    "src/tidepool/schema.py:14: in Reading\n    @validator(\"unit\")\n"
    ".tox/py312/lib/python3.12/site-packages/pydantic/deprecated/class_validators.py:130: in "
    "validator\n    warn(\n"
    f"E   {V1_WARNING}\n"
    "_____________________ ERROR collecting tests/test_schema.py ______________________\n"
    "tests/test_schema.py:4: in <module>\n    from tidepool.io import validate_rows\n"
    "src/tidepool/io.py:5: in <module>\n    from tidepool.schema import Reading\n"
    "src/tidepool/schema.py:8: in <module>\n    class Reading(BaseModel):\n"
    "src/tidepool/schema.py:14: in Reading\n    @validator(\"unit\")\n"
    ".tox/py312/lib/python3.12/site-packages/pydantic/deprecated/class_validators.py:130: in "
    "validator\n    warn(\n"
    f"E   {V1_WARNING}\n"
    f"{_bar('short test summary info')}\n"
    f"ERROR tests/test_cli.py - {V1_WARNING}\n"
    f"ERROR tests/test_schema.py - {V1_WARNING}\n"
    "!!!!!!!!!!!!!!!!!!! Interrupted: 2 errors during collection !!!!!!!!!!!!!!!!!!!!\n"
    f"{_bar('2 errors in 0.71s')}\n"
    "  py312: exit 2 (1.94 seconds) /home/dev/tidepool> pytest pid=51873\n"
    "  py312: FAIL code 2 (24.61=setup[22.67]+cmd[1.94] seconds)\n"
    "  evaluation failed :( (24.70 seconds)"
)
PIP_SHOW_PYDANTIC = """\
Name: pydantic
Version: 2.7.4
Summary: Data validation using Python type hints
Home-page:
Author:
Author-email: Samuel Colvin <s@muelcolvin.com>, Eric Jolibois <em.jolibois@gmail.com>, \
Hasan Ramezani <hasan.r67@gmail.com>, Adrian Garcia Badaracco <1755071+adriangb@users.noreply.\
github.com>, Terrence Dorsey <terry@pydantic.dev>, David Montague <david@pydantic.dev>, Serge \
Matveenko <lig@countzero.co>, Marcelo Trylesinski <marcelotryle@gmail.com>, Sydney Runkle \
<sydneymarierunkle@gmail.com>, David Hewitt <mail@davidhewitt.io>
License: MIT
Location: /home/dev/tidepool/.tox/py312/lib/python3.12/site-packages
Requires: annotated-types, pydantic-core, typing-extensions
Required-by:"""
TOX_RECREATE_PASS = (
    "py312: remove tox env folder /home/dev/tidepool/.tox/py312\n"
    "py312: install_deps> python -I -m pip install 'pytest>=8' 'ruff>=0.4' 'mypy>=1.9'\n"
    "py312: install_package_deps> python -I -m pip install 'click>=8.1' 'pandas>=2.1' "
    "'pyarrow>=15' 'pydantic<2,>=1.10'\n"
    "py312: install_package> python -I -m pip install --force-reinstall --no-deps "
    "/home/dev/tidepool/.tox/.tmp/package/2/tidepool-1.4.0.tar.gz\n"
    + _tox_ok("py312", _full(TP_HEAD, [("tests/test_cli.py", 1), ("tests/test_schema.py", 2),
                                      ("tests/test_transform.py", 2)], 0.82), 31.40, 1.77)
)
TOX_TWO_ENVS = (
    "py311: commands[0]> pytest\n"
    + _full(TP_HEAD.replace("py312", "py311").replace("Python 3.12.3", "Python 3.11.9"),
            [("tests/test_cli.py", 1), ("tests/test_schema.py", 3),
             ("tests/test_transform.py", 2)], 0.91)
    + "\npy311: OK ✔ in 3.02 seconds\npy312: commands[0]> pytest\n"
    + _full(TP_HEAD, [("tests/test_cli.py", 1), ("tests/test_schema.py", 3),
                      ("tests/test_transform.py", 2)], 0.84)
    + "\n  py311: OK (3.02=setup[1.95]+cmd[1.07] seconds)\n"
    "  py312: OK (2.88=setup[1.91]+cmd[0.97] seconds)\n"
    "  congratulations :) (5.97 seconds)"
)
TOX_LINT_FORMAT = (
    "lint: commands[0]> ruff check src tests\nAll checks passed!\n"
    "lint: commands[1]> ruff format --check src tests\n"
    "Would reformat: tests/test_transform.py\n1 file would be reformatted, 10 files already "
    "formatted\n"
    "  lint: exit 1 (0.08 seconds) /home/dev/tidepool> ruff format --check src tests pid=53390\n"
    "  lint: FAIL code 1 (1.92=setup[1.84]+cmd[0.08] seconds)\n"
    "  evaluation failed :( (1.99 seconds)"
)
PIP_CONFLICT = """\
Obtaining file:///home/dev/tidepool
  Installing build dependencies ... done
  Checking if build backend supports build_editable ... done
  Getting requirements to build editable ... done
  Preparing editable metadata (pyproject.toml) ... done
Collecting pydantic-settings>=2.3
  Using cached pydantic_settings-2.3.4-py3-none-any.whl.metadata (3.3 kB)
INFO: pip is looking at multiple versions of pydantic-settings to determine which version is \
compatible with other requirements. This could take a while.
ERROR: Cannot install pydantic-settings==2.3.0, pydantic-settings==2.3.1, \
pydantic-settings==2.3.2, pydantic-settings==2.3.3, pydantic-settings==2.3.4 and \
tidepool==1.5.0 because these package versions have conflicting dependencies.

The conflict is caused by:
    tidepool 1.5.0 depends on pydantic<2 and >=1.10
    pydantic-settings 2.3.4 depends on pydantic>=2.7.0
    pydantic-settings 2.3.3 depends on pydantic>=2.7.0
    pydantic-settings 2.3.2 depends on pydantic>=2.7.0
    pydantic-settings 2.3.1 depends on pydantic>=2.7.0
    pydantic-settings 2.3.0 depends on pydantic>=2.7.0

To fix this you could try to:
1. loosen the range of package versions you've specified
2. remove package versions to allow pip to attempt to solve the dependency conflict

ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/\
dependency-resolution/#dealing-with-dependency-conflicts"""
SCHEMA_V2 = '''\
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

UNITS = {"m", "ft"}


class Reading(BaseModel):
    model_config = ConfigDict(frozen=True)

    station_id: str
    ts: datetime
    value: float
    unit: str = "m"
    quality: Literal["good", "suspect", "bad"] = "good"

    @field_validator("unit")
    @classmethod
    def known_unit(cls, v: str) -> str:
        if v not in UNITS:
            raise ValueError(f"unknown unit {v!r}")
        return v


class Station(BaseModel):
    id: str
    name: str
    tz: str
'''
TEST_QUALITY = '''\
        validate_rows(_rows(unit="fathom"))


def test_quality_defaults_to_good_and_is_checked() -> None:
    assert validate_rows(_rows())[0].quality == "good"
    with pytest.raises(ValueError):
        validate_rows(_rows(quality="meh"))
'''
TEST_SCHEMA_V2 = '''\
from pathlib import Path

import pandas as pd
import pytest

from tidepool.io import read_readings, validate_rows


def _rows(**overrides: object) -> pd.DataFrame:
    row = {"station_id": "8443970", "ts": pd.Timestamp("2024-03-01"), "value": 1.0, "unit": "m"}
    row.update(overrides)
    return pd.DataFrame([row])


def test_numeric_station_ids_stay_strings(tmp_path: Path) -> None:
    src = tmp_path / "raw.csv"
    src.write_text("station_id,ts,value,unit\\n08443970,2024-03-01T00:00,1.0,m\\n")
    assert validate_rows(read_readings(src))[0].station_id == "08443970"


def test_unknown_unit_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown unit"):
        validate_rows(_rows(unit="fathom"))


def test_quality_defaults_to_good_and_is_checked() -> None:
    assert validate_rows(_rows())[0].quality == "good"
    with pytest.raises(ValueError):
        validate_rows(_rows(quality="meh"))
'''
TOX_V2_STRING_TYPE = (
    "py312: remove tox env folder /home/dev/tidepool/.tox/py312\n"
    "[... install_deps / install_package output ...]\n"
    "py312: commands[0]> pytest\n"
    f"{_bar('test session starts')}\n{TP_HEAD}collected 6 items\n\n"
    "tests/test_cli.py .                                                      [ 16%]\n"
    "tests/test_schema.py F..                                                 [ 66%]\n"
    "tests/test_transform.py ..                                               [100%]\n\n"
    f"{_bar('FAILURES')}\n"
    "___________________ test_numeric_station_ids_become_strings ____________________\n\n"
    "    def test_numeric_station_ids_become_strings() -> None:\n"
    ">       assert validate_rows(_rows())[0].station_id == \"8443970\"\n\n"
    "tests/test_schema.py:14: \n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
    "src/tidepool/io.py:15: in validate_rows\n"
    "    return [Reading(**rec) for rec in df.to_dict(orient=\"records\")]\n"
    "E   pydantic_core._pydantic_core.ValidationError: 1 validation error for Reading\n"
    "E   station_id\n"
    "E     Input should be a valid string [type=string_type, input_value=8443970, "
    "input_type=int]\n"
    "E       For further information visit https://errors.pydantic.dev/2.8/v/string_type\n"
    f"{_bar('short test summary info')}\n"
    "FAILED tests/test_schema.py::test_numeric_station_ids_become_strings - pydantic_core."
    "_pydantic_core.ValidationError: 1 validation error for Reading\n"
    f"{_bar('1 failed, 5 passed in 0.88s')}\n"
    "  py312: exit 1 (1.93 seconds) /home/dev/tidepool> pytest pid=55120\n"
    "  py312: FAIL code 1 (33.08=setup[31.15]+cmd[1.93] seconds)\n"
    "  evaluation failed :( (33.15 seconds)"
)
JSONL_OPTION = '''\
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.option(
    "--jsonl",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the validated readings as JSON lines.",
)
def ingest(src: Path, out: Path, jsonl: Path | None) -> None:
    """Clean a raw gauge export and write it as a table."""
    df = read_readings(src)
    validate_rows(df)
    df = clean(df)
    write_table(df, out)
    click.echo(f"wrote {len(df)} rows to {out}")
    if jsonl is not None:
        ordered = df.groupby("station_id", group_keys=False).apply(lambda g: g.sort_values("ts"))
        with jsonl.open("w") as fh:
            for reading in validate_rows(ordered):
                fh.write(reading.model_dump_json() + "\\n")
'''
TEST_JSONL = '''\
    assert out.exists()


def test_ingest_jsonl(tmp_path: Path) -> None:
    src = tmp_path / "raw.csv"
    src.write_text(RAW)
    jsonl = tmp_path / "clean.jsonl"
    args = ["ingest", str(src), "-o", str(tmp_path / "t.parquet"), "--jsonl", str(jsonl)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    line = json.loads(jsonl.read_text().splitlines()[0])
    assert line["station_id"] == "KWAJ" and line["quality"] == "good"
'''
APPLY_DEPRECATION = (
    "DeprecationWarning: DataFrameGroupBy.apply operated on the grouping columns. This behavior "
    "is deprecated, and in a future version of pandas the grouping columns will be excluded "
    "from the operation. Either pass `include_groups=False` to exclude the groupings or "
    "explicitly select the grouping columns after groupby to silence this warning."
)
JSONL_TRACE_TAIL = (
    '  File "/home/dev/tidepool/.tox/py312/lib/python3.12/site-packages/tidepool/cli.py", '
    "line 31, in ingest\n"
    '    ordered = df.groupby("station_id", group_keys=False).apply(lambda g: '
    'g.sort_values("ts"))\n'
    f"{APPLY_DEPRECATION}"
)
TOX_JSONL_WARNING = (
    "py312: commands[0]> pytest\n"
    f"{_bar('test session starts')}\n{TP_HEAD}collected 7 items\n\n"
    "tests/test_cli.py .F                                                     [ 28%]\n"
    "tests/test_schema.py ...                                                 [ 71%]\n"
    "tests/test_transform.py ..                                               [100%]\n\n"
    f"{_bar('FAILURES')}\n"
    "______________________________ test_ingest_jsonl _______________________________\n\n"
    "[...]\n"
    "        result = CliRunner().invoke(main, args)\n"
    ">       assert result.exit_code == 0, result.output\n"
    f"E       AssertionError: wrote 1 rows to /tmp/pytest-of-dev/pytest-88/test_ingest_jsonl0/"
    "t.parquet\n"
    "E         \n"
    "E       assert 1 == 0\n"
    "E        +  where 1 = <Result DeprecationWarning('DataFrameGroupBy.apply operated on the "
    "grouping columns. ...')>.exit_code\n\n"
    "tests/test_cli.py:27: AssertionError\n"
    f"{_bar('short test summary info')}\n"
    "FAILED tests/test_cli.py::test_ingest_jsonl - AssertionError: wrote 1 rows to "
    "/tmp/pytest-of-dev/pytest-88/test_ingest_jsonl0/t.parquet\n"
    f"{_bar('1 failed, 6 passed in 1.02s')}\n"
    "  py312: exit 1 (1.97 seconds) /home/dev/tidepool> pytest pid=57264\n"
    "  py312: FAIL code 1 (9.71=setup[7.74]+cmd[1.97] seconds)\n"
    "  evaluation failed :( (9.78 seconds)"
)
TEST_XLSX = '''\
    assert validate_rows(read_readings(src))[0].station_id == "08443970"


def test_xlsx_exports_keep_station_ids_as_text(tmp_path: Path) -> None:
    src = tmp_path / "raw.xlsx"
    pd.DataFrame(
        {"station_id": ["01234"], "ts": ["2024-06-01T00:00"], "value": [2.5], "unit": ["m"]}
    ).to_excel(src, index=False)
    assert validate_rows(read_readings(src))[0].station_id == "01234"
'''

PYDANTIC_V2 = Story(
    id="py-tidepool-pydantic-v2",
    title="A fresh resolve pulls pydantic 2 and warnings-as-errors turns CI red: pin below 2 for "
          "a release, then migrate properly and hit the no-int-to-str coercion change",
    project=TIDEPOOL,
    lessons=(
        lesson("warnings-are-errors", "convention",
               "pytest runs with filterwarnings = error on purpose: fix deprecation warnings, "
               "never add ignore filters for them",
               "filterwarnings|warnings-as-errors|warnings as errors|warnings are errors",
               "ignore|silenc|paper"),
        lesson("pin-pydantic1", "decision",
               "pydantic is pinned below 2 (pydantic>=1.10,<2 in pyproject.toml) until the v2 "
               "migration, so release 1.5 could go out",
               "pydantic", "<2|pinned|pin it|pin to|pinning|below 2|under 2"),
        lesson("schema-module", "fact",
               "The Pydantic row models (Reading, Station) live in src/tidepool/schema.py; "
               "io.validate_rows builds Readings from DataFrame records",
               "schema.py", "Reading|model|validate_rows"),
        lesson("pydantic-v2", "convention",
               "tidepool uses the Pydantic v2 API only: field_validator (with @classmethod), "
               "model_config = ConfigDict(...), model_dump()/model_dump_json()/model_validate(); "
               "no v1 validator, class Config or .dict()",
               "field_validator|model_dump|ConfigDict|model_validate", "v2|pydantic"),
        lesson("station-id-str", "gotcha",
               "Pydantic v2 no longer coerces ints to str: all-digit station ids (8443970) fail "
               "Reading.station_id with string_type, so read_readings reads station_id with "
               "dtype=str (which also keeps leading zeros)",
               "station_id|station ids|station id", "dtype|string_type|coerc"),
    ),
    also=(
        # session 0, Bash: "tox -r -e py312" (after pinning pydantic; again in sessions 2 and 4
        # after dependency changes)
        lesson("also-tox-recreate", "command",
               "After changing dependencies in pyproject.toml, rebuild the tox env with "
               "`tox -r -e py312`",
               "tox -r|--recreate"),
        # session 1, Bash: "tox -e lint" -> ruff check src tests / ruff format --check src tests
        lesson("also-tox-lint", "command",
               "`tox -e lint` runs ruff check, ruff format --check and mypy (the tox lint env)",
               "tox -e lint"),
        # session 1, Say + User: "The lint env fails only on the formatting of
        # tests/test_transform.py" / "leave it, Priya has a formatting PR open"
        lesson("also-test-transform-format-priya", "gotcha",
               "tox's lint env fails on `ruff format --check` for tests/test_transform.py; Priya "
               "has a formatting PR open for it, so leave it out of unrelated changes",
               "test_transform.py", "format|Priya"),
        # session 2, User: "we want tidepool to pick up its config (default output dir, the share
        # path) from TIDEPOOL_* env vars. pydantic-settings"
        lesson("also-tidepool-settings", "decision",
               "tidepool's config (default output dir, share path) comes from TIDEPOOL_* "
               "environment variables via pydantic-settings (which needs pydantic >= 2.7)",
               "TIDEPOOL_|pydantic-settings", "env|config|settings"),
        # session 3, Say: "filterwarnings = error caught a pandas 2.2 deprecation in my
        # groupby().apply() ... sort_values on both columns does it"
        lesson("also-groupby-apply-deprecation", "gotcha",
               "pandas 2.2's DataFrameGroupBy.apply over the grouping columns emits a "
               "DeprecationWarning that filterwarnings = error turns into a failure (a CliRunner "
               "test just shows exit code 1); order by station and time with "
               "sort_values(['station_id', 'ts']) instead of groupby().apply()",
               "groupby|DataFrameGroupBy", "apply", "deprecat|sort_values|include_groups"),
        # session 4, Say: "ingest now reads .xlsx through read_excel, with station_id as text there
        # as well ... openpyxl is a new runtime dependency"
        lesson("also-xlsx-exports", "fact",
               "The Canadian stations send .xlsx exports; read_readings reads them with "
               "pd.read_excel (station_id as str), which needs the openpyxl runtime dependency",
               "xlsx|read_excel", "openpyxl|read_readings|ingest|Canadian"),
    ),
    sessions=(
        Session(day=0, events=(
            User("CI's red on main since last night and nobody merged anything 🙄 can you take "
                 "a look? I'm here until 11, dentist after"),
            Bash("tox -e py312", out=TOX_PYDANTIC2_COLLECT, ok=False, exit=2),
            Bash(".tox/py312/bin/python -m pip show pydantic", out=PIP_SHOW_PYDANTIC),
            Say("The tox env was rebuilt overnight and resolved pydantic 2.7.4: pyproject only "
                "says pydantic>=1.10, with no upper bound. The models in src/tidepool/schema.py "
                "(Reading, Station, built by io.validate_rows) are v1-style (@validator, class "
                "Config). v2 still runs them but emits PydanticDeprecatedSince20, and "
                "filterwarnings = error turns that into collection errors. Options: hold pydantic "
                "at 1.x for now, or migrate schema.py to the v2 API right away, which is small but "
                "changes validation behaviour just before a release.", states="schema-module"),
            User("release 1.5 is tomorrow, so pin pydantic below 2 for now and we do the "
                 "migration properly after. and please don't ever paper over this kind of thing "
                 "with an ignore in filterwarnings: warnings-as-errors is there on purpose, it's "
                 "how we found out today instead of in prod",
                 states=("pin-pydantic1", "warnings-are-errors")),
            Edit("pyproject.toml", '    "pydantic>=1.10",\n',
                 '    "pydantic>=1.10,<2",  # v2 migration after release 1.5\n'),
            Bash("tox -r -e py312", out=TOX_RECREATE_PASS),
            Commit("Pin pydantic<2 until the v2 migration (unblocks release 1.5)"),
            User("thanks!! off to the dentist 🦷"),
        )),
        Session(day=3, events=(
            Probe("release went out, no drama. small feature: readings get an optional quality "
                  "flag from the gauge firmware, 'good', 'suspect' or 'bad'; missing means good",
                  needs=("pin-pydantic1", "schema-module")),
            Read("src/tidepool/schema.py"),
            Edit("src/tidepool/schema.py", "from datetime import datetime\n",
                 "from datetime import datetime\nfrom typing import Literal\n"),
            Edit("src/tidepool/schema.py", '    unit: str = "m"\n',
                 '    unit: str = "m"\n    quality: Literal["good", "suspect", "bad"] = "good"\n'),
            Edit("tests/test_schema.py", '        validate_rows(_rows(unit="fathom"))\n',
                 TEST_QUALITY),
            Bash("tox -e py311,py312", out=TOX_TWO_ENVS),
            Bash("tox -e lint", out=TOX_LINT_FORMAT, ok=False, exit=1),
            Say("Tests pass on 3.11 and 3.12. The lint env fails only on the formatting of "
                "tests/test_transform.py, which this change doesn't touch; I'd leave it unless "
                "you want me to run ruff format on it."),
            User("leave it, Priya has a formatting PR open"),
            Commit("schema: optional quality flag on readings"),
        )),
        Session(day=10, events=(
            User("hey! next thing: we want tidepool to pick up its config (default output dir, "
                 "the share path) from TIDEPOOL_* env vars. pydantic-settings seems like the "
                 "obvious choice?"),
            Bash("python -m pip install 'pydantic-settings>=2.3' -e '.[dev]'", out=PIP_CONFLICT,
                 ok=False, exit=1),
            Say("pydantic-settings 2.x is built on pydantic 2 (it requires pydantic>=2.7), and "
                "we capped pydantic below 2 for the release, so pip can't satisfy both."),
            User("right, the 1.x cap has to go then. let's do the real migration now: "
                 "field_validator, ConfigDict, model_dump, the v2 API everywhere, no v1 "
                 "leftovers.", replaces="pin-pydantic1", states="pydantic-v2"),
            Edit("pyproject.toml", '    "pydantic>=1.10,<2",  # v2 migration after release 1.5\n',
                 '    "pydantic>=2.7",\n    "pydantic-settings>=2.3",\n'),
            Write("src/tidepool/schema.py", SCHEMA_V2),
            Bash("tox -r -e py312", out=TOX_V2_STRING_TYPE, ok=False, exit=1),
            Say("A v2 behaviour change rather than a broken test: v1 silently turned the int "
                "8443970 into '8443970', v2 refuses to coerce numbers to str. NOAA-style ids "
                "are all digits, so pandas reads that column as int64 and every such row would "
                "now fail validation. The fix belongs at the source: read station_id with "
                "dtype=str in read_readings, so it's text from the start (and leading zeros "
                "survive), instead of loosening the model.", states="station-id-str"),
            Edit("src/tidepool/io.py",
                 '    return pd.read_csv(path, comment="#", parse_dates=["ts"])\n',
                 '    return pd.read_csv(path, comment="#", parse_dates=["ts"], '
                 'dtype={"station_id": str})\n'),
            Write("tests/test_schema.py", TEST_SCHEMA_V2),
            Bash("tox -e py312", out=_tox_ok("py312", _full(TP_HEAD, [
                ("tests/test_cli.py", 1), ("tests/test_schema.py", 3),
                ("tests/test_transform.py", 2)], 0.86), 7.70, 1.81)),
            Bash(r"grep -rnE '\.dict\(\)|parse_obj|class Config|@validator' src tests", out="",
                 ok=False, exit=1),
            Commit("Migrate to pydantic v2; read station_id as str"),
            User("nice, thanks. I'll do the settings part myself tomorrow"),
        )),
        Session(day=13, events=(
            Probe("the harbour office wants the cleaned readings as JSON lines too. can you add "
                  "a `--jsonl PATH` option to ingest that writes one reading per line, validated "
                  "through the model, grouped by station and in time order?",
                  needs=("pydantic-v2", "schema-module", "warnings-are-errors")),
            Edit("src/tidepool/cli.py",
                 '@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), '
                 "required=True)\n"
                 "def ingest(src: Path, out: Path) -> None:\n"
                 '    """Clean a raw gauge export and write it as a table."""\n'
                 "    df = read_readings(src)\n    validate_rows(df)\n    df = clean(df)\n"
                 "    write_table(df, out)\n"
                 '    click.echo(f"wrote {len(df)} rows to {out}")\n', JSONL_OPTION),
            Edit("tests/test_cli.py", "    assert out.exists()\n", TEST_JSONL),
            Edit("tests/test_cli.py", "from pathlib import Path\n",
                 "import json\nfrom pathlib import Path\n"),
            Bash("tox -e py312", out=TOX_JSONL_WARNING, ok=False, exit=1),
            Bash("printf '# v2\\nstation_id,ts,value,unit\\nKWAJ,2024-03-01T00:00,1.2,m\\n' > "
                 "/tmp/raw.csv && PYTHONWARNINGS=error .tox/py312/bin/tidepool ingest "
                 "/tmp/raw.csv -o /tmp/t.parquet --jsonl /tmp/t.jsonl 2>&1 | tail -3",
                 out=JSONL_TRACE_TAIL),
            Say("filterwarnings = error caught a pandas 2.2 deprecation in my groupby().apply() "
                "(apply sees the grouping column). No need to silence it: ordering by station "
                "and time doesn't need a groupby at all, sort_values on both columns does it."),
            Edit("src/tidepool/cli.py",
                 '        ordered = df.groupby("station_id", group_keys=False).apply('
                 'lambda g: g.sort_values("ts"))\n',
                 '        ordered = df.sort_values(["station_id", "ts"])\n'),
            Bash("tox -e py312", out=_tox_ok("py312", _full(TP_HEAD, [
                ("tests/test_cli.py", 2), ("tests/test_schema.py", 3),
                ("tests/test_transform.py", 2)], 0.97), 7.73, 1.93)),
            Commit("cli: ingest --jsonl writes validated readings"),
            User("👍"),
        )),
        Session(day=16, events=(
            User("morning! the new Canadian stations went live on monday"),
            Probe("they send .xlsx exports instead of CSV. can you make ingest accept those "
                  "too? same columns", needs=("station-id-str",)),
            Edit("src/tidepool/io.py",
                 "def read_readings(path: Path) -> pd.DataFrame:\n",
                 "def read_readings(path: Path) -> pd.DataFrame:\n"
                 '    if path.suffix == ".xlsx":\n'
                 '        return pd.read_excel(path, parse_dates=["ts"], '
                 'dtype={"station_id": str})\n'),
            Edit("pyproject.toml", '    "pydantic-settings>=2.3",\n',
                 '    "pydantic-settings>=2.3",\n    "openpyxl>=3.1",\n'),
            Edit("tests/test_schema.py",
                 '    assert validate_rows(read_readings(src))[0].station_id == "08443970"\n',
                 TEST_XLSX),
            Bash("tox -r -e py312", out="py312: remove tox env folder /home/dev/tidepool/.tox/"
                 "py312\n[... install_deps / install_package output ...]\n"
                 + _tox_ok("py312", _full(TP_HEAD, [
                     ("tests/test_cli.py", 2), ("tests/test_schema.py", 4),
                     ("tests/test_transform.py", 2)], 1.12), 34.02, 2.10)),
            Say("ingest now reads .xlsx through read_excel, with station_id as text there as "
                "well, so ids like 01234 keep their leading zero; openpyxl is a new runtime "
                "dependency."),
            Commit("io: read .xlsx exports (station_id as text)"),
            User("thanks!"),
        )),
    ),
)

# --- py-tidepool-cli-conventions --------------------------------------------------------------

INGEST_PLAIN = '''\
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def ingest(src: Path, out: Path) -> None:
    """Clean a raw gauge export and write it as a table."""
    df = read_readings(src)
    validate_rows(df)
    df = clean(df)
    write_table(df, out)
    click.echo(f"wrote {len(df)} rows to {out}")
'''
INGEST_DRY_RUN = '''\
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.option("--dry-run", is_flag=True, help="Show what would be written, write nothing.")
def ingest(src: Path, out: Path, dry_run: bool) -> None:
    """Clean a raw gauge export and write it as a table."""
    df = read_readings(src)
    validate_rows(df)
    df = clean(df)
    if dry_run:
        click.echo(f"would write {len(df)} rows to {out}")
        return
    write_table(df, out)
    click.echo(f"wrote {len(df)} rows to {out}")
'''
TEST_DRY_RUN = '''\
    assert out.exists()


def test_ingest_dry_run_writes_nothing(tmp_path: Path) -> None:
    src = tmp_path / "raw.csv"
    src.write_text(RAW)
    out = tmp_path / "clean.parquet"
    result = CliRunner().invoke(main, ["ingest", str(src), "-o", str(out), "--dry_run"])
    assert result.exit_code == 0, result.output
    assert "would write 1 rows" in result.output
    assert not out.exists()
'''
PYTEST_DRY_RUN_TYPO = (
    ".F                                                                       [100%]\n"
    f"{_bar('FAILURES')}\n"
    "______________________ test_ingest_dry_run_writes_nothing ______________________\n\n"
    "tmp_path = PosixPath('/tmp/pytest-of-dev/pytest-41/test_ingest_dry_run_writes_not0')\n\n"
    "    def test_ingest_dry_run_writes_nothing(tmp_path: Path) -> None:\n"
    '        src = tmp_path / "raw.csv"\n'
    "        src.write_text(RAW)\n"
    '        out = tmp_path / "clean.parquet"\n'
    '        result = CliRunner().invoke(main, ["ingest", str(src), "-o", str(out), '
    '"--dry_run"])\n'
    ">       assert result.exit_code == 0, result.output\n"
    "E       AssertionError: Usage: main ingest [OPTIONS] SRC\n"
    "E         Try 'main ingest --help' for help.\n"
    "E         \n"
    "E         Error: No such option: --dry_run Did you mean --dry-run?\n"
    "E         \n"
    "E       assert 2 == 0\n"
    "E        +  where 2 = <Result SystemExit(2)>.exit_code\n\n"
    "tests/test_cli.py:25: AssertionError\n"
    f"{_bar('short test summary info')}\n"
    "FAILED tests/test_cli.py::test_ingest_dry_run_writes_nothing - AssertionError: Usage: main "
    "ingest [OPTIONS] SRC\n"
    "1 failed, 1 passed in 0.58s"
)
EXPORT_CMD = '''\
    click.echo(daily_means(read_table(table)).to_string(index=False))


@main.command()
@click.argument("station")
@click.argument("table", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.option("--dry-run", is_flag=True, help="Show what would be written, write nothing.")
def export(station: str, table: Path, out: Path, dry_run: bool) -> None:
    """Write one station's cleaned series to its own file."""
    if station not in STATIONS:
        raise click.ClickException(f"unknown station {station!r}")
    df = read_table(table)
    df = df[df["station_id"] == station]
    if dry_run:
        click.echo(f"would write {len(df)} rows to {out}")
        return
    write_table(df, out)
    click.echo(f"wrote {len(df)} rows to {out}")
'''
TEST_EXPORT_ONE = '''\
def test_export_one_station(tmp_path: Path) -> None:
    out = tmp_path / "bost.parquet"
    result = CliRunner().invoke(main, ["export", "BOST", str(_master(tmp_path)), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert list(pd.read_parquet(out)["station_id"]) == ["BOST"]
'''
TEST_EXPORT = '''\
    assert not out.exists()


def _master(tmp_path: Path) -> Path:
    table = tmp_path / "master.parquet"
    pd.DataFrame(
        {"station_id": ["KWAJ", "BOST"], "ts": pd.to_datetime(["2024-03-01", "2024-03-01"]),
         "value": [1.2, 0.8], "unit": ["m", "m"]}
    ).to_parquet(table)
    return table


''' + TEST_EXPORT_ONE + '''

def test_export_unknown_station(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["export", "NOPE", str(_master(tmp_path)), "-o", "x"])
    assert result.exit_code == 1
    assert "Error: unknown station 'NOPE'" in result.output
'''
EXPORT_HELP = """\
Usage: tidepool export [OPTIONS] STATION TABLE

  Write one station's cleaned series to its own file.

Options:
  -o, --out FILE  [required]
  --dry-run       Show what would be written, write nothing.
  --help          Show this message and exit."""
WRITE_TABLE_FMT = '''\
def write_table(df: pd.DataFrame, path: Path, fmt: str = "csv") -> None:
    if fmt == "parquet":
        df.to_parquet(path, index=False)
    else:
        df.to_csv(path, index=False)
'''
FORMAT_OPTION = (
    '@click.option("--format", "fmt", type=click.Choice(["csv", "parquet"]), default="csv")\n'
)
PYTEST_EXPORT_CSV = (
    "..F.....                                                                 [100%]\n"
    f"{_bar('FAILURES')}\n"
    "___________________________ test_export_one_station ____________________________\n\n"
    "[...]\n"
    ">       assert list(pd.read_parquet(out)[\"station_id\"]) == [\"BOST\"]\n\n"
    "tests/test_cli.py:44: \n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
    "[... 9 lines of pandas/pyarrow frames ...]\n"
    ">   ???\n"
    "E   pyarrow.lib.ArrowInvalid: Could not open Parquet input source '<Buffer>': Parquet "
    "magic bytes not found in footer. Either the file is corrupted or this is not a parquet "
    "file.\n\n"
    "pyarrow/error.pxi:91: ArrowInvalid\n"
    f"{_bar('short test summary info')}\n"
    "FAILED tests/test_cli.py::test_export_one_station - pyarrow.lib.ArrowInvalid: Could not "
    "open Parquet input source '<Buffer>': Parquet magic bytes not found in footer. Either the "
    "file is corrupted or this is not a parquet file.\n"
    "1 failed, 7 passed in 1.04s"
)
TEST_EXPORT_CSV = '''\
def test_export_one_station(tmp_path: Path) -> None:
    out = tmp_path / "bost.csv"
    result = CliRunner().invoke(main, ["export", "BOST", str(_master(tmp_path)), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert list(pd.read_csv(out)["station_id"]) == ["BOST"]


def test_export_parquet_on_request(tmp_path: Path) -> None:
    out = tmp_path / "bost.parquet"
    args = ["export", "BOST", str(_master(tmp_path)), "-o", str(out), "--format", "parquet"]
    assert CliRunner().invoke(main, args).exit_code == 0
    assert list(pd.read_parquet(out)["station_id"]) == ["BOST"]
'''
EXPORT_TAIL = '''\
    df = df[df["station_id"] == station]
    if dry_run:
        click.echo(f"would write {len(df)} rows to {out}")
        return
    write_table(df, out, fmt)
    click.echo(f"wrote {len(df)} rows to {out}")
'''
MERGE_CMD = '''\


def _read_any(path: Path) -> pd.DataFrame:
    if path.suffix == ".parquet":
        return pd.read_parquet(path)
    return pd.read_csv(path, parse_dates=["ts"], dtype={"station_id": str})


@main.command()
@click.argument(
    "files", nargs=-1, required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
)
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.option("--format", "fmt", type=click.Choice(["csv", "parquet"]), default="csv")
@click.option("--dry-run", is_flag=True, help="Show what would be written, write nothing.")
def merge(files: tuple[Path, ...], out: Path, fmt: str, dry_run: bool) -> None:
    """Combine several cleaned files into one table, dropping duplicate readings."""
    frames = [_read_any(p) for p in files]
    for path, frame in zip(files, frames, strict=True):
        if list(frame.columns) != list(frames[0].columns):
            raise click.ClickException(f"{path}: columns differ from {files[0]}")
    df = pd.concat(frames).drop_duplicates(subset=["station_id", "ts"])
    if dry_run:
        click.echo(f"would write {len(df)} rows to {out}")
        return
    write_table(df, out, fmt)
    click.echo(f"wrote {len(df)} rows to {out}")
'''
TEST_MERGE = '''\
    assert list(pd.read_parquet(out)["station_id"]) == ["BOST"]


def test_merge_dedupes_and_defaults_to_csv(tmp_path: Path) -> None:
    master = _master(tmp_path)
    out = tmp_path / "merged.csv"
    result = CliRunner().invoke(main, ["merge", str(master), str(master), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert len(pd.read_csv(out)) == 2


def test_merge_rejects_mismatched_columns(tmp_path: Path) -> None:
    other = tmp_path / "other.csv"
    other.write_text("station_id,ts,level\\nKWAJ,2024-03-01,1.0\\n")
    args = ["merge", str(_master(tmp_path)), str(other), "-o", str(tmp_path / "m.csv")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert "columns differ" in result.output
'''

CLI_CONVENTIONS = Story(
    id="py-tidepool-cli-conventions",
    title="CLI house rules stated over several sessions (--dry-run, ClickException, commit "
          "style, output format) and the default format flipped from Parquet to CSV",
    project=TIDEPOOL,
    lessons=(
        lesson("dry-run", "convention",
               "Every tidepool command that writes files has a --dry-run flag that only "
               "reports what it would write",
               "dry-run|dry run|dry_run", "command|flag|option|writes|write"),
        lesson("commit-prefix", "preference",
               "Commit messages: short imperative subject prefixed with the module, e.g. "
               "`cli: add --dry-run to ingest`, no trailing period",
               "commit", "prefix|imperative"),
        lesson("click-errors", "convention",
               "User-facing errors in commands raise click.ClickException (or BadParameter); "
               "never sys.exit() in command code",
               "ClickException|BadParameter|UsageError", "sys.exit|raise|error"),
        lesson("out-parquet", "convention",
               "Command outputs default to Parquet",
               "re:parquet by default|default(s|ing)?( output| format| output format)?"
               "( is| to| =|:)? ?(to )?parquet|parquet (is|as) (the )?default"),
        lesson("out-csv", "convention",
               "Command outputs default to CSV again (the analysts use Excel); Parquet only "
               "with --format parquet",
               "re:csv by default|default(s|ing)?( output| format| output format)?"
               "( is| to| =|:)? ?(to )?csv|csv (is|as) (the )?default",
               "--format|format"),
        lesson("cli-entry", "fact",
               "The CLI entry point is `tidepool = tidepool.cli:main` in [project.scripts]; all "
               "commands live in src/tidepool/cli.py",
               "tidepool.cli|cli.py", "entry|scripts|commands"),
    ),
    also=(
        # session 2, Edit: '@click.group(context_settings={"show_default": True})' after User:
        # "let's do it for the whole group"
        lesson("also-show-default", "decision",
               "The tidepool click group sets context_settings={'show_default': True}, so every "
               "command's --help shows option defaults",
               "show_default|show default|shows default|option defaults|defaults in --help|"
               "defaults in help"),
        # session 2, Bash: "ls -lh /mnt/share/tidepool/master.parquet" -> "2.1G" / Say: "2.1 GB as
        # of this morning's nightly run"
        lesson("also-master-table", "fact",
               "The master table is /mnt/share/tidepool/master.parquet (about 2.1 GB), rewritten "
               "by "
               "the nightly run",
               "master.parquet|master table", "/mnt/share|share|nightly"),
    ),
    sessions=(
        Session(day=0, notes=(
            Note("- CLI entry point: `tidepool = tidepool.cli:main` ([project.scripts]); all "
                 "commands live in src/tidepool/cli.py", states="cli-entry"),
        ), events=(
            User("hi! how was your weekend? oh right 😄 ok, today: ingest needs a --dry-run. "
                 "twice now someone ran it against the shared drive and overwrote last month's "
                 "tables. going forward every command that writes files should have one; it "
                 "just prints what it would write.", states="dry-run"),
            Read("src/tidepool/cli.py"),
            Edit("src/tidepool/cli.py", INGEST_PLAIN, INGEST_DRY_RUN),
            Edit("tests/test_cli.py", "    assert out.exists()\n", TEST_DRY_RUN),
            Bash("pytest tests/test_cli.py -q", out=PYTEST_DRY_RUN_TYPO, ok=False, exit=1),
            Say("Typo in my test (--dry_run instead of --dry-run); click rejects the unknown "
                "option with exit code 2. Fixing the test."),
            Edit("tests/test_cli.py", '"-o", str(out), "--dry_run"]', '"-o", str(out), '
                 '"--dry-run"]'),
            Bash("pytest tests/test_cli.py -q", out=_q(2, 0.55)),
            User("nice. oh and about commits: I prefer messages like `cli: add --dry-run to "
                 "ingest`. module prefix, imperative, no period at the end.",
                 states="commit-prefix"),
            Commit("cli: add --dry-run to ingest"),
            User("🙏"),
        )),
        Session(day=4, events=(
            Probe("we need a `tidepool export STATION TABLE` command that writes one station's "
                  "cleaned series from the master table into its own file, for the partner "
                  "agencies", needs=("dry-run",)),
            Say("Will do, with --dry-run like ingest. Should the output use the same format as "
                "the master table?"),
            User("yes, outputs default to parquet as usual. and one thing that bugs me: make "
                 "sure errors in commands raise click.ClickException. I saw a sys.exit(1) in a "
                 "PR last week, it skipped our cleanup callbacks and printed nothing useful. "
                 "e.g. unknown station → ClickException with a proper message",
                 states=("out-parquet", "click-errors")),
            Edit("src/tidepool/cli.py",
                 "    click.echo(daily_means(read_table(table)).to_string(index=False))\n",
                 EXPORT_CMD),
            Edit("src/tidepool/cli.py", "from tidepool.transform import clean, daily_means\n",
                 "from tidepool.stations import STATIONS\n"
                 "from tidepool.transform import clean, daily_means\n"),
            Edit("tests/test_cli.py", "    assert not out.exists()\n", TEST_EXPORT),
            Edit("tests/test_cli.py", "from click.testing import CliRunner\n",
                 "import pandas as pd\nfrom click.testing import CliRunner\n"),
            Bash("python -m pytest -q", out=_q(8, 1.01)),
            Commit("cli: add export command"),
            User("thanks!"),
        )),
        Session(day=9, noise=True, events=(
            User("morning! slow monday, mostly meetings. a few small things in between"),
            User("does click have a way to show defaults in --help?"),
            Say("Yes: show_default=True per option, or context_settings={'show_default': True} "
                "on the group to switch it on for every command."),
            User("let's do it for the whole group"),
            Edit("src/tidepool/cli.py", "@click.group()\n",
                 '@click.group(context_settings={"show_default": True})\n'),
            Bash("tidepool export --help", out=EXPORT_HELP),
            Bash("python -m pytest -q", out=_q(8, 0.98)),
            Commit("cli: show option defaults in --help"),
            User("thx. how big is the master table these days?"),
            Bash("ls -lh /mnt/share/tidepool/master.parquet",
                 out="-rw-r--r-- 1 dev hydro 2.1G Jun  3 04:12 /mnt/share/tidepool/master.parquet"),
            Say("2.1 GB as of this morning's nightly run."),
            User("oof ok. which pandas are we on? someone asked in chat"),
            Bash("python -m pip show pandas | head -2", out="Name: pandas\nVersion: 2.2.2"),
            User("thanks, that's all for today!"),
        )),
        Session(day=14, events=(
            User("hey! feedback from the analysts after two weeks of exports: they open "
                 "everything in Excel, and half of them can't read parquet at all, they've been "
                 "converting by hand 😬 so scratch that on parquet: from now on CSV is the "
                 "default output for our commands; keep parquet behind `--format parquet` for "
                 "the big backfills.", replaces="out-parquet", states="out-csv"),
            Read("src/tidepool/io.py"),
            Edit("src/tidepool/io.py",
                 "def write_table(df: pd.DataFrame, path: Path) -> None:\n"
                 "    df.to_parquet(path, index=False)\n", WRITE_TABLE_FMT),
            Edit("src/tidepool/cli.py",
                 '@click.option("--dry-run", is_flag=True, help="Show what would be written, '
                 'write nothing.")\ndef ingest(src: Path, out: Path, dry_run: bool) -> None:\n',
                 FORMAT_OPTION + '@click.option("--dry-run", is_flag=True, help="Show what '
                 'would be written, write nothing.")\n'
                 "def ingest(src: Path, out: Path, fmt: str, dry_run: bool) -> None:\n"),
            Edit("src/tidepool/cli.py",
                 '@click.option("--dry-run", is_flag=True, help="Show what would be written, '
                 'write nothing.")\n'
                 "def export(station: str, table: Path, out: Path, dry_run: bool) -> None:\n",
                 FORMAT_OPTION + '@click.option("--dry-run", is_flag=True, help="Show what '
                 'would be written, write nothing.")\n'
                 "def export(station: str, table: Path, out: Path, fmt: str, dry_run: bool) "
                 "-> None:\n"),
            Edit("src/tidepool/cli.py",
                 "        return\n    write_table(df, out)\n"
                 '    click.echo(f"wrote {len(df)} rows to {out}")\n\n\n@main.command()\n'
                 '@click.argument("table"',
                 "        return\n    write_table(df, out, fmt)\n"
                 '    click.echo(f"wrote {len(df)} rows to {out}")\n\n\n@main.command()\n'
                 '@click.argument("table"'),
            Edit("src/tidepool/cli.py",
                 "        return\n    write_table(df, out)\n"
                 '    click.echo(f"wrote {len(df)} rows to {out}")\n',
                 "        return\n    write_table(df, out, fmt)\n"
                 '    click.echo(f"wrote {len(df)} rows to {out}")\n'),
            Bash("python -m pytest -q", out=PYTEST_EXPORT_CSV, ok=False, exit=1),
            Edit("tests/test_cli.py", TEST_EXPORT_ONE, TEST_EXPORT_CSV),
            Bash("python -m pytest -q", out=_q(9, 1.07)),
            Commit("cli: default output to CSV, parquet via --format"),
            User("perfect, thanks. I'll announce it in #data"),
        )),
        Session(day=17, events=(
            Probe("the partner agencies now send their series back as separate files. can you "
                  "add `tidepool merge FILES... -o OUT` that combines several cleaned files into "
                  "one table and drops duplicate readings?",
                  needs=("dry-run", "click-errors", "out-csv")),
            Edit("src/tidepool/cli.py", EXPORT_TAIL, EXPORT_TAIL + MERGE_CMD),
            Edit("src/tidepool/cli.py", "import click\n", "import click\nimport pandas as pd\n"),
            Edit("tests/test_cli.py",
                 '    assert list(pd.read_parquet(out)["station_id"]) == ["BOST"]\n', TEST_MERGE),
            Bash("python3 -m pytest -q tests/test_cli.py", out=_q(7, 0.94)),
            Bash("python3 -m pytest -q", out=_q(11, 1.19)),
            Probe("looks good, commit it please", needs=("commit-prefix",)),
            Commit("cli: add merge command"),
            User("👌 thanks"),
        )),
    ),
)

# --- py-tidepool-read-perf --------------------------------------------------------------------

PYSPY_INGEST = """\
py-spy> Sampling process 100 times a second. Press Control-C to exit.

wrote 1204332 rows to /tmp/out.parquet

py-spy> Stopped sampling because process exited
py-spy> Wrote flamegraph data to '/tmp/ingest.svg'. Samples: 8923 Errors: 0"""
APPLY_TO_VECTOR_OLD = '''\
def _to_metres(row: pd.Series) -> float:
    if row["unit"] == "ft":
        return row["value"] * FT_TO_M
    return row["value"]


def clean(df: pd.DataFrame) -> pd.DataFrame:
    df = df.dropna(subset=["value"]).copy()
    df["value"] = df.apply(_to_metres, axis=1)
'''
APPLY_TO_VECTOR_NEW = '''\
def clean(df: pd.DataFrame) -> pd.DataFrame:
    df = df.dropna(subset=["value"]).copy()
    feet = df["unit"] == "ft"
    df.loc[feet, "value"] = df.loc[feet, "value"] * FT_TO_M
'''
READ_C_TYPED = '''\
    return pd.read_csv(
        path,
        comment="#",
        usecols=COLUMNS,
        dtype={"station_id": "string", "value": "float64", "unit": "category"},
        parse_dates=["ts"],
        date_format="ISO8601",
    )
'''
ARROW_INVALID_TRACE = """\
Traceback (most recent call last):
  File "/home/dev/tidepool/.venv/bin/tidepool", line 8, in <module>
    sys.exit(main())
  [... 9 lines of click frames ...]
  File "/home/dev/tidepool/src/tidepool/cli.py", line 20, in ingest
    df = read_readings(src)
  File "/home/dev/tidepool/src/tidepool/io.py", line 11, in read_readings
    return pd.read_csv(path, engine="pyarrow", skiprows=1, parse_dates=["ts"])
  [... 6 lines of pandas frames ...]
  File "pyarrow/_csv.pyx", line 1261, in pyarrow._csv.read_csv
  File "pyarrow/_csv.pyx", line 1270, in pyarrow._csv.read_csv
  File "pyarrow/error.pxi", line 155, in pyarrow.lib.pyarrow_internal_check_status
  File "pyarrow/error.pxi", line 92, in pyarrow.lib.check_status
pyarrow.lib.ArrowInvalid: CSV parse error: Expected 4 columns, got 1: # units: m (metres above \
chart datum)"""
TEST_V3_HEADER = '''\
    assert out.exists()


RAW_V3 = (
    "# station export v3\\n# station: BRST Brest\\n# units: m\\n# tz: Europe/Paris\\n"
    "station_id,ts,value,unit\\nBRST,2024-05-01T00:00,4.512,m\\n"
)


def test_ingest_reads_multi_line_headers(tmp_path: Path) -> None:
    src = tmp_path / "v3.csv"
    src.write_text(RAW_V3)
    result = CliRunner().invoke(main, ["ingest", str(src), "-o", str(tmp_path / "t.parquet")])
    assert result.exit_code == 0, result.output
    assert "wrote 1 rows" in result.output
'''
SPIKES = '''\
    df["unit"] = "m"
    by_station = df.sort_values("ts").groupby("station_id")["value"]
    spike = (by_station.diff().abs() > SPIKE_M) & (by_station.diff(-1).abs() > SPIKE_M)
    df = df[~spike]
'''
TEST_SPIKES = '''\
    assert out["value"].iloc[0] == pytest.approx((1.20 + 0.9144) / 2)


def test_clean_drops_spikes() -> None:
    ts = pd.date_range("2024-03-01", periods=4, freq="6min")
    df = pd.DataFrame({"station_id": "KWAJ", "ts": ts, "value": [1.0, 1.1, 2.9, 1.2], "unit": "m"})
    assert list(clean(df)["value"]) == [1.0, 1.1, 1.2]
'''
TEST_TSV = '''\
    result = CliRunner().invoke(main, ["ingest", str(src), "-o", str(tmp_path / "t.parquet")])
    assert result.exit_code == 0, result.output
    assert "wrote 1 rows" in result.output
'''

READ_PERF = Story(
    id="py-tidepool-read-perf",
    title="Speeding up ingest: vectorising clean() sticks, the pyarrow CSV engine breaks on "
          "multi-line export headers and is reverted to the C parser",
    project=TIDEPOOL,
    lessons=(
        lesson("pyspy-bench", "command",
               "Profile with py-spy against the benchmark file data/sample/BOST_2023.csv (1.2M "
               "rows): `py-spy record -o /tmp/ingest.svg -- tidepool ingest "
               "data/sample/BOST_2023.csv -o /tmp/out.parquet`",
               "py-spy", "BOST_2023|sample|benchmark"),
        lesson("no-apply", "convention",
               "No row-wise DataFrame.apply(axis=1) in transforms or anywhere near the data "
               "path; vectorise with column operations",
               "apply", "axis=1|row-wise|rowwise|row by row|vectori"),
        lesson("pyarrow-engine", "decision",
               "read_readings uses pd.read_csv(engine='pyarrow') (multithreaded, several times "
               "faster); that engine has no comment= option, so the '#' header line is skipped "
               "with skiprows=1",
               "engine='pyarrow'|engine=\"pyarrow\"|pyarrow engine|pyarrow csv|pyarrow parser",
               "faster|skiprows|multithread"),
        lesson("c-parser", "decision",
               "read_readings stays on pandas' default C parser with comment='#' (exports can "
               "have several # header lines, which the pyarrow engine can't skip); the speed "
               "comes from explicit dtype=, usecols= and date_format='ISO8601'",
               "C parser|c engine|C engine|default parser", "comment|dtype|date_format|usecols"),
    ),
    also=(
        # session 2, Say: "The benchmark file takes 13.9 s, against 9.8 s with pyarrow and 90 s
        # originally: most of the win was the vectorised clean()"
        lesson("also-bench-timing", "fact",
               "Ingest of the benchmark file BOST_2023.csv takes about 14 s (`time tidepool ingest "
               "data/sample/BOST_2023.csv -o /tmp/out.parquet`), down from 90 s; most of the win "
               "came from vectorising clean()",
               r"re:\b(13\.9|14(\.6)?)\s?s\b|~14\s?s|90 s|90s", "benchmark|BOST_2023|ingest"),
        # session 2, User/Bash: "tidepool ingest /mnt/share/raw/BRST_2024-05.csv" / "# station
        # export v3\n# station: BRST Brest\n# units: ..."
        lesson("also-raw-exports-share", "fact",
               "Raw station exports arrive on the share under /mnt/share/raw/ (e.g. "
               "BRST_2024-05.csv); v3 exports start with four '#' lines (export version, station, "
               "units, tz)",
               "/mnt/share/raw|share/raw"),
        # session 3, Say: "A spike is a reading more than 0.5 m away from both its neighbours (so
        # the reading right after a spike survives)"
        lesson("also-spike-rule", "decision",
               "clean() drops spikes: a reading more than SPIKE_M = 0.5 m away from both its "
               "neighbours of the same station (time-sorted, groupby().diff()), so the reading "
               "right after a spike survives",
               "spike|SPIKE_M", "0.5|neighbour|neighbor|both"),
        # session 3, Probe + Edit: "the Canadian stations export tab-separated files with the same #
        # header block" / 'sep="\t" if path.suffix == ".tsv" else ","'
        lesson("also-tsv-exports", "fact",
               "The Canadian stations export tab-separated .tsv files with the same # header "
               "block; "
               "read_readings picks sep='\\t' from the .tsv suffix",
               "tsv|tab-separated|tab separated", "sep|suffix|read_readings|ingest|Canadian"),
        # session 1, User: "what does drop_duplicates(subset=[...]) keep by default" / Say: "The
        # first occurrence (keep='first')" / User: "ok good, that's what we want"
        lesson("also-dedupe-keeps-first", "decision",
               "clean() dedupes on (station_id, ts) with drop_duplicates' default keep='first': "
               "the first reading wins, which is what the team wants",
               "drop_duplicates|dedup|duplicate", "first"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning! ingest on a full year of Boston takes ~90 s and the analysts run it "
                 "all the time. can you dig into why? if you profile, the usual drill is py-spy "
                 "against data/sample/BOST_2023.csv, that's our benchmark file (1.2M rows).",
                 states="pyspy-bench"),
            Bash("py-spy record -o /tmp/ingest.svg -- tidepool ingest data/sample/BOST_2023.csv "
                 "-o /tmp/out.parquet", out=PYSPY_INGEST),
            Subagent(report=(
                "Read /tmp/ingest.svg (8,923 samples, ~89 s). 61% is transform.clean -> "
                "DataFrame.apply -> _to_metres: one Python call per row for the ft->m "
                "conversion. 27% is io.read_readings -> pandas read_csv (C parser), mostly "
                "inferring and parsing the `ts` format. 8% is validate_rows building Reading "
                "models; the rest is the parquet write. Biggest wins: vectorise _to_metres, "
                "then make CSV parsing cheaper.")),
            Say("Two clear hot spots. clean() converts feet to metres with "
                "DataFrame.apply(axis=1), a Python call per row; that becomes one masked column "
                "assignment. For reading, I'll switch read_csv to the pyarrow engine "
                "(engine='pyarrow'), which parses multithreaded and is several times faster on "
                "files this size. It has no comment= option, so the '# station export' header "
                "line gets skipped with skiprows=1 instead.", states="pyarrow-engine"),
            Edit("src/tidepool/transform.py", APPLY_TO_VECTOR_OLD, APPLY_TO_VECTOR_NEW),
            Edit("src/tidepool/io.py",
                 '    return pd.read_csv(path, comment="#", parse_dates=["ts"])\n',
                 '    return pd.read_csv(path, engine="pyarrow", skiprows=1, '
                 'parse_dates=["ts"])\n'),
            Bash("pytest -q", out=_q(5, 0.79)),
            Bash("time tidepool ingest data/sample/BOST_2023.csv -o /tmp/out.parquet",
                 out="wrote 1204332 rows to /tmp/out.parquet\n\nreal\t0m9.84s\nuser\t0m14.12s\n"
                     "sys\t0m1.37s"),
            User("90 → 10 s, nice!! and yeah, one thing that bugs me is .apply(axis=1) anywhere "
                 "near the data path, Jonas loves it. please always vectorise in transforms, "
                 "even when apply looks more readable.", states="no-apply"),
            Commit("Vectorise ft->m conversion; read CSVs with the pyarrow engine"),
            User("thanks!"),
        )),
        Session(day=3, noise=True, events=(
            User("hi! just odds and ends today"),
            User("what does drop_duplicates(subset=[...]) keep by default, first or last?"),
            Say("The first occurrence (keep='first'); keep='last' or keep=False (drop all "
                "duplicates) are the alternatives."),
            User("ok good, that's what we want. can you show me the first rows of the sample "
                 "file? I forgot the column order"),
            Bash("head -4 data/sample/BOST_2023.csv",
                 out="# station export v2\nstation_id,ts,value,unit\n"
                     "BOST,2023-01-01T00:00,1.412,m\nBOST,2023-01-01T00:06,1.418,m"),
            User("right. how many stations are in STATIONS now?"),
            Bash("python -c 'from tidepool.stations import STATIONS; print(len(STATIONS), "
                 "sorted(STATIONS))'", out="3 ['BOST', 'BRST', 'KWAJ']"),
            User("ok. can you bump the version to 1.4.1? we're cutting a release tomorrow"),
            Edit("pyproject.toml", 'version = "1.4.0"\n', 'version = "1.4.1"\n'),
            Edit("src/tidepool/__init__.py", '__version__ = "1.4.0"\n',
                 '__version__ = "1.4.1"\n'),
            Bash("pytest -q", out=_q(5, 0.77)),
            Commit("Bump version to 1.4.1"),
            User("thank you! have a good one"),
        )),
        Session(day=7, judge={"pyarrow-engine": "down"}, events=(
            User("ingest blew up on the new Brest export this morning:\n\n```\n$ tidepool ingest "
                 "/mnt/share/raw/BRST_2024-05.csv -o brst.parquet\n...\npyarrow.lib.ArrowInvalid:"
                 " CSV parse error: Expected 4 columns, got 1: # units: m (metres above chart "
                 "datum)\n```"),
            Bash("tidepool ingest /mnt/share/raw/BRST_2024-05.csv -o /tmp/brst.parquet",
                 out=ARROW_INVALID_TRACE, ok=False, exit=1),
            Bash("head -6 /mnt/share/raw/BRST_2024-05.csv",
                 out="# station export v3\n# station: BRST Brest\n"
                     "# units: m (metres above chart datum)\n# tz: Europe/Paris\n"
                     "station_id,ts,value,unit\nBRST,2024-05-01T00:00,4.512,m"),
            Say("The v3 exports start with four '#' lines and we only skip the first one. That "
                "was the workaround for the pyarrow engine having no comment= option, and it "
                "only holds while every export has exactly one comment line. I'd go back to "
                "pandas' default C parser with comment='#', which handles any number of them, "
                "and win back most of the time with explicit dtype= per column, usecols= and "
                "date_format='ISO8601' instead of letting pandas infer the timestamp format.",
                fails="pyarrow-engine", states="c-parser"),
            Edit("src/tidepool/io.py",
                 '    return pd.read_csv(path, engine="pyarrow", skiprows=1, parse_dates=["ts"])\n',
                 READ_C_TYPED),
            Edit("tests/test_cli.py", "    assert out.exists()\n", TEST_V3_HEADER),
            Bash("pytest -q", out=_q(6, 0.84)),
            Bash("time tidepool ingest data/sample/BOST_2023.csv -o /tmp/out.parquet",
                 out="wrote 1204332 rows to /tmp/out.parquet\n\nreal\t0m13.91s\nuser\t0m13.02s\n"
                     "sys\t0m0.88s"),
            Say("All green, including a test with a four-line v3 header. The benchmark file "
                "takes 13.9 s, against 9.8 s with pyarrow and 90 s originally: most of the win "
                "was the vectorised clean()."),
            Compact(instructions="Keep the ingest performance state: read_readings is back on "
                                 "the C parser with comment='#' plus explicit dtype/usecols/"
                                 "date_format (the pyarrow engine was reverted: it can't skip "
                                 "the multi-line # headers of v3 exports); clean() is "
                                 "vectorised, no apply(axis=1); benchmark with py-spy on "
                                 "data/sample/BOST_2023.csv."),
            User("can you run it on the real Brest file too, to be sure?"),
            Bash("tidepool ingest /mnt/share/raw/BRST_2024-05.csv -o /tmp/brst.parquet",
                 out="wrote 7436 rows to /tmp/brst.parquet"),
            Commit("Back to the C parser with comment='#' for multi-line export headers\n\n"
                   "The pyarrow engine has no comment= option, and skipping a fixed number of "
                   "lines broke on v3 exports. Explicit dtypes and date_format keep ingest at "
                   "~14 s on the benchmark."),
            User("great, thanks for the quick fix"),
        )),
        Session(day=12, events=(
            Probe("Priya wants spike removal in clean(): drop any reading that jumps more than "
                  "0.5 m from the previous reading of the same station. can you add it without "
                  "slowing ingest down much?", needs=("no-apply", "pyspy-bench")),
            Edit("src/tidepool/transform.py", 'FT_TO_M = 0.3048\n',
                 'FT_TO_M = 0.3048\nSPIKE_M = 0.5  # max plausible jump between two readings\n'),
            Edit("src/tidepool/transform.py", '    df["unit"] = "m"\n', SPIKES),
            Edit("tests/test_transform.py",
                 '    assert out["value"].iloc[0] == pytest.approx((1.20 + 0.9144) / 2)\n',
                 TEST_SPIKES),
            Bash("python3 -m pytest -q", out=_q(7, 0.88)),
            Bash("py-spy record -o /tmp/ingest.svg -- tidepool ingest data/sample/BOST_2023.csv "
                 "-o /tmp/out.parquet",
                 out=PYSPY_INGEST.replace("1204332", "1203977").replace("8923", "1466")),
            Say("A spike is a reading more than 0.5 m away from both its neighbours (so the "
                "reading right after a spike survives); it's two groupby().diff() calls on the "
                "time-sorted values, no per-row Python. On the benchmark file ingest goes from "
                "13.9 s to 14.6 s (1,466 py-spy samples, ~5% in the new step), and 355 readings "
                "of BOST 2023 are dropped as spikes."),
            Probe("also, the Canadian stations export tab-separated files with the same # "
                  "header block. can ingest handle those?", needs=("c-parser",)),
            Edit("src/tidepool/io.py", '        comment="#",\n',
                 '        sep="\\t" if path.suffix == ".tsv" else ",",\n        comment="#",\n'),
            Edit("tests/test_cli.py", TEST_TSV, TEST_TSV + '''

def test_ingest_reads_tsv(tmp_path: Path) -> None:
    src = tmp_path / "raw.tsv"
    src.write_text(RAW_V3.replace(",", "\\t"))
    result = CliRunner().invoke(main, ["ingest", str(src), "-o", str(tmp_path / "t.parquet")])
    assert result.exit_code == 0, result.output
'''),
            Bash("python3 -m pytest -q", out=_q(8, 0.91)),
            Commit("Drop spikes over 0.5 m in clean(); read .tsv exports"),
            User("thanks!"),
        )),
    ),
)

# --- py-tidepool-lint-tooling -----------------------------------------------------------------

TOX_LINT_NO_STUBS = """\
lint: install_deps> python -I -m pip install 'mypy>=1.9' 'pytest>=8' 'ruff>=0.4'
lint: commands[0]> ruff check src tests
All checks passed!
lint: commands[1]> ruff format --check src tests
10 files already formatted
lint: commands[2]> mypy
src/tidepool/transform.py:1: error: Library stubs not installed for "pandas"  [import-untyped]
src/tidepool/transform.py:1: note: Hint: "python3 -m pip install pandas-stubs"
src/tidepool/transform.py:1: note: (or run "mypy --install-types" to install all missing stub \
packages)
src/tidepool/transform.py:1: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html\
#missing-imports
src/tidepool/io.py:3: error: Library stubs not installed for "pandas"  [import-untyped]
Found 2 errors in 2 files (checked 6 source files)
  lint: exit 1 (4.87 seconds) /home/dev/tidepool> mypy pid=60212
  lint: FAIL code 1 (19.31=setup[14.44]+cmd[4.87] seconds)
  evaluation failed :( (19.38 seconds)"""
TOX_LINT_REAL_ERRORS = """\
lint: recreate env because dependencies changed
lint: remove tox env folder /home/dev/tidepool/.tox/lint
lint: install_deps> python -I -m pip install 'mypy>=1.9' 'pandas-stubs>=2.2' 'pytest>=8' \
'ruff>=0.4'
lint: commands[0]> ruff check src tests
All checks passed!
lint: commands[1]> ruff format --check src tests
10 files already formatted
lint: commands[2]> mypy
src/tidepool/transform.py:6: error: Missing type parameters for generic type "Series"  \
[type-arg]
src/tidepool/transform.py:8: error: Returning Any from function declared to return "float"  \
[no-any-return]
src/tidepool/transform.py:9: error: Returning Any from function declared to return "float"  \
[no-any-return]
src/tidepool/io.py:15: error: Keywords must be strings  [misc]
Found 4 errors in 2 files (checked 6 source files)
  lint: exit 1 (6.02 seconds) /home/dev/tidepool> mypy pid=60877
  lint: FAIL code 1 (27.45=setup[21.43]+cmd[6.02] seconds)
  evaluation failed :( (27.52 seconds)"""
TOX_LINT_OK = """\
lint: commands[0]> ruff check src tests
All checks passed!
lint: commands[1]> ruff format --check src tests
10 files already formatted
lint: commands[2]> mypy
Success: no issues found in 6 source files
  lint: OK (6.58=setup[0.41]+cmd[6.17] seconds)
  congratulations :) (6.65 seconds)"""
STATIONS_YAML = """\
# Gauge stations: id -> display name and the IANA timezone of its raw exports.
KWAJ: {name: Kwajalein, tz: Pacific/Kwajalein}
BOST: {name: Boston, tz: America/New_York}
BRST: {name: Brest, tz: Europe/Paris}
"""
STATIONS_FROM_YAML = '''\
"""Gauge stations, loaded from stations.yaml: id -> (display name, IANA timezone)."""

from importlib.resources import files

import yaml


def _load() -> dict[str, tuple[str, str]]:
    raw = yaml.safe_load(files("tidepool").joinpath("stations.yaml").read_text())
    return {sid: (s['name'], s['tz']) for sid, s in raw.items()}


STATIONS: dict[str, tuple[str, str]] = _load()
'''
MYPY_YAML = """\
src/tidepool/stations.py:5: error: Library stubs not installed for "yaml"  [import-untyped]
src/tidepool/stations.py:5: note: Hint: "python3 -m pip install types-PyYAML"
src/tidepool/stations.py:5: note: (or run "mypy --install-types" to install all missing stub \
packages)
src/tidepool/stations.py:5: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html\
#missing-imports
Found 1 error in 1 file (checked 6 source files)"""
CONTRIBUTING = """\
# Contributing to tidepool

## Setup

    uv sync            # creates .venv with the runtime and dev dependencies

## Before you push

CI runs exactly these; run them locally first:

    uv run pytest
    uv run ruff check .
    uv run ruff format --check .
    uv run mypy

## Typing

- `src/tidepool` is checked with `mypy --strict`.
- Third-party libraries without inline types need their stub package in the dev dependencies
  (`pandas-stubs`, `types-PyYAML`), not an ignore.
- Never a bare `# type: ignore`: give the error code, e.g. `# type: ignore[arg-type]`.
  mypy rejects ignores without a code and warns about unused ones.
"""

LINT_TOOLING = Story(
    id="py-tidepool-lint-tooling",
    title="Getting mypy --strict green (pandas-stubs), typed ignores, and the switch from tox to "
          "uv for the checks",
    project=TIDEPOOL,
    lessons=(
        lesson("tox-lint", "command",
               "Before pushing, run `tox -e lint` (ruff check, ruff format --check, mypy "
               "--strict)",
               "tox -e lint"),
        lesson("pandas-stubs", "gotcha",
               "mypy --strict needs pandas-stubs in the dev dependencies; without it every "
               "pandas import fails with 'Library stubs not installed for \"pandas\" "
               "[import-untyped]'",
               "pandas-stubs"),
        lesson("typed-ignores", "convention",
               "Never a bare `# type: ignore`: always give the error code in brackets (e.g. "
               "`# type: ignore[arg-type]`); mypy enforces it with ignore-without-code",
               "type: ignore|type-ignore|ignore-without-code", "code"),
        lesson("uv-checks", "command",
               "tox is gone: tests are `uv run pytest`; lint is `uv run ruff check .`, `uv run "
               "ruff format --check .` and `uv run mypy`",
               "uv run ruff|uv run mypy"),
    ),
    also=(
        # session 0, Bash + Edit: "src/tidepool/io.py:15: error: Keywords must be strings  [misc]"
        # -> "Reading(**{str(k): v for k, v in rec.items()})"
        lesson("also-to-dict-str-keys", "gotcha",
               "With pandas-stubs, df.to_dict(orient='records') rows have non-str keys, so "
               "Reading(**rec) fails mypy with 'Keywords must be strings'; validate_rows converts "
               "the keys with str(k)",
               "Keywords must be strings|to_dict",
               "str(k)|str keys|string keys|non-str|keys must|Keywords must be strings|Hashable"),
        # session 2, Say: "PyYAML's annotations live in types-PyYAML. Adding it to the dev
        # dependencies rather than silencing the import" (also CONTRIBUTING.md, session 4)
        lesson("also-stub-packages", "convention",
               "A third-party library without inline types gets its stub package in the dev "
               "dependencies (types-PyYAML, like pandas-stubs), never an ignore on the import",
               "types-PyYAML|stub package|stubs package", "dev|ignore|depend"),
        # session 2, Bash: "uv sync" -> "Creating virtual environment at: .venv"
        lesson("also-uv-sync", "command",
               "`uv sync` creates/updates .venv with the runtime deps and the [tool.uv] "
               "dev-dependencies; run it after changing dependencies",
               "uv sync"),
        # session 3, Bash: "git add src/tidepool/stations.yaml uv.lock" then the commit
        lesson("also-commit-uv-lock", "convention",
               "uv.lock is committed to the repo alongside dependency changes",
               "uv.lock", "commit|tracked|git add|check in|checked in"),
        # session 2, Probe: "the station list should come from a stations.yaml next to stations.py
        # instead of the dict, so ops can add stations without a release"
        lesson("also-stations-yaml", "decision",
               "The station list lives in src/tidepool/stations.yaml (loaded by stations.py with "
               "yaml.safe_load via importlib.resources) so ops can add stations without a release",
               "stations.yaml", "ops|without a release|loaded|loads|load"),
        # session 1, Bash: "git push" rejected (fetch first) -> "git pull --rebase && git push";
        # User: "I'll tell Jonas to rebase"
        lesson("also-pull-rebase", "convention",
               "Others push to main too: when a push is rejected, `git pull --rebase` and push "
               "again (rebase, no merge commits)",
               "pull --rebase|rebase"),
    ),
    sessions=(
        Session(day=0, events=(
            User("morning ☕ we have a new contributor, Jonas, starting monday, and I want the "
                 "lint setup sane before he does. the rule here: run `tox -e lint` before "
                 "pushing anything, it's ruff check, ruff format --check and mypy strict in one "
                 "go. right now I think it's red though, can you get it green?",
                 states="tox-lint"),
            Bash("tox -e lint", out=TOX_LINT_NO_STUBS, ok=False, exit=1),
            Say("mypy can't check anything that touches pandas: pandas doesn't ship inline "
                "types, its annotations live in the separate pandas-stubs package, which isn't "
                "in our dev extra. Adding it; expect real errors once mypy can actually see "
                "pandas.", states="pandas-stubs"),
            Edit("pyproject.toml", 'dev = ["pytest>=8", "ruff>=0.4", "mypy>=1.9"]\n',
                 'dev = ["pytest>=8", "ruff>=0.4", "mypy>=1.9", "pandas-stubs>=2.2"]\n'),
            Bash("tox -e lint", out=TOX_LINT_REAL_ERRORS, ok=False, exit=1),
            Edit("src/tidepool/transform.py",
                 "def _to_metres(row: pd.Series) -> float:\n"
                 '    if row["unit"] == "ft":\n        return row["value"] * FT_TO_M\n'
                 '    return row["value"]\n',
                 'def _to_metres(row: "pd.Series[Any]") -> float:\n'
                 '    if row["unit"] == "ft":\n        return float(row["value"]) * FT_TO_M\n'
                 '    return float(row["value"])\n'),
            Edit("src/tidepool/transform.py", "import pandas as pd\n",
                 "from typing import Any\n\nimport pandas as pd\n"),
            Edit("src/tidepool/io.py",
                 '    return [Reading(**rec) for rec in df.to_dict(orient="records")]\n',
                 '    records = df.to_dict(orient="records")\n'
                 "    return [Reading(**{str(k): v for k, v in rec.items()}) "
                 "for rec in records]\n"),
            Bash("tox -e lint", out=TOX_LINT_OK),
            Bash("tox -e py311,py312 -q", out="  py311: OK (3.11 seconds)\n"
                                              "  py312: OK (2.94 seconds)\n"
                                              "  congratulations :) (6.12 seconds)"),
            Commit("Add pandas-stubs so mypy --strict sees pandas; fix what it found"),
            User("ahh, so that's why it's been red since the mypy bump. thanks!"),
        )),
        Session(day=3, events=(
            User("thanks for friday. Jonas's first PR is up and I'm reviewing it: he sprinkled "
                 "`# type: ignore` all over to get mypy quiet 😬 please don't ever add a bare "
                 "`# type: ignore`: if one is really needed, put the error code in brackets, "
                 "like `# type: ignore[arg-type]`, so it stays targeted and mypy flags it once "
                 "it's unused. can you make mypy enforce that?", states="typed-ignores"),
            Read("pyproject.toml"),
            Edit("pyproject.toml", "[tool.mypy]\nstrict = true\n",
                 '[tool.mypy]\nstrict = true\nenable_error_code = ["ignore-without-code"]\n'),
            Bash("tox -e lint", out=TOX_LINT_OK),
            Commit("mypy: require an error code on every type: ignore"),
            Bash("git psuh", ok=False, exit=1,
                 out="git: 'psuh' is not a git command. See 'git --help'.\n\n"
                     "The most similar command is\n\tpush"),
            Bash("git push", ok=False, exit=1,
                 out="To github.com:hydro-lab/tidepool.git\n"
                     " ! [rejected]        main -> main (fetch first)\n"
                     "error: failed to push some refs to 'github.com:hydro-lab/tidepool.git'\n"
                     "hint: Updates were rejected because the remote contains work that you do "
                     "not\nhint: have locally. This is usually caused by another repository "
                     "pushing to\nhint: the same ref. If you want to integrate the remote "
                     "changes, use\nhint: 'git pull' before pushing again.\nhint: See the 'Note "
                     "about fast-forwards' in 'git push --help' for details."),
            Bash("git pull --rebase && git push",
                 out="Successfully rebased and updated refs/heads/main.\n"
                     "To github.com:hydro-lab/tidepool.git\n   4c1d2e9..a83f0b1  main -> main"),
            User("👍 I'll tell Jonas to rebase"),
        )),
        Session(day=7, end=None, events=(
            User("hey! big change from sprint planning: we dropped tox. uv manages the envs now "
                 "and CI was switched yesterday. going forward: tests are `uv run pytest`, and "
                 "lint is `uv run ruff check .`, `uv run ruff format --check .` and `uv run "
                 "mypy`. tox.ini goes away once everything has moved.",
                 replaces="tox-lint", states="uv-checks"),
            Edit("pyproject.toml", "[tool.pytest.ini_options]\n",
                 '[tool.uv]\ndev-dependencies = ["pytest>=8", "ruff>=0.4", "mypy>=1.9", '
                 '"pandas-stubs>=2.2"]\n\n[tool.pytest.ini_options]\n'),
            Bash("uv sync", out="Using CPython 3.12.3 interpreter at: /usr/bin/python3.12\n"
                                "Creating virtual environment at: .venv\n"
                                "Resolved 31 packages in 1.08s\n"
                                "   Built tidepool @ file:///home/dev/tidepool\n"
                                "Prepared 2 packages in 612ms\nInstalled 29 packages in 91ms\n"
                                " + click==8.1.7\n + mypy==1.10.1\n + pandas==2.2.2\n"
                                " + pandas-stubs==2.2.2.240603\n [...]\n"
                                " + tidepool==1.4.0 (from file:///home/dev/tidepool)"),
            Bash("uv run pytest -q", out=_q(5, 0.74)),
            Probe("nice. next, for this branch: the station list should come from a "
                  "stations.yaml next to stations.py instead of the dict, so ops can add "
                  "stations without a release. PyYAML is fine",
                  needs=("typed-ignores", "pandas-stubs")),
            Write("src/tidepool/stations.yaml", STATIONS_YAML),
            Write("src/tidepool/stations.py", STATIONS_FROM_YAML),
            Edit("pyproject.toml", '    "pydantic>=1.10",\n',
                 '    "pydantic>=1.10",\n    "pyyaml>=6",\n'),
            Bash("uv sync && uv run mypy", out="Resolved 32 packages in 402ms\n"
                 "Installed 1 package in 3ms\n + pyyaml==6.0.1\n" + MYPY_YAML, ok=False,
                 exit=1),
            Say("Same story as pandas: PyYAML's annotations live in types-PyYAML. Adding it to "
                "the dev dependencies rather than silencing the import."),
            Edit("pyproject.toml", '"pandas-stubs>=2.2"]\n\n[tool.pytest.ini_options]',
                 '"pandas-stubs>=2.2", "types-PyYAML>=6"]\n\n[tool.pytest.ini_options]'),
            Bash("uv sync && uv run mypy",
                 out="Resolved 33 packages in 377ms\nInstalled 1 package in 2ms\n"
                     " + types-pyyaml==6.0.12.20240311\nSuccess: no issues found in 6 source "
                     "files"),
        )),
        Session(day=9, judge={"uv-checks": "up"}, events=(
            User("my laptop died on friday mid-session (battery, again 🙄). where were we?"),
            Bash("git status --short", out=" M pyproject.toml\n M src/tidepool/stations.py\n"
                                           "?? src/tidepool/stations.yaml\n?? uv.lock"),
            Say("Stations now load from src/tidepool/stations.yaml, and mypy was clean after "
                "adding types-PyYAML; nothing is committed yet, and the new yaml file and "
                "uv.lock are still untracked."),
            Probe("ok, let's get the branch green and pushed then", needs=("uv-checks",)),
            Bash("uv run ruff check .", out="All checks passed!"),
            Bash("uv run ruff format --check .", ok=False, exit=1,
                 out="Would reformat: src/tidepool/stations.py\n1 file would be reformatted, 10 "
                     "files already formatted"),
            Edit("src/tidepool/stations.py", "(s['name'], s['tz'])", '(s["name"], s["tz"])'),
            Bash("uv run ruff format --check . && uv run mypy && uv run pytest -q",
                 out="11 files already formatted\nSuccess: no issues found in 6 source files\n"
                     + _q(5, 0.71)),
            Bash("git add src/tidepool/stations.yaml uv.lock", out=""),
            Commit("Load stations from stations.yaml; uv dev dependencies incl. types-PyYAML"),
            Bash("git push", out="To github.com:hydro-lab/tidepool.git\n"
                                 "   a83f0b1..5e92c4d  main -> main"),
            User("🚀 thanks"),
        )),
        Session(day=14, events=(
            Probe("Jonas asked how to run the checks locally. can you write a short "
                  "CONTRIBUTING.md for him? setup, how to run the tests and what CI checks, and "
                  "our typing rules", needs=("uv-checks", "typed-ignores")),
            Write("CONTRIBUTING.md", CONTRIBUTING),
            Bash("uv run ruff check . && uv run ruff format --check .",
                 out="All checks passed!\n11 files already formatted"),
            Bash("git add CONTRIBUTING.md", out=""),
            Commit("docs: add CONTRIBUTING.md"),
            User("perfect, sending him the link. thanks!"),
        )),
    ),
)

STORIES = [
    ENUM_MIGRATION,
    ORDER_CACHE,
    HOUSE_STYLE,
    CELERY_TASKS,
    SETTINGS_DEPLOY,
    ASYNC_REVERT,
    DST,
    PYDANTIC_V2,
    CLI_CONVENTIONS,
    READ_PERF,
    LINT_TOOLING,
]
