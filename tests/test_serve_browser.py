"""noughts serve in a real browser: headless Chromium driven by Selenium.

Two browser sessions play a whole game joined by the shared link, with a
spectator watching; one session plays the computer. Needs Debian's
``chromium`` and ``chromium-driver`` (``.ci/run`` installs them); the tests
skip, saying so, where they are missing. With NOUGHTS_SCREENSHOTS=<dir> they
save pictures of the pages there (docs/ keeps a set).
"""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("starlette", reason="the serve extra (Starlette) is not installed")
pytest.importorskip("selenium", reason="Selenium is not installed (pip install selenium)")

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from serve_helpers import start_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
SHOTS = os.environ.get("NOUGHTS_SCREENSHOTS")
WAIT = 60  # seconds a page may take to show something (slow CI machines)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no Chromium here: install Debian's chromium and chromium-driver to run the browser tests",
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = start_server(tmp_path_factory.mktemp("browser") / "tables.sqlite3")
    yield running
    running.stop()


class Browsers:
    """Opens headless Chromium sessions; when the test ends, checks their consoles and closes them."""

    def __init__(self) -> None:
        self.opened: list = []
        self.allowed: list[str] = []

    def __call__(self):
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for arg in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--window-size=1100,900",
        ):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        try:
            driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=str(DRIVER)), options=options)
        except WebDriverException as e:
            pytest.skip(f"Chromium is installed but does not start here: {e.msg}")
        self.opened.append(driver)
        return driver

    def allow(self, text: str) -> None:
        """Console errors containing `text` are expected (a server stopped on purpose)."""
        self.allowed.append(text)

    def close(self) -> None:
        problems = []
        for driver in self.opened:
            # The page must never break the Content-Security-Policy or throw.
            for entry in driver.get_log("browser"):
                if entry["level"] == "SEVERE" and not any(text in entry["message"] for text in self.allowed):
                    problems.append(entry["message"])
            driver.quit()
        assert not problems, problems


@pytest.fixture
def browsers():
    opened = Browsers()
    yield opened
    opened.close()


def wait(driver, condition):
    """Waits for `condition(driver)`; a page redrawn or replaced meanwhile is looked at again.

    While a link is being followed, Chromium may answer a read of an element of the old
    page with a stale reference or with "Node ... does not belong to the document" (a
    plain WebDriverException): both mean "look again"."""
    return WebDriverWait(driver, WAIT, ignored_exceptions=[StaleElementReferenceException, WebDriverException]).until(
        condition
    )


