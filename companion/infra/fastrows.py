"""Reads of several rows (a table's seats, the history's lines), written once per model and
query shape like the statements of `fastsql`, whose helpers and `STOCK` switch they use: apart
from them because an HP tap, which reads one row of each kind, never needs them."""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from django.db import models

from companion.infra import fastsql

M = TypeVar("M", bound=models.Model)


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
    sql, names, converters = fastsql.select_sql(
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
