/* model_probe.c — a model evaluated once on a small test of each
 * architecture, so that errors only evaluation can see (a type error such
 * as `po & W`) are found by -check and before a run, and reported once.
 *
 * The probes are store buffering with a fence and a read-modify-write
 * between the two: events of every kind a model names (reads, writes,
 * fences, an rmw pair) in two threads.  A model's error that no such
 * execution reaches still shows at run time, once per test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models.h"
#include "../engine/engine.h"
#include "../litmus/litmus.h"

typedef struct probe {
	const char *arch;
	const char *text;
} probe;

static const probe probes[] = {
	{ "PPC",
	  "PPC probe\n"
	  "{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }\n"
	  " P0           | P1              ;\n"
	  " li r1,1      | li r1,1         ;\n"
	  " stw r1,0(r2) | stw r1,0(r2)    ;\n"
	  " sync         | lwsync          ;\n"
	  " lwz r3,0(r4) | lwarx r3,r0,r4  ;\n"
	  "              | stwcx. r1,r0,r4 ;\n"
	  "exists (0:r3=0 /\\ 1:r3=0)\n" },
	{ "X86",
	  "X86 probe\n"
	  "{ x=0; y=0; }\n"
	  " P0          | P1               ;\n"
	  " MOV [x],$1  | MOV [y],$1       ;\n"
	  " MFENCE      | MOV EAX,$1       ;\n"
	  " MOV EAX,[y] | XCHG [x],EAX     ;\n"
	  "exists (0:EAX=0 /\\ 1:EAX=0)\n" },
	{ "X86_64",
	  "X86_64 probe\n"
	  "{ x=0; y=0; }\n"
	  " P0             | P1             ;\n"
	  " movq $1,(x)    | movq $1,(y)    ;\n"
	  " mfence         | movq $1,%rax   ;\n"
	  " movq (y),%rax  | xchgq %rax,(x) ;\n"
	  "exists (0:rax=0 /\\ 1:rax=0)\n" },
	{ "RISCV",
	  "RISCV probe\n"
	  "{ 0:x6=x; 0:x8=y; 1:x6=y; 1:x8=x; }\n"
	  " P0                       | P1                 ;\n"
	  " ori x5,x0,1              | ori x5,x0,1        ;\n"
	  " sw.rl x5,0(x6)           | sw x5,0(x6)        ;\n"
	  " fence rw,rw              | lr.w.aq x7,0(x8)   ;\n"
	  " amoswap.w.aq x7,x5,(x8)  | sc.w x9,x5,0(x8)   ;\n"
	  "exists (0:x7=0 /\\ 1:x7=0)\n" },
	{ "AArch64",
	  "AArch64 probe\n"
	  "{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }\n"
	  " P0                | P1                ;\n"
	  " MOV W0,#1         | MOV W0,#1         ;\n"
	  " STLR W0,[X1]      | STR W0,[X1]       ;\n"
	  " DMB SY            | LDXR W2,[X3]      ;\n"
	  " SWPA W0,W2,[X3]   | STXR W4,W0,[X3]   ;\n"
	  "exists (0:X2=0 /\\ 1:X2=0)\n" },
};

static const probe *probe_of(const char *arch)
{
	for (size_t i = 0; arch && i < sizeof probes / sizeof probes[0]; i++)
		if (!strcmp(probes[i].arch, arch))
			return &probes[i];
	return NULL;
}

bool model_probe(cat_model *m, const char *arch, diag *d)
{
	const probe *p = probe_of(arch);
	if (!p)
		return true;
	diag quiet = { .drop = true };
	char *where = xasprintf("<weft's %s probe>", p->arch);
	litmus_test *t = litmus_parse_string(where, p->text, &quiet);
	free(where);
	if (!t)   /* weft's own probe: a bug here, not the model's */
		return true;
	engine_opts eo = { 0 };
	eo.unroll = ENGINE_UNROLL_DEFAULT;
	test_result r;
	bool ok = engine_run(NULL, t, m, &eo, &r, d);
	if (ok)
		test_result_free(&r);
	litmus_test_free(t);
	return ok;
}

bool model_probe_any(cat_model *m, diag *d)
{
	/* A model may be written for one architecture (its fence names), so
	 * one that evaluates on some probe is well typed; when none does, the
	 * first probe's errors say why. */
	strbuf first = { 0 };
	for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
		strbuf text = { 0 };
		diag captured = { .collect = &text };
		bool ok = model_probe(m, probes[i].arch, &captured);
		if (ok) {
			sb_free(&text);
			sb_free(&first);
			return true;
		}
		if (!first.s)
			first = text;
		else
			sb_free(&text);
	}
	diag_put_collected(d, first.s);
	d->errors++;
	sb_free(&first);
	return false;
}
