/* runner.c — a pool of forked workers with ordered output.
 *
 * A worker runs a batch of consecutive jobs, one after the other, so that
 * the cost of a process (fork, and the page faults of a fresh copy of the
 * parent) is paid once per batch rather than once per test: most tests take
 * less time to run than that.  What a job prints goes to the worker's two
 * temporary files (stdout, stderr); around each job the worker tells the
 * parent on its status pipe that the job started, then that it ended, with
 * its report, its notes and how far each file had been written.  The parent
 * cuts each job's bytes out of the files at those offsets.
 *
 * A job that does not end (the worker is killed at the job's deadline, or
 * dies) is recorded as today's single-job workers recorded it, its partial
 * output dropped; the jobs of the batch after it go back to the front of the
 * queue and run in a new worker.  With -maxmem, batches are one job long,
 * so the limit is the job's alone. */
/* MAP_ANONYMOUS (the workers' live counts) is not POSIX 2008's, but every
 * system weft builds on has it. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "progress.h"
#include "runner.h"

/* The parent reads and keeps at most this many jobs ahead of the first one
 * not yet written, so a slow early test cannot make the parent buffer the
 * output of the whole suite. */
enum { WINDOW_PER_WORKER = 64, READ_CHUNK = 65536, BATCH_MAX = 32 };

/* A job whose worker died or was killed keeps at most this much of the end
 * of what the worker wrote on stderr while running it: the signal's or the
 * sanitizer's report ends there. */
enum { TAIL_LINES = 30, TAIL_BYTES = 8192 };

/* Status records, worker to parent. */
enum { REC_START = 1, REC_END = 2 };

typedef struct rec_head {
	int32_t kind, job;
} rec_head;

typedef struct rec_end {
	job_report rep;
	uint64_t out_at, err_at;  /* bytes written to each file so far */
	uint32_t notes_len;       /* notes bytes that follow */
} rec_end;

/* A job, in the parent. */
typedef struct job {
	bool started, done;
	enum job_end end;
	int detail;
	bool reported;       /* its report arrived */
	job_report rep;
	strbuf out, err, notes;
	strbuf tail;         /* did not finish: the last lines of its worker's
	                      * stderr, shown after its record */
} job;

/* A worker process and its batch: jobs [first, last) of which those before
 * `next` have ended and `cur` (if >= 0) has started. */
typedef struct worker {
	pid_t pid;           /* 0: none */
	int status;          /* read end of the status pipe, -1 at EOF */
	int out, err;        /* its temporary files */
	strbuf in;           /* status bytes not yet parsed */
	uint64_t out_at, err_at;
	int first, last, next, cur;
	double deadline;     /* of cur, 0: none */
	bool killed;
} worker;

/* What runner_run allocates: a worker, forked in the middle of it, frees
 * it all before running its jobs (it never returns to the loop). */
typedef struct range range;
typedef struct pool {
	int n, nw;
	job *jobs;
	worker *ws;
	struct pollfd *pfd;
	int *pfd_w;
	char *chunk;
	range *back;
	live_counts *live;   /* one a worker, shared with it (mmap); NULL: none */
} pool;

static void pool_free(pool *pl)
{
	for (int i = 0; i < pl->n; i++) {
		sb_free(&pl->jobs[i].out);
		sb_free(&pl->jobs[i].err);
		sb_free(&pl->jobs[i].notes);
		sb_free(&pl->jobs[i].tail);
	}
	for (int k = 0; k < pl->nw; k++)
		sb_free(&pl->ws[k].in);
	free(pl->back);
	free(pl->chunk);
	free(pl->pfd_w);
	free(pl->pfd);
	free(pl->ws);
	free(pl->jobs);
	if (pl->live)
		munmap(pl->live, (size_t)pl->nw * sizeof *pl->live);
}

bool runner_can_limit_memory(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return false;
#else
	return true;
#endif
#else
	return true;
#endif
}

static bool write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

static uint64_t file_at(int fd)
{
	off_t at = lseek(fd, 0, SEEK_CUR);
	return at < 0 ? 0 : (uint64_t)at;
}

