"""Where an answer starts when a helper is named for the asked verb (issue 29 item 5): the helper is the
process's last step and the process begins at the caller that decides to call it — on a failure, in an
error handler or a branch — not at the helper; a yes-or-no check named for the verb is what the process asks,
not where it begins; and a method of the question's subject named for the verb plus words the question does
not ask does the verb for another purpose."""

from __future__ import annotations

from pathlib import Path

from test_repo_answer_starts import answer_of, start_of

from generator.repo.analyze.citations import Linker
from generator.repo.facts.extract import extract_facts
from generator.repo.facts.languages import SUPPORTED
from generator.repo.map.walk import map_repository
from generator.repo.model import Symbol
from generator.repo.synthesize.answer import KIN_SHARE, acts, term_hits, unasked_words, walked_steps
from generator.repo.synthesize.aside import predicate
from generator.repo.synthesize.asked import read_question

POOL = {
    "pool/__init__.py": '"""A connection pool."""\n',
    "pool/retry.py": (
        '"""Retry configuration."""\n\n\n'
        "class Retry:\n"
        '    """How many times a request is retried and how long to wait."""\n\n'
        "    def increment(self, error=None):\n"
        '        """Return a new Retry with one retry fewer left; raise when none are left."""\n'
        "        if self.is_exhausted():\n"
        "            raise MaxRetryError(error)\n"
        "        return self.new(total=self.total - 1)\n\n"
        "    def is_retry(self, method, status):\n"
        '        """Is the request retried for this method and status?"""\n'
        "        return self.is_exhausted() is False and status in self.statuses\n\n"
        "    def is_exhausted(self):\n"
        '        """Are the retries used up?"""\n'
        "        return self.total < 0\n\n"
        "    def new(self, total):\n"
        '        """A copy with `total` retries left."""\n'
        "        return Retry()\n\n"
        "    def sleep(self):\n"
        '        """Wait before the next retry."""\n'
        "        return None\n\n\n"
        "class MaxRetryError(Exception):\n"
        '    """Raised when the retries are used up."""\n'
    ),
    "pool/pool.py": (
        '"""The pool."""\n\n'
        "from pool.retry import Retry\n\n\n"
        "class ConnectionPool:\n"
        '    """Connections to one host."""\n\n'
        "    def urlopen(self, method, url, retries: Retry):\n"
        '        """Open the URL on a pooled connection."""\n'
        "        conn = self._get_conn()\n"
        "        try:\n"
        "            response = self._make_request(conn, method, url)\n"
        "        except OSError as error:\n"
        "            retries = retries.increment(error=error)\n"
        "            retries.sleep()\n"
        "            return self.urlopen(method, url, retries)\n"
        "        if retries.is_retry(method, response.status):\n"
        "            retries = retries.increment()\n"
        "            retries.sleep()\n"
        "            return self.urlopen(method, url, retries)\n"
        "        return response\n\n"
        "    def _get_conn(self):\n"
        '        """Take an idle connection."""\n'
        "        return object()\n\n"
        "    def _make_request(self, conn, method, url):\n"
        '        """Send it and read what comes back."""\n'
        "        return conn\n"
    ),
    "pool/util.py": '"""Helpers."""\n\n'
    + "".join(f"\n\ndef helper_{word}():\n    return '{word}'\n" for word in "abcdefghijklmnop"),
}

QUESTION = "How is a request retried when the connection fails?"


def test_a_helper_named_for_the_verb_called_on_a_failure_is_the_last_step(tmp_path: Path) -> None:
    """urllib3's `Retry.increment` counts a retry; `HTTPConnectionPool.urlopen` catches the failure, decides
    and calls it again. The caller answered less of the question by its own words, so the start went down
    to the helper it reaches — but it reaches the helper only in its error handler: it is the decider, and the
    process of retrying begins there."""
    assert start_of(tmp_path, POOL, QUESTION) == "ConnectionPool.urlopen"


def test_a_helper_on_its_callers_straight_path_still_starts(tmp_path: Path) -> None:
    """The same helper called on the straight line (no failure decides it) is where the asked process is
    done, and the start goes down to it as before."""
    files = {
        **POOL,
        "pool/pool.py": POOL["pool/pool.py"].replace(
            "        conn = self._get_conn()\n",
            "        conn = self._get_conn()\n        retries.increment()\n",
        ),
    }
    assert start_of(tmp_path, files, QUESTION) == "Retry.increment"


