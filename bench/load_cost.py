#!/usr/bin/python3
"""bench/load_cost.py -- what `.load` of the extension costs a process:
the time of sqlite3_load_extension and the resident memory it adds
(VmRSS before and after), and whether libxml2 and ICU are mapped; then
the first trigger_create_xml call (which loads libxml2 since issue 38).
Not a row of `make bench` (bench/README.md, "Loading the extension"):
each sample is a fresh process, the median of N is printed.

    /usr/bin/python3 bench/load_cost.py build/triggers [N]
"""
import json
import statistics
import subprocess
import sys

CHILD = r'''
import sqlite3, sys, time
def rss_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
def mapped(name):
    return name in open("/proc/self/maps").read()
db = sqlite3.connect(":memory:")
db.enable_load_extension(True)
r0 = rss_kb()
t0 = time.perf_counter()
db.load_extension(sys.argv[1])
t1 = time.perf_counter()
r1 = rss_kb()
xml_at_load, icu_at_load = mapped("libxml2"), mapped("libicu")
db.execute("SELECT trigger_install()")
t2 = time.perf_counter()
db.execute("SELECT trigger_create_xml('<response><action>create_trigger</action></response>')")
t3 = time.perf_counter()
print(json.dumps({"load_ms": (t1 - t0) * 1000, "rss_kb": r1 - r0,
                  "xml_at_load": xml_at_load, "icu_at_load": icu_at_load,
                  "first_xml_ms": (t3 - t2) * 1000, "xml_after": mapped("libxml2")}))
'''


def main():
    ext = sys.argv[1] if len(sys.argv) > 1 else "build/triggers"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    rows = []
    for _ in range(n):
        out = subprocess.run(["/usr/bin/python3", "-c", "import json\n" + CHILD, ext],
                             capture_output=True, text=True, check=True).stdout
        rows.append(json.loads(out))
    med = {k: statistics.median(r[k] for r in rows) for k in ("load_ms", "rss_kb",
                                                               "first_xml_ms")}
    print(f"{ext}: {n} processes, medians: .load {med['load_ms']:.2f} ms, "
          f"+{med['rss_kb']:.0f} kB RSS; libxml2 mapped at load: "
          f"{all(r['xml_at_load'] for r in rows)}, ICU: {all(r['icu_at_load'] for r in rows)}; "
          f"first trigger_create_xml {med['first_xml_ms']:.2f} ms, libxml2 mapped after: "
          f"{all(r['xml_after'] for r in rows)}")


if __name__ == "__main__":
    main()
