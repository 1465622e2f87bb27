"""Stop and pause from the workbench (or a shell), checked between training steps.

- SIGINT / SIGTERM: stop at the next step boundary; the run is left 'stopped' and checkpoints/last
  keeps the last finished epoch (as the workbench's own trainer does). A second signal exits at once.
- `--control stdin`: the workbench writes one word per line on our stdin: `pause`, `resume`, `stop`.
  End of stdin (the engine went away) changes nothing: the run trains on and its status.json says so.
- The control file (RUN/torch/control, with `--control stdin`): a later engine that adopts the run
  after a restart has no pipe to our stdin, so it writes the same word there (atomically, by
  rename). Only a change after we started counts: a word left from an earlier process is ignored.
torchrun forwards SIGINT/SIGTERM to its workers; only rank 0 reads stdin."""
import os
import signal
import sys
import threading
import time


class StopRequested(Exception):
    pass


class Control:
    def __init__(self):
        self.stop = threading.Event()
        self.running = threading.Event()
        self.running.set()
        self._signals = 0

    def install_signals(self):
        def on_signal(signum, _frame):
            self._signals += 1
            if self._signals > 1:
                raise KeyboardInterrupt  # a second signal: do not wait for the step to end
            self.stop.set()
            self.running.set()
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, on_signal)

    def say(self, word):
        if word == "stop":
            self.stop.set()
            self.running.set()
        elif word == "pause":
            self.running.clear()
        elif word == "resume":
            self.running.set()

    def read_stdin(self):
        def loop():
            for line in sys.stdin:
                self.say(line.strip())
        threading.Thread(target=loop, name="scaleout-control", daemon=True).start()

    def watch_file(self, path, interval=0.2):
        """Polls `path` (a few stat calls a second); a new version's word is acted on as a stdin line."""
        def signature():
            try:
                s = os.stat(path)
                return (s.st_ino, s.st_mtime_ns, s.st_size)
            except OSError:
                return None
        seen = signature()

        def loop():
            nonlocal seen
            while True:
                time.sleep(interval)
                now = signature()
                if now is None or now == seen:
                    continue
                seen = now
                try:
                    with open(path, "rb") as f:
                        word = f.read(64).decode("ascii", "replace").strip()
                except OSError:
                    continue
                self.say(word)
        threading.Thread(target=loop, name="scaleout-control-file", daemon=True).start()

    def between_steps(self, on_pause=None, on_resume=None):
        """Raises StopRequested when a stop was asked; waits while paused (calling on_pause/on_resume)."""
        if self.stop.is_set():
            raise StopRequested()
        if not self.running.is_set():
            if on_pause:
                on_pause()
            while not self.running.wait(0.2):
                pass
            if self.stop.is_set():
                raise StopRequested()
            if on_resume:
                on_resume()
