"""docs/threats.md items on the HTTP side: caching, tokens, guessing, errors and logs, XSS,
oversized requests and the deployment settings."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings

from companion import models
from companion.infra.logs import redact
from companion.models import Seat
from tests.support.factories import make_table, other_token
from tests.web.test_views import csrf_client, csrf_post, htmx_post

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def private_urls(table: models.Table, seat: Seat) -> list[str]:
    return [f"/p/{seat.token}/", f"/h/{table.host_token}/"]


# docs/threats.md 4 -------------------------------------------------------------------------------


def test_private_responses_are_not_cached_and_vary() -> None:
    table, seats = make_table(4, deal=True)
    client = Client()
    for url in private_urls(table, seats[0]):
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(url, **headers)
            assert response.status_code == 200
            assert response["Cache-Control"] == "no-store, private"
            vary = {v.strip() for v in response["Vary"].split(",")}
            assert {"Cookie", "HX-Request"} <= vary
    page = client.get(f"/p/{seats[0].token}/").content.decode()
    assert 'hx-history="false"' in page
    # Error answers reached by a token are private too.
    response = htmx_post(csrf_client(), f"/p/{seats[1].token}/act/deal")
    assert response["Cache-Control"] == "no-store, private"


# docs/threats.md 6 -------------------------------------------------------------------------------


def test_tokens_are_long_random_and_unrelated_to_seat_or_time() -> None:
    table, seats = make_table(10)
    tokens = [s.token for s in seats] + [table.host_token]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token)
        assert len(token) * 6 >= 128
    # No shared prefix or suffix between seats joined one after another.
    assert len({t[:4] for t in tokens}) == len(tokens)
    assert len({t[-4:] for t in tokens}) == len(tokens)


def test_tokens_come_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = Counter()
    import secrets

    real = secrets.token_urlsafe

    def spy(n: int | None = None) -> str:
        calls["token_urlsafe"] += 1
        assert n is not None and n * 8 >= 128
        return real(n)

    monkeypatch.setattr(models.secrets, "token_urlsafe", spy)
    make_table(4)
    assert calls["token_urlsafe"] >= 5


def test_token_characters_look_uniform() -> None:
    # 400 tokens x 32 characters over 64 symbols: a chi-square check on the alphabet.
    counts = Counter("".join(models.new_token() for _ in range(400)))
    total = sum(counts.values())
    expected = total / 64
    chi2 = sum(
        (counts.get(c, 0) - expected) ** 2 / expected
        for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    )
    # 63 degrees of freedom, p = 1e-6: 131.7 (at p = 0.001 a fair generator failed one run in
    # a thousand, as it did once in the suite's second pass)
    assert chi2 < 131.7


def same(response) -> str:
    """A response body with its per-response CSRF token masked."""
    return re.sub(r"[A-Za-z0-9]{64}", "CSRF", response.content.decode())


def test_bad_tokens_all_answer_the_same_404() -> None:
    table, seats = make_table(4)
    other, other_seats = make_table(4)
    client = Client()
    missing = client.get("/p/" + "A" * 32 + "/")
    wrong = client.get(f"/p/{other_token(seats[0].token)}/")
    short = client.get("/p/abc/")
    assert missing.status_code == wrong.status_code == short.status_code == 404
    assert same(missing) == same(wrong) == same(short)
    # Another table's host acting on this table's seat: the same 404 page, nothing changes.
    response = htmx_post(csrf_client(), f"/h/{other.host_token}/act/remove", {"seat": seats[0].pk})
    plain = htmx_post(csrf_client(), "/h/" + "B" * 32 + "/act/remove", {"seat": seats[0].pk})
    assert response.status_code == plain.status_code == 404
    assert same(response) == same(plain)
    assert Seat.objects.filter(pk=seats[0].pk).exists()


def test_table_code_never_opens_a_private_page() -> None:
    table, _ = make_table(4)
    client = Client()
    assert client.get(f"/p/{table.code}/").status_code == 404
    assert client.get(f"/h/{table.code}/").status_code == 404
    display = client.get(f"/t/{table.code}/")
    assert display.status_code == 200 and 'id="host-panel"' not in display.content.decode()


@pytest.mark.backend
def test_repeated_failures_are_throttled() -> None:
    table, seats = make_table(4)
    client = Client()
    statuses = [
        client.get(f"/p/{'C' * 31}{i % 10}/").status_code
        for i in range(settings.BAD_TOKEN_LIMIT_PER_MINUTE + 5)
    ]
    assert statuses[0] == 404
    assert statuses[-1] == 429
    assert statuses.count(404) == settings.BAD_TOKEN_LIMIT_PER_MINUTE
    # The throttle also covers guessed table codes; another client is not affected.
    assert client.get("/join/", {"code": "QQQQQ"}).status_code == 429
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.get(f"/p/{seats[0].token}/").status_code == 200


def test_token_pages_send_no_referrer() -> None:
    table, seats = make_table(4)
    for url in private_urls(table, seats[0]):
        assert Client().get(url)["Referrer-Policy"] == "no-referrer"


# docs/threats.md 9 and 10 ------------------------------------------------------------------------


def test_csp_forbids_inline_script_and_pages_have_none() -> None:
    table, seats = make_table(4, deal=True)
    for url in [
        "/",
        f"/t/{table.code}/",
        f"/p/{seats[0].token}/",
        f"/h/{table.host_token}/",
        f"/j/{table.code}/",
    ]:
        response = Client().get(url)
        csp = response["Content-Security-Policy"]
        script_src = re.search(r"script-src ([^;]*)", csp).group(1)
        assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
        assert "'self'" in script_src
        body = response.content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)", body), url
        assert not re.search(r"\son[a-z]+=", body), url
        assert " style=" not in body


def test_allowed_hosts_never_wildcard() -> None:
    assert "*" not in settings.ALLOWED_HOSTS
    assert all(h.strip() for h in settings.ALLOWED_HOSTS)


@pytest.mark.parametrize(
    "name",
    [
        "<img src=x>",
        '" hx-post="/r',
        "<div id=x>",
        "<script>",
        "&amp;'\"",
    ],
)
def test_hostile_names_are_escaped_everywhere(name: str) -> None:
    table, seats = make_table(3)
    client = csrf_client()
    client.get(f"/j/{table.code}/")
    response = csrf_post(client, f"/j/{table.code}/", {"name": name})
    assert response.status_code == 303
    seat = Seat.objects.get(table=table, name=name)
    from companion import actions
    from companion.live import broadcast

    actions.identities_deal(token=table.host_token)
    seat.refresh_from_db()
    pages = [
        Client().get(f"/t/{table.code}/").content.decode(),
        Client().get(f"/p/{seat.token}/").content.decode(),
        Client().get(f"/p/{seat.token}/", HTTP_HX_REQUEST="true").content.decode(),
        Client().get(f"/h/{table.host_token}/").content.decode(),
        broadcast.snapshot(table, seat=seat, is_host=True, lang="en"),
    ]
    for body in pages:
        assert name not in body
        assert "&lt;" in body or "&quot;" in body or "&#x27;" in body or "&amp;" in body


@pytest.mark.parametrize(
    "name",
    ["<img src=x onerror=alert(1)>", '<div id="identity" hx-swap-oob="true">', "x" * 10000],
)
def test_long_hostile_names_are_refused_and_echoed_escaped(name: str) -> None:
    table, _ = make_table(3)
    client = csrf_client()
    client.get(f"/j/{table.code}/")
    response = csrf_post(client, f"/j/{table.code}/", {"name": name})
    assert response.status_code == 400
    body = response.content.decode()
    assert "<img src=x" not in body and '<div id="identity"' not in body
    assert len(body) < 20000
    assert not Seat.objects.filter(table=table, name__startswith=name[:5]).exists()


# docs/threats.md 15 (HTTP side) ------------------------------------------------------------------


def test_oversized_and_malformed_requests_are_refused() -> None:
    table, seats = make_table(4)
    client = csrf_client()
    client.get("/")
    token = client.cookies["sgs_csrf"].value
    big = client.post(
        f"/h/{table.host_token}/act/lock",
        {"locked": "1", "junk": "x" * 100_000},
        HTTP_X_CSRFTOKEN=token,
    )
    assert big.status_code == 413
    junk = client.post(
        f"/h/{table.host_token}/act/move",
        data=b"\xff\xfe\x00garbage",
        content_type="application/octet-stream",
        HTTP_X_CSRFTOKEN=token,
    )
    assert junk.status_code in (400, 404)
    table.refresh_from_db()
    assert not table.locked


def _box_file(text: str) -> dict:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return {"file": SimpleUploadedFile("box.json", text.encode(), "application/json")}


HERO = {
    "name_zh": "袁绍",
    "name_en": "Yuan Shao",
    "kingdom": "qun",
    "hp": "4",
    "gender": "male",
    "skill_name_0": "乱击",
    "skill_text_0": "你可以将两张花色相同的手牌当万箭齐发使用。",
}


def _box_json(**hero: str) -> str:
    added = [{"id": "ADD001", **{k: v for k, v in HERO.items() if "_0" not in k}, "hp": 4}]
    added[0]["skills"] = [{"name": "乱击", "text": "你可以将两张花色相同的手牌当万箭齐发使用。"}]
    added[0].update(hero)
    return json.dumps({"format": "sanguosha-box", "version": 1, "added": added})


@pytest.mark.backend
@pytest.mark.parametrize(
    ("kind", "data", "message"),
    [
        # Nested thousands deep, the whole file or inside `added`: refused, no RecursionError.
        ("import", _box_file("[" * 3000 + "]" * 3000), "The file is not a hero box of this app."),
        (
            "import",
            _box_file(
                '{"format": "sanguosha-box", "version": 1, "added": '
                + "[" * 3000
                + "]" * 3000
                + "}"
            ),
            "The file is not a hero box of this app.",
        ),
        # NUL (PostgreSQL keeps none; SQLite would) and half a surrogate pair, in a file...
        ("import", _box_file(_box_json(name_zh="袁绍\u0000")), "cannot be saved"),
        (
            "import",
            _box_file(_box_json(skills=[{"name": "乱击", "text": "x\u0000y"}])),
            "cannot be saved",
        ),
        ("import", _box_file(_box_json(name_en="\udc00")), "cannot be saved"),
        # ... and in every field of the add form.
        ("add", {**HERO, "name_zh": "袁绍\x00"}, "cannot be saved"),
        ("add", {**HERO, "name_en": "Yuan\x00Shao"}, "cannot be saved"),
        ("add", {**HERO, "skill_name_0": "乱\x00击"}, "cannot be saved"),
        ("add", {**HERO, "skill_text_0": "\x00"}, "cannot be saved"),
    ],
)
def test_hostile_box_input_is_refused_with_the_pages_message(
    kind: str, data: dict, message: str
) -> None:
    table, _seats = make_table(4)
    client = Client(raise_request_exception=True)
    client.cookies["sgs_lang"] = "en"
    response = client.post(f"/h/{table.host_token}/box/{kind}", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    table.refresh_from_db()
    assert table.session_id is None or models.Session.objects.get(pk=table.session_id).box in (
        {},
        {"format": "sanguosha-box", "version": 1, "standard_off": [], "added": []},
    )


@pytest.mark.backend
@pytest.mark.parametrize("text", ["\x00", "WEI001\x00"])
def test_a_typed_text_no_database_keeps_is_refused_in_a_tap_and_a_name(text: str) -> None:
    """One rule for every typed text (rules.typed), whatever the database."""
    table, seats = make_table(5, deal=True)
    client = csrf_client()
    htmx_post(client, f"/h/{table.host_token}/act/start")
    lord = Seat.objects.get(table=table, identity="lord")
    answer = htmx_post(client, f"/p/{lord.token}/act/pick", {"hero": text})
    assert answer.status_code == 400
    lobby, _seats = make_table(2)
    client.get(f"/j/{lobby.code}/")
    joined = csrf_post(client, f"/j/{lobby.code}/", {"name": f"Ann{text}"})
    assert joined.status_code == 400
    assert Seat.objects.filter(table=lobby).count() == 2


# docs/threats.md 5 -------------------------------------------------------------------------------


def test_logs_never_hold_tokens_or_identities(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    table, seats = make_table(6, deal=True)
    client = csrf_client()
    client.get(f"/p/{seats[0].token}/")
    client.get(f"/p/{seats[0].token[:-1]}x/")  # a 404 that Django logs with its path
    htmx_post(client, f"/p/{seats[1].token}/act/deal")  # a 403 that Django logs
    htmx_post(client, f"/h/{table.host_token}/act/start")
    logging.getLogger("django.request").warning("Not Found: /p/%s/", seats[2].token)
    text = "\n".join(
        f"{r.getMessage()} {r.exc_text or ''} {getattr(r, 'request', '')}" for r in caplog.records
    )
    assert caplog.records, "the flow must have logged something for this test to mean anything"
    for seat in Seat.objects.filter(table=table):
        assert seat.token not in text
        assert seat.token[:-1] not in text
    assert table.host_token not in text
    for word in ("loyalist", "rebel", "renegade", "忠臣", "反贼", "内奸"):
        assert word not in text


def test_redact_masks_token_shaped_runs_only() -> None:
    token = models.new_token()
    assert redact(f"GET /p/{token}/ 404") == "GET /p/[redacted]/ 404"
    assert redact("GET /t/ABCDE/ 200") == "GET /t/ABCDE/ 200"


@override_settings(DEBUG=False)
def test_server_error_page_shows_no_token_or_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    table, seats = make_table(4, deal=True)
    from companion.web.views import table as views

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError(f"boom {seats[1].token} {seats[1].identity}")

    monkeypatch.setattr(views, "public_state", boom)
    client = Client(raise_request_exception=False)
    response = client.get(f"/p/{seats[0].token}/")
    assert response.status_code == 500
    body = response.content.decode()
    for seat in seats:
        assert seat.token not in body
    assert "boom" not in body and "Traceback" not in body


# docs/threats.md 17 ------------------------------------------------------------------------------


def test_deploy_check_passes_on_production_settings(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "HTTPS": "1",
        "SECRET_KEY": "k" + "x7Q-" * 16,
        "ALLOWED_HOSTS": "sgs.example.org",
        "DATA_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "companion.settings",
    }
    env.pop("DEBUG", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_embedded_default_needs_no_environment(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DB", "REDIS_URL", "SECRET_KEY"}}
    env |= {"DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "companion.settings"}
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], "
        "len(s.SECRET_KEY))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    engine, layer, key_length = out.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert layer == "companion.live.layers.LeanInMemoryChannelLayer"
    assert int(key_length) >= 50
    assert (tmp_path / "secret_key").exists()


def test_environment_switches_to_postgres_and_redis(tmp_path: Path) -> None:
    env = {**os.environ, "DB": "postgres", "DB_NAME": "x", "REDIS_URL": "redis://127.0.0.1:6379/0"}
    env |= {"DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "companion.settings"}
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.stdout.split() == [
        "django.db.backends.postgresql",
        "companion.live.layers.LeanRedisPubSubChannelLayer",
    ]
    bad = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env={**env, "DEBUG": "maybe"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0 and "DEBUG must be a boolean" in bad.stderr


def test_a_phones_first_load_is_small_and_takes_four_requests() -> None:
    """At most 40 KB compressed over the wire, in at most 4 requests (static files as
    `collectstatic` serves them: ours minified, companion/infra/staticstorage.py)."""
    import gzip
    import re as _re

    from django.contrib.staticfiles import finders

    from companion.infra.staticstorage import minify

    table, seats = make_table(8, deal=True)
    response = Client().get(f"/p/{seats[0].token}/", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    page = gzip.decompress(response.content).decode()
    assets = _re.findall(r'(?:src|href)="/static/([^"]+)"', page)
    assert len(assets) + 1 <= 4, assets
    total = len(response.content)
    for asset in assets:
        path = finders.find(asset.split("?")[0])
        with open(path, "rb") as handle:
            served = minify(asset.split("?")[0], handle.read().decode()).encode()
        total += len(gzip.compress(served, 9))
    assert total <= 40 * 1024, total


def test_served_css_and_js_are_minified_and_vendored_files_left_alone(tmp_path, settings) -> None:
    """collectstatic minifies our own CSS and JS (no comments reach a phone), hashes the
    minified copy, and leaves the vendored htmx byte for byte."""
    from django.core.management import call_command

    from companion.infra.staticstorage import JOINED, joined_text

    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "companion.infra.staticstorage.MinifiedManifestStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    source = Path(settings.STATICFILES_DIRS[0])
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    for name in ("js/live.js", "css/app.css"):
        served = (tmp_path / manifest[name]).read_text()
        original = joined_text(name) if name in JOINED else (source / name).read_text()
        assert "/*" in original and "/*" not in served
        assert len(served) < 0.85 * len(original)
        assert (tmp_path / (manifest[name] + ".gz")).exists()
    vendored = next(n for n in manifest if n.startswith("vendor/") and n.endswith(".js"))
    assert (tmp_path / manifest[vendored]).read_bytes() == (source / vendored).read_bytes()
