"""The memory page in a real headless chromium: what a user sees and does, on a data dir the CLI filled.

One ``memory-agent ui`` and one browser for the module. The facts come from real
``memory-agent chat`` sessions (scripted chat model, hash embeddings): Paris then
Berlin, vegetarian, an XSS canary as the sister's name, and a rule left waiting
for review (the chat's stdin ends at the review question).
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_run import FAST, export, run_cli
from tests.support.ui_browser import chromium, shot, ui_server

pytestmark = pytest.mark.slow  # starts `memory-agent ui` and a browser

CANARY = '<script>document.title="pwned"</script>"><img src=x onerror=alert(1)>'
SESSION_1 = ["I live in Paris.", "I am vegetarian.", f"My sister is called {CANARY} Anna.", "/end"]
SESSION_2 = ["I moved to Berlin, I live in Berlin now.", "/end"]
FEEDBACK = ["From now on, please be more concise."]


def _chat(data: Path, when: str, thread: str, lines: list[str], *flags: str) -> None:
    done = run_cli(data, *FAST, "--now", when, *flags, "chat", "--user", "alice", "--thread", thread,
                   stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    work = tmp_path_factory.mktemp("ui")
    data = work / "data"
    _chat(data, "2026-03-01T10:00:00", "t1", SESSION_1)
    _chat(data, "2026-03-05T10:00:00", "t2", SESSION_2)
    _chat(data, "2026-03-06T10:00:00", "t3", FEEDBACK, "--set", "review_rules=true")
    for day in ("2026-03-02", "2026-03-07"):
        done = run_cli(data, *FAST, "--now", f"{day}T12:00:00", "upkeep", "--user", "alice", "--no-progress")
        assert done.returncode == 0, done.stderr[-2000:]
    downloads = work / "downloads"
    downloads.mkdir()
    with ui_server(data, "alice") as url, chromium(downloads) as web:
        yield {"url": url, "web": web, "data": data, "downloads": downloads}


def _open(page: dict[str, Any], path: str) -> Any:
    web = page["web"]
    web.get(page["url"] + path)
    return web


def _shown(web: Any, element_id: str) -> str:
    """The text of the element ``element_id`` once the page that has it has loaded (after a click)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.wait import WebDriverWait

    return str(WebDriverWait(web, 20).until(ready.presence_of_element_located((By.ID, element_id))).text)


def _texts(web: Any, css: str) -> list[str]:
    from selenium.webdriver.common.by import By

    return [e.text for e in web.find_elements(By.CSS_SELECTOR, css)]


