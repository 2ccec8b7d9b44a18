"""Stopping and restarting the server loses nothing (docs/threats.md 14).

The embedded default as users run it (`manage.py play`, SQLite, in-memory layer, one process):
deal and start a game, stop the server, start a new process on the same data, and reconnect
every phone: identities, seat tokens, host rights and the version are unchanged.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import websockets

from bench.servers import free_ports
from tests.live.multiprocess.phones import Browser
from tests.support.aio import run

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.multiprocess


def start(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in {"DB", "REDIS_URL"}}
    env |= {
        "DJANGO_SETTINGS_MODULE": "companion.settings",
        "DATA_DIR": str(data_dir),
        "STATIC_PLAIN": "1",
    }
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "play", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(data_dir / f"server-{port}.log").open("ab"),
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):  # noqa: S310
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("server did not start")


async def first_frame(base: str, token: str) -> str:
    async with websockets.connect(
        f"ws://{base.split('//')[1]}/ws/{token}/", origin=base, open_timeout=10
    ) as ws:
        return str(await asyncio.wait_for(ws.recv(), 10))


def state_of(frame: str) -> dict[str, str]:
    """What a phone shows: version, status, own identity and host rights."""
    version = re.search(r'id="table-state"[^>]*data-version="(\d+)"', frame)
    status = re.search(r'data-status="(\w+)"', frame)
    identity = re.search(r'identity-card[^"]*idn-(\w+)', frame)
    hero = re.search(r'class="take-hero"', frame)
    hp = re.search(r'class="hp-big">(\d+)<small>/(\d+)', frame)
    return {
        "hero": str(bool(hero))
        + (
            re.findall(r'<article class="hero-card[^>]*>.*?lang="zh-CN">([^<]+)', frame, re.S)
            or [""]
        )[-1],
        "hp": "/".join(hp.groups()) if hp else "",
        "version": version.group(1) if version else "",
        "status": status.group(1) if status else "",
        "identity": identity.group(1) if identity else "",
        "host": str('class="host-panel card"' in frame),
    }


def test_restart_keeps_tables_tokens_identities_and_host(tmp_path: Path) -> None:
    port = free_ports(1)[0]
    base = f"http://127.0.0.1:{port}"
    server = start(tmp_path, port)
    try:

        async def before() -> tuple[dict[str, dict[str, str]], str]:
            host = Browser()
            await host.get(base + "/")
            created = await host.post(base + "/new/", {}, origin=base)
            host_token = created.url.rstrip("/").split("/")[-1]
            code = re.search(r'data-code="(\w+)"', created.body).group(1)
            tokens = []
            for name in ["甲", "乙", "丙", "丁", "戊"]:
                phone = Browser()
                await phone.get(f"{base}/j/{code}/")
                joined = await phone.post(f"{base}/j/{code}/", {"name": name}, origin=base)
                tokens.append(joined.url.rstrip("/").split("/")[-1])
            for act, fields in [("deal", {}), ("start", {})]:
                answer = await host.post(
                    f"{base}/h/{host_token}/act/{act}",
                    {**fields, "action_id": secrets.token_hex(8)},
                    origin=base,
                    htmx=True,
                )
                assert answer.status == 204
            # Heroes: the lord picks first, then everyone else; the last pick reveals them all.
            frames = {t: await first_frame(base, t) for t in tokens}
            order = sorted(tokens, key=lambda t: state_of(frames[t])["identity"] != "lord")
            for token in order:
                page = (await Browser().get(f"{base}/p/{token}/")).body
                hero = re.search(r'name="hero" value="(\w+)"', page).group(1)
                phone = Browser()
                await phone.get(f"{base}/p/{token}/")
                picked = await phone.post(
                    f"{base}/p/{token}/act/pick",
                    {"hero": hero, "action_id": secrets.token_hex(8)},
                    origin=base,
                    htmx=True,
                )
                assert picked.status == 204, picked.body[:300]
            seat_ids = [
                re.search(
                    r'data-my-seat="(\d+)"', (await Browser().get(f"{base}/p/{t}/")).body
                ).group(1)
                for t in tokens
            ]
            hit = await host.post(
                f"{base}/h/{host_token}/act/hp",
                {
                    "seat": seat_ids[2],
                    "delta": "-1",
                    "source": seat_ids[1],
                    "action_id": secrets.token_hex(8),
                },
                origin=base,
                htmx=True,
            )
            assert hit.status == 204, hit.body[:300]
            # The first seat becomes host, so host rights live on a seat token.
            seat_id = re.search(
                r'data-my-seat="(\d+)"', (await Browser().get(f"{base}/p/{tokens[0]}/")).body
            )
            answer = await host.post(
                f"{base}/h/{host_token}/act/host",
                {"seat": seat_id.group(1), "action_id": secrets.token_hex(8)},
                origin=base,
                htmx=True,
            )
            assert answer.status == 204
            states = {t: state_of(await first_frame(base, t)) for t in tokens}
            return states, host_token

        states, old_console = run(before())
        assert {s["status"] for s in states.values()} == {"playing"}
        assert sorted(s["identity"] for s in states.values()).count("lord") == 1
        assert [s["host"] for s in states.values()].count("True") == 1
        assert all(s["hero"].startswith("True") for s in states.values())
        assert len({s["hero"] for s in states.values()}) == 5
        assert sorted(
            int(s["hp"].split("/")[0]) < int(s["hp"].split("/")[1]) for s in states.values()
        ) == [False] * 4 + [True]
    finally:
        server.terminate()
        server.wait(timeout=20)

    server = start(tmp_path, port)
    try:

        async def after() -> dict[str, dict[str, str]]:
            return {t: state_of(await first_frame(base, t)) for t in states}

        again = run(after())
        assert again == states
        console = run(Browser().get(f"{base}/h/{old_console}/"))
        assert console.status == 404
    finally:
        server.terminate()
        server.wait(timeout=20)
