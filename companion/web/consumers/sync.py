"""Snapshots and sync: what a socket sends of the table's state besides the relayed frames."""

from __future__ import annotations

import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from django.db import DatabaseError

from companion.actions import NotFound, actor_for
from companion.infra import dbthread, logs
from companion.live import broadcast
from companion.models import Table
from companion.web.consumers.faults import CLOSE_GONE, GONE_FAULTS

log = logging.getLogger(__name__)


class SyncMixin:
    """The state a screen is sent: the whole of it on connect and on `{"type": "sync"}` (or just
    the version, when the screen has it), the frames held until then, and the heartbeat's
    answer with the table's version."""

    @database_sync_to_async
    def _snapshot(self) -> tuple[str, int] | None:
        """Everything this screen shows, with the table version it shows."""
        try:
            if self.token:
                actor = actor_for(self.token)
                if actor.table.code != self.code:
                    return None
                html = broadcast.snapshot(
                    actor.table, seat=actor.seat, is_host=actor.is_host, lang=self.lang
                )
                return html, actor.table.version
            table = Table.objects.get(code=self.code)
            html = broadcast.snapshot(table, seat=None, is_host=False, lang=self.lang)
            return html, table.version
        except (NotFound, Table.DoesNotExist):
            return None

    async def _send_first_state(self) -> None:
        """A socket's first state. The page it was opened from names the version it shows and
        its language (`?v=12&lang=en`): when the table is still at that version, in that
        language, the page holds the current state already and the socket sends only
        `{"type": "current", "version"}` (nothing rendered, nothing the page carried sent
        again). Read after joining the groups: a change committed after this read reaches the
        socket as a frame. Otherwise, the whole state."""
        shown, lang = self.page_shows
        if shown > 0 and lang == self.lang and await self._still_at(shown):
            self.sent_version = max(self.sent_version, shown)
            await self.send(text_data=json.dumps({"type": "current", "version": shown}))
            return
        await self._send_snapshot()

    async def _send_snapshot(self) -> None:
        found = await self._snapshot()
        if found is None:
            await self.close(code=CLOSE_GONE)
            return
        html, version = found
        self.sent_version = max(self.sent_version, version)
        await self.send(text_data=html)

    async def _release_held(self) -> None:
        """After the first state: the frames that waited for it, in order."""
        if self._backlog is not None:
            await self._drain()
        held, self._held = self._held, None
        for event in held or ():
            await self.table_fragment(event)

    async def _resync(self, message: dict[str, Any]) -> None:
        """The whole state again; or, when the screen names the version it has, this socket was
        sent it and the table is still there, just that version (no rendering)."""
        wanted = message.get("version")
        if (
            isinstance(wanted, int)
            and wanted > 0
            and wanted == self.sent_version
            and await self._still_at(wanted)
        ):
            await self.send(text_data=json.dumps({"type": "version", "version": wanted}))
            return
        await self._send_snapshot()

    async def _still_at(self, version: int) -> bool:
        """Whether the table is still at `version` (read on the reading thread, never behind
        taps; False when the database cannot say)."""
        try:
            return await dbthread.read(self._read_version) == version
        except DatabaseError:
            return False

    async def _pong(self) -> None:
        """The heartbeat's answer, at once, whatever this socket is waiting for; then the
        table's version (`{"type": "version"}`, read on the reading thread, not behind taps): a
        phone that missed a frame (a Redis outage, a lost publish) sees it is behind."""
        await self.send(text_data='{"type": "pong"}')
        if not self._reading_version:
            self._reading_version = True
            self._spawn(self._send_version())

    async def _send_version(self) -> None:
        try:
            version = await dbthread.read(self._read_version)
        except DatabaseError as exc:
            logs.expected(log, "version", "table version unavailable for a pong: %r", exc)
            return
        finally:
            self._reading_version = False
        if version is not None:
            try:
                await self.send(text_data=json.dumps({"type": "version", "version": version}))
            except GONE_FAULTS:
                # The phone closed its socket right after its pong: nothing to tell it (this
                # task is nobody's to await, so a fault left here would log its stack).
                return

    def _read_version(self) -> int | None:
        return Table.objects.filter(code=self.code).values_list("version", flat=True).first()
