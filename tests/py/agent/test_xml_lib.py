"""tests/py/agent/test_xml_lib.py -- libxml2 is loaded by the first
trigger_create_xml (ext/agent/xml_lib.c), not by `.load`: a process that
loads the extension and creates triggers from JSON maps neither libxml2
nor ICU (read from /proc/self/maps of a fresh process); one XML create
maps it. Without libxml2 (hidden by a bind mount in a mount namespace of
its own) the extension loads and works, and trigger_create_xml alone
fails, each call, with a message naming the library, recording nothing."""
import ctypes.util
import glob
import json
import os
import shutil
import subprocess

CHILD = r'''
import json, sqlite3, sys
def mapped():
    maps = open("/proc/self/maps").read()
    return {"libxml2": "libxml2" in maps, "icu": "libicu" in maps}
db = sqlite3.connect(":memory:")
db.enable_load_extension(True)
db.load_extension(sys.argv[1])
db.execute("SELECT trigger_install()")
out = {"after_load": mapped()}
CTX = json.dumps({"agent_id": "a1", "role": "owner"})
db.execute("SELECT trigger_create(?, ?)", (json.dumps({"instructions": "from json",
           "trigger_type": "interval", "interval_ms": 3600000}), CTX))
out["after_json_create"] = mapped()
xml = ("<response><triggerType>interval</triggerType><intervalMs>7200000</intervalMs>"
       "<instructions>from xml</instructions></response>")
errors = []
for _ in range(2):
    try:
        out["xml_result"] = json.loads(db.execute("SELECT trigger_create_xml(?, ?)",
                                                  (xml, CTX)).fetchone()[0])
    except sqlite3.Error as e:
        errors.append(str(e))
out["xml_errors"] = errors
out["after_xml_create"] = mapped()
out["events"] = [r[0] for r in db.execute("SELECT kind FROM trigger_events ORDER BY at")]
out["triggers"] = db.execute("SELECT count(*) FROM triggers").fetchone()[0]
print(json.dumps(out))
'''


def child(ext, prefix=()):
    p = subprocess.run([*prefix, "/usr/bin/python3", "-c", CHILD, ext], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_libxml2_mapped_only_by_an_xml_create(ext):
    out = child(ext)
    assert out["after_load"] == {"libxml2": False, "icu": False}, out
    assert out["after_json_create"] == {"libxml2": False, "icu": False}, out
    assert out["xml_errors"] == [], out
    assert out["after_xml_create"]["libxml2"], out
    assert out["events"][:2] == ["created", "created"] and out["triggers"] == 2, out


def libxml2_file():
    name = ctypes.util.find_library("xml2")
    for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"):
        for f in glob.glob(os.path.join(d, (name or "libxml2.so.2") + "*")):
            return os.path.realpath(f)
    return None


def test_without_libxml2_only_the_xml_create_fails(ext):
    real = libxml2_file()
    if os.geteuid() != 0 or not shutil.which("unshare") or not real:
        print("SKIP agent/test_xml_lib.test_without_libxml2_only_the_xml_create_fails:"
              " needs root, unshare and libxml2's file")
        return
    hide = ["unshare", "-m", "sh", "-c", f'mount --bind /dev/null "{real}" && exec "$@"', "sh"]
    out = child(ext, hide)
    assert out["after_load"] == {"libxml2": False, "icu": False}, out
    assert "xml_result" not in out, out
    assert len(out["xml_errors"]) == 2, out
    for e in out["xml_errors"]:
        assert e.startswith("trigger_create_xml: XML needs libxml2 (Debian: libxml2), which"
                            " cannot be loaded: "), e
    assert out["events"] == ["created"] and out["triggers"] == 1, out  # the JSON one only
