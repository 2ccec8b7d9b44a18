"""The few statements every tap runs, without the ORM's per-query building.

Django builds each query anew (the compiler, its converters, the model's field order), which on
these machines cost more than running the query: about 0.3 ms a statement, a third of a tap's
server time. The helpers below write the SQL once per model and still use Django's own field
machinery for values (`pre_save` for `auto_now`, `get_db_prep_save` for JSON, dates and foreign
keys; the backend's converters when reading), so models stay the single description of a row.
They skip model signals, which this app does not use. Tests run every action through them.

With `settings.STOCK_PATH` (the STOCK_PATH=1 environment variable, or `STOCK` set by a test)
each helper does the same through the ORM's own calls instead, to measure the two against each
other (docs/performance.md) and to test that both leave the same rows.
"""

from __future__ import annotations

import contextlib
import copy
import functools
from collections.abc import Iterator
from functools import cache
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init

M = TypeVar("M", bound=models.Model)
N = TypeVar("N", bound=models.Model)

# The ORM's own path (see the module's docstring); read at every call, so a test may switch it.
STOCK: bool = "orm" in getattr(settings, "STOCK_PARTS", ())


def current_connection() -> BaseDatabaseWrapper:
    """The default connection, looked up once per statement: every attribute read through
    `django.db.connection` goes through a thread-local lookup."""
    return connections[DEFAULT_DB_ALIAS]


@cache
def select_columns(
    model: type[models.Model], vendor: str, names: tuple[str, ...] | None = None
) -> tuple[str, list[str], list[Any]]:
    """The column list of a SELECT of the fields `names` (default: every column), their
    attribute names and each column's converters (the backend's, then the field's)."""
    connection, meta = current_connection(), model._meta
    quote, table = connection.ops.quote_name, meta.db_table
    fields = meta.concrete_fields if names is None else [meta.get_field(n) for n in names]
    cols = [field.get_col(table) for field in fields]
    ops = connection.ops
    converters = [(c, ops.get_db_converters(c) + c.get_db_converters(connection)) for c in cols]
    columns = ", ".join(f"{quote(table)}.{quote(f.column)}" for f in fields)
    return columns, [f.attname for f in fields], converters


@cache
def select_sql(
    model: type[models.Model], where: str, lock: bool, vendor: str
) -> tuple[str, list[str], list[Any]]:
    connection = current_connection()
    columns, names, converters = select_columns(model, vendor)
    # Identifiers come from the models, `where` from this app's code; values are parameters.
    table = connection.ops.quote_name(model._meta.db_table)
    sql = f"SELECT {columns} FROM {table} WHERE {where}"  # noqa: S608
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return sql, names, converters


def built(model: type[M], db: str | None, names: Any, values: Any) -> M:
    """`Model.from_db(db, names, values)` of a whole row, without `Model.__init__`: each value
    put in the instance's dict, as `__init__` puts it (a foreign key's id descriptor would only
    drop a cached object, which a new instance has none of). A partial row, a model whose
    fields or construction are its own, or a model signal listened to (this app listens to
    none) go through `Model.from_db`."""
    attnames = _plain_attnames(model)
    if (
        attnames is None
        or len(values) != len(attnames)
        or pre_init.receivers
        or post_init.receivers
    ):
        return _MODEL_FROM_DB(model, db, names, values)  # type: ignore[no-any-return]
    new = model.__new__(model)
    state = ModelState()
    state.adding = False
    state.db = db
    new._state = state
    new.__dict__.update(zip(attnames, values, strict=True))
    return new


_MODEL_FROM_DB = models.Model.from_db.__func__  # type: ignore[attr-defined]


@cache
def _plain_attnames(model: type[models.Model]) -> tuple[str, ...] | None:
    """The attribute names of the model's columns, in their order, if `built` may build it."""
    if model.__init__ is not models.Model.__init__:
        return None
    names = []
    for field in model._meta.concrete_fields:
        descriptor = model.__dict__.get(field.attname)
        if type(descriptor) not in (DeferredAttribute, ForeignKeyDeferredAttribute):
            return None
        names.append(field.attname)
    return tuple(names)


def _row(model: type[M], db: str | None, names: list[str], values: list[Any]) -> M:
    """A row read, as `model.from_db` makes it (its own, if it has one; else `built`)."""
    if model.from_db.__func__ is _MODEL_FROM_DB:  # type: ignore[attr-defined]
        return built(model, db, names, values)
    return model.from_db(db, names, values)


