"""shots.py — the screenshots of `make console-shots` (tests/console/run
--shots DIR), written only when the page changed. The data of a dev
server differ run to run (its ids are random, its telemetry follows the
clock), so the pixels always do; what is compared instead is a signature
of the page's form (SIGNATURE) with the viewport, the console's own
files and Chart.js. DIR/SHOTS lists each PNG with its signature; a PNG
whose signature is unchanged is left as it is, so a run on an unchanged
console rewrites nothing."""
import hashlib
import os

# The page's form, not its data: the element tree (a run of like siblings,
# such as a table's rows, counted once) and the text of headings, labels,
# column heads, buttons and hints, digits and long hex ids masked.
SIGNATURE = r"""
const mask = t => t.replace(/\b[0-9a-f]{8,}\b/g, 'x').replace(/[0-9]+/g, '0');
const shape = e => {
  const kids = [...e.children].filter(k => k.getClientRects().length).map(shape)
    .filter((k, i, all) => k !== all[i - 1]);
  return `${e.tagName}.${e.className}(${kids.join(' ')})`;
};
const text = [...document.querySelectorAll('h1, h2, h3, caption, th[scope=col], label, legend, button, ' +
  'summary, figcaption, .hint, nav a')].filter(e => !e.closest('tbody') && e.getClientRects().length)
  .map(e => mask(e.textContent.trim()));
return [innerWidth, innerHeight, shape(document.body), ...text].join('\n');
"""


def _files_digest(server):
    """The console's files as built into the server, and the Chart.js it serves."""
    h = hashlib.sha256()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "console")
    for dirpath, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            with open(os.path.join(dirpath, name), "rb") as f:
                h.update(name.encode() + b"\0" + f.read())
    h.update(server.fetch("/console/lib/chart.js/chart.esm.js")[2])
    return h.hexdigest()


class Shots:
    def __init__(self, directory, server):
        self.dir = directory
        self.list = os.path.join(directory, "SHOTS")
        self.files = _files_digest(server)
        self.known = {}
        if os.path.exists(self.list):
            with open(self.list) as f:
                self.known = dict(line.split() for line in f if line.strip())
        self.written = []

    def take(self, browser, name):
        """name.png of what browser shows now, unless the same page is there."""
        browser.js("document.activeElement.blur(); window.scrollTo(0, 0)")
        sig = hashlib.sha256((self.files + browser.js(SIGNATURE)).encode()).hexdigest()[:32]
        path = os.path.join(self.dir, name + ".png")
        if self.known.get(name + ".png") == sig and os.path.exists(path):
            return
        browser.shot(path)
        self.known[name + ".png"] = sig
        self.written.append(name + ".png")
        with open(self.list, "w") as f:
            f.writelines(f"{k} {v}\n" for k, v in sorted(self.known.items()))
