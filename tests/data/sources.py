"""Small real source files of every supported format, written for the data tests.

Each holds the same five penguins, so a test can open any format and expect the same rows.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import duckdb

ROWS = [
    ("Adelie", "Torgersen", 39.1, 3750, "male", 2007),
    ("Adelie", "Dream", 37.8, 3400, "female", 2008),
    ("Gentoo", "Biscoe", 46.1, 4500, "female", 2007),
    ("Gentoo", "Biscoe", 50.0, 5700, "male", 2008),
    ("Chinstrap", "Dream", 46.5, None, None, 2009),
]
HEADER = "species,island,bill_length_mm,body_mass_g,sex,year"


def write_csv(path: Path) -> Path:
    lines = [HEADER] + [
        ",".join("NA" if value is None else str(value) for value in row) for row in ROWS
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_sqlite(path: Path, table: str = "penguins", extra_table: str | None = None) -> Path:
    with sqlite3.connect(path) as connection:
        connection.execute(
            f"CREATE TABLE {table} (species TEXT, island TEXT, bill_length_mm REAL,"
            " body_mass_g INTEGER, sex TEXT, year INTEGER)"
        )
        connection.executemany(f"INSERT INTO {table} VALUES (?, ?, ?, ?, ?, ?)", ROWS)
        if extra_table:
            connection.execute(f"CREATE TABLE {extra_table} (x INTEGER)")
    connection.close()
    return path


def write_duckdb(path: Path, table: str = "penguins") -> Path:
    connection = duckdb.connect(str(path))
    connection.execute(
        f"CREATE TABLE {table} (species VARCHAR, island VARCHAR, bill_length_mm DOUBLE,"
        " body_mass_g BIGINT, sex VARCHAR, year BIGINT)"
    )
    connection.executemany(f"INSERT INTO {table} VALUES (?, ?, ?, ?, ?, ?)", ROWS)
    connection.close()
    return path


def write_parquet(path: Path) -> Path:
    connection = duckdb.connect()
    connection.execute(
        "CREATE TABLE p (species VARCHAR, island VARCHAR, bill_length_mm DOUBLE,"
        " body_mass_g BIGINT, sex VARCHAR, year BIGINT)"
    )
    connection.executemany("INSERT INTO p VALUES (?, ?, ?, ?, ?, ?)", ROWS)
    connection.execute(f"COPY p TO '{path}' (FORMAT parquet)")
    connection.close()
    return path


def write_all(folder: Path) -> dict[str, Path]:
    """One file per format, named by format."""
    return {
        "csv": write_csv(folder / "penguins.csv"),
        "parquet": write_parquet(folder / "penguins.parquet"),
        "sqlite": write_sqlite(folder / "penguins.sqlite"),
        "duckdb": write_duckdb(folder / "penguins.duckdb"),
    }