/* The worker's side: runs jobs first..last-1; never returns. */
static void worker_main(const runner_limits *lim, const job_callbacks *cb, int first, int last, int out,
			int err, int status, live_counts *live)
{
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(127);
	close(out);
	close(err);
	/* The parent ignores SIGPIPE to notice a closed output; a worker whose
	 * parent is gone should just die. */
	signal(SIGPIPE, SIG_DFL);
	if (lim->maxmem_mb > 0 && runner_can_limit_memory()) {
		struct rlimit rl;
		rl.rlim_cur = rl.rlim_max = (rlim_t)lim->maxmem_mb * 1024 * 1024;
		setrlimit(RLIMIT_AS, &rl);
	}
	for (int i = first; i < last; i++) {
		rec_head h = { REC_START, i };
		if (!write_all(status, &h, sizeof h))
			_exit(126);
		job_report rep = { 0 };
		strbuf notes = { 0 };
		if (live)
			live->candidates = live->executions = 0;
		cb->run(cb->ctx, i, &rep, &notes, live);
		fflush(stdout);
		fflush(stderr);
		/* The end record is what tells the parent the job finished:
		 * sent once its output is in the files. */
		rec_head e = { REC_END, i };
		rec_end body = { rep, file_at(STDOUT_FILENO), file_at(STDERR_FILENO), (uint32_t)notes.len };
		if (!write_all(status, &e, sizeof e) || !write_all(status, &body, sizeof body) ||
		    (notes.len > 0 && !write_all(status, notes.s, notes.len)))
			_exit(126);
		sb_free(&notes);
	}
	close(status);
	/* exit, not _exit: sanitizer builds check the worker for leaks. */
	exit(0);
}

static void close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* A temporary file, already unlinked: its descriptor, or -1. */
static int temp_file(void)
{
	FILE *f = tmpfile();
	if (!f)
		return -1;
	int fd = dup(fileno(f));
	fclose(f);
	return fd;
}

/* Bytes [from, to) of file fd, appended to *sb. */
static void read_range(int fd, uint64_t from, uint64_t to, strbuf *sb, char *chunk)
{
	while (from < to) {
		size_t want = to - from < READ_CHUNK ? (size_t)(to - from) : READ_CHUNK;
		ssize_t got = pread(fd, chunk, want, (off_t)from);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return;
		sb_putn(sb, chunk, (size_t)got);
		from += (uint64_t)got;
	}
}

/* Start a worker for jobs [first, last).  False when no process could be
 * made: the first job is then marked crashed (and the caller re-queues the
 * others), so the run goes on. */
static bool start(const runner_limits *lim, const job_callbacks *cb, pool *pl, worker *w, int first, int last)
{
	worker *ws = pl->ws;
	int nw = pl->nw;
	job *jobs = pl->jobs;
	memset(w, 0, sizeof *w);
	w->status = w->out = w->err = -1;
	w->first = w->next = first;
	w->last = last;
	w->cur = -1;
	int p[2] = { -1, -1 };
	w->out = temp_file();
	w->err = temp_file();
	bool made = w->out >= 0 && w->err >= 0 && pipe(p) == 0;
	/* Nothing buffered may be inherited, or the worker would print it too. */
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = made ? fork() : -1;
	if (pid == 0) {
#ifdef __linux__
		/* A worker outlives a parent killed outright (SIGKILL, a
		 * test harness's timeout) and would run its test to the end
		 * for no one: it dies with the parent instead. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(125);
#else
		(void)parent;
#endif
		/* The other workers' descriptors are none of this one's business. */
		for (int k = 0; k < nw; k++)
			if (&ws[k] != w && ws[k].pid > 0) {
				close(ws[k].status);
				close(ws[k].out);
				close(ws[k].err);
			}
		close(p[0]);
		int out = w->out, err = w->err;
		live_counts *live = pl->live ? &pl->live[w - ws] : NULL;
		pl->live = NULL;   /* the worker's own from here: kept mapped */
		pool_free(pl);
		worker_main(lim, cb, first, last, out, err, p[1], live);
	}
	if (p[1] >= 0)
		close(p[1]);
	if (pid < 0) {
		if (p[0] >= 0)
			close(p[0]);
		close_fd(&w->out);
		close_fd(&w->err);
		job *j = &jobs[first];
		sb_printf(&j->err, "weft: cannot start a worker: %s\n", strerror(errno));
		j->started = j->done = true;
		j->end = JOB_CRASHED_EXIT;
		j->detail = 127;
		w->pid = 0;
		return false;
	}
	w->pid = pid;
	w->status = p[0];
	return true;
}

