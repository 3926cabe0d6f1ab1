# The session driver: trusted code that runs before any cell. It applies
# the resource limits to itself, then reads cells from fd 3 and answers on
# fd 4, one frame each (4-byte big-endian length, then JSON), so nothing a
# cell prints can be mistaken for a reply. A cell's stdout and stderr are
# the pipes on fds 5 and 6, which the driver puts on fds 1 and 2 for the
# cell's duration, which also catches what C code and child processes write
# there. paperlens reads those pipes all the time, keeping the first and
# the last bytes and counting the rest: a cell may print any amount, and no
# file or folder fills up (an earlier driver wrote them to files in /tmp,
# and a cell that filled /tmp silenced every later cell).
import ast
import json
import math
import os
import resource
import sys
import traceback
import types

_cfg = json.loads(sys.argv[1])
_IN, _OUT, _STDOUT, _STDERR = 3, 4, 5, 6
for _fd in (_IN, _OUT, _STDOUT, _STDERR):
    os.set_inheritable(_fd, False)


def _limit(which, soft, hard):
    try:
        resource.setrlimit(which, (soft, hard))
    except (ValueError, OSError):
        pass


_limit(resource.RLIMIT_AS, _cfg["memory"], _cfg["memory"])
_limit(resource.RLIMIT_FSIZE, _cfg["fsize"], _cfg["fsize"])
_limit(resource.RLIMIT_CORE, 0, 0)
# Only where paperlens has no control group for the session, and the limit
# means something (not for root): the number of processes of the sandbox.
if _cfg.get("nproc"):
    _limit(resource.RLIMIT_NPROC, _cfg["nproc"], _cfg["nproc"])


def _cpu_used():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


# The hard CPU limit bounds the whole session (SIGKILL); before each cell
# the soft limit is moved to what was used plus the per-cell allowance, and
# SIGXCPU at the soft limit ends the process.
_hard_cpu = int(_cfg["session_cpu"])
_limit(resource.RLIMIT_CPU, _hard_cpu, _hard_cpu)


def _read_exact(n):
    buf = b""
    while len(buf) < n:
        chunk = os.read(_IN, n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def _write_frame(obj):
    data = json.dumps(obj).encode("utf-8")
    data = len(data).to_bytes(4, "big") + data
    while data:
        n = os.write(_OUT, data)
        data = data[n:]


_saved = (os.dup(1), os.dup(2))
_max = _cfg["output"]
# Cells run in a fresh __main__ module, so that pickle and friends find the
# classes a cell defines, and the driver's own names stay out of the way.
_driver = sys.modules["__main__"]
_main_module = types.ModuleType("__main__")
sys.modules["__main__"] = _main_module
_ns = _main_module.__dict__


def _flush():
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except Exception:
            pass


def _cell(code):
    reply = {"value": None, "exception": None}
    try:
        tree = ast.parse(code, "<cell>", "exec")
    except (SyntaxError, ValueError) as e:
        traceback.print_exception(type(e), e, None)
        reply["exception"] = type(e).__name__
        return reply
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    try:
        exec(compile(tree, "<cell>", "exec"), _ns)
        if last is not None:
            value = eval(compile(last, "<cell>", "eval"), _ns)
            if value is not None:
                _ns["_"] = value
                text = repr(value)
                reply["value_bytes"] = len(text.encode("utf-8", "replace"))
                reply["value"] = text[:_max]
    except BaseException as e:
        # The first frame is this function's exec; the cell's own frames follow.
        tb = e.__traceback__.tb_next if e.__traceback__ else None
        try:
            traceback.print_exception(type(e), e, tb)
        except BaseException:
            pass
        reply["exception"] = type(e).__name__
    return reply


def _main():
    _write_frame({"ready": True, "python": sys.version.split()[0]})
    while True:
        head = _read_exact(4)
        if head is None:
            return
        body = _read_exact(int.from_bytes(head, "big"))
        if body is None:
            return
        code = json.loads(body.decode("utf-8"))["code"]
        _flush()
        os.dup2(_STDOUT, 1)
        os.dup2(_STDERR, 2)
        soft = min(_hard_cpu, math.ceil(_cpu_used() + _cfg["cpu"]))
        _limit(resource.RLIMIT_CPU, soft, _hard_cpu)
        reply = _cell(code)
        _flush()
        os.dup2(_saved[0], 1)
        os.dup2(_saved[1], 2)
        # Only once the cell's output is all in the pipes: paperlens reads
        # them to the end when the reply comes.
        _write_frame(reply)


_main()
