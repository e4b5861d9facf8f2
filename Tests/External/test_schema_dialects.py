"""The SQLite and PostgreSQL migrations leave the same schema: the same tables, the same columns per table, the same
nullability and matching types, and every named SQLite index also on PostgreSQL (docs/storage.md).

SQLite: Schema/sqlite/*.sql applied in order to a temporary file with Python's sqlite3. PostgreSQL: Schema/postgres/*.sql
applied with psql, each file in its own transaction as the migrator does, to a new database in the cluster named by
VOUCH_TEST_POSTGRES_URL (scripts/test starts one with scripts/postgres-cluster). Without that variable the PostgreSQL
side is skipped, unless VOUCH_REQUIRE_POSTGRES=1, when it fails.
"""

from __future__ import annotations

import pathlib
import sqlite3

import pytest

from postgres_cluster import fresh_database, postgres_url, psql, rows

SCHEMA = pathlib.Path(__file__).resolve().parents[2] / "Schema"
# The migrator's own bookkeeping, created by the binary rather than by a migration.
INTERNAL_TABLES = {"schema_migrations"}
# Indexes only PostgreSQL has, for several vouchd on one database (each explained in Schema/postgres).
POSTGRES_ONLY_INDEXES = {"fixes_by_promotion_event"}


def migrations(dialect: str) -> list[pathlib.Path]:
    files = sorted((SCHEMA / dialect).glob("*.sql"))
    assert files, f"no migrations in {SCHEMA / dialect}"
    return files


class Column:
    def __init__(self, type_name: str, not_null: bool, collation: str | None = None):
        self.type_name = type_name
        self.not_null = not_null
        self.collation = collation


@pytest.fixture(scope="module")
def sqlite_schema(tmp_path_factory) -> tuple[dict[str, dict[str, Column]], set[str]]:
    path = tmp_path_factory.mktemp("schema") / "schema.sqlite3"
    connection = sqlite3.connect(path)
    try:
        for migration in migrations("sqlite"):
            connection.executescript(migration.read_text())
        tables = [name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        schema = {}
        for table in tables:
            columns = connection.execute(f"PRAGMA table_info({table})").fetchall()
            # A primary key column counts as NOT NULL: PostgreSQL makes it so, and the store never writes NULL there.
            schema[table] = {name: Column(declared.upper(), bool(not_null) or key > 0)
                             for (_, name, declared, not_null, _, key) in columns}
        indexes = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
        return schema, indexes
    finally:
        connection.close()


@pytest.fixture(scope="module")
def postgres_schema() -> tuple[dict[str, dict[str, Column]], set[str]]:
    with fresh_database(postgres_url(), "vouch_schema") as (_, database):
        for migration in migrations("postgres"):
            psql(database, "--single-transaction", "--file", str(migration))
        schema: dict[str, dict[str, Column]] = {}
        for table, column, type_name, nullable, collation in rows(database, """
                SELECT table_name, column_name, data_type, is_nullable, COALESCE(collation_name, '')
                FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"""):
            schema.setdefault(table, {})[column] = Column(type_name, nullable == "NO", collation or None)
        indexes = {index for (index,) in rows(database, "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")}
        return schema, indexes


def test_both_dialects_have_the_same_tables(sqlite_schema, postgres_schema):
    sqlite_tables = set(sqlite_schema[0]) - INTERNAL_TABLES
    postgres_tables = set(postgres_schema[0]) - INTERNAL_TABLES
    assert sorted(sqlite_tables - postgres_tables) == [], "tables only on SQLite"
    assert sorted(postgres_tables - sqlite_tables) == [], "tables only on PostgreSQL"


def test_each_table_has_the_same_columns(sqlite_schema, postgres_schema):
    differences = {}
    for table in set(sqlite_schema[0]) & set(postgres_schema[0]) - INTERNAL_TABLES:
        sqlite_columns, postgres_columns = set(sqlite_schema[0][table]), set(postgres_schema[0][table])
        if sqlite_columns != postgres_columns:
            differences[table] = {"only on SQLite": sorted(sqlite_columns - postgres_columns),
                                  "only on PostgreSQL": sorted(postgres_columns - sqlite_columns)}
    assert differences == {}


def test_columns_allow_null_alike(sqlite_schema, postgres_schema):
    differences = []
    for table, columns in sqlite_schema[0].items():
        for name, column in columns.items():
            other = postgres_schema[0].get(table, {}).get(name)
            if other is not None and other.not_null != column.not_null:
                differences.append(f"{table}.{name}: NOT NULL on {'SQLite' if column.not_null else 'PostgreSQL'} only")
    assert differences == []


def test_column_types_match_with_bytewise_text_and_wide_times(sqlite_schema, postgres_schema):
    """TEXT is text COLLATE "C" (pages compare bytes as SQLite does), BLOB is bytea, INTEGER is integer or bigint,
    and every millisecond time is bigint."""
    allowed = {"TEXT": {"text"}, "BLOB": {"bytea"}, "INTEGER": {"integer", "bigint"}}
    problems = []
    for table, columns in sqlite_schema[0].items():
        for name, column in columns.items():
            other = postgres_schema[0].get(table, {}).get(name)
            if other is None or table in INTERNAL_TABLES:
                continue
            if other.type_name not in allowed.get(column.type_name, set()):
                problems.append(f"{table}.{name}: {column.type_name} on SQLite, {other.type_name} on PostgreSQL")
            if other.type_name == "text" and other.collation != "C":
                problems.append(f"{table}.{name}: text with collation {other.collation or 'the database default'}, not \"C\"")
            if name.endswith("_ms") and other.type_name != "bigint":
                problems.append(f"{table}.{name}: milliseconds as {other.type_name}, not bigint")
    assert problems == []


def test_every_sqlite_index_is_on_postgres_too(sqlite_schema, postgres_schema):
    assert sorted(sqlite_schema[1] - postgres_schema[1]) == []
    explicit_postgres = {index for index in postgres_schema[1] if not index.endswith(("_pkey", "_key"))}
    assert sorted(explicit_postgres - sqlite_schema[1] - POSTGRES_ONLY_INDEXES) == []