/* Parse the status records w has sent so far. */
static void parse_status(const runner_limits *lim, worker *w, job *jobs, char *chunk)
{
	size_t at = 0;
	for (;;) {
		if (w->in.len - at < sizeof(rec_head))
			break;
		rec_head h;
		memcpy(&h, w->in.s + at, sizeof h);
		if (h.kind == REC_START) {
			w->cur = h.job;
			jobs[h.job].started = true;
			w->deadline = lim->timeout > 0 ? progress_now() + lim->timeout : 0;
			at += sizeof h;
			continue;
		}
		if (w->in.len - at < sizeof h + sizeof(rec_end))
			break;
		rec_end e;
		memcpy(&e, w->in.s + at + sizeof h, sizeof e);
		if (w->in.len - at < sizeof h + sizeof e + e.notes_len)
			break;
		job *j = &jobs[h.job];
		j->rep = e.rep;
		j->reported = true;
		sb_putn(&j->notes, w->in.s + at + sizeof h + sizeof e, e.notes_len);
		read_range(w->out, w->out_at, e.out_at, &j->out, chunk);
		read_range(w->err, w->err_at, e.err_at, &j->err, chunk);
		w->out_at = e.out_at;
		w->err_at = e.err_at;
		j->end = JOB_FINISHED;
		/* the batch's last job is done when its worker has exited
		 * cleanly (reap): a finding at exit is reported after it */
		j->done = h.job != w->last - 1;
		w->next = h.job + 1;
		w->cur = -1;
		w->deadline = 0;
		at += sizeof h + sizeof e + e.notes_len;
	}
	if (at > 0) {
		memmove(w->in.s, w->in.s + at, w->in.len - at);
		w->in.len -= at;
	}
}

/* How the job a dead worker was running ended, from its wait status. */
static void classify(job *j, bool killed, int ws)
{
	if (killed) {
		j->end = JOB_TIMEOUT;
	} else if (WIFSIGNALED(ws)) {
		j->end = JOB_CRASHED_SIGNAL;
		j->detail = WTERMSIG(ws);
	} else if (WIFEXITED(ws) && WEXITSTATUS(ws) == 2) {
		/* Exit status 2 without a report: xmalloc's out-of-memory stop. */
		j->end = JOB_OUT_OF_MEMORY;
	} else {
		j->end = JOB_CRASHED_EXIT;
		j->detail = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
	}
}

/* j's tail: the last lines of what w wrote on stderr from offset `from`
 * on (a job's half output is dropped, but not the report of its death). */
static void keep_tail(const worker *w, uint64_t from, job *j, char *chunk)
{
	struct stat st;
	if (fstat(w->err, &st) != 0 || (uint64_t)st.st_size <= from)
		return;
	uint64_t end = (uint64_t)st.st_size;
	uint64_t start = end - from > TAIL_BYTES ? end - TAIL_BYTES : from;
	strbuf raw = { 0 };
	read_range(w->err, start, end, &raw, chunk);
	size_t len = raw.len;
	while (len > 0 && raw.s[len - 1] == '\n')
		len--;
	size_t at = len;
	for (int lines = 0; at > 0; at--)
		if (raw.s[at - 1] == '\n' && ++lines == TAIL_LINES)
			break;
	/* a line cut by TAIL_BYTES is left out, unless it is the only one */
	if (at == 0 && start > from) {
		const char *nl = memchr(raw.s, '\n', len);
		if (nl)
			at = (size_t)(nl - raw.s) + 1;
	}
	j->tail.len = 0;
	sb_putn(&j->tail, raw.s + at, len - at);
	sb_free(&raw);
}

/* Reap worker w (its status pipe is at EOF, so every record it sent has
 * been read).  The job it was in, if any, gets its record: killed at its
 * deadline, or died.  A worker that died between jobs is charged to the
 * job it was about to start; one that ended all its jobs and then exited
 * badly (e.g. a sanitizer's finding at exit) gets a record after its last
 * job's output.  Returns the first job of the batch that is to run again
 * (w->last if none): the caller gives them back to the queue. */
