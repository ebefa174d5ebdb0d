/* runner.c — a pool of forked workers with ordered output. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "progress.h"
#include "runner.h"

/* The parent reads and keeps at most this many jobs ahead of the first one
 * not yet written, so a slow early test cannot make the parent buffer the
 * output of the whole suite. */
enum { WINDOW_PER_WORKER = 64, READ_CHUNK = 65536 };

/* A job's three pipes: what it prints, what it reports, and its report. */
enum { PIPE_OUT, PIPE_ERR, PIPE_STATUS, N_PIPES };

typedef struct job {
	pid_t pid;          /* 0: not started */
	int fd[N_PIPES];    /* read ends, -1 once at EOF */
	strbuf buf[N_PIPES];
	double deadline;    /* 0: none */
	bool killed;        /* we sent SIGKILL at the deadline */
	bool done;          /* reaped */
	enum job_end end;
	int detail;
	job_report rep;
} job;

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

static bool write_all(int fd, const char *p, size_t n)
{
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

/* The worker's side: never returns. */
static void worker(const runner_limits *lim, const job_callbacks *cb, int i, int out, int err,
		   int status)
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
	job_report rep = { 0 };
	strbuf notes = { 0 };
	cb->run(cb->ctx, i, &rep, &notes);
	fflush(stdout);
	fflush(stderr);
	/* The report is what tells the parent the job finished: send it last. */
	if (!write_all(status, (const char *)&rep, sizeof rep) ||
	    (notes.len > 0 && !write_all(status, notes.s, notes.len)))
		_exit(126);
	sb_free(&notes);
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

/* Start job i (jobs first_open..i-1 may have pipes open).  Returns false
 * when no process could be made: the job is then marked crashed, so the run
 * goes on. */
static bool start(const runner_limits *lim, const job_callbacks *cb, job *jobs, int first_open, int i)
{
	job *j = &jobs[i];
	int p[N_PIPES][2];
	int made = 0;
	for (; made < N_PIPES; made++)
		if (pipe(p[made]) != 0)
			break;
	/* Nothing buffered may be inherited, or the worker would print it too. */
	fflush(stdout);
	fflush(stderr);
	pid_t pid = made == N_PIPES ? fork() : -1;
	if (pid == 0) {
		/* The other jobs' pipes are none of this worker's business. */
		for (int k = first_open; k < i; k++)
			for (int f = 0; f < N_PIPES; f++)
				if (jobs[k].fd[f] >= 0)
					close(jobs[k].fd[f]);
		for (int f = 0; f < N_PIPES; f++)
			close(p[f][0]);
		worker(lim, cb, i, p[PIPE_OUT][1], p[PIPE_ERR][1], p[PIPE_STATUS][1]);
	}
	for (int f = 0; f < made; f++) {
		close(p[f][1]);
		if (pid < 0)
			close(p[f][0]);
		else
			j->fd[f] = p[f][0];
	}
	if (pid < 0) {
		sb_printf(&j->buf[PIPE_ERR], "weft: cannot start a worker: %s\n", strerror(errno));
		j->done = true;
		j->end = JOB_CRASHED_EXIT;
		j->detail = 127;
		return false;
	}
	j->pid = pid;
	j->deadline = lim->timeout > 0 ? progress_now() + lim->timeout : 0;
	return true;
}

/* Decide how a reaped job ended, from its report and its wait status. */
static void classify(job *j, int ws)
{
	bool reported = j->buf[PIPE_STATUS].len >= sizeof(job_report);
	if (reported)
		memcpy(&j->rep, j->buf[PIPE_STATUS].s, sizeof j->rep);
	bool clean_exit = WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
	if (reported && (clean_exit || j->killed)) {
		/* Killed after it had finished (e.g. while a sanitizer checked
		 * for leaks): its output is whole, so it counts as finished. */
		j->end = JOB_FINISHED;
	} else if (j->killed) {
		j->end = JOB_TIMEOUT;
	} else if (WIFSIGNALED(ws)) {
		j->end = JOB_CRASHED_SIGNAL;
		j->detail = WTERMSIG(ws);
	} else if (!reported && WIFEXITED(ws) && WEXITSTATUS(ws) == 2) {
		/* Exit status 2 without a report: xmalloc's out-of-memory stop. */
		j->end = JOB_OUT_OF_MEMORY;
	} else {
		j->end = JOB_CRASHED_EXIT;
		j->detail = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
	}
	if (!reported)
		memset(&j->rep, 0, sizeof j->rep);
}

static void reap(job *j)
{
	int ws = 0;
	while (waitpid(j->pid, &ws, 0) < 0 && errno == EINTR)
		;
	classify(j, ws);
	j->done = true;
}

static bool failed(const job *j)
{
	return j->end != JOB_FINISHED || j->rep.errors > 0 || j->rep.timeouts > 0;
}

/* Hand job i's output to the collect callback: what it printed, and the
 * abnormal record (written to a memory stream) after it. */
static void collect_output(const job_callbacks *cb, job *j, int i, bool reported)
{
	strbuf out = { 0 };
	if (j->end == JOB_FINISHED || reported)
		sb_putn(&out, j->buf[PIPE_OUT].s ? j->buf[PIPE_OUT].s : "", j->buf[PIPE_OUT].len);
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
	if (j->buf[PIPE_ERR].len > 0) {
		if (pr)
			progress_clear(pr);
		fflush(stdout);
		fwrite(j->buf[PIPE_ERR].s, 1, j->buf[PIPE_ERR].len, stderr);
		fflush(stderr);
	}
	/* A job that did not finish may have printed half a block: drop it, the
	 * record says what happened instead.  One that finished and then died
	 * keeps its output and gets the record after it. */
	bool reported = j->buf[PIPE_STATUS].len >= sizeof(job_report);
	if (cb->collect) {
		collect_output(cb, j, i, reported);
	} else {
		if (j->end == JOB_FINISHED || reported)
			fwrite(j->buf[PIPE_OUT].s ? j->buf[PIPE_OUT].s : "", 1, j->buf[PIPE_OUT].len, stdout);
		if (j->end != JOB_FINISHED)
			cb->abnormal(cb->ctx, i, j->end, j->detail, stdout);
	}
	/* Each block as soon as it is whole: a log being watched grows test by
	 * test, and a reader that went away is noticed at once. */
	fflush(stdout);
	t->jobs++;
	t->sum.errors += j->rep.errors;
	t->sum.ok += j->rep.ok;
	t->sum.no += j->rep.no;
	t->sum.timeouts += j->rep.timeouts + (j->end == JOB_TIMEOUT);
	t->sum.mismatches += j->rep.mismatches;
	t->out_of_memory += j->end == JOB_OUT_OF_MEMORY;
	t->crashed += j->end == JOB_CRASHED_SIGNAL || j->end == JOB_CRASHED_EXIT;
	if (reported)
		sb_putn(&t->notes, j->buf[PIPE_STATUS].s + sizeof(job_report),
			j->buf[PIPE_STATUS].len - sizeof(job_report));
	for (int f = 0; f < N_PIPES; f++)
		sb_free(&j->buf[f]);
}

static bool all_closed(const job *j)
{
	for (int f = 0; f < N_PIPES; f++)
		if (j->fd[f] >= 0)
			return false;
	return true;
}

/* Milliseconds poll may sleep: until the nearest deadline, and not past the
 * next progress redraw. */
static int poll_timeout(const job *jobs, int from, int to, const progress *pr)
{
	double now = progress_now();
	double wait = pr && pr->enabled ? 0.1 : -1;
	for (int i = from; i < to; i++) {
		if (jobs[i].pid == 0 || jobs[i].done || jobs[i].killed || jobs[i].deadline == 0)
			continue;
		double left = jobs[i].deadline - now;
		if (left < 0)
			left = 0;
		if (wait < 0 || left < wait)
			wait = left;
	}
	return wait < 0 ? -1 : (int)(wait * 1000) + 1;
}

/* Read what the ready pipes hold; a pipe at EOF is closed. */
static void read_ready(job *jobs, const struct pollfd *pfd, const int *pfd_job, int np, char *chunk)
{
	for (int k = 0; k < np; k++) {
		if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
			continue;
		job *j = &jobs[pfd_job[k] / N_PIPES];
		int f = pfd_job[k] % N_PIPES;
		ssize_t got = read(j->fd[f], chunk, READ_CHUNK);
		if (got > 0)
			sb_putn(&j->buf[f], chunk, (size_t)got);
		else if (got == 0 || errno != EINTR)
			close_fd(&j->fd[f]);
	}
}

/* Reap the jobs of from..to-1 whose pipes are all at EOF, kill those past
 * their deadline.  Returns the number reaped. */
static int reap_or_kill(job *jobs, int from, int to, progress *pr)
{
	int reaped = 0;
	double now = progress_now();
	for (int i = from; i < to; i++) {
		job *j = &jobs[i];
		if (j->pid == 0 || j->done)
			continue;
		if (all_closed(j)) {
			reap(j);
			reaped++;
			if (pr)
				progress_finished(pr, failed(j), j->rep.mismatches > 0);
		} else if (j->deadline > 0 && !j->killed && now >= j->deadline) {
			kill(j->pid, SIGKILL);
			j->killed = true;
		}
	}
	return reaped;
}

/* The reader of our output went away (`weft ... | head`): stop the workers
 * rather than leave them computing results no one will read. */
static void stop_all(job *jobs, int from, int to)
{
	for (int i = from; i < to; i++) {
		job *j = &jobs[i];
		if (j->pid > 0 && !j->done) {
			kill(j->pid, SIGKILL);
			for (int f = 0; f < N_PIPES; f++)
				close_fd(&j->fd[f]);
			while (waitpid(j->pid, NULL, 0) < 0 && errno == EINTR)
				;
			j->done = true;
		}
		for (int f = 0; f < N_PIPES; f++)
			sb_free(&j->buf[f]);
	}
}

void runner_run(const runner_limits *lim, const job_callbacks *cb, int n, progress *pr, run_totals *t)
{
	memset(t, 0, sizeof *t);
	struct sigaction ignore, saved_pipe;
	memset(&ignore, 0, sizeof ignore);
	ignore.sa_handler = SIG_IGN;
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGPIPE, &ignore, &saved_pipe);
	job *jobs = xcalloc((size_t)(n > 0 ? n : 1), sizeof *jobs);
	for (int i = 0; i < n; i++)
		for (int f = 0; f < N_PIPES; f++)
			jobs[i].fd[f] = -1;
	int workers = lim->workers > 0 ? lim->workers : 1;
	int window = workers * WINDOW_PER_WORKER;
	int next_start = 0, next_emit = 0, running = 0;
	/* One more slot: our own stdout, watched for its reader going away. */
	struct pollfd *pfd = xcalloc((size_t)workers * N_PIPES + 1, sizeof *pfd);
	int *pfd_job = xcalloc((size_t)workers * N_PIPES + 1, sizeof *pfd_job);
	char *chunk = xmalloc(READ_CHUNK);
	while (next_emit < n) {
		while (running < workers && next_start < n && next_start < next_emit + window) {
			int i = next_start++;
			if (start(lim, cb, jobs, next_emit, i))
				running++;
			else if (pr)
				progress_finished(pr, true, false);
		}
		int np = 0;
		for (int i = next_emit; i < next_start; i++)
			for (int f = 0; f < N_PIPES; f++)
				if (jobs[i].fd[f] >= 0) {
					pfd[np].fd = jobs[i].fd[f];
					pfd[np].events = POLLIN;
					pfd[np].revents = 0;
					pfd_job[np++] = i * N_PIPES + f;
				}
		if (np > 0) {
			/* events 0: only POLLERR/POLLHUP, i.e. a pipe whose reader
			 * closed it (a file or terminal never reports them). */
			pfd[np].fd = STDOUT_FILENO;
			pfd[np].events = 0;
			pfd[np].revents = 0;
			int r = poll(pfd, (nfds_t)np + 1, poll_timeout(jobs, next_emit, next_start, pr));
			if (r > 0 && (pfd[np].revents & (POLLERR | POLLHUP))) {
				t->output_closed = true;
				stop_all(jobs, next_emit, next_start);
				break;
			}
			if (r < 0 && errno != EINTR) {
				perror("weft: poll");
				stop_all(jobs, next_emit, next_start);
				break;
			}
			if (r > 0)
				read_ready(jobs, pfd, pfd_job, np, chunk);
		}
		running -= reap_or_kill(jobs, next_emit, next_start, pr);
		while (next_emit < n && jobs[next_emit].done) {
			emit(cb, &jobs[next_emit], next_emit, pr, t);
			next_emit++;
		}
		if (ferror(stdout)) {
			t->output_closed = true;
			stop_all(jobs, next_emit, next_start);
			break;
		}
		if (pr) {
			/* The oldest test still running is the one the output
			 * waits for: that is the one worth naming. */
			int oldest = next_emit;
			while (oldest < next_start && jobs[oldest].done)
				oldest++;
			if (oldest < next_start && cb->name)
				progress_started(pr, cb->name(cb->ctx, oldest));
			progress_tick(pr);
		}
	}
	if (pr)
		progress_clear(pr);
	fflush(stdout);
	sigaction(SIGPIPE, &saved_pipe, NULL);
	free(chunk);
	free(pfd_job);
	free(pfd);
	free(jobs);
}
