"""The reads an HP tap never needs, written once per model and query shape like the statements of
`fastsql`, whose helpers and `STOCK` switch they use: one row (`read_one`), a row with the row
it joins (`read_pair`: a page's token, its seat and table), several rows sent together
(`read_rows`), and the reads of several rows of a kind (a table's seats, the history's lines).
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from django.db import models

from companion.infra import fastsql

M = TypeVar("M", bound=models.Model)
N = TypeVar("N", bound=models.Model)


@cache
def select_sql(
    model: type[models.Model], where: str, lock: bool, vendor: str
) -> tuple[str, list[str], list[Any]]:
    connection = fastsql.current_connection()
    columns, names, converters = fastsql.select_columns(model, vendor)
    # Identifiers come from the models, `where` from this app's code; values are parameters.
    table = connection.ops.quote_name(model._meta.db_table)
    sql = f"SELECT {columns} FROM {table} WHERE {where}"  # noqa: S608
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return sql, names, converters


def read_one(model: type[M], where: str, params: list[Any], *, lock: bool = False) -> M | None:
    """One row of `model` matching `where` (SQL over its own table), or None."""
    if fastsql.STOCK:
        rows = model._default_manager.extra(where=[where], params=params)  # noqa: S610
        return (rows.select_for_update() if lock else rows).first()
    connection = fastsql.current_connection()
    sql, names, converters = select_sql(model, where, lock, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    return fastsql.make_row(
        model, connection.alias, names, fastsql.converted(row, converters, connection)
    )


def read_rows(
    queries: list[tuple[type[models.Model], str, list[Any], bool]],
) -> list[Any]:
    """Several `read_one(model, where, params, lock=lock)` in one go, each the row it finds or
    None. Inside `fastsql.batch()` they are sent together (with the statements waiting there): one
    round trip. They run in order, each once the one before it has finished (a statement after
    a lock sees what the lock's previous holder committed)."""
    if fastsql.STOCK:
        return [read_one(model, where, params, lock=lock) for model, where, params, lock in queries]
    connection = fastsql.current_connection()
    sent = []
    with fastsql.pipeline(connection):
        for model, where, params, lock in queries:
            sql, names, converters = select_sql(model, where, lock, connection.vendor)
            cursor = connection.cursor()
            cursor.execute(sql, params)
            sent.append((cursor, model, names, converters))
    found: list[Any] = []
    for cursor, model, names, converters in sent:
        with cursor:
            row = cursor.fetchone()
        found.append(
            None
            if row is None
            else fastsql.make_row(
                model, connection.alias, names, fastsql.converted(row, converters, connection)
            )
        )
    return found


def read_pair(
    model: type[M], other: type[N], join: str, where: str, params: list[Any]
) -> tuple[M, N] | None:
    """One row of `model` with the row of `other` it joins (`join`: the ON condition), in one
    statement, or None. For databases where one query is cheaper than a lock, then a read."""
    if fastsql.STOCK:
        fields = model._meta.concrete_fields
        link = next(f.name for f in fields if getattr(f, "related_model", None) is other)
        rows = model._default_manager.select_related(link)
        rows = rows.extra(where=[where], params=params)  # noqa: S610
        found = rows.first()
        return None if found is None else (found, getattr(found, link))
    found = fastsql.read_pair_with(model, other, join, where, params, ("", ""))
    return None if found is None else (found[0], found[1])


def read_all(
    model: type[M],
    where: str,
    params: list[Any],
    order_by: tuple[str, ...] = (),
    limit: int | None = None,
) -> list[M]:
    """The rows of `model` matching `where`, in the order of the field names `order_by` (a name
    after "-": descending), at most `limit` of them. A table's seats are read by most changes'
    frames: built by the ORM, that query cost a third of an HP tap."""
    if fastsql.STOCK:
        rows = model._default_manager.extra(where=[where], params=params)  # noqa: S610
        rows = rows.order_by(*order_by)
        return list(rows if limit is None else rows[:limit])
    connection = fastsql.current_connection()
    sql, names, converters = select_sql(
        model, where + _order(model, order_by, limit, connection.vendor), False, connection.vendor
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    alias = connection.alias
    return [
        model.from_db(alias, names, fastsql.converted(row, converters, connection)) for row in found
    ]


def read_columns(
    model: type[models.Model],
    names: tuple[str, ...],
    where: str,
    params: list[Any],
    order_by: tuple[str, ...] = (),
    limit: int | None = None,
) -> list[list[Any]]:
    """The values of the fields `names` of each row matching `where`, ordered and limited as
    `read_all` (`values_list(*names)`, without building the query each time)."""
    if fastsql.STOCK:
        rows = model._default_manager.extra(where=[where], params=params)  # noqa: S610
        rows = rows.order_by(*order_by)
        return [list(r) for r in (rows if limit is None else rows[:limit]).values_list(*names)]
    connection = fastsql.current_connection()
    sql, converters = _select_columns(model, names, where, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql + _order(model, order_by, limit, connection.vendor), params)
        found = cursor.fetchall()
    return [fastsql.converted(row, converters, connection) for row in found]


@cache
def _select_columns(
    model: type[models.Model], names: tuple[str, ...], where: str, vendor: str
) -> tuple[str, list[Any]]:
    columns, _attnames, converters = fastsql.select_columns(model, vendor, names)
    table = fastsql.current_connection().ops.quote_name(model._meta.db_table)
    return f"SELECT {columns} FROM {table} WHERE {where}", converters  # noqa: S608


@cache
def _order(
    model: type[models.Model], order_by: tuple[str, ...], limit: int | None, vendor: str
) -> str:
    quote = fastsql.current_connection().ops.quote_name
    table = quote(model._meta.db_table)
    terms = [
        f"{table}.{quote(model._meta.get_field(name.lstrip('-')).column)}"
        + (" DESC" if name.startswith("-") else "")
        for name in order_by
    ]
    order = f" ORDER BY {', '.join(terms)}" if terms else ""
    return order + (f" LIMIT {int(limit)}" if limit is not None else "")