def shot(driver, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        driver.save_screenshot(os.path.join(SHOTS, f"serve-{name}.png"))


def text_of(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def wait_for_number(driver, number):
    wait(driver, lambda d: d.find_element(By.ID, "board").get_attribute("data-number") == str(number))


def click_move(driver, move):
    def clicked(d):
        buttons = d.find_elements(By.CSS_SELECTOR, f'#legal button[data-move="{move}"]')
        if buttons and buttons[0].is_displayed() and buttons[0].is_enabled():
            buttons[0].click()
            return True
        return False

    wait(driver, clicked)


def create_table(driver, server, game="classic", opponent="friend", level=None):
    driver.get(server.url + "/")
    driver.find_element(By.CSS_SELECTOR, f'input[name="game"][value="{game}"]').click()
    driver.find_element(By.CSS_SELECTOR, f'input[name="opponent"][value="{opponent}"]').click()
    if level:
        Select(driver.find_element(By.NAME, "level")).select_by_value(level)
    shot(driver, "create")
    driver.find_element(By.ID, "create-button").click()
    wait(driver, lambda d: "#k=" in d.current_url)
    wait_for_number(driver, 0)


def test_two_browsers_play_a_game_joined_by_the_shared_link(server, browsers):
    alice = browsers()
    create_table(alice, server)
    link = alice.find_element(By.ID, "share-seat").get_attribute("value")
    spectator_link = alice.find_element(By.ID, "share-spectator").get_attribute("value")
    assert "#k=" in link and "#k=" not in spectator_link
    bob, watcher = browsers(), browsers()
    bob.get(link)
    watcher.get(spectator_link)
    for page in (bob, watcher):
        wait_for_number(page, 0)
    assert "you play O" in text_of(bob, "players") and "you are watching" in text_of(watcher, "players")
    # Bob's page never shows Alice's token (nor the spectator's page either).
    alice_token = alice.current_url.split("#k=")[1]
    for page in (bob, watcher):
        assert alice_token not in page.page_source and alice_token not in page.current_url
    assert not watcher.find_elements(By.CSS_SELECTOR, "#legal button")

    moves = ["b2", "a1", "c1", "c3", "a3"]  # X completes c1 b2 a3
    for number, move in enumerate(moves, start=1):
        player = alice if number % 2 else bob
        click_move(player, move)
        for page in (alice, bob, watcher):
            wait_for_number(page, number)
        if number == 3:
            shot(bob, "play")
    for page in (alice, bob, watcher):
        wait(page, lambda d: "X wins" in text_of(d, "outcome"))
    assert "c1 b2 a3" in text_of(watcher, "outcome")
    assert [li.text for li in watcher.find_elements(By.CSS_SELECTOR, "#moves li")] == [
        f"{'XO'[i % 2]} {m}" for i, m in enumerate(moves)
    ]
    shot(alice, "result")

    # Rematch: Bob asks, and both follow the link to the new table with colours swapped.
    bob.find_element(By.ID, "rematch").click()
    wait(bob, lambda d: "you play X" in text_of(d, "players"))
    wait(alice, lambda d: d.find_elements(By.ID, "rematch-go"))
    alice.find_element(By.ID, "rematch-go").click()
    wait(alice, lambda d: "you play O" in text_of(d, "players"))
    click_move(bob, "a1")
    wait_for_number(alice, 1)


def test_a_browser_plays_the_computer_to_the_end(server, browsers):
    page = browsers()
    create_table(page, server, game="quantum", opponent="computer", level="easy")
    assert "computer (easy)" in text_of(page, "players")

    def board_number(d):
        return int(d.find_element(By.ID, "board").get_attribute("data-number"))

    while True:
        # Our turn (the server lists our moves) or the end; the computer's answers arrive live.
        found = wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#legal button") or text_of(d, "outcome"))
        if isinstance(found, str):
            break
        number = board_number(page)
        click_move(page, found[0].get_attribute("data-move"))
        wait(page, lambda d: board_number(d) > number)
        if number >= 4 and SHOTS and not os.path.exists(os.path.join(SHOTS, "serve-quantum.png")):
            shot(page, "quantum")
    assert any(word in text_of(page, "outcome") for word in ("wins", "Draw"))
    record = page.find_element(By.ID, "record").get_attribute("href")
    assert record.endswith("/record")


def test_pages_reconnect_after_a_server_restart_and_play_on(tmp_path, browsers):
    db = tmp_path / "restarted.sqlite3"
    server = start_server(db)
    try:
        alice = browsers()
        create_table(alice, server)
        bob = browsers()
        bob.get(alice.find_element(By.ID, "share-seat").get_attribute("value"))
        wait_for_number(bob, 0)
        click_move(alice, "b2")
        wait_for_number(bob, 1)
        browsers.allow("ERR_CONNECTION_REFUSED")
        server.stop()
        wait(bob, lambda d: "reconnecting" in text_of(d, "connection"))
        server = start_server(db, port=int(server.url.rsplit(":", 1)[1]))
        # Both pages find the server again by themselves and the game goes on.
        for page in (alice, bob):
            wait(page, lambda d: text_of(d, "connection") == "")
        click_move(bob, "a1")
        wait_for_number(alice, 2)
        assert [li.text for li in alice.find_elements(By.CSS_SELECTOR, "#moves li")] == ["X b2", "O a1"]
    finally:
        server.stop()


def test_the_rules_page_switches_language(server, browsers):
    page = browsers()
    page.get(server.url + "/rules/ultimate")
    page.find_element(By.LINK_TEXT, "Ελληνικά").click()
    wait(page, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Ultimate τρίλιζα")
    shot(page, "rules")
