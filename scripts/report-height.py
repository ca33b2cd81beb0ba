#!/usr/bin/env python3
"""The height of a `filmstrip report` page as headless Chromium lays it out, everything folded:
`python3 scripts/report-height.py report.html` (WIDTH=1280 by default) prints HEIGHT=<px> and
each top-level section's height. A copy of the page gets a script (the report has none) that
writes document.documentElement.scrollHeight into the DOM; --dump-dom prints the DOM after load."""
import re, subprocess, sys, tempfile, os
page = open(sys.argv[1], encoding="utf-8").read()
probe = """<script>
window.addEventListener('load', () => {
  const out = document.createElement('pre'); out.id = 'measured';
  const parts = [...document.querySelectorAll('body > section')].map(s => s.id + '=' + Math.round(s.getBoundingClientRect().height));
  out.textContent = 'HEIGHT=' + document.documentElement.scrollHeight + ' ' + parts.join(' ');
  document.body.appendChild(out);
});
</script>"""
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "probe.html")
    open(path, "w", encoding="utf-8").write(page.replace("</body>", probe + "</body>"))
    dom = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={os.environ.get('WIDTH', '1280')},1000",
                          "--virtual-time-budget=5000", f"--user-data-dir={tmp}/profile", "--dump-dom", "file://" + path],
                         capture_output=True, text=True, timeout=300).stdout
m = re.search(r'<pre id="measured">([^<]*)</pre>', dom)
if not m: sys.exit("no measurement: " + dom[-300:])
parts = m.group(1).split()
config = sum(int(p.split("=")[1]) for p in parts[1:] if p.startswith("config-"))
print(" ".join([parts[0]] + [p for p in parts[1:] if not p.startswith("config-")] + ([f"config-sections={config}"] if config else [])))
