"""Subprocesses: commands run as simulated child processes of the shell."""
import os
import _subprocess

__all__ = ["run", "call", "check_call", "check_output", "Popen", "PIPE", "STDOUT", "DEVNULL",
           "CalledProcessError", "TimeoutExpired", "CompletedProcess", "SubprocessError"]

PIPE = -1
STDOUT = -2
DEVNULL = -3


class SubprocessError(Exception):
    pass


class CalledProcessError(SubprocessError):
    def __init__(self, returncode, cmd, output=None, stderr=None):
        self.returncode = returncode
        self.cmd = cmd
        self.output = output
        self.stderr = stderr

    @property
    def stdout(self):
        return self.output

    def __str__(self):
        if self.returncode and self.returncode < 0:
            return f"Command '{self.cmd}' died with signal {-self.returncode}."
        return f"Command '{self.cmd}' returned non-zero exit status {self.returncode}."


class TimeoutExpired(SubprocessError):
    def __init__(self, cmd, timeout, output=None, stderr=None):
        self.cmd = cmd
        self.timeout = timeout
        self.output = output
        self.stderr = stderr

    @property
    def stdout(self):
        return self.output

    def __str__(self):
        return f"Command '{self.cmd}' timed out after {self.timeout} seconds"


class CompletedProcess:
    def __init__(self, args, returncode, stdout=None, stderr=None):
        self.args = args
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr

    def __repr__(self):
        parts = [f"args={self.args!r}", f"returncode={self.returncode!r}"]
        if self.stdout is not None:
            parts.append(f"stdout={self.stdout!r}")
        if self.stderr is not None:
            parts.append(f"stderr={self.stderr!r}")
        return "CompletedProcess(" + ", ".join(parts) + ")"

    def check_returncode(self):
        if self.returncode:
            raise CalledProcessError(self.returncode, self.args, self.stdout, self.stderr)


def _argv(args, shell, executable=None):
    if shell:
        if not isinstance(args, (str, bytes)):
            args = " ".join(args)
        return [executable or "/bin/sh", "-c", args]
    if isinstance(args, (str, bytes, os.PathLike if hasattr(os, "PathLike") else str)):
        return [os.fspath(args)]
    return [os.fspath(a) for a in args]


def _decode(b, text):
    if b is None:
        return None
    if text:
        return b.decode("utf-8", "replace").replace("\r\n", "\n")
    return b


def _exec(args, input=None, stdin=None, stdout=None, stderr=None, capture_output=False, shell=False,
          cwd=None, env=None, timeout=None, text=None, universal_newlines=None, encoding=None, errors=None,
          executable=None, **kwargs):
    text = bool(text or universal_newlines or encoding or errors)
    if capture_output:
        if stdout is not None or stderr is not None:
            raise ValueError("stdout and stderr arguments may not be used with capture_output.")
        stdout = stderr = PIPE
    if input is not None and isinstance(input, str):
        input = input.encode()
    if stdin is not None and stdin not in (PIPE, DEVNULL) and input is None:
        if hasattr(stdin, "read"):
            data = stdin.read()
            input = data.encode() if isinstance(data, str) else data
    argv = _argv(args, shell, executable)
    status, out, err, timed_out = _subprocess.run(
        argv, input, cwd, env, timeout,
        stdout in (PIPE, DEVNULL) or hasattr(stdout, "write"),
        stderr in (PIPE, DEVNULL) or hasattr(stderr, "write"),
        stderr == STDOUT, stdin == DEVNULL)
    if timed_out:
        raise TimeoutExpired(args, timeout, _decode(out, text) if stdout == PIPE else None, _decode(err, text) if stderr == PIPE else None)
    if hasattr(stdout, "write"):
        stdout.write(_decode(out, "b" not in getattr(stdout, "mode", "w")))
    if hasattr(stderr, "write"):
        stderr.write(_decode(err, "b" not in getattr(stderr, "mode", "w")))
    if status > 128 and status < 160:
        status = -(status - 128)
    return status, (_decode(out, text) if stdout == PIPE else None), (_decode(err, text) if stderr == PIPE else None)


def run(args, *, input=None, capture_output=False, timeout=None, check=False, **kwargs):
    status, out, err = _exec(args, input=input, capture_output=capture_output, timeout=timeout, **kwargs)
    cp = CompletedProcess(args, status, out, err)
    if check and status:
        raise CalledProcessError(status, args, out, err)
    return cp


def call(args, *, timeout=None, **kwargs):
    return _exec(args, timeout=timeout, **kwargs)[0]


def check_call(args, **kwargs):
    rc = call(args, **kwargs)
    if rc:
        raise CalledProcessError(rc, args)
    return 0


def check_output(args, *, timeout=None, **kwargs):
    if "stdout" in kwargs:
        raise ValueError("stdout argument not allowed, it will be overridden.")
    status, out, err = _exec(args, stdout=PIPE, timeout=timeout, **kwargs)
    if status:
        raise CalledProcessError(status, args, out, err)
    return out


def getstatusoutput(cmd):
    status, out, _ = _exec(cmd, shell=True, stdout=PIPE, stderr=STDOUT, text=True)
    if out.endswith("\n"):
        out = out[:-1]
    return status, out


def getoutput(cmd):
    return getstatusoutput(cmd)[1]


class Popen:
    """Runs the child to completion at construction or at communicate():
    the simulation has no concurrent host process to stream from."""

    def __init__(self, args, stdin=None, stdout=None, stderr=None, shell=False, cwd=None, env=None,
                 text=None, universal_newlines=None, encoding=None, errors=None, **kwargs):
        self.args = args
        self._kw = dict(stdin=stdin, stdout=stdout, stderr=stderr, shell=shell, cwd=cwd, env=env, text=text,
                        universal_newlines=universal_newlines, encoding=encoding, errors=errors)
        self.returncode = None
        self.pid = 4242
        self._out = self._err = None
        self.stdin = None
        self.stdout = None
        self.stderr = None
        if stdin != PIPE:
            self._run(None)

    def _run(self, input, timeout=None):
        if self.returncode is None:
            self.returncode, self._out, self._err = _exec(self.args, input=input, timeout=timeout, **self._kw)
            import io
            if self._out is not None:
                self.stdout = io.StringIO(self._out) if isinstance(self._out, str) else io.BytesIO(self._out)
            if self._err is not None:
                self.stderr = io.StringIO(self._err) if isinstance(self._err, str) else io.BytesIO(self._err)

    def communicate(self, input=None, timeout=None):
        if self.returncode is None:
            self._run(input, timeout)
            return self._out, self._err
        out = self.stdout.read() if self.stdout is not None else None
        err = self.stderr.read() if self.stderr is not None else None
        return out, err

    def wait(self, timeout=None):
        if self.returncode is None:
            self._run(None, timeout)
        return self.returncode

    def poll(self):
        return self.returncode

    def kill(self):
        pass

    def terminate(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.wait()
