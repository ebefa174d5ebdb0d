/* provenance.h — what a saved result says produced it.
 *
 * Every document of `-format yaml` carries its run (weft's version, the
 * engine asked for, the options that change results, the -model labels,
 * how many tests were selected and which shard this is) and its model's
 * file and fingerprint.  A run's id is an MD5 over all of that except the
 * shard, plus the selected tests' names: every shard of one run has the
 * same id, and a run of other tests or under another producer has another.
 * `-results` reads these back to join shards and to refuse mixing
 * producers in one table column (suite.h, results).
 *
 * Ownership: a run_provenance owns its strings; it borrows the labels and
 * the model cache it was made from, which must outlive it.
 */
#ifndef WEFT_PROVENANCE_H
#define WEFT_PROVENANCE_H

#include "labels.h"
#include "models.h"
#include "options.h"
#include "select.h"
#include "../suite/suite.h"

typedef struct model_origin {
	const char *name;         /* the model's name in the run (borrowed) */
	char *file;               /* its file, absolute when it can be made so;
	                           * NULL: it did not load */
	char fingerprint[33];     /* cat_model_fingerprint; "" if not loaded */
} model_origin;

typedef struct run_provenance {
	doc_run_info info;       /* points into the fields below */
	char id[33];
	char *options;
	const char **labels;      /* the -model labels (borrowed strings) */
	int n_models;
	model_origin *models;     /* one per model of the run */
} run_provenance;

/* After the models are loaded (models not loaded are said to be so). */
void provenance_init(run_provenance *p, const weft_options *o, const test_plan *plan, const run_models *labels,
		     model_cache *c);
void provenance_free(run_provenance *p);
/* The origin of model `name` (a -model argument or a default model),
 * NULL when it is none of the run's. */
const model_origin *provenance_model(const run_provenance *p, const char *name);

#endif
