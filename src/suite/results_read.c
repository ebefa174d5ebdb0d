/* results_read.c — saved results: files and folders in, a saved_set out
 * (the YAML and herd-log readers are results_yaml.c and results_herd.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results_int.h"

saved_result *saved_add(saved_set *s, int file)
{
	GROW(s->v, s->cap, (size_t)s->n + 1);
	saved_result *r = &s->v[s->n];
	memset(r, 0, sizeof *r);
	r->run = -1;
	r->file = file;
	r->order = s->n++;
	return r;
}

int saved_producer(saved_set *s, const char *text)
{
	/* a file's results mostly share one producer: the last is tried first */
	for (int i = s->n_producers - 1; i >= 0; i--)
		if (!strcmp(s->producers[i], text))
			return i;
	s->producers = xrealloc(s->producers, ((size_t)s->n_producers + 1) * sizeof *s->producers);
	s->producers[s->n_producers] = xstrdup(text);
	return s->n_producers++;
}

int saved_run_of(saved_set *s, const char *id, int selected, int shard_n, int n_models, char **models)
{
	for (int i = s->n_runs - 1; i >= 0; i--)
		if (!strcmp(s->runs[i].id, id))
			return i;
	s->runs = xrealloc(s->runs, ((size_t)s->n_runs + 1) * sizeof *s->runs);
	saved_run *r = &s->runs[s->n_runs];
	r->id = xstrdup(id);
	r->selected = selected;
	r->shard_n = shard_n;
	r->n_models = n_models;
	r->models = xcalloc((size_t)n_models + 1, sizeof *r->models);
	for (int k = 0; k < n_models; k++)
		r->models[k] = xstrdup(models[k]);
	r->rank = s->n_runs;
	return s->n_runs++;
}

static int add_file(saved_set *s, const char *name)
{
	s->files = xrealloc(s->files, ((size_t)s->n_files + 1) * sizeof *s->files);
	s->files[s->n_files] = xstrdup(name);
	return s->n_files++;
}

/* YAML when the first line that is not blank or a comment starts a
 * document (`---`, `%YAML`, or a `key:`); anything else is read as a herd
 * log (whose lines start `Test NAME`, never with a word and a colon). */
static bool looks_like_yaml(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		const char *q = p;
		while (q < stop && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < stop && *q != '#') {
			if (!strncmp(q, "---", 3) || !strncmp(q, "%YAML", 5))
				return true;
			/* a document without its "---": `key:` first */
			const char *k = q;
			while (k < stop && (*k == '_' || (*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z')))
				k++;
			return k > q && k < stop && *k == ':' && (k + 1 == stop || k[1] == ' ');
		}
		p = nl ? nl + 1 : end;
	}
	return false;
}

bool saved_read_text(saved_set *s, const char *name, const char *text, size_t len, diag *d)
{
	int file = add_file(s, name);
	int before = s->n;
	/* An empty file is the output of a shard that had no test (more shards
	 * than tests): nothing to read, and nothing missing. */
	size_t blank = 0;
	while (blank < len && (text[blank] == ' ' || text[blank] == '\t' || text[blank] == '\r' || text[blank] == '\n'))
		blank++;
	if (blank == len)
		return true;
	/* JSON starts with an object or an array; a herd log or YAML never does */
	bool ok = text[blank] == '{' || text[blank] == '[' ? saved_read_json(s, file, name, text, len, d)
		  : looks_like_yaml(text, len)               ? saved_read_yaml(s, file, text, len, d)
							     : saved_read_herd(s, file, text, len, d);
	if (ok && s->n == before) {
		diag_error(d, (srcloc){ name, 0, 0 }, "no saved results here: neither weft's -format yaml or json documents "
			   "nor herd result blocks (Test NAME ... Observation ...)");
		ok = false;
	}
	return ok;
}

static bool read_file(saved_set *s, const char *path, diag *d)
{
	size_t len;
	char *text = read_whole_file(path, &len, d);
	if (!text)
		return false;
	bool ok = saved_read_text(s, path, text, len, d);
	free(text);
	return ok;
}

/* Every *.yaml, *.yml, *.json, *.jsonl and *.log file below dir, sorted: the order only
 * matters for results without a run, and then it is deterministic. */
static bool read_dir(saved_set *s, const char *dir, diag *d)
{
	static const char *const saved[] = { ".yaml", ".yml", ".json", ".jsonl", ".log", NULL };
	path_list found = { 0 };
	bool ok = files_below(dir, saved, &found, d);
	if (found.n == 0 && ok) {
		diag_error(d, (srcloc){ dir, 0, 0 }, "no saved results here: no .yaml, .yml, .json, .jsonl or .log file below it");
		ok = false;
	}
	for (int i = 0; i < found.n; i++)
		ok = read_file(s, found.v[i], d) && ok;
	path_list_free(&found);
	return ok;
}

bool saved_read(saved_set *s, const char *path, diag *d)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return read_dir(s, path, d);
	return read_file(s, path, d);
}

void saved_result_free(saved_result *r)
{
	free(r->name);
	free(r->path);
	free(r->model);
	free(r->condition);
	free(r->states);
}

void saved_free(saved_set *s)
{
	for (int i = 0; i < s->n; i++)
		saved_result_free(&s->v[i]);
	free(s->v);
	for (int i = 0; i < s->n_files; i++)
		free(s->files[i]);
	free(s->files);
	for (int i = 0; i < s->n_producers; i++)
		free(s->producers[i]);
	free(s->producers);
	for (int i = 0; i < s->n_runs; i++) {
		free(s->runs[i].id);
		for (int k = 0; k < s->runs[i].n_models; k++)
			free(s->runs[i].models[k]);
		free(s->runs[i].models);
	}
	free(s->runs);
	memset(s, 0, sizeof *s);
}