def test_a_yes_or_no_check_named_for_the_verb_is_no_start() -> None:
    """`Retry.is_retry`, `Job.should_retry` answer whether; the process calls them to decide and begins where
    they are called — unless the question asks for the check itself."""
    terms = read_question(QUESTION).terms
    check = Symbol("Retry.is_retry", "method", 1, 2, parent="Retry")
    assert predicate(check, terms)
    assert predicate(Symbol("Job.should_retry", "method", 1, 2, parent="Job"), terms)
    assert not predicate(Symbol("Retry.increment", "method", 1, 2, parent="Retry"), terms)
    assert not predicate(Symbol("is", "function", 1, 2), terms)  # one word: no check of a value
    assert not predicate(check, read_question("How is it decided whether a request is retried?").terms)


WORKER = {
    "jobs/__init__.py": '"""Jobs run by workers."""\n',
    "jobs/queue.py": (
        '"""The queue."""\n\n\n'
        "class Queue:\n"
        '    """Jobs waiting for a worker."""\n\n'
        "    def run_job(self, job):\n"
        '        """Run a job at once in this process, without a worker or the queue."""\n'
        "        return job\n"
    ),
    "jobs/worker.py": (
        '"""The worker."""\n\n\n'
        "class Worker:\n"
        '    """Takes jobs off queues and runs them."""\n\n'
        "    def work(self):\n"
        '        """The loop."""\n'
        "        while True:\n"
        "            job = self.dequeue_job_and_maintain_ttl()\n"
        "            self.execute_job(job)\n\n"
        "    def dequeue_job_and_maintain_ttl(self):\n"
        '        """Take the next job off the queue, keeping the worker alive while waiting."""\n'
        "        return object()\n\n"
        "    def execute_job(self, job):\n"
        '        """Execute the job in a work horse."""\n'
        "        self.perform_job(job)\n\n"
        "    def perform_job(self, job):\n"
        '        """Call the job\'s function and store its result."""\n'
        "        return job\n\n"
        "    def run_maintenance_tasks(self):\n"
        '        """Run the periodic maintenance tasks: clean the registries, run the scheduler."""\n'
        "        self.clean_registries()\n"
        "        self.run_scheduler()\n\n"
        "    def clean_registries(self):\n"
        '        """Remove expired entries from the registries."""\n'
        "        return None\n\n"
        "    def run_scheduler(self):\n"
        '        """Run the scheduler once."""\n'
        "        return None\n"
    ),
}


def test_the_subject_doing_the_verb_for_another_purpose_does_not_decide_the_start(tmp_path: Path) -> None:
    """rq's `Worker.run_maintenance_tasks` is the worker running something, but maintenance tasks, which
    the question does not ask: taken for the subject doing the verb, it was the only start allowed; the
    worker's loop taking the job off the queue and running it starts."""
    question = "How does a worker take a job off the queue and run it?"
    asked = read_question(question)
    maintenance = Symbol("Worker.run_maintenance_tasks", "method", 1, 2, parent="Worker")
    assert unasked_words("run_maintenance_tasks", asked.terms) == ["maintenance", "tasks"]
    assert not acts(asked.process, maintenance, asked.terms)
    assert acts(asked.process, Symbol("Worker.run", "method", 1, 2, parent="Worker"), asked.terms)
    assert start_of(tmp_path, WORKER, question) == "Worker.work"


JOBS = {
    "jobs/__init__.py": '"""Jobs run by workers."""\n',
    "jobs/job.py": (
        '"""A job."""\n\n\n'
        "class Job:\n"
        '    """A function call waiting in a queue."""\n\n'
        "    def retry(self):\n"
        '        """Schedule the job again after its retry interval."""\n'
        "        self.schedule()\n\n"
        "    def schedule(self):\n"
        '        """Put the job in the scheduled registry."""\n'
        "        return None\n"
    ),
    "jobs/worker.py": (
        '"""The worker."""\n\n'
        "from jobs.job import Job\n\n\n"
        "class Worker:\n"
        '    """Runs jobs."""\n\n'
        "    def perform_job(self, job: Job):\n"
        '        """Call the job\'s function."""\n'
        "        try:\n"
        "            job.func()\n"
        "        except Exception:\n"
        "            self.handle_job_failure(job)\n\n"
        "    def handle_job_failure(self, job: Job):\n"
        '        """Mark the job failed, or schedule it again while it has retries left."""\n'
        "        if job.retries_left:\n"
        "            job.retry()\n\n"
        "    def clean_registry(self, job: Job):\n"
        '        """Remove the expired job from the registry; an abandoned one is tried again."""\n'
        "        if job.retries_left:\n"
        "            job.retry()\n"
    ),
}


