"""A phone asked "Are you 张三 of 周五三国杀?" in a real browser: the host imports the group (the
12 evenings of tests/groups/support.py, 张三 among them) and attaches the evening; 张三's phone,
open already, shows the question in its own section at once (its private frame), another phone
never does; 张三 answers "是" and the question goes, for good. No page fetches the question
(group/ask takes the answer only)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Request, expect

from tests.browser.conftest import ContextFactory, screenshot
from tests.browser.tables import HEADER_CSRF_RE, deal, join, open_table
from tests.browser.test_group_page import group_file

pytestmark = [pytest.mark.browser]


def test_a_phone_sees_the_question_in_its_own_section_and_answers_it(
    app_server, new_phone: ContextFactory
) -> None:
    table = open_table(app_server.base_url)
    # 张三 on a phone the group has not seen (matched by name: asked), three newcomers.
    zhang = join(table, "张三")
    other = join(table, "小王")
    for name in ("小李", "小赵"):
        join(table, name)
    deal(table)  # a group is chosen once the evening's first game is dealt
    csrf = HEADER_CSRF_RE.search(table.host.page())
    assert csrf
    content = json.dumps(group_file(), ensure_ascii=False).encode()
    _url, html = table.host.post_file(
        table.host.url + "group/import", "file", content, csrf.group(1)
    )
    link = re.search(r'href="(/g/[A-Za-z0-9_-]+/)"', html)
    assert link, html[:600]

    fetched: list[str] = []

    def note(request: Request) -> None:
        if "/group/" in request.url:
            fetched.append(f"{request.method} {request.url}")

    pages = {}
    for seat in (zhang, other):
        page = new_phone().new_page()
        page.on("request", note)
        page.goto(seat.device.url)
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")
        expect(page.locator("#my-seat")).to_be_visible()
        pages[seat.name] = page
    asked, not_asked = pages["张三"], pages["小王"]
    expect(asked.locator(".group-ask")).to_have_count(0)

    # The host attaches the evening: 张三's phone is asked, without a reload.
    table.host.post(table.host.url + "group/attach", {"link": link.group(1)}, csrf.group(1))
    question = asked.locator("#my-seat #group-ask")
    expect(question).to_be_visible()
    expect(question).to_contain_text("你是周五三国杀的张三吗？")
    screenshot(asked, "group-ask-phone")
    expect(not_asked.locator("#my-seat")).to_be_visible()
    expect(not_asked.locator(".group-ask")).to_have_count(0)
    _url, panel = table.host.get(table.host.url + "group/")
    assert "等待手机确认" in panel  # the host's panel: 张三's phone is being asked
    # 张三 answers; the question goes, and stays gone after a reload.
    question.get_by_role("button", name="是", exact=True).click()
    expect(asked.locator(".group-ask")).to_have_count(0)
    _url, panel = table.host.get(table.host.url + "group/")
    assert "等待手机确认" not in panel  # the host's panel: no phone is being asked
    asked.reload()
    expect(asked.locator("#conn")).to_have_attribute("data-state", "open")
    expect(asked.locator("#my-seat")).to_be_visible()
    expect(asked.locator(".group-ask")).to_have_count(0)
    # No page ever fetched the question: the one request to the group is 张三's answer.
    assert [f.split(" ")[0] for f in fetched] == ["POST"], fetched
    assert fetched[0].endswith(f"{zhang.device.url}group/ask"), fetched