static int reap(worker *w, job *jobs, progress *pr, char *chunk)
{
	int ws = 0;
	while (waitpid(w->pid, &ws, 0) < 0 && errno == EINTR)
		;
	bool clean = WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
	int charged = -1, again = w->next;
	if (w->cur >= 0)
		charged = w->cur;
	else if (w->next < w->last && !clean && !w->killed)
		charged = w->next;
	if (charged >= 0) {
		job *j = &jobs[charged];
		j->out.len = 0;   /* half a block must not appear */
		j->err.len = 0;
		keep_tail(w, w->err_at, j, chunk);
		j->started = j->done = true;
		classify(j, w->killed, ws);
		again = charged + 1;
		if (pr)
			progress_finished(pr, true, false);
	} else if (w->next == w->last && w->next > w->first) {
		job *j = &jobs[w->next - 1];
		if (!clean && !w->killed) {
			classify(j, false, ws);
			keep_tail(w, w->err_at, j, chunk);
		}
		j->done = true;
	}
	close_fd(&w->out);
	close_fd(&w->err);
	sb_free(&w->in);
	w->pid = 0;
	return again;
}

static bool failed(const job *j)
{
	return j->end != JOB_FINISHED || j->rep.errors > 0 || j->rep.timeouts > 0;
}

/* Hand job i's output to the collect callback: what it printed, and the
 * abnormal record (written to a memory stream) after it. */
static void collect_output(const job_callbacks *cb, job *j, int i)
{
	strbuf out = { 0 };
	if (j->end == JOB_FINISHED || j->reported)
		sb_putn(&out, j->out.s ? j->out.s : "", j->out.len);
	if (j->end != JOB_FINISHED) {
		char *rec = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&rec, &len);
		if (mem) {
			cb->abnormal(cb->ctx, i, j->end, j->detail, mem);
			fclose(mem);
			sb_putn(&out, rec, len);
		}
		free(rec);
	}
	cb->collect(cb->ctx, i, out.s ? out.s : "", out.len);
	sb_free(&out);
}

/* Write job i's output and add it to the totals; free its buffers. */
static void emit(const job_callbacks *cb, job *j, int i, progress *pr, run_totals *t)
{
	if (j->err.len > 0) {
		if (pr)
			progress_clear(pr);
		fflush(stdout);
		if (cb->put_err)
			cb->put_err(cb->ctx, i, j->err.s, j->err.len);
		else
			fwrite(j->err.s, 1, j->err.len, stderr);
		fflush(stderr);
	}
	/* A job that did not finish may have printed half a block: its output
	 * was dropped, the record says what happened instead.  One that
	 * finished and whose worker then died keeps its output and gets the
	 * record after it. */
	if (cb->collect) {
		collect_output(cb, j, i);
	} else {
		if (j->end == JOB_FINISHED || j->reported)
			fwrite(j->out.s ? j->out.s : "", 1, j->out.len, stdout);
		if (j->end != JOB_FINISHED)
			cb->abnormal(cb->ctx, i, j->end, j->detail, stdout);
	}
	/* Each block as soon as it is whole: a log being watched grows test by
	 * test, and a reader that went away is noticed at once. */
	fflush(stdout);
	if (j->tail.len > 0) {
		if (pr)
			progress_clear(pr);
		fputs("weft: the worker's stderr ended with:\n", stderr);
		const char *p = j->tail.s, *end = j->tail.s + j->tail.len;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
			fprintf(stderr, "  | %.*s\n", (int)n, p);
			p += n + (nl != NULL);
		}
		fflush(stderr);
	}
	t->jobs++;
	t->sum.errors += j->rep.errors;
	t->sum.ok += j->rep.ok;
	t->sum.no += j->rep.no;
	t->sum.timeouts += j->rep.timeouts + (j->end == JOB_TIMEOUT);
	t->sum.mismatches += j->rep.mismatches;
	t->sum.compared += j->rep.compared;
	t->out_of_memory += j->end == JOB_OUT_OF_MEMORY;
	t->crashed += j->end == JOB_CRASHED_SIGNAL || j->end == JOB_CRASHED_EXIT;
	if (j->reported)
		sb_putn(&t->notes, j->notes.s ? j->notes.s : "", j->notes.len);
	if (j->reported && cb->reported)
		cb->reported(cb->ctx, i, &j->rep);
	sb_free(&j->out);
	sb_free(&j->err);
	sb_free(&j->notes);
	sb_free(&j->tail);
}