def test_a_failure_is_named_by_any_word_of_its_family(tmp_path: Path) -> None:
    """ "A job that raised an *exception*" is the job whose run *failed*: the worker's failure handler,
    named for the failure, decides the retry (huey's `_execute` building an error result, rq's
    `handle_job_failure`), not another caller of the retry sharing none of the event's words."""
    hits = term_hits(Symbol("Worker.handle_job_failure", "method", 1, 2, parent="Worker"), ["exception"])
    assert hits == [(KIN_SHARE, 0.0)]
    question = "How is a job that raised an exception retried?"
    assert start_of(tmp_path, JOBS, question) in {"Worker.handle_job_failure", "Worker.perform_job"}


def test_the_steps_go_to_the_process_not_to_every_method_of_its_subject(tmp_path: Path) -> None:
    """From the worker's loop the steps went into `bootstrap` and on through `register_birth` and its
    helpers: every method of the worker answers "worker" (`check_for_suspension` too), and a callee reaching
    the queue names the long way round was taken for a step. The loop answers "worker" itself; the steps go the shortest way to what
    it does with the job and the queue."""
    files = {
        **WORKER,
        "jobs/worker.py": WORKER["jobs/worker.py"]
        .replace(
            '        """The loop."""\n',
            '        """The loop."""\n        self.bootstrap()\n        self.check_for_suspension()\n',
        )
        .replace(
            "    def dequeue_job_and_maintain_ttl(self):\n",
            "    def bootstrap(self):\n"
            '        """Register the worker\'s birth and read its queue names."""\n'
            "        self.register_birth()\n"
            "        self.queue_names()\n\n"
            "    def check_for_suspension(self):\n"
            '        """Wait while the worker is suspended."""\n'
            "        return None\n\n"
            "    def register_birth(self):\n"
            '        """Store the worker\'s key with its queue names."""\n'
            "        self.queue_names()\n\n"
            "    def queue_names(self):\n"
            '        """The names of the worker\'s queues."""\n'
            "        return []\n\n"
            "    def dequeue_job_and_maintain_ttl(self):\n",
        ),
    }
    answer = answer_of(tmp_path, files, "How does a worker take a job off the queue and run it?")
    steps = [step.symbol.name for step in answer.steps]
    assert steps[0] == "Worker.work"
    assert "Worker.register_birth" not in steps
    assert "Worker.check_for_suspension" not in steps
    assert steps.index("Worker.bootstrap") < steps.index("Worker.queue_names")
    assert "Worker.dequeue_job_and_maintain_ttl" in steps


CLIENT = {
    "README.md": "# client\n\n```python\nfrom client import Conn\n\nconn = Conn()\nconn.force_reconnect()\n```\n",
    "client/__init__.py": '"""A client."""\n\nfrom client.conn import Conn\n\n__all__ = ["Conn"]\n',
    "client/conn.py": (
        '"""The connection."""\n\n\n'
        "class Conn:\n"
        '    """A connection to a server."""\n\n'
        "    def force_reconnect(self):\n"
        '        """Close the socket now and start over."""\n'
        "        self.close()\n"
        "        self._do_reconnect()\n\n"
        "    def _read_loop(self):\n"
        '        """Read from the socket until it fails."""\n'
        "        try:\n"
        "            self.socket.read()\n"
        "        except OSError as error:\n"
        "            self._process_op_err(error)\n\n"
        "    def _process_op_err(self, error):\n"
        '        """Handle a lost connection: reconnect when allowed."""\n'
        "        self._do_reconnect()\n\n"
        "    def _do_reconnect(self):\n"
        '        """Try each server of the pool in turn, then resend the subscriptions."""\n'
        "        self._select_next_server()\n"
        "        self._create_conn()\n\n"
        "    def _select_next_server(self):\n"
        '        """The next server of the pool to connect to."""\n'
        "        return None\n\n"
        "    def _create_conn(self):\n"
        '        """Open the socket to the server."""\n'
        "        return None\n\n"
        "    def close(self):\n"
        '        """Close the connection."""\n'
        "        return None\n"
    ),
}


def test_a_process_the_project_runs_on_an_event_is_not_begun_by_the_users_call(tmp_path: Path) -> None:
    """ "How does the client reconnect *after the connection is lost*?": the project reconnects by itself
    when the event comes (nats' `processOpErr` → `doReconnect`); `ForceReconnect`, the call a user makes
    to reconnect at once, is the API's way in, and the public entry's weight took the start there."""
    question = "How does the client reconnect after the connection to the server is lost?"
    assert read_question(question).triggered
    assert not read_question("How does the client reconnect to the server?").triggered
    assert start_of(tmp_path, CLIENT, question) in {"Conn._do_reconnect", "Conn._process_op_err"}
    # asked without the event, the user's call begins it
    assert start_of(tmp_path / "asked", CLIENT, "How does the client reconnect to the server?") == (
        "Conn.force_reconnect"
    )


