/* exec.h — candidate executions: events, and sets and relations over them.
 *
 * An engine builds a `struct execution` (events with their attributes plus the
 * primitive relations po, rf, co, addr, data, ctrl, rmw); the cat oracle reads
 * it and derives everything else (loc, int, ext, fr, W, R, ...).
 *
 * Sets and relations are bitsets sized at run time for the execution's event
 * count (no fixed 64-event limit).  A relation over n events is n rows of
 * `words` 64-bit words; row i holds the successors of event i.
 *
 * Ownership: every bset/brel owns its words; the *_free functions release
 * them.  A struct execution owns its events array and relations.
 */
#ifndef WEFT_EXEC_H
#define WEFT_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "../prog/prog.h"

/* ---- sets ------------------------------------------------------------- */

typedef struct bset {
	int n;          /* universe size (number of events) */
	int words;      /* (n + 63) / 64                     */
	uint64_t *w;
} bset;

bset bset_new(int n);                 /* empty */
bset bset_copy(const bset *s);
void bset_free(bset *s);
void bset_clear(bset *s);
static inline void bset_add(bset *s, int i)
{
	WEFT_ASSERT(i >= 0 && i < s->n);
	s->w[i >> 6] |= (uint64_t)1 << (i & 63);
}
static inline void bset_del(bset *s, int i)
{
	WEFT_ASSERT(i >= 0 && i < s->n);
	s->w[i >> 6] &= ~((uint64_t)1 << (i & 63));
}
static inline bool bset_has(const bset *s, int i)
{
	WEFT_ASSERT(i >= 0 && i < s->n);
	return (s->w[i >> 6] >> (i & 63)) & 1;
}
void bset_union(bset *dst, const bset *src);      /* dst |= src  */
void bset_inter(bset *dst, const bset *src);      /* dst &= src  */
void bset_diff(bset *dst, const bset *src);       /* dst &= ~src */
void bset_complement(bset *s);
bool bset_empty(const bset *s);
bool bset_equal(const bset *a, const bset *b);
int bset_count(const bset *s);
/* Next member >= from, or -1. */
int bset_next(const bset *s, int from);
#define BSET_FOREACH(i, s) for (int i = bset_next((s), 0); i >= 0; i = bset_next((s), i + 1))

/* ---- relations -------------------------------------------------------- */

typedef struct brel {
	int n;
	int words;
	uint64_t *w;    /* n rows of `words` words */
} brel;

brel brel_new(int n);                 /* empty */
brel brel_copy(const brel *r);
void brel_free(brel *r);
void brel_clear(brel *r);
static inline uint64_t *brel_row(const brel *r, int i)
{
	WEFT_ASSERT(i >= 0 && i < r->n);
	return r->w + (size_t)i * r->words;
}
static inline void brel_add(brel *r, int i, int j)
{
	WEFT_ASSERT(j >= 0 && j < r->n);
	brel_row(r, i)[j >> 6] |= (uint64_t)1 << (j & 63);
}
static inline void brel_del(brel *r, int i, int j)
{
	WEFT_ASSERT(j >= 0 && j < r->n);
	brel_row(r, i)[j >> 6] &= ~((uint64_t)1 << (j & 63));
}
static inline bool brel_has(const brel *r, int i, int j)
{
	WEFT_ASSERT(j >= 0 && j < r->n);
	return (brel_row(r, i)[j >> 6] >> (j & 63)) & 1;
}
void brel_union(brel *dst, const brel *src);
void brel_inter(brel *dst, const brel *src);
void brel_diff(brel *dst, const brel *src);
void brel_complement(brel *r);
brel brel_seq(const brel *a, const brel *b);      /* a ; b            */
brel brel_inverse(const brel *r);
brel brel_identity(int n);
brel brel_id_on(const bset *s);                   /* [S]              */
brel brel_product(const bset *a, const bset *b);  /* A * B            */
void brel_transitive_closure(brel *r);            /* r := r+          */
void brel_reflexive_closure(brel *r);             /* r := r | id      */
bool brel_empty(const brel *r);
bool brel_equal(const brel *a, const brel *b);
bool brel_irreflexive(const brel *r);
bool brel_acyclic(const brel *r);
bset brel_domain(const brel *r);
bset brel_range(const brel *r);
int brel_count(const brel *r);
/* A shortest cycle of r as a list of events (returns its length, 0 if r is
 * acyclic); `cycle` must hold r->n entries. */