/* Milliseconds poll may sleep: until the nearest deadline, and not past the
 * next progress redraw. */
static int poll_timeout(const worker *ws, int nw, const progress *pr)
{
	double now = progress_now();
	double wait = pr && pr->enabled ? 0.1 : -1;
	for (int k = 0; k < nw; k++) {
		if (ws[k].pid == 0 || ws[k].killed || ws[k].deadline == 0)
			continue;
		double left = ws[k].deadline - now;
		if (left < 0)
			left = 0;
		if (wait < 0 || left < wait)
			wait = left;
	}
	return wait < 0 ? -1 : (int)(wait * 1000) + 1;
}

/* The reader of our output went away (`weft ... | head`): stop the workers
 * rather than leave them computing results no one will read. */
static void stop_all(worker *ws, int nw)
{
	for (int k = 0; k < nw; k++) {
		worker *w = &ws[k];
		if (w->pid > 0) {
			kill(w->pid, SIGKILL);
			close_fd(&w->status);
			while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
				;
			close_fd(&w->out);
			close_fd(&w->err);
			sb_free(&w->in);
			w->pid = 0;
		}
	}
}

/* Jobs not yet given to a worker: the consecutive jobs [head, n), and
 * before them the runs of jobs given back by workers that died before
 * starting them (at most one run a worker), earliest first. */
struct range {
	int first, last;
};

typedef struct queue {
	int head, n;
	int nback;
	range *back;   /* room for one run per worker */
} queue;

static int queue_left(const queue *q)
{
	int left = q->n - q->head;
	for (int i = 0; i < q->nback; i++)
		left += q->back[i].last - q->back[i].first;
	return left;
}

/* The next batch, up to `max` consecutive jobs, none from `limit` on. */
static bool queue_take(queue *q, int max, int limit, int *first, int *last)
{
	if (q->nback > 0) {
		range *r = &q->back[0];
		*first = r->first;
		*last = r->last - r->first > max ? r->first + max : r->last;
		r->first = *last;
		if (r->first == r->last) {
			memmove(q->back, q->back + 1, (size_t)(q->nback - 1) * sizeof *q->back);
			q->nback--;
		}
		return true;
	}
	if (q->head >= q->n || q->head >= limit)
		return false;
	*first = q->head;
	*last = q->n - q->head > max ? q->head + max : q->n;
	if (*last > limit)
		*last = limit;
	q->head = *last;
	return true;
}

static void queue_give_back(queue *q, int first, int last)
{
	if (first >= last)
		return;
	int at = q->nback;
	while (at > 0 && q->back[at - 1].first > first)
		at--;
	memmove(q->back + at + 1, q->back + at, (size_t)(q->nback - at) * sizeof *q->back);
	q->back[at] = (range){ first, last };
	q->nback++;
}

