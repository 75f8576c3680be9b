"""browser.py — headless Debian Chromium driven by Selenium (python3-selenium
and chromium-driver), kept on loopback, with what the console test checks
on every page: console errors, CSP violations, requests to other origins,
form labels, text contrast (contrast.js), and a page no wider than the
screen; and the requests the browser sent (Chromium's network log)."""
import json
import os
import shutil
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# Before any page script: count CSP violations, keep every resource entry.
WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
performance.setResourceTimingBufferSize(10000);
"""

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "contrast.js")) as _f:
    CONTRAST = _f.read()

PHONE = (375, 812)  # the narrowest common phone width, CSS pixels


class Browser:
    def __init__(self, base, width=1280, height=900):
        self.base = base
        self.profile = tempfile.mkdtemp(prefix="parapet-chromium-")
        self.downloads = os.path.join(self.profile, "downloads")
        os.makedirs(self.downloads)
        o = webdriver.ChromeOptions()
        o.binary_location = "/usr/bin/chromium"
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--ignore-certificate-errors", f"--user-data-dir={self.profile}",
                    f"--window-size={width},{height}", "--no-first-run", "--disable-sync",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-default-apps", "--disable-extensions", "--metrics-recording-only",
                    # nothing leaves the machine: every name but 127.0.0.1 fails
                    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"):
            o.add_argument(arg)
        o.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        self.d = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=o)
        self.d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
        self.d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow",
                                                               "downloadPath": self.downloads})
        self.errors = []
        self.requests = []  # (url, resource type, request headers) of every request sent
        self.allowed = []  # (substring, reason): console errors the test caused on purpose

    def quit(self):
        if self.d:
            self.d.quit()
            self.d = None
            shutil.rmtree(self.profile, ignore_errors=True)

    def open(self, hash_=""):
        self.d.get(f"{self.base}/console/{hash_}")

    def go(self, hash_):
        self.d.execute_script("location.hash = arguments[0]", hash_)

    def wait(self, css, text=None, timeout=20):
        def found(d):
            try:
                for el in d.find_elements(By.CSS_SELECTOR, css):
                    if text is None or text in el.text:
                        return el
            except StaleElementReferenceException:  # the page was redrawn meanwhile
                pass
            return False
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.1).until(found)
        except TimeoutException:
            errs = [e.text for e in self.d.find_elements(By.CSS_SELECTOR, ".error")]
            raise AssertionError(f"no {css!r}{' with ' + repr(text) if text else ''} on "
                                 f"{self.d.current_url}; errors shown: {errs}") from None

    def idle(self, timeout=20):
        """Until no section is still loading."""
        end = time.time() + timeout
        while self.d.find_elements(By.CSS_SELECTOR, "p.loading"):
            if time.time() > end:
                raise AssertionError(f"{self.d.current_url}: still loading after {timeout} s")
            time.sleep(0.1)

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def collect(self):
        """Console messages of level SEVERE since the last call, less the allowed ones."""
        for entry in self.d.get_log("browser"):
            if entry["level"] != "SEVERE":
                continue
            if any(s in entry["message"] for s, _ in self.allowed):
                continue
            self.errors.append(entry["message"])

    def sent(self):
        """The requests the browser sent since the last call, added to self.requests."""
        for entry in self.d.get_log("performance"):
            m = json.loads(entry["message"])["message"]
            if m["method"] == "Network.requestWillBeSent":
                p = m["params"]
                self.requests.append((p["request"]["url"], p.get("type", ""), p["request"].get("headers", {})))
            elif m["method"] == "Network.requestWillBeSentExtraInfo":  # the headers as sent (Referer among them)
                self.requests.append(("", "extra", m["params"].get("headers", {})))
        return self.requests

    def contrast(self, css="body"):
        return self.js(CONTRAST + "return contrast(document.querySelector(arguments[0]));", css)

    def focus_ring(self):
        """The contrast ratio of the focused element's outline (0: none)."""
        return self.js(CONTRAST + "return focusRing(document.activeElement);")

    def check_page(self, name, narrow=False):
        """What every page must satisfy; returns a list of problems."""
        self.idle()
        problems = []
        csp = self.js("return window.__csp")
        if csp:
            problems.append(f"{name}: CSP violations {csp}")
        foreign = self.js("return performance.getEntriesByType('resource').map(e => e.name)"
                          ".filter(u => !u.startsWith(location.origin + '/'))")
        if foreign:
            problems.append(f"{name}: requests to other origins {foreign}")
        unlabeled = self.js("""return [...document.querySelectorAll('input, select, textarea')]
            .filter(c => c.labels.length === 0 && !c.getAttribute('aria-label')).map(c => c.name)""")
        if unlabeled:
            problems.append(f"{name}: form controls without a label: {unlabeled}")
        nameless = self.js("""return [...document.querySelectorAll('button, a[href]')]
            .filter(b => !(b.textContent.trim() || b.getAttribute('aria-label'))).map(b => b.outerHTML)""")
        if nameless:
            problems.append(f"{name}: buttons or links without a name: {nameless}")
        if self.js("return document.querySelectorAll('h1').length") != 1:
            problems.append(f"{name}: not exactly one h1")
        problems += [f"{name}: contrast {low}" for low in self.contrast()]
        outside = self.js("""return [...document.body.children].filter(e => e.getClientRects().length &&
            !e.matches('header, nav, main, footer, aside, a.skip, script')).map(e => e.outerHTML.slice(0, 80))""")
        if outside:
            problems.append(f"{name}: content outside the landmarks: {outside}")
        twice = self.js("""const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
            return ids.filter((id, i) => ids.indexOf(id) !== i)""")
        if twice:
            problems.append(f"{name}: ids used twice: {twice}")
        if self.js("return document.querySelectorAll('header, main').length") != 2:
            problems.append(f"{name}: not one header and one main")
        if narrow:
            over = self.js("return document.documentElement.scrollWidth - window.innerWidth")
            if over > 0:
                problems.append(f"{name}: {over} px wider than a {self.js('return innerWidth')} px screen")
        self.collect()
        return problems

    def phone(self, on):
        if on:
            self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True})
        else:
            self.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        time.sleep(0.3)  # let the charts resize

    def shot(self, path):
        self.d.save_screenshot(path)

    def chart_data(self, figure_css, timeout=10):
        """The datasets the Chart.js instance of a figure's canvas draws
        (None if it draws none within timeout seconds)."""
        end = time.time() + timeout
        while True:
            data = self._chart_data(figure_css)
            if data is not None or time.time() > end:
                return data
            time.sleep(0.1)

    def _chart_data(self, figure_css):
        return self.d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const canvas = document.querySelector(arguments[0] + ' canvas');
            import('/console/lib/chart.js/chart.esm.js').then(m => {
              const c = m.Chart.getChart(canvas);
              done(c ? c.data.datasets.map(d => ({label: d.label, data: d.data.map(p => [p.x, p.y])})) : null);
            }, e => done('import failed: ' + e));""", figure_css)

    def inked(self, figure_css):
        """How many pixels of a figure's canvas are drawn."""
        return self.js("""const c = document.querySelector(arguments[0] + ' canvas');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n;""", figure_css)