def read_one(model: type[M], where: str, params: list[Any], *, lock: bool = False) -> M | None:
    """One row of `model` matching `where` (SQL over its own table), or None."""
    if STOCK:
        rows = model._default_manager.extra(where=[where], params=params)  # noqa: S610
        return (rows.select_for_update() if lock else rows).first()
    connection = current_connection()
    sql, names, converters = select_sql(model, where, lock, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    return _row(model, connection.alias, names, converted(row, converters, connection))


def read_rows(
    queries: list[tuple[type[models.Model], str, list[Any], bool]],
) -> list[Any]:
    """Several `read_one(model, where, params, lock=lock)` in one go, each the row it finds or
    None. Inside `batch()` they are sent together (with the statements waiting there): one
    round trip. They run in order, each once the one before it has finished (a statement after
    a lock sees what the lock's previous holder committed)."""
    if STOCK:
        return [read_one(model, where, params, lock=lock) for model, where, params, lock in queries]
    connection = current_connection()
    sent = []
    with _pipeline(connection):
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
            else _row(model, connection.alias, names, converted(row, converters, connection))
        )
    return found


class _Batch:
    """The statements of a batch whose results nobody reads, not sent yet."""

    def __init__(self) -> None:
        self.waiting: list[tuple[str, list[Any]]] = []
        self.piped = False  # inside this module's own pipeline: statements are queued anyway


def _batch_of(connection: BaseDatabaseWrapper) -> _Batch | None:
    return getattr(connection, "fastsql_batch", None)


@contextlib.contextmanager
def batch() -> Iterator[None]:
    """Inside (and inside a transaction), on PostgreSQL, the statements whose results nobody
    reads (`later`, and `update` and `insert(key=False)`) wait, and go with the next statement
    sent, in one round trip (psycopg's pipeline mode); those still waiting at the end go
    together then. A statement's error is raised by the statement it went with, or at the end.
    Elsewhere (SQLite: a library call, not a round trip; the stock path) every statement runs
    at once, as outside."""
    connection = current_connection()
    if STOCK or connection.vendor != "postgresql" or not connection.in_atomic_block:
        yield
        return
    state = _Batch()
    connection.fastsql_batch = state  # type: ignore[attr-defined]
    try:
        with connection.execute_wrapper(functools.partial(_with_waiting, state)):
            yield
            with _pipeline(connection):
                pass
    finally:
        connection.fastsql_batch = None  # type: ignore[attr-defined]