void runner_run(const runner_limits *lim, const job_callbacks *cb, int n, progress *pr, run_totals *t)
{
	memset(t, 0, sizeof *t);
	struct sigaction ignore, saved_pipe;
	memset(&ignore, 0, sizeof ignore);
	ignore.sa_handler = SIG_IGN;
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGPIPE, &ignore, &saved_pipe);
	pool pl = { 0 };
	pl.n = n;
	pl.nw = lim->workers > 0 ? lim->workers : 1;
	int nw = pl.nw;
	job *jobs = pl.jobs = xcalloc((size_t)(n > 0 ? n : 1), sizeof *jobs);
	worker *ws = pl.ws = xcalloc((size_t)nw, sizeof *ws);
	for (int k = 0; k < nw; k++)
		ws[k].status = ws[k].out = ws[k].err = -1;
	int window = nw * WINDOW_PER_WORKER;
	queue q = { 0, n, 0, pl.back = xcalloc((size_t)nw + 1, sizeof(range)) };
	int next_emit = 0;
	/* One more slot: our own stdout, watched for its reader going away. */
	struct pollfd *pfd = pl.pfd = xcalloc((size_t)nw + 1, sizeof *pfd);
	int *pfd_w = pl.pfd_w = xcalloc((size_t)nw + 1, sizeof *pfd_w);
	char *chunk = pl.chunk = xmalloc(READ_CHUNK);
	/* each worker's live counts, which the progress line shows for the
	 * test the output waits for */
	if (pr && pr->enabled) {
		void *m = mmap(NULL, (size_t)nw * sizeof *pl.live, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			       -1, 0);
		pl.live = m == MAP_FAILED ? NULL : m;
	}
	while (next_emit < n) {
		for (int k = 0; k < nw && queue_left(&q) > 0; k++) {
			if (ws[k].pid > 0)
				continue;
			/* Batches short enough to keep every worker busy to the
			 * end, and single jobs under -maxmem. */
			int size = queue_left(&q) / (nw * 4);
			if (size > BATCH_MAX)
				size = BATCH_MAX;
			if (size < 1 || lim->maxmem_mb > 0)
				size = 1;
			int first, last;
			if (!queue_take(&q, size, next_emit + window, &first, &last))
				break;
			if (!start(lim, cb, &pl, &ws[k], first, last)) {
				queue_give_back(&q, first + 1, last);
				if (pr)
					progress_finished(pr, true, false);
			}
		}
		int np = 0;
		for (int k = 0; k < nw; k++)
			if (ws[k].pid > 0 && ws[k].status >= 0) {
				pfd[np].fd = ws[k].status;
				pfd[np].events = POLLIN;
				pfd[np].revents = 0;
				pfd_w[np++] = k;
			}
		if (np > 0) {
			/* events 0: only POLLERR/POLLHUP, i.e. a pipe whose reader
			 * closed it (a file or terminal never reports them). */
			pfd[np].fd = STDOUT_FILENO;
			pfd[np].events = 0;
			pfd[np].revents = 0;
			int r = poll(pfd, (nfds_t)np + 1, poll_timeout(ws, nw, pr));
			if (r > 0 && (pfd[np].revents & (POLLERR | POLLHUP))) {
				t->output_closed = true;
				stop_all(ws, nw);
				break;
			}
			if (r < 0 && errno != EINTR) {
				perror("weft: poll");
				stop_all(ws, nw);
				break;
			}
			for (int k = 0; r > 0 && k < np; k++) {
				if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
					continue;
				worker *w = &ws[pfd_w[k]];
				ssize_t got = read(w->status, chunk, READ_CHUNK);
				if (got > 0)
					sb_putn(&w->in, chunk, (size_t)got);
				else if (got == 0 || errno != EINTR)
					close_fd(&w->status);
				int before = w->next;
				parse_status(lim, w, jobs, chunk);
				for (int i = before; pr && i < w->next; i++)
					progress_finished(pr, failed(&jobs[i]), jobs[i].rep.mismatches > 0);
			}
		}
		double now = progress_now();
		for (int k = 0; k < nw; k++) {
			worker *w = &ws[k];
			if (w->pid == 0)
				continue;
			if (w->status < 0) {
				int unstarted = reap(w, jobs, pr, chunk);
				queue_give_back(&q, unstarted, w->last);
			} else if (w->deadline > 0 && !w->killed && now >= w->deadline) {
				kill(w->pid, SIGKILL);
				w->killed = true;
			}
		}
		while (next_emit < n && jobs[next_emit].done) {
			emit(cb, &jobs[next_emit], next_emit, pr, t);
			next_emit++;
		}
		if (ferror(stdout)) {
			t->output_closed = true;
			stop_all(ws, nw);
			break;
		}
		if (pr) {
			/* The oldest test running is the one the output waits
			 * for: that is the one worth naming. */
			int oldest = next_emit;
			while (oldest < n && jobs[oldest].done)
				oldest++;
			if (oldest < n && jobs[oldest].started && cb->name)
				progress_started(pr, cb->name(cb->ctx, oldest));
			const live_counts *lc = NULL;
			for (int k = 0; k < nw && pl.live; k++)
				if (ws[k].pid > 0 && ws[k].cur == oldest)
					lc = &pl.live[k];
			progress_work(pr, lc ? lc->candidates : 0, lc ? lc->executions : 0);
			progress_tick(pr);
		}
	}
	if (pr)
		progress_clear(pr);
	fflush(stdout);
	sigaction(SIGPIPE, &saved_pipe, NULL);
	pool_free(&pl);
}