QUEUE = {
    "go.mod": "module example.com/tasks\n\ngo 1.22\n",
    "processor.go": (
        "package tasks\n\n"
        "type processor struct{ broker *RDB }\n\n"
        "// exec dequeues a task and runs its handler.\n"
        "func (p *processor) exec(msg *Message) {\n"
        "\terr := p.perform(msg)\n"
        "\tif err != nil {\n"
        "\t\tp.handleFailedMessage(msg, err)\n"
        "\t}\n"
        "}\n\n"
        "// perform calls the handler.\n"
        "func (p *processor) perform(msg *Message) error {\n"
        "\treturn nil\n"
        "}\n\n"
        "// handleFailedMessage decides what becomes of a message whose handler failed.\n"
        "func (p *processor) handleFailedMessage(msg *Message, err error) {\n"
        "\tif msg.Retried >= msg.Retry {\n"
        "\t\tp.archive(msg)\n"
        "\t\treturn\n"
        "\t}\n"
        "\tp.retry(msg)\n"
        "}\n\n"
        "// retry schedules the task again after a delay.\n"
        "func (p *processor) retry(msg *Message) {\n"
        "\tp.broker.Retry(msg)\n"
        "}\n\n"
        "// archive moves the task to the archive.\n"
        "func (p *processor) archive(msg *Message) {\n"
        "\tp.broker.Archive(msg)\n"
        "}\n"
    ),
    "rdb.go": (
        "package tasks\n\n"
        "// Message is a task in a queue.\n"
        "type Message struct {\n\tRetry   int\n\tRetried int\n}\n\n"
        "// RDB is the Redis broker.\n"
        "type RDB struct{}\n\n"
        "// Retry moves the task to the retry set.\n"
        "func (r *RDB) Retry(msg *Message) {}\n\n"
        "// Archive moves the task to the archived set.\n"
        "func (r *RDB) Archive(msg *Message) {}\n\n"
        "// ArchiveAllRetryTasks archives every retry task of a queue, for an operator.\n"
        "func (r *RDB) ArchiveAllRetryTasks(qname string) int {\n"
        "\treturn r.archiveAll(qname)\n"
        "}\n\n"
        "// archiveAll moves every task of a set to the archived set.\n"
        "func (r *RDB) archiveAll(qname string) int {\n"
        "\tretryTaskKey(qname)\n"
        "\tarchivedTaskKey(qname)\n"
        "\tr.Archive(nil)\n"
        "\treturn 0\n"
        "}\n\n"
        "// retryTaskKey is the key of a queue's retry tasks.\n"
        "func retryTaskKey(qname string) string {\n\treturn qname\n}\n\n"
        "// archivedTaskKey is the key of a queue's archived tasks.\n"
        "func archivedTaskKey(qname string) string {\n\treturn qname\n}\n"
    ),
}


def test_the_projects_api_is_no_start_of_a_process_it_runs_on_an_event(tmp_path: Path) -> None:
    """asynq's operator API `RDB.ArchiveAllRetryTasks` names every word of "how is the task retried later
    or archived?" but a handler returning an error sets the process off inside the processor: the exported
    API is the user's way in, the processor's failure handler begins it."""
    question = "When a handler returns an error, how is the task retried later or archived?"
    assert start_of(tmp_path, QUEUE, question) in {"processor.handleFailedMessage", "processor.exec"}
    # named for every word, the operator's API outweighs the failure handler: only the event keeps it out
    root = tmp_path / "weighed"
    for name, text in QUEUE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    repo_map = map_repository(root, keep_languages=SUPPORTED, keep_bytes=10_000_000)
    facts = extract_facts(root, repo_map)
    linker = Linker({f.path: f.lines for f in repo_map.files}, "0" * 40, None)
    answered = {  # "retried", "archived", "handler"
        ("rdb.go", "RDB.ArchiveAllRetryTasks"): (9.0, 9.0, 0.0),
        ("rdb.go", "RDB.archiveAll"): (0.0, 3.0, 0.0),
        ("rdb.go", "RDB.Retry"): (3.0, 0.0, 0.0),
        ("rdb.go", "RDB.Archive"): (0.0, 3.0, 0.0),
        ("processor.go", "processor.handleFailedMessage"): (0.0, 0.0, 3.0),
        ("processor.go", "processor.retry"): (3.0, 0.0, 0.0),
        ("processor.go", "processor.archive"): (0.0, 3.0, 0.0),
    }

    def start(triggered: bool) -> str:
        return walked_steps(answered, facts, linker, triggered=triggered)[0].symbol.name

    assert start(False) in {"RDB.ArchiveAllRetryTasks", "RDB.archiveAll"}  # the operator's way
    assert start(True) == "processor.handleFailedMessage"