def _with_waiting(
    state: _Batch, execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    """Every statement sent through Django inside a batch takes the waiting ones along."""
    if state.piped or not state.waiting:
        return execute(sql, params, many, context)
    with _pipeline(context["connection"]):
        return execute(sql, params, many, context)


@contextlib.contextmanager
def _pipeline(connection: BaseDatabaseWrapper) -> Iterator[None]:
    """Inside, statements sent are queued behind the waiting ones; all go (one round trip) and
    their results are in their cursors when the block ends. Outside a batch: nothing."""
    state = _batch_of(connection)
    if state is None or state.piped:
        yield
        return
    connection.ensure_connection()
    waiting, state.waiting = state.waiting, []
    # Through Django's cursor, as every statement (its execute wrappers see them); left open
    # until the pipeline has synced, which fills it.
    cursor = connection.cursor()
    state.piped = True
    try:
        with connection.wrap_database_errors, connection.connection.pipeline():
            for sql, params in waiting:
                cursor.execute(sql, params)
            yield
    finally:
        state.piped = False
        cursor.close()


def later(sql: str, params: list[Any] | None = None) -> None:
    """Run `sql`, whose result nobody reads: inside a batch it waits for the next statement."""
    connection = current_connection()
    state = _batch_of(connection)
    if state is not None and not state.piped:
        state.waiting.append((sql, params or []))
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def read_pair(
    model: type[M], other: type[N], join: str, where: str, params: list[Any]
) -> tuple[M, N] | None:
    """One row of `model` with the row of `other` it joins (`join`: the ON condition), in one
    statement, or None. For databases where one query is cheaper than a lock, then a read."""
    if STOCK:
        fields = model._meta.concrete_fields
        link = next(f.name for f in fields if getattr(f, "related_model", None) is other)
        rows = model._default_manager.select_related(link)
        rows = rows.extra(where=[where], params=params)  # noqa: S610
        found = rows.first()
        return None if found is None else (found, getattr(found, link))
    found = read_pair_with(model, other, join, where, params, ("", ""))
    return None if found is None else (found[0], found[1])


def read_pair_with(
    model: type[M], other: type[N], join: str, where: str, params: list[Any], more: tuple[str, str]
) -> tuple[M, N, tuple[Any, ...]] | None:
    """`read_pair`, and in the same statement the values of more expressions (`more`: the
    columns after the two rows', then the joins after the pair's, their parameters first in
    `params`), as read; or None. The ORM's own path (STOCK) has no such statement: the caller
    asks its questions one by one there."""
    connection = current_connection()
    sql, names, converters, other_names, other_converters = _select_pair(
        model, other, join, where, connection.vendor, more
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    split = len(names)
    end = split + len(other_names)
    return (
        _row(model, connection.alias, names, converted(row[:split], converters, connection)),
        _row(
            other,
            connection.alias,
            other_names,
            converted(row[split:end], other_converters, connection),
        ),
        tuple(row[end:]),
    )


@cache
def _select_pair(
    model: type[models.Model],
    other: type[models.Model],
    join: str,
    where: str,
    vendor: str,
    more: tuple[str, str] = ("", ""),
) -> tuple[str, list[str], list[Any], list[str], list[Any]]:
    connection = current_connection()
    quote = connection.ops.quote_name
    columns, names, converters = select_columns(model, vendor)
    other_columns, other_names, other_converters = select_columns(other, vendor)
    more_columns, more_joins = more
    sql = (
        f"SELECT {columns}, {other_columns}{', ' if more_columns else ''}{more_columns} "  # noqa: S608
        f"FROM {quote(model._meta.db_table)} JOIN {quote(other._meta.db_table)} ON {join}"
        f"{' ' if more_joins else ''}{more_joins} WHERE {where}"
    )
    return sql, names, converters, other_names, other_converters


def loaded_copy(value: Any) -> Any:
    """A value as read, kept to find which fields a save writes: a JSON list or dict of scalars
    copied shallowly (a change in place to the row's value leaves it as read), a nested one
    deeply. Deep-copying every JSON field was a tenth of an HP tap's work."""
    if type(value) is dict and _SCALARS.issuperset(map(type, value.values())):
        return value.copy()
    if type(value) is list and _SCALARS.issuperset(map(type, value)):
        return value.copy()
    return copy.deepcopy(value) if isinstance(value, dict | list) else value


# What JSON holds that cannot change in place.
_SCALARS = frozenset({str, int, float, bool, type(None)})


def converted(row: Any, converters: list[Any], connection: BaseDatabaseWrapper) -> list[Any]:
    values = []
    for value, (col, funcs) in zip(row, converters, strict=True):
        for func in funcs:
            value = func(value, col, connection)
        values.append(value)
    return values


def update(instance: models.Model, names: list[str]) -> None:
    """`instance.save(update_fields=names)`, as one UPDATE."""
    if STOCK:
        instance.save(update_fields=names)
        return
    connection = current_connection()
    sql, fields = _update(type(instance), tuple(names), connection.vendor)
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    later(sql, [*values, instance.pk])


@cache
def _update(
    model: type[models.Model], names: tuple[str, ...], vendor: str
) -> tuple[str, list[Any]]:
    quote = current_connection().ops.quote_name
    meta = model._meta
    fields = [meta.get_field(name) for name in names]
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"  # noqa: S608
    return sql, fields


def insert(instance: M, *, key: bool = True) -> M:
    """`instance.save()` of a new row, as one INSERT; sets its primary key. With `key=False`
    the caller has no use for the key: PostgreSQL is not asked for it, so inside `batch()`
    the INSERT waits for the batch's end instead of making a round trip of its own (the key
    stays None there)."""
    if STOCK:
        instance.save(force_insert=True)
        return instance
    connection = current_connection()
    returning = key and connection.features.can_return_columns_from_insert
    sql, fields = _insert(type(instance), connection.vendor, returning)
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    if not returning and connection.vendor == "postgresql":
        later(sql, values)  # PostgreSQL was not asked for the key (key=False)
        pk = None
    else:
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


@cache
def _insert(model: type[models.Model], vendor: str, returning: bool) -> tuple[str, list[Any]]:
    connection = current_connection()
    quote = connection.ops.quote_name
    meta = model._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "  # noqa: S608
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    if returning:
        sql += f" RETURNING {quote(meta.pk.column)}"
    return sql, fields