int brel_find_cycle(const brel *r, int *cycle);

/* ---- low-level kernels on raw words ---------------------------------------
 * For callers that manage their own storage (the cat evaluator keeps its
 * values in an arena).  A set over n events is (n + 63) / 64 = `words` words;
 * a relation is n rows of `words` words.  Bits at positions >= n are zero and
 * every kernel keeps them so.  "dst" never aliases an input. */
static inline int bits_popcount(uint64_t x)
{
	/* Portable popcount (no compiler builtins): the classic SWAR sum. */
	x = x - ((x >> 1) & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* Index of the lowest set bit of x != 0: the lowest bit isolated, times a
 * de Bruijn constant, names it in the top six bits.  Inline: the relation
 * kernels call it once per bit. */
static inline int bits_ctz(uint64_t x)
{
	static const unsigned char pos[64] = {
		0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
		62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
		63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
		46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
	};
	return pos[((x & (~x + 1)) * 0x03f79d71b4cb0a89ULL) >> 58];
}
uint64_t bits_last_word_mask(int n);              /* valid bits of the last word */
int bits_next(const uint64_t *w, int n, int from); /* next member >= from, or -1 */
void rel_seq_raw(uint64_t *dst, const uint64_t *a, const uint64_t *b, int n, int words);
void rel_inverse_raw(uint64_t *dst, const uint64_t *src, int n, int words);
void rel_closure_raw(uint64_t *r, int n, int words);        /* in place: r+ */
void rel_reflexive_raw(uint64_t *r, int n, int words);      /* in place: r | id */
void rel_complement_raw(uint64_t *r, int n, int words);     /* in place */
bool rel_irreflexive_raw(const uint64_t *r, int n, int words);
/* `scratch` must hold `words` words. */
bool rel_acyclic_raw(const uint64_t *r, int n, int words, uint64_t *scratch);
void rel_product_raw(uint64_t *dst, const uint64_t *a, const uint64_t *b, int n, int words);
void rel_id_on_raw(uint64_t *dst, const uint64_t *s, int n, int words);
void rel_domain_raw(uint64_t *set, const uint64_t *r, int n, int words);
void rel_range_raw(uint64_t *set, const uint64_t *r, int n, int words);
/* As brel_find_cycle. */
int rel_find_cycle_raw(const uint64_t *r, int n, int words, int *cycle);

/* ---- events and executions ---------------------------------------------- */

enum event_kind {
	EV_WRITE,
	EV_READ,
	EV_FENCE,
	EV_BRANCH,
	/* herd's Variant=vmsa (prog.h's vmsa section): */
	EV_FAULT,  /* an access the translation refused: loc is the virtual
	            * location accessed, val.num its enum vmsa_fault; the
	            * thread has no event after it.  In herd's FAULT and MMU
	            * (and Translation, AccessFlag or Permission)           */
	EV_TLBI,   /* a TLB invalidation: loc the data location whose page it
	            * invalidates, -1 for the ALL forms; fence its operation
	            * as written ("VAAE1IS"): herd's TLBI, TLBIIS (operations
	            * ending in IS), TLBInXS (the nXS forms)               */
};

enum event_flag {
	EVF_INIT = 1u << 0,   /* IW: the initial write of a location       */
	EVF_ATOMIC = 1u << 1, /* X                                          */
	EVF_EXCL = 1u << 2,   /* EX                                         */
	EVF_IMP = 1u << 3,    /* an implicit access (herd's Imp, NExp): vmsa's
	                       * translation read of a PTE (TTD), ifetch's
	                       * fetch of an instruction (Instr)             */
	EVF_COMMIT = 1u << 4, /* EV_BRANCH: a translation's commit (vmsa) or
	                       * a fetched instruction's (ifetch): herd's B
	                       * but not BCC                                 */
	EVF_SCA = 1u << 5,    /* an access of an ACC_SCA op (prog.h): its
	                       * instance's EVF_SCA accesses are one single-
	                       * copy-atomic class (sm, si)                  */
	EVF_NO_RMW = 1u << 6, /* an access of an ACC_NO_RMW op: in no rmw pair */
};

typedef struct event {
	enum event_kind kind;
	int thread;         /* thread index; -1 for initial writes         */
	int instr;          /* source instruction index in the thread, -1 */
	int op;             /* op index in the thread, -1 for init writes   */
	int po_index;       /* position among the thread's events            */
	int instance;       /* which execution of instr (a loop runs one
	                     * instruction several times): events of one
	                     * (thread, instr, instance) are one instance,
	                     * not po-related; 0 when instructions run once */
	int loc;            /* memory location, -1 for fences and branches  */
	value val;          /* value read or written                        */
	unsigned flags;     /* enum event_flag                              */
	const char *fence;  /* EV_FENCE: the fence set name                 */
} event;

/* herd's dependency relations as its `catdep` models define them
 * (aarch64deps.cat: data, addr, ctrl and the pick-* relations, from
 * herd's register events and intra-instruction edges), projected on the
 * events weft builds.  The engines compute them by taint tracking through
 * registers and through memory (lrs: a read after a po-earlier write of
 * its location carries what that write depends on); see
 * src/engine/thread_interp.h.  XD_PICK_BASIC is pick-basic-dep restricted
 * to memory and branch events. */
enum herd_dep {
	XD_ADDR, XD_DATA, XD_CTRL, XD_PICK_ADDR, XD_PICK_DATA, XD_PICK_CTRL, XD_PICK_BASIC, XD_N
};
/* The name a catdep model gives relation k (aarch64deps.cat). */
const char *herd_dep_name(int k);

/* One candidate execution.  Initial writes are events too (one per memory
 * location, flag EVF_INIT, thread -1).  Relations are over event indices. */
typedef struct execution {
	const litmus_test *test;
	int n;
	event *ev;
	brel po;      /* program order (strict, per thread, transitive)      */
	brel rf;      /* write -> read it reads from                          */
	brel co;      /* per location, strict total order, init write first  */
	brel addr, data, ctrl;
	brel rmw;     /* read -> write of one atomic instruction, or a
	               * lwarx -> stwcx. pair that succeeded                 */
	bool has_herd_deps;   /* hd[] is built (the architecture asks) */
	brel hd[XD_N];
	/* The order in which C's spin_lock takes each lock: per lock location,
	 * its initial write, then its lock writes (herd's LKW, fences here) in
	 * the order they took it.  Herd's lock.cat chooses it in the model
	 * (`with co from` over W | LKW); an engine or the session may choose it
	 * instead, and the model then keeps only the coherence orders that
	 * agree with it (cat_eval.c).  w == NULL: none chosen. */
	brel lock_co;
} execution;

/* herd's -variant mixed (prog.h's mixed_split): whether read r1 taking
 * from write w1 and read r2 from w2 is a reads-from herd builds, pairing a
 * read access with the write accesses that cover it, smallest first, each
 * taken for every granule of the read it has that no smaller write gave
 * (mem.ml's find_rfs_sca; an initial write is one access per location);
 * reads of different accesses always agree.  mixed_access.c */
bool execution_mixed_rf_pair_ok(const execution *x, int r1, int w1, int r2, int w2);
/* Whether x's co orders two write accesses one way on every
 * granule both write, as herd's coherence of whole accesses does. */
bool execution_mixed_co_ok(const execution *x);

/* Allocate an execution with room for n events, all relations empty. */
void execution_init(execution *x, const litmus_test *t, int n);
void execution_free(execution *x);
/* Allocate x->hd (empty) and set has_herd_deps. */
void execution_init_herd_deps(execution *x);
/* Allocate x->lock_co (empty). */
void execution_init_lock_co(execution *x);

#endif