def test_profile_and_facts_with_their_sources(page: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    web = _open(page, "/")
    profile = " ".join(_texts(web, "#profile li"))
    assert "The user lives in Berlin." in profile and "since 2026-03-05" in profile
    assert "before: Paris (until 2026-03-05)" in profile
    assert any("vegetarian" in t for t in _texts(web, "#profile .text"))
    shot(web, "profile")
    fact = next(e for e in web.find_elements(By.CSS_SELECTOR, "#facts li") if "sister" in e.text)
    fact.find_element(By.CSS_SELECTOR, "a.source").click()
    assert "Anna" in _shown(web, "message-text")
    assert web.find_element(By.CSS_SELECTOR, "dd.role").text == "user"


def test_an_xss_canary_renders_as_inert_text(page: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    for path in ("/", "/list/facts", "/list/messages?q=sister", "/why?q=What+is+my+sister+called%3F"):
        web = _open(page, path)
        assert any("<script>" in t and "onerror=alert(1)" in t for t in _texts(web, ".text, #message-text")), path
        assert web.find_elements(By.TAG_NAME, "script") == [], path
        assert web.find_elements(By.CSS_SELECTOR, "img") == [], path
        assert web.title != "pwned", path


def test_why_this_answer_shows_the_recall_and_the_prompt(page: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    web = _open(page, "/why")
    box = web.find_element(By.NAME, "q")
    box.send_keys("What is my sister called?")
    box.submit()
    prompt = _shown(web, "prompt")
    rows = _texts(web, "tr.recalled-item")
    assert any("sister" in r and "fact" in r for r in rows), rows
    assert web.find_elements(By.CSS_SELECTOR, "tr.recalled-item .bar.rel")
    assert "sister" in prompt and "Current date:" in prompt
    assert "of 800 tokens" in _shown(web, "budget")
    shot(web, "why-this-answer")


def test_correcting_a_profile_value_keeps_its_history(page: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.wait import WebDriverWait

    web = _open(page, "/")
    row = next(e for e in web.find_elements(By.CSS_SELECTOR, "#profile li") if "Berlin" in e.text)
    field = row.find_element(By.CSS_SELECTOR, "form.correct input[name=text]")
    field.send_keys("I live in Munich.")
    field.submit()
    WebDriverWait(web, 20).until(lambda w: "corrected=" in w.current_url)
    profile = " ".join(_texts(web, "#profile li"))
    assert "The user lives in Munich." in profile
    assert "Berlin (until" in profile and "Paris (until 2026-03-05)" in profile


def test_approving_a_pending_rule_saves_it(page: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    web = _open(page, "/reviews")
    assert any("concise" in t for t in _texts(web, "li.review")), web.page_source[-1500:]
    web.find_element(By.CSS_SELECTOR, "li.review button.approve").click()
    assert "rule saved" in _shown(web, "done")
    assert any("concise" in t for t in _texts(_open(page, "/list/rules"), "li .text"))
    assert not _texts(_open(page, "/reviews"), "li.review")


def test_the_export_downloads(page: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    web = _open(page, "/")
    web.find_element(By.ID, "export").click()
    target = page["downloads"] / "memory-export.json"
    for _ in range(100):
        if target.exists() and target.stat().st_size:
            break
        time.sleep(0.1)
    data = json.loads(target.read_text())
    assert data["user_id"] == "alice" and any("sister" in f["text"] for f in data["facts"])


def test_upkeep_shows_the_last_pass_and_a_plot(page: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    web = _open(page, "/upkeep")
    assert "2026-03-07" in _shown(web, "last-pass")
    assert any(s.startswith("merge") for s in _texts(web, "ul.steps li"))
    line = web.find_element(By.CSS_SELECTOR, "svg.plot polyline.memories").get_attribute("points")
    assert len(line.split()) == 2
    shot(web, "upkeep")


def test_the_consent_switch_turns_memory_off_and_on_and_keeps_everything(page: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    before = export(page["data"], "alice")
    web = _open(page, "/")
    web.find_element(By.ID, "consent").click()
    assert _shown(web, "done") == "long-term memory off"
    assert _open(page, "/").find_element(By.ID, "memory-state").text == "off"
    assert "Long-term memory is off" in _shown(_open(page, "/why?q=where+do+I+live"), "memory-off")
    web = _open(page, "/")
    web.find_element(By.ID, "consent").click()
    assert _shown(web, "done") == "long-term memory on"
    after = export(page["data"], "alice")
    assert after["profile"] == before["profile"] and after["facts"] == before["facts"]


def test_the_switch_flipped_while_a_consolidation_waits_loses_nothing(page: dict[str, Any]) -> None:
    import subprocess
    import sys

    from selenium.webdriver.common.by import By

    from tests.support.cli_run import cli_env

    before = export(page["data"], "alice")
    cmd = [sys.executable, "-m", "app.cli", "--data-dir", str(page["data"]), *FAST, "chat", "--user", "alice",
           "--thread", "t-consent"]
    chat = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**cli_env(), "MEMORY_CONSOLIDATION_DELAY_S": "30"}, cwd=page["data"].parent)
    assert chat.stdin is not None and chat.stdout is not None
    chat.stdin.write("I work as a nurse.\n")
    chat.stdin.flush()
    while "agent>" not in chat.stdout.readline():  # answered; its consolidation waits (30 s, or /end)
        pass
    web = _open(page, "/")
    web.find_element(By.ID, "consent").click()
    assert _shown(web, "done") == "long-term memory off"
    out, err = chat.communicate("/end\n", timeout=120)
    assert chat.returncode == 0, err[-2000:]
    after = export(page["data"], "alice")
    assert after["memory_enabled"] is False
    def kept(data: dict[str, Any]) -> list[str]:  # the turn may mark a record (a review asked): texts count
        return sorted(e["text"] for e in [*data["profile"]["current"], *data["facts"]])

    assert set(kept(before)) <= set(kept(after))  # nothing lost (what the waiting turn said is not asserted)
    web = _open(page, "/")
    web.find_element(By.ID, "consent").click()
    assert _shown(web, "done") == "long-term memory on"


def _post(url: str, fields: dict[str, str], cookie: str = "") -> tuple[int, str]:
    req = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode(), method="POST",
                                 headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def test_a_forget_post_without_the_csrf_token_is_refused(page: dict[str, Any]) -> None:
    status, body = _post(page["url"] + "/forget", {"text": "vegetarian"})
    assert status == 403 and "CSRF" in body
    status, _ = _post(page["url"] + "/forget", {"text": "vegetarian", "csrf": "forged"}, "memory_session=other")
    assert status == 403
    assert any("vegetarian" in p["text"] for p in export(page["data"], "alice")["profile"]["current"])


def test_bad_input_gets_one_clear_line(page: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    web = _open(page, "/list/facts?q=" + "x" * 5000)
    assert "search text too long" in _shown(web, "error")
    web = _open(page, "/message/no-such-id")
    assert "no message" in _shown(web, "error")
    web = _open(page, "/list/secrets")
    assert "unknown list" in _shown(web, "error")
    web = _open(page, "/")  # a forged item key in the forget form
    button = web.find_element(By.CSS_SELECTOR, "#facts button.forget-item")
    key = button.find_element(By.XPATH, "..").find_element(By.NAME, "key")
    web.execute_script("arguments[0].value = 'users.bob.facts.x'", key)
    button.click()
    assert "no fact item 'users.bob.facts.x' in your memory" in _shown(web, "error")


def test_forget_a_fact_with_confirmation_and_its_bytes_are_gone(page: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    web = _open(page, "/")
    row = next(e for e in web.find_elements(By.CSS_SELECTOR, "#profile li") if "vegetarian" in e.text)
    row.find_element(By.CSS_SELECTOR, "button.forget-item").click()
    assert "item(s) match" in _shown(web, "forget-count")
    assert any("vegetarian" in t for t in _texts(web, "li.preview"))
    shot(web, "forget-preview")
    web.find_element(By.ID, "confirm-forget").click()
    assert "deleted" in _shown(web, "done")
    assert not any("vegetarian" in t for t in _texts(_open(page, "/"), ".text"))
    data: Path = page["data"]
    held = [str(p) for p in data.rglob("*") if p.is_file() and b"vegetarian" in p.read_bytes().lower()]
    assert held == []


def test_forget_and_delete_are_rate_limited(page: dict[str, Any]) -> None:
    import http.cookiejar

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    home = opener.open(page["url"] + "/", timeout=30).read().decode()
    token = re.findall(r'name="csrf" value="([^"]+)"', home)[0]
    codes = []
    for _ in range(12):
        body = urllib.parse.urlencode({"csrf": token, "text": "nothing like this was said"}).encode()
        try:
            codes.append(opener.open(page["url"] + "/forget", data=body, timeout=30).status)
        except urllib.error.HTTPError as err:
            codes.append(err.code)
    first = codes.index(429)  # the forget test above spent one of this minute's ten
    assert first >= 9 and set(codes[:first]) == {200} and set(codes[first:]) == {429}
