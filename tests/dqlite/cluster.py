"""tests/dqlite/cluster.py -- a 3-node dqlite cluster on 127.0.0.1 for the
tests: Debian's `dqlite-demo` nodes started with the preload library
(build/triggers-preload.so) in LD_PRELOAD, and SQL sent through Debian's
`dqlite` shell, as a user would.

Every node runs in a fresh temporary data directory on ports that were
free when the cluster started. Every process started here is recorded by
pid and stopped by `close()` (SIGKILL, then reaped), which the runner calls
in a `finally`; the temporary directory is removed with it.

    c = Cluster(preload, env_preload="")
    c.start()
    c.sql("demo", "SELECT trigger_version()")   # -> "0.1.0"
    c.kill(c.leader())                          # SIGKILL; a survivor leads
    c.restart(addr)                             # same address and data dir
    c.close()
"""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

SHELL = "dqlite"
NODE = "dqlite-demo"
SHELL_TIMEOUT = 30  # s: a failover takes about 5 s with the demo's settings


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(cond, timeout, what, step=0.05):
    """Poll cond() until it is true; TimeoutError naming what after
    timeout seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(step)
    raise TimeoutError(f"waited {timeout} s for {what}")


class SqlError(Exception):
    """The shell exited non-zero: the statement failed (stderr in args)."""


class Cluster:
    def __init__(self, preload, sanitizer_runtimes="", size=3):
        self.preload = os.path.abspath(preload)
        # sanitizer runtimes must come first in LD_PRELOAD (make test-asan)
        self.ld_preload = ":".join(p for p in (sanitizer_runtimes, self.preload) if p)
        self.dir = tempfile.mkdtemp(prefix="triggers-dqlite-")
        self.addrs = [f"127.0.0.1:{free_port()}" for _ in range(size)]
        self.api = {a: f"127.0.0.1:{free_port()}" for a in self.addrs}
        self.procs = {}    # address -> Popen of the running node
        self.dead = []     # Popens of killed nodes (reaped)
        self.others = []   # other processes started by the tests
        self.stopped = set()
        # the shell runs without the preload and sanitizer runtimes
        self.shell_env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}

    # ---- nodes ---------------------------------------------------------
    def _spawn(self, addr, join=None):
        data = os.path.join(self.dir, addr.replace(":", "_"))
        os.makedirs(data, exist_ok=True)
        args = [NODE, "-d", addr, "-D", data, "-a", self.api[addr]]
        if join:
            args += ["-j", join]
        log = open(os.path.join(self.dir, addr.replace(":", "_") + ".log"), "ab")
        env = dict(os.environ, LD_PRELOAD=self.ld_preload)
        self.procs[addr] = subprocess.Popen(args, stdout=log, stderr=log, env=env,
                                            stdin=subprocess.DEVNULL)
        log.close()

    def data_dir(self, addr):
        return os.path.join(self.dir, addr.replace(":", "_"))

    def start(self, timeout=60):
        self._spawn(self.addrs[0])
        wait_until(lambda: self.shell(".leader", servers=[self.addrs[0]])[1]
                   == self.addrs[0], timeout, "the first node to lead")
        for a in self.addrs[1:]:
            self._spawn(a, join=self.addrs[0])
        wait_until(lambda: self.voters() == len(self.addrs), timeout,
                   f"{len(self.addrs)} voters")

    def voters(self):
        rc, out, _ = self.shell(".cluster")
        return out.count("|voter") if rc == 0 else 0

    def leader(self, timeout=30):
        """The current leader's address (waits for an election)."""
        found = []

        def ask():
            rc, out, _ = self.shell(".leader")
            if rc == 0 and out in self.procs:
                found.append(out)
                return True
            return False
        wait_until(ask, timeout, "a leader")
        return found[-1]

    def kill(self, addr):
        """SIGKILL one node (no clean shutdown: a crash)."""
        p = self.procs.pop(addr)
        p.send_signal(signal.SIGKILL)
        p.wait()
        self.dead.append(p)
        self.stopped.discard(addr)

    def restart(self, addr, timeout=60):
        """Start a killed node again on its address and data directory and
        wait until the cluster has all its voters and a leader."""
        self._spawn(addr)
        wait_until(lambda: self.voters() == len(self.addrs), timeout,
                   f"{addr} back as a voter")
        self.leader()

    def pause(self, addr):
        self.procs[addr].send_signal(signal.SIGSTOP)
        self.stopped.add(addr)

    def resume(self, addr):
        if addr in self.procs:
            self.procs[addr].send_signal(signal.SIGCONT)
        self.stopped.discard(addr)

    def cpu_ticks(self, addr):
        """utime + stime of a node, in clock ticks (/proc/PID/stat)."""
        with open(f"/proc/{self.procs[addr].pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def close(self):
        """Stop every process this cluster started, by pid, and remove its
        data. Safe to call twice and after any failure."""
        for p in list(self.procs.values()) + self.others:
            if p.poll() is None:
                try:
                    p.send_signal(signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        self.procs.clear()
        self.others.clear()
        shutil.rmtree(self.dir, ignore_errors=True)

    def health(self):
        """Problems no test caused: nodes that died without being killed,
        sanitizer reports in the nodes' output."""
        out = [f"node {a} exited by itself (status {p.returncode})"
               for a, p in self.procs.items() if p.poll() is not None]
        for name in sorted(os.listdir(self.dir)):
            if name.endswith(".log"):
                with open(os.path.join(self.dir, name), errors="replace") as f:
                    text = f.read()
                for mark in ("ERROR: AddressSanitizer", "runtime error:",
                             "triggers-preload:"):
                    if mark in text:
                        out.append(f"{name}: {mark}")
        return out

    def logs(self):
        out = []
        for name in sorted(os.listdir(self.dir)):
            if name.endswith(".log"):
                with open(os.path.join(self.dir, name), errors="replace") as f:
                    out.append(f"--- {name}\n" + f.read()[-3000:])
        return "\n".join(out)

    # ---- SQL through the shell ------------------------------------------
    def shell_args(self, db, servers=None):
        return [SHELL, "-s", ",".join(servers or self.addrs), db]

    def shell(self, line, db="demo", servers=None, timeout=SHELL_TIMEOUT):
        """(exit status, stdout stripped, stderr) of one shell command."""
        try:
            r = subprocess.run(self.shell_args(db, servers) + [line],
                               capture_output=True, text=True, timeout=timeout,
                               stdin=subprocess.DEVNULL, env=self.shell_env)
        except subprocess.TimeoutExpired:
            return 124, "", f"timed out after {timeout} s"
        return r.returncode, r.stdout.strip(), r.stderr.strip()

    def sql(self, db, line, timeout=SHELL_TIMEOUT):
        """Stdout of one statement; SqlError when it fails."""
        rc, out, err = self.shell(line, db=db, timeout=timeout)
        if rc != 0:
            raise SqlError(f"{line[:200]}: exit {rc}: {err[:300]}")
        return out

    def spawn_sql(self, db, line, servers=None):
        """The same shell command in the background (a Popen)."""
        p = subprocess.Popen(self.shell_args(db, servers) + [line],
                             stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             stdin=subprocess.DEVNULL, env=self.shell_env)
        self.others.append(p)
        return p
