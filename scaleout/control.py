"""Stop and pause from the workbench (or a shell), checked between training steps.

- SIGINT / SIGTERM: stop at the next step boundary; the run is left 'stopped' and checkpoints/last
  keeps the last finished epoch (as the workbench's own trainer does). A second signal exits at once.
- `--control stdin`: the workbench writes one word per line on our stdin: `pause`, `resume`, `stop`.
  End of stdin (the engine went away) changes nothing: the run trains on and its status.json says so.
torchrun forwards SIGINT/SIGTERM to its workers; only rank 0 reads stdin."""
import signal
import sys
import threading


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

    def read_stdin(self):
        def loop():
            for line in sys.stdin:
                word = line.strip()
                if word == "stop":
                    self.stop.set()
                    self.running.set()
                elif word == "pause":
                    self.running.clear()
                elif word == "resume":
                    self.running.set()
        threading.Thread(target=loop, name="scaleout-control", daemon=True).start()

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
